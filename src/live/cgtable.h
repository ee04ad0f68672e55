/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The cgroup table: task rows summed into one row per cgroup (and per
 * ancestor: a cgroup's figures cover everything below it; model/cgrows.h),
 * next to each cgroup's own pressure over the same interval, read here,
 * each with its name (model/cgname.h).
 */
#ifndef STALLTOP_CGTABLE_H
#define STALLTOP_CGTABLE_H

#include <stddef.h>

#include "kernel/cg_layout.h"
#include "model/sample.h"

struct cgtable;

/*
 * The table of the hierarchies of layout (copied): paths are of its
 * tree, pressure is read where cgdirs.h says.
 */
struct cgtable *cgtable_new(const struct cg_layout *layout);
void cgtable_free(struct cgtable *t);

/*
 * Build the cgroup rows of one interval from task rows and the rows of
 * tasks that ended in it (each with its row->cgroup; rows without are
 * left out; exited may be NULL) over dt seconds. Only cgroups within
 * `within` (NULL: all) are kept. The result stays valid until the next
 * call. Returns 0, or -1 when out of memory.
 */
int cgtable_build(struct cgtable *t, const struct row *rows, size_t n,
	      const struct row *exited, size_t nexited, double dt,
	      const char *within, struct cgroup_row **out, size_t *nout);

#endif
