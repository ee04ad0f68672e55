/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A sample that owns its rows and strings: what the screen keeps on
 * display while the monitor moves on (freezing, re-sorting between
 * refreshes).
 */
#ifndef STALLTOP_SNAPSHOT_H
#define STALLTOP_SNAPSHOT_H

#include "model/sample.h"

struct snapshot {
	/* rows, exited, thread_rows, thread_exited, cgroups and their
	 * strings are owned */
	struct sample s;
	char *strings;      /* one block for every string, trigger included */
	struct row_why *whys;    /* the rows' evidence, copied */
	struct row_why **later;  /* evidence gathered after the copy */
	size_t nlater, caplater;
};

/* Replace dst with a deep copy of src. Returns 0, or -1 (dst untouched). */
int snapshot_copy(struct snapshot *dst, const struct sample *src);
void snapshot_free(struct snapshot *snap);

/*
 * Keep a copy of w for the snapshot's row r (gathered after the copy:
 * the producer's is gone at its next sample). 0, or -1 (r untouched).
 */
int snapshot_keep_why(struct snapshot *snap, struct row *r,
		      const struct row_why *w);
/* The same for the snapshot's cgroup row g. */
int snapshot_keep_cg_why(struct snapshot *snap, struct cgroup_row *g,
			 const struct row_why *w);

#endif
