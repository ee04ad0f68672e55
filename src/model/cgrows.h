/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A cgroup row's figures from the task rows in it (and below it): per
 * category the summed share, events, the average rebuilt from summed
 * delay over summed events, and the longest wait, known only where every
 * task's is. Pure: live/cgtable.c reads the rest of a cgroup row.
 */
#ifndef STALLTOP_CGROWS_H
#define STALLTOP_CGROWS_H

#include "model/sample.h"

/*
 * Add task row r of an interval dt seconds long to cgroup row g.
 * max_unknown: bit c set once a task's longest wait of category c was
 * unknown (start each row with 0).
 */
void cgrows_add(struct cgroup_row *g, unsigned *max_unknown,
		const struct row *r, double dt);

/* The depth of a tree path: "/" 0, "/a" 1, "/a/b" 2. */
int cgrows_depth(const char *path);

#endif
