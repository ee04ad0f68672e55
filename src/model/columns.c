/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The screen's table columns, categories taken from categories[]. */
#include <config.h>

#include "lib/nls.h"
#include "model/columns.h"
#include "model/select.h"

#define NUM_WIDTH 8

static const struct column fixed[] = {
	[COL_PID] = { "PID", SORT_PID, 7, false,
		N_("process id (thread id in thread rows)") },
	[COL_USER] = { "USER", -1, 8, true, N_("owner of the task") },
	[COL_STATE] = { "S", -1, 1, true,
		N_("state: R running, S sleeping, D uninterruptible, Z zombie...") },
	[COL_CPU_PCT] = { "CPU%", SORT_CPU_PCT, 6, false,
		/* xgettext:no-c-format */
		N_("CPU use, % of one CPU") },
	[COL_TOTAL] = { "TOTAL", SORT_TOTAL, NUM_WIDTH, false,
		/* xgettext:no-c-format */
		N_("CPU + IRQ + the largest other delay column, % of the "
		   "interval (nested waits count once)") },
	[COL_COMMAND] = { "COMMAND", SORT_COMM, 0, true,
		N_("process or thread name, or the command line (c)") },
};

const struct column *column_get(int id)
{
	static struct column cats[NCAT];
	if (id < 0 || id >= NCOL)
		return NULL;
	if (id < COL_CAT || id >= COL_TOTAL)
		return &fixed[id];
	int c = id - COL_CAT;
	if (!cats[c].header)
		cats[c] = (struct column){ categories[c].header, c, NUM_WIDTH,
					   false, categories[c].help };
	return &cats[c];
}

static const struct column cgfixed[] = {
	[CGCOL_CPU_P] = { "CPU.P%", -1, 6, false,
		/* xgettext:no-c-format */
		N_("the cgroup's cpu pressure: some, % of the interval") },
	[CGCOL_CPU_10] = { "CPU.10", -1, 6, false,
		N_("the cgroup's cpu pressure: some, avg10") },
	[CGCOL_MEM_P] = { "MEM.P%", -1, 6, false,
		/* xgettext:no-c-format */
		N_("the cgroup's memory pressure: some, % of the interval") },
	[CGCOL_MEM_10] = { "MEM.10", -1, 6, false,
		N_("the cgroup's memory pressure: some, avg10") },
	[CGCOL_IO_P] = { "IO.P%", -1, 6, false,
		/* xgettext:no-c-format */
		N_("the cgroup's io pressure: some, % of the interval") },
	[CGCOL_IO_10] = { "IO.10", -1, 6, false,
		N_("the cgroup's io pressure: some, avg10") },
	[CGCOL_TOTAL] = { "TOTAL", SORT_TOTAL, NUM_WIDTH, false,
		N_("TOTAL summed over the cgroup's tasks and below") },
	[CGCOL_NR] = { "NR", -1, 5, false,
		N_("tasks in the cgroup and below") },
	[CGCOL_PATH] = { "PATH", -1, 0, true,
		N_("the cgroup, indented below its parent; + folded, - unfolded") },
};

const struct column *cgcolumn_get(int id)
{
	if (id < 0 || id >= NCGCOL)
		return NULL;
	if (id >= CGCOL_CAT && id < CGCOL_TOTAL)
		return column_get(COL_CAT + id - CGCOL_CAT);
	return &cgfixed[id];
}

int cgcolumn_by_sort(int sort)
{
	if (sort >= 0 && sort < NCAT)
		return CGCOL_CAT + sort;
	return sort == SORT_TOTAL ? CGCOL_TOTAL : -1;
}

int column_by_sort(int sort)
{
	for (int i = 0; i < NCOL; i++)
		if (column_get(i)->sort == sort)
			return i;
	return -1;
}

int column_sort_step(int sort, int dir)
{
	int col = column_by_sort(sort);
	if (col < 0)
		col = COL_TOTAL;
	for (int i = col + dir; i >= 0 && i < NCOL; i += dir)
		if (column_get(i)->sort >= 0)
			return column_get(i)->sort;
	return sort;
}
