/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the kernel (and its event stream) said of one task at one sample:
 * plain data, no pointers, so that a sequence of them, whether taken live
 * or read back from a recording, is all the model needs to derive the
 * task's figures (model/derive.h).
 *
 * A task's life is (id, start, life); a pid reused by another task is
 * another life. Times are seconds on the sample's CLOCK_MONOTONIC unless said
 * otherwise. Counters are cumulative over the task's life, as the kernel
 * keeps them (taskstats: the delays of all its threads, ended ones too,
 * for a process record).
 */
#ifndef STALLTOP_READING_H
#define STALLTOP_READING_H

#include <stdint.h>

/*
 * The delay categories a reading holds, in the order of the category
 * table (model/categories.h, whose NCAT must be this); bit c of a mask
 * below is category c.
 */
#define READING_NCAT 8

/* What a reading says of the task (task_reading.flags). */
enum reading_flags {
	/* a thread's own record (taskstats by PID), not a process's */
	READING_OWN = 1u << 0,
	/*
	 * the counters are one thread's: its own record, a thread row, or
	 * a process that had one thread all along while watched
	 */
	READING_ONE = 1u << 1,
	/*
	 * its thread count (threads) is known to have stayed the same over
	 * the window (no thread began or ended in it, no event lost)
	 */
	READING_STEADY = 1u << 2,
	/*
	 * not asked this sample: nothing moved since the previous reading
	 * (its process's counters did not); the counters are not repeated
	 * (zero) and the previous ones stand
	 */
	READING_CARRIED = 1u << 3,
	/* the kernel's exit record: the last counters of the task */
	READING_FINAL = 1u << 4,
	/* the task has ended (with or without an exit record) */
	READING_ENDED = 1u << 5,
	/*
	 * of a carried reading: its counters are given after all, the ones
	 * that stand (a recording holds them, so that a reader starting at
	 * its sample has the task's base); without it a carried reading's
	 * counters are zero
	 */
	READING_STANDING = 1u << 6,
	/*
	 * the base reading was taken before delay accounting came on (or
	 * the task is counted from zero and was alive then): a wait that
	 * ended since may have begun while it was off, and the kernel
	 * measures such a wait from a stale start; every category but cpu
	 * and irq that moved is dropped
	 */
	READING_UNSTAMPED = 1u << 7,
};

struct reading_delay {
	uint64_t count;    /* waits ended, cumulative; unknown where
			      no_count has the category's bit */
	uint64_t total_ns; /* their delay, ns, cumulative (wraps) */
	uint64_t max_ns;   /* the longest wait of its life, ns; unknown
			      where have_max lacks the bit */
};

struct task_reading {
	int32_t id;            /* tid (thread) or tgid (process) */
	int32_t tgid;          /* its process */
	uint64_t start;        /* start, clock ticks since boot; 0 unknown */
	/*
	 * Which life of (id, start) it is: 0, or more where an earlier life
	 * of the id with the same start (both unknown, or in one clock
	 * tick) was still known when it came (a pid reused within an
	 * interval); id, start and life name one life.
	 */
	uint32_t life;
	/*
	 * When the counters were read: after asked_at (the query's start;
	 * an exit record: when it came) and by at (the queries' end, or
	 * the exit record's arrival).
	 */
	double asked_at, at;
	/*
	 * The earliest moment it can have begun to wait (its fork event,
	 * or its start time); 0 unknown.
	 */
	double born;
	double age;            /* upper bound of its age at `at`, s; 0 unknown */
	double first_seen;     /* when stalltop first saw it */
	uint64_t run_ns;       /* time on a CPU, ns, cumulative */
	uint32_t have;         /* bit c: count and total of c were given */
	uint32_t have_max;     /* bit c: max_ns of c was given */
	uint32_t have_max_at;  /* bit c: max_at[c] was given (taskstats 17) */
	uint32_t no_count;     /* bit c: the total of c without its count */
	/*
	 * bit c: the figures of c are true (the kernel collects c, delay
	 * accounting was on for the task's whole life; cpu always)
	 */
	uint32_t cats;
	int32_t threads;       /* a process's threads, as last read; 0 unknown */
	uint32_t flags;        /* enum reading_flags */
	struct reading_delay d[READING_NCAT];
	/*
	 * When the longest wait of c ended, CLOCK_REALTIME seconds (the
	 * kernel's stamp); meaningful only where have_max_at has the bit.
	 */
	double max_at[READING_NCAT];
};

#endif
