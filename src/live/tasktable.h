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

#include "kernel/ts_decode.h"
#include "model/delta.h"
#include "model/derive.h"
#include "model/sample.h"

/*
 * When a life began, on the boot clock (CLOCK_BOOTTIME) in nanoseconds:
 * some time in [lo, hi]. hi == 0: nothing is known. /proc tells the start
 * to a clock tick; a fork event comes just after it; an exit record's
 * elapsed time and start second bound it.
 */
struct tt_span {
	uint64_t lo, hi;
};

/* One life against another of the same id. */
enum tasktable_order {
	TT_SAME,    /* may be one life: the spans meet, or one is unknown */
	TT_BEFORE,  /* it began before the other could have: an earlier life */
	TT_AFTER,   /* it began after the other could have: a later life */
};

/* The clocks, read together. */
struct tt_clocks {
	uint64_t mono_ns, boot_ns, real_ns;
};

/*
 * What stands next to a task's stall, as last read (struct task_ctx),
 * and the counters its rates are made of: read once per reading for the
 * rows a view shows, so a task has it only once it was read
 * (tasktable_ctx): an idle thread never shown holds none.
 */
struct tt_ctx {
	struct task_ctx ctx;
	uint64_t round;            /* the reading after which it was read,
				      or kept (it did not run since) */
	double at;                 /* the sample's reading time then */
	double read;               /* CLOCK_MONOTONIC of the last true read */
	unsigned long long majflt, rbytes, wbytes;
	bool have_majflt : 1, have_io : 1; /* of the counters above */
};

/*
 * What only a process has (a task of the process table): where it is in
 * the cgroup tree, the processes it forked, the evidence kept for its
 * stalls. Made with it (tasktable_make_proc), so that a thread holds none.
 */
struct tt_proc {
	char *cgroup;              /* v2 path, when cgroups are in use */
	char *cgroups;             /* its /proc/PID/cgroup, once its evidence
				      asked for it (cgsum_text) */
	double cg_at;              /* CLOCK_MONOTONIC when its cgroup was read */
	uint64_t forks;            /* processes it forked while watched */
	void *ev;                  /* gather.c's, one malloc; freed with it */
	/*
	 * The gate of its queries (readings.c): its CPU clock
	 * (kernel/cpuclock.h), clock_ns as read in the round clock_round
	 * before the query that gave its base reading; clock_sure: that
	 * base holds for as long as the clock stands.
	 */
	uint64_t clock_ns, clock_round;
	clockid_t clock;
	bool have_clock : 1, clock_sure : 1;
};

/*
 * One task. Its members are grouped by size, and its yes/no members are
 * one bit each (at the end), so that an idle thread costs little: the
 * table holds one of these per thread in thread mode.
 */
struct task {
	pid_t id;                  /* tgid (process table) or tid */
	pid_t tgid;
	unsigned long long start;  /* clock ticks since boot; 0 unknown */
	double first_seen;         /* monotonic seconds */

	/*
	 * cached details (libproc2); NULL until read. comm, cmdline and user
	 * are set only through tasktable_set_details and _share_details
	 * (counted strings, shared between a process and its threads).
	 */
	char *comm, *cmdline, *user;
	struct tt_proc *proc;      /* every process's; NULL for a thread */
	uid_t uid;
	pid_t rec_ppid;            /* the parent its own records last named;
				      0 none */
	struct task_info info;     /* as last read */
	uint64_t info_round;       /* the reading after which info was read */
	struct tt_ctx *ctx;        /* malloc'd at its first read; NULL none */

	/*
	 * The earliest moment it can have begun to wait, CLOCK_MONOTONIC
	 * seconds: its fork event (a child runs only after the kernel
	 * announced it), or its start time in ticks. Bounds its figures
	 * (delta.h) and tells whether delay accounting saw its whole life.
	 * 0 when unknown.
	 */
	double waits_from;
	uint64_t lost_at_add;      /* notifications lost when it was added */

	/* readings */
	struct derive_state ds;    /* the model's: the base reading, the
				      waits dated, the window of -a */
	/*
	 * This sample's reading, or the final one: malloc'd when it comes,
	 * freed when it became the base (tasktable_set_reading,
	 * tasktable_drop_reading), so a task that is not asked holds none.
	 * have_cur with cur NULL: carried (below), the base is the reading.
	 */
	struct ts_reading *cur;    /* a final one with when it came:
				      tasktable_set_final */
	/*
	 * A process: 1 + the reading before which its set of threads last
	 * changed (a thread began or ended); 0: never, while watched.
	 */
	uint64_t threads_at;
	uint64_t moved;            /* the reading whose figures last moved */

	/* life */
	uint64_t queried;          /* generation of the last query that asked */
	/* which life of the id it is (start is 0 until /proc tells it) */
	struct tt_span born;       /* when events say it began */

	/* a live task is in one chain of the index, a retired one in one
	   of the retired ones': never both */
	union {
		struct task *hnext;
		struct task *rnext;    /* retired tasks of the same slot */
	};

	uint32_t life;             /* which life of (id, start) it is
				      (task_reading.life) */
	uint32_t seen;             /* generation of the last scan that saw it
				      (monitor.gen) */
	/* yes or no, one bit each */
	bool details_stale : 1;    /* exec or comm change: read again */
	/*
	 * info (state, parent, threads) may have changed without the task
	 * running: a thread began or ended, its parent ended, it exec'd.
	 */
	bool info_stale : 1;
	bool cg_stale : 1;         /* exec'd: its cgroup is read again */
	bool multi : 1;            /* a process that had several threads */
	bool have_cur : 1;         /* a reading of this sample (cur, above) */
	bool requery : 1;          /* a thread ended during the query */
	/*
	 * A thread not asked this round (its process did not move): its
	 * reading is the one ds.prev was made of, and nothing moved since.
	 */
	bool carried : 1;
	/*
	 * A process whose set of threads changed (a thread began or ended,
	 * or a scan found one new or gone) since its threads were last
	 * asked: ask them again, although its own reading may not move.
	 */
	bool threads_changed : 1;
	bool exited : 1;           /* ended; shown once, then removed */
	bool have_final : 1;       /* cur holds the kernel's exit record */
	bool shown : 1;            /* retired and already in a sample */
	bool forked : 1;           /* its fork event has been seen */
	bool exit_seen : 1;        /* the connector has told its exit */
	bool answered : 1;         /* a query has answered for it */
	/*
	 * it, or a thread of the process, began while delay accounting
	 * may have been off: the kernel never measures such a task (no
	 * delay record of its own), so only cpu is known, for good
	 */
	bool unmeasured : 1;
};

struct tasktable;

struct tasktable *tasktable_new(void);
void tasktable_free(struct tasktable *t);

size_t tasktable_count(const struct tasktable *t);
struct task *tasktable_find(const struct tasktable *t, pid_t id);

/*
 * The entry for (id, start): an existing one when start matches (or either
 * is unknown), else a fresh entry replacing a stale one with that id.
 * *created says which. NULL on allocation failure.
 */
struct task *tasktable_get(struct tasktable *t, pid_t id, unsigned long long start,
		    bool *created);

void tasktable_remove(struct tasktable *t, pid_t id);

/*
 * A sample was given: the lives that leave the table from now on were in
 * it (or in none), and a new life of one's id is numbered past it until
 * the next (task_reading.life), so that no key of that sample's is a
 * new life's in the next one.
 */
void tasktable_given(struct tasktable *t);

/* Call fn for every task; fn may not add or remove. */
void tasktable_foreach(struct tasktable *t, void (*fn)(struct task *, void *),
		void *arg);

/* Remove every task for which pred returns true. */
void tasktable_remove_if(struct tasktable *t, bool (*pred)(struct task *, void *),
		  void *arg);

/*
 * Retire a task that ended: it leaves the index (so a new task may take
 * its id at once) but is kept, with its final figures, until
 * tasktable_free_retired(). Never call during tasktable_foreach.
 */
void tasktable_retire(struct tasktable *t, struct task *k);

/* Retire every live task for which pred returns true. */
void tasktable_retire_if(struct tasktable *t, bool (*pred)(struct task *, void *),
		  void *arg);

size_t tasktable_retired_count(const struct tasktable *t);
void tasktable_foreach_retired(struct tasktable *t,
			void (*fn)(struct task *, void *), void *arg);
void tasktable_free_retired(struct tasktable *t);
/* Keep at most max retired tasks, dropping the oldest; returns how many went. */
size_t tasktable_trim_retired(struct tasktable *t, size_t max);
/* Free the retired tasks for which pred returns true. */
void tasktable_free_retired_if(struct tasktable *t,
			bool (*pred)(struct task *, void *), void *arg);

/*
 * The oldest retired task with this id for which pred (may be NULL)
 * returns true, or NULL.
 */
struct task *tasktable_find_retired(const struct tasktable *t, pid_t id,
			     bool (*pred)(struct task *, void *), void *arg);

/*
 * Take a live task out of the index without retiring it, and put it back.
 * Between the two another entry may hold its id.
 */
void tasktable_detach(struct tasktable *t, struct task *k);
void tasktable_attach(struct tasktable *t, struct task *k);

/*
 * r becomes k's reading of this sample (have_cur); false when there is
 * no memory for it (k then has none).
 */
bool tasktable_set_reading(struct task *k, const struct ts_reading *r);
/*
 * r, the kernel's exit record of k, becomes k's reading (have_cur), read
 * at CLOCK_MONOTONIC at; kept with it, as only an ended task has one.
 * False when there is no memory for it (k then has none).
 */
bool tasktable_set_final(struct task *k, const struct ts_reading *r, double at);
/* When k's final reading came (CLOCK_MONOTONIC); k holds one. */
double tasktable_final_at(const struct task *k);
/* k's reading became the base (or is not wanted): it holds none. */
void tasktable_drop_reading(struct task *k);

/* k is a process: its struct tt_proc (nothing yet); false with no memory. */
bool tasktable_make_proc(struct task *k);
/* Where process k is in the cgroup tree, or NULL (unknown, a thread). */
const char *tasktable_cgroup(const struct task *k);

/* k's context, malloc'd (nothing known) when it has none; NULL no memory. */
struct tt_ctx *tasktable_ctx(struct task *k);

void tasktable_set_details(struct task *k, const char *comm, const char *cmdline,
		      const char *user);
/*
 * Thread k takes the command line and user of its process p, and its
 * name when it bears the same: shared, not copied.
 */
void tasktable_share_details(struct task *k, const struct task *p);

/* ---- lives: one id, several tasks one after another ---- */

/* A /proc start time (clock ticks since boot) as a span. */
struct tt_span tasktable_span_ticks(unsigned long long ticks, long hz);

/*
 * A CLOCK_MONOTONIC time (an event's, in ns) on the boot clock, as the
 * clocks stand now (a sleep of the machine since moves it later).
 */
uint64_t tasktable_boot_ns(uint64_t mono_ns, const struct tt_clocks *now);

/* A fork event's time (CLOCK_MONOTONIC, ns): the child began just before. */
struct tt_span tasktable_span_fork(uint64_t event_ns, const struct tt_clocks *now);

/*
 * When the task of an exit record (a thread's own, kind TS_KIND_PID)
 * began, the record read at now: at most its elapsed time before now,
 * and within a second of its start second (ac_btime). Unknown for a
 * process record, which carries neither.
 */
struct tt_span tasktable_span_exit(const struct ts_reading *r,
			    const struct tt_clocks *now);

/* A task's span: its /proc start where known, else what events said. */
struct tt_span tasktable_task_span(const struct task *k, long hz);

/* Life a against life b. */
enum tasktable_order tasktable_order(struct tt_span a, struct tt_span b);

/*
 * What two spans of one life say together: the later lo, the earlier hi
 * (one unknown: the other). For spans that meet (TT_SAME).
 */
struct tt_span tasktable_span_meet(struct tt_span a, struct tt_span b);

#endif
