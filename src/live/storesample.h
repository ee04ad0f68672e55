/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The whole store sample (store/sample.h) of the latest reading, kept
 * for a recording: every task's store task in an array, the threads'
 * when thread readings are taken, the cgroups', the evidence read for
 * the rows shown, the sample's clocks, PSI and machine counters. The
 * monitor keeps one only when recording (monitor_opts.record): without
 * it the tasks' readings go to the model one at a time and no array of
 * them is made.
 */
#ifndef STALLTOP_STORESAMPLE_H
#define STALLTOP_STORESAMPLE_H

#include <stdbool.h>
#include <stddef.h>

#include "store/sample.h"

/*
 * Entries an array keeps room for whatever it held; one with more room
 * than four times what a sample held gives it back down to twice that.
 */
#define STORESAMPLE_KEEP 1024

struct storesample {
	struct store_sample s;   /* the latest, whole once complete */
	bool complete;           /* s is a sample's, nothing left out */
	bool failed;             /* an array could not grow: incomplete */
	struct store_task *tasks, *threads;
	size_t ntasks, captasks, nthreads, capthreads;
	struct store_evidence *evidence;
	size_t nevidence, capevidence;
};

struct storesample *storesample_new(void);
void storesample_free(struct storesample *w);
/* A reading begins: the last one's tasks are dropped. */
void storesample_begin(struct storesample *w);
/*
 * A copy of t at the end of the tasks (thread: of the thread tasks);
 * the copy, or NULL when out of memory (the sample is then incomplete).
 */
struct store_task *storesample_push(struct storesample *w, bool thread,
				    const struct store_task *t);
/* A copy of an evidence reading taken for a row of this reading. */
void storesample_push_evidence(struct storesample *w,
			       const struct store_evidence *ev);
/*
 * The reading is whole: in's clocks, counters and disks, the tasks and
 * evidence pushed, cgroups (ncgroups of them, or NULL: not collected).
 */
void storesample_end(struct storesample *w, const struct store_sample *in,
		     struct store_cgroup *cgroups, size_t ncgroups);
/* The latest whole sample, or NULL (none yet, or incomplete). */
const struct store_sample *storesample_get(const struct storesample *w);

#endif
