/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The task table: one entry per live task (process or thread), keyed by
 * id and start time, holding its cached details and last readings.
 * A reused id with another start time is a new task, never a delta
 * against the old one.
 */
#ifndef STALLTOP_TASKTABLE_H
#define STALLTOP_TASKTABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "delta.h"
#include "sample.h"
#include "ts_decode.h"

struct task {
	pid_t id;                  /* tgid (process table) or tid */
	pid_t tgid;
	unsigned long long start;  /* clock ticks since boot; 0 unknown */
	double first_seen;         /* monotonic seconds */

	/* cached details (libproc2); NULL until read */
	char *comm, *cmdline, *user;
	char *cgroup;              /* v2 path, when cgroups are in use */
	uid_t uid;
	pid_t ppid;
	char state;
	int threads;
	bool details_stale;        /* exec or comm change: read again */

	/*
	 * The earliest moment it can have started waiting, CLOCK_MONOTONIC
	 * seconds (a lower bound of its start; the fork event's time, or
	 * its start time in ticks): bounds its figures (delta.h) and tells
	 * whether delay accounting saw its whole life. 0 when unknown.
	 */
	double born;

	/* readings */
	struct ts_reading prev;    /* at the previous sample */
	bool have_prev;
	struct ts_reading cur;     /* this sample's, or the final one */
	bool have_cur;
	double cur_at;             /* CLOCK_MONOTONIC when a final came */
	bool requery;              /* a thread ended during the query */
	struct delta acc;          /* accumulated mode: the window so far */
	bool have_acc;
	uint64_t acc_round;        /* the reading last added to acc */
	uint64_t row_round;        /* process rows: the reading of row_at */
	size_t row_at;             /* its row in this sample's rows */

	/* life */
	bool exited;               /* ended; shown once, then removed */
	bool have_final;           /* cur holds the kernel's exit record */
	bool final_candidate;      /* a leader's exit record, not yet sure */
	uint64_t seen;             /* generation of the last scan that saw it */
	uint64_t queried;          /* generation of the last query that asked */
	bool shown;                /* retired and already in a sample */

	struct task *hnext;
};

struct tasktable;

struct tasktable *tt_new(void);
void tt_free(struct tasktable *t);

size_t tt_count(const struct tasktable *t);
struct task *tt_find(const struct tasktable *t, pid_t id);

/*
 * The entry for (id, start): an existing one when start matches (or either
 * is unknown), else a fresh entry replacing a stale one with that id.
 * *created says which. NULL on allocation failure.
 */
struct task *tt_get(struct tasktable *t, pid_t id, unsigned long long start,
		    bool *created);

void tt_remove(struct tasktable *t, pid_t id);

/* Call fn for every task; fn may not add or remove. */
void tt_foreach(struct tasktable *t, void (*fn)(struct task *, void *),
		void *arg);

/* Remove every task for which pred returns true. */
void tt_remove_if(struct tasktable *t, bool (*pred)(struct task *, void *),
		  void *arg);

/*
 * Retire a task that ended: it leaves the index (so a new task may take
 * its id at once) but is kept, with its final figures, until
 * tt_free_retired(). Never call during tt_foreach.
 */
void tt_retire(struct tasktable *t, struct task *k);

/* Retire every live task for which pred returns true. */
void tt_retire_if(struct tasktable *t, bool (*pred)(struct task *, void *),
		  void *arg);

size_t tt_retired_count(const struct tasktable *t);
void tt_foreach_retired(struct tasktable *t,
			void (*fn)(struct task *, void *), void *arg);
void tt_free_retired(struct tasktable *t);
/* Keep at most max retired tasks, dropping the oldest; returns how many went. */
size_t tt_trim_retired(struct tasktable *t, size_t max);
/* Free the retired tasks for which pred returns true. */
void tt_free_retired_if(struct tasktable *t,
			bool (*pred)(struct task *, void *), void *arg);

void task_set_details(struct task *k, const char *comm, const char *cmdline,
		      const char *user);

#endif
