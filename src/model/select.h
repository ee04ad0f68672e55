/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Filtering and sorting of sample rows: shared by batch mode and screen. */
#ifndef STALLTOP_SELECT_H
#define STALLTOP_SELECT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "model/fields.h"
#include "model/sample.h"

struct select_opts {
	int sort;              /* enum field_id with FIELD_SORT */
	bool reverse;          /* flip the default direction */
	enum metric metric;
	bool only_stalled;     /* drop rows whose total_pct is 0 */
	const pid_t *pids;     /* keep only these tgids (NULL: all) */
	size_t npids;
	bool have_uid;
	uid_t uid;             /* keep only this user's */
	const char *name;      /* keep only comm/cmdline containing this
				  (in any case) */
	size_t limit;          /* 0: no limit */
};

/*
 * Filter rows in place (kept rows first, order otherwise undefined), sort
 * them and apply the limit. Returns the number kept.
 */
/*
 * Only the filters of o (not the sort, the limit): the rows kept moved to
 * the front, in their order; returns how many.
 */
size_t select_keep(struct row *rows, size_t n, const struct select_opts *o);

size_t select_rows(struct row *rows, size_t n, const struct select_opts *o,
		   double interval);

/*
 * The same for a sample's live rows and the rows that exited in it: each
 * list filtered and sorted, and the limit applied to both together (the
 * first rows of the two in sort order). Sets *n and *nexited.
 */
void select_sample_rows(struct row *rows, size_t *n, struct row *exited,
			size_t *nexited, const struct select_opts *o,
			double interval);

/*
 * Sort cgroup rows by the same key (a category, total; fields without a
 * cgroup value keep the tree order, by path). Returns n.
 */
size_t select_cgroups(struct cgroup_row *rows, size_t n,
		      const struct select_opts *o);

#endif
