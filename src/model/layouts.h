/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The layouts: which fields each view and format shows, in order. */
#ifndef STALLTOP_LAYOUTS_H
#define STALLTOP_LAYOUTS_H

#include <stdbool.h>

enum field_layout {
	FIELD_LAYOUT_TASKS,   /* the task table's columns (sort keys) */
	FIELD_LAYOUT_CGROUPS, /* the cgroup view's columns (sort keys) */
	FIELD_LAYOUT_CSV,     /* after "time" */
	FIELD_LAYOUT_JSON,    /* a task row's keys */
	FIELD_LAYOUT_SCREEN,  /* the task table on the screen and in batch
				 text: the tasks' and WHY, shown where a row
				 has a cause */
	FIELD_LAYOUT_CGROUPS_SCREEN, /* the cgroup view on the screen: the
				 cgroups' and WHY, the tree of names
				 (NAME) in place of NAME and PATH */
	FIELD_LAYOUT_CGROUPS_TEXT, /* the cgroups in batch text: the
				 cgroups' and WHY, likewise, NAME and PATH */
	NFIELD_LAYOUT
};

/* The ids of a layout in order, categories expanded; *n of them. */
const int *layouts_fields(enum field_layout l, int *n);

/* Whether a layout holds the field. */
bool layouts_has(enum field_layout l, int id);

/*
 * The next field of layout l left (dir < 0) or right of id that has all
 * of the flags; id itself when there is none.
 */
int layouts_step(enum field_layout l, int id, int dir, unsigned flags);

/*
 * The same step in the list ids[n] (a screen's own column order): the
 * next id after id in direction dir with every flag of flags.
 */
int layouts_step_in(const int *ids, int n, int id, int dir, unsigned flags);

/*
 * The field of the screen's task table whose key (JSON key, as the
 * settings file names columns) is name, or -1.
 */
int layouts_screen_by_key(const char *name);

#endif
