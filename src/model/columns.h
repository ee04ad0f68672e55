/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The screen's table columns in display order: PID USER S CPU%, one per
 * delay category (from categories[]), TOTAL, COMMAND. The table, the
 * sort keys < and > walk, mouse clicks and the help all read this.
 */
#ifndef STALLTOP_COLUMNS_H
#define STALLTOP_COLUMNS_H

#include <stdbool.h>

#include "model/categories.h"

enum col_id {
	COL_PID,
	COL_USER,
	COL_STATE,
	COL_CPU_PCT,
	COL_CAT,                    /* COL_CAT + c for category c */
	COL_TOTAL = COL_CAT + NCAT,
	COL_COMMAND,
	NCOL
};

struct column {
	const char *header;  /* "PID", "CPU", ... (not translated) */
	int sort;            /* enum sort_key / category, or -1: not sortable */
	int width;           /* cells; 0 for COMMAND (takes the rest) */
	bool left;           /* left-aligned */
	const char *help;    /* N_() text */
};

const struct column *column_get(int id);

/* The column that a sort key sorts by, or -1. */
int column_by_sort(int sort);

/* The next sortable column's sort key left (dir < 0) or right of sort. */
int column_sort_step(int sort, int dir);

/*
 * The cgroup view's columns in display order: each cgroup's own cpu,
 * memory and io pressure (the interval's some share and avg10), the
 * delay categories and TOTAL summed over its processes, NR, PATH. Every
 * one of them sorts (by its own id); .sort is the process view's sort key
 * of the same figure, or -1.
 */
enum cgcol_id {
	CGCOL_CPU_P,
	CGCOL_CPU_10,
	CGCOL_MEM_P,
	CGCOL_MEM_10,
	CGCOL_IO_P,
	CGCOL_IO_10,
	CGCOL_CAT,                       /* CGCOL_CAT + c for category c */
	CGCOL_TOTAL = CGCOL_CAT + NCAT,
	CGCOL_NR,
	CGCOL_PATH,
	NCGCOL
};

const struct column *cgcolumn_get(int id);

/* The cgroup column showing what a process sort key sorts by, or -1. */
int cgcolumn_by_sort(int sort);

#endif
