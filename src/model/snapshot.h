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
};

/* Replace dst with a deep copy of src. Returns 0, or -1 (dst untouched). */
int snapshot_copy(struct snapshot *dst, const struct sample *src);
void snapshot_free(struct snapshot *snap);

#endif
