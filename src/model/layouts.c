/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The layouts: which fields (fields.c) each view and format shows, in
 * order; a new column is an id in the lists that show it.
 */
#include <config.h>

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "model/fields.h"
#include "model/layouts.h"

/* ---- the layouts; CATS stands for every category in order ---- */

#define CATS (-1)

static const int tasks_layout[] = {
	FIELD_PID, FIELD_USER, FIELD_STATE, FIELD_CPU_PCT, CATS, FIELD_TOTAL,
	FIELD_COMM,
};
/* the screen shows the FIELD_OFF ones when chosen (F2); text shows all */
static const int screen_layout[] = {
	FIELD_PID, FIELD_USER, FIELD_STATE, FIELD_CPU_PCT, CATS, FIELD_TOTAL,
	FIELD_NICE, FIELD_RSS, FIELD_SWAP, FIELD_IO_READ, FIELD_IO_WRITE,
	FIELD_MAJFLT, FIELD_WCHAN, FIELD_CGNAME, FIELD_WHY, FIELD_COMM,
};
static const int cgroups_layout[] = {
	FIELD_CG_CPU_P, FIELD_CG_CPU_10, FIELD_CG_MEM_P, FIELD_CG_MEM_10,
	FIELD_CG_IO_P, FIELD_CG_IO_10, CATS, FIELD_TOTAL, FIELD_CG_NR,
	FIELD_CG_NAME, FIELD_CG_PATH,
};
static const int cgroups_screen_layout[] = {
	FIELD_CG_CPU_P, FIELD_CG_CPU_10, FIELD_CG_MEM_P, FIELD_CG_MEM_10,
	FIELD_CG_IO_P, FIELD_CG_IO_10, CATS, FIELD_TOTAL, FIELD_CG_NR,
	FIELD_WHY, FIELD_CG_NAME,
};
static const int cgroups_text_layout[] = {
	FIELD_CG_CPU_P, FIELD_CG_CPU_10, FIELD_CG_MEM_P, FIELD_CG_MEM_10,
	FIELD_CG_IO_P, FIELD_CG_IO_10, CATS, FIELD_TOTAL, FIELD_CG_NR,
	FIELD_WHY, FIELD_CG_NAME, FIELD_CG_PATH,
};
static const int csv_layout[] = {
	FIELD_PID, FIELD_TGID, FIELD_PPID, FIELD_USER, FIELD_STATE,
	FIELD_THREADS, FIELD_CPU_PCT, FIELD_DELAY, FIELD_TOTAL, FIELD_DROPPED,
	FIELD_EXITED, FIELD_COMMAND, FIELD_WHY, FIELD_NICE, FIELD_RSS,
	FIELD_SWAP, FIELD_IO_READ, FIELD_IO_WRITE, FIELD_MAJFLT, FIELD_WCHAN,
	FIELD_CGNAME,
};
static const int json_layout[] = {
	FIELD_PID, FIELD_TGID, FIELD_PPID, FIELD_COMM, FIELD_CMDLINE,
	FIELD_USER, FIELD_STATE, FIELD_THREADS, FIELD_CPU_PCT, FIELD_DELAY,
	FIELD_DROPPED, FIELD_TOTAL, FIELD_CGROUP, FIELD_START, FIELD_WHY,
	FIELD_NICE, FIELD_RSS, FIELD_SWAP, FIELD_IO_READ, FIELD_IO_WRITE,
	FIELD_MAJFLT, FIELD_WCHAN, FIELD_CGNAME,
};

#define LAYOUT(a) { a, sizeof(a) / sizeof(a[0]) }

static const struct {
	const int *ids;
	size_t n;
} layouts[NFIELD_LAYOUT] = {
	[FIELD_LAYOUT_TASKS] = LAYOUT(tasks_layout),
	[FIELD_LAYOUT_CGROUPS] = LAYOUT(cgroups_layout),
	[FIELD_LAYOUT_CSV] = LAYOUT(csv_layout),
	[FIELD_LAYOUT_JSON] = LAYOUT(json_layout),
	[FIELD_LAYOUT_SCREEN] = LAYOUT(screen_layout),
	[FIELD_LAYOUT_CGROUPS_SCREEN] = LAYOUT(cgroups_screen_layout),
	[FIELD_LAYOUT_CGROUPS_TEXT] = LAYOUT(cgroups_text_layout),
};

const int *layouts_fields(enum field_layout l, int *n)
{
	static int expanded[NFIELD_LAYOUT][NFIELD];
	static int nexpanded[NFIELD_LAYOUT];

	if (!nexpanded[l]) {
		for (size_t i = 0; i < layouts[l].n; i++) {
			int id = layouts[l].ids[i];

			if (id != CATS) {
				expanded[l][nexpanded[l]++] = id;
				continue;
			}
			for (int c = 0; c < NCAT; c++)
				expanded[l][nexpanded[l]++] = FIELD_CAT + c;
		}
	}
	*n = nexpanded[l];
	return expanded[l];
}

bool layouts_has(enum field_layout l, int id)
{
	int n;
	const int *ids = layouts_fields(l, &n);

	for (int i = 0; i < n; i++)
		if (ids[i] == id)
			return true;
	return false;
}

int layouts_step_in(const int *ids, int n, int id, int dir, unsigned flags)
{
	int at = -1;

	for (int i = 0; i < n && at < 0; i++)
		if (ids[i] == id)
			at = i;
	if (at < 0)
		return id;
	for (int i = at + dir; i >= 0 && i < n; i += dir)
		if ((fields_get(ids[i])->flags & flags) == flags)
			return ids[i];
	return id;
}

int layouts_step(enum field_layout l, int id, int dir, unsigned flags)
{
	int n;
	const int *ids = layouts_fields(l, &n);

	return layouts_step_in(ids, n, id, dir, flags);
}

int layouts_screen_by_key(const char *name)
{
	int n;
	const int *ids = layouts_fields(FIELD_LAYOUT_SCREEN, &n);

	for (int i = 0; i < n; i++) {
		const char *key = fields_get(ids[i])->key;

		if (key && strcmp(key, name) == 0)
			return ids[i];
	}
	return -1;
}
