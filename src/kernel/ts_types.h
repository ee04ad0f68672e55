/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a taskstats reading of one task is (kernel/ts_decode.h decodes
 * the kernel's messages into it; /proc stands in where taskstats cannot
 * answer).
 */
#ifndef STALLTOP_TS_TYPES_H
#define STALLTOP_TS_TYPES_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/ts_layout.h"

/*
 * The resolution of the time totals of a reading (a delay's total, the
 * run time): the kernel counts them in nanoseconds, but no figure made
 * of them is shown finer than a microsecond, so they are taken as whole
 * microseconds (rounded down), where they are read: the live monitor and
 * a replay of its recording derive from the same values, and a
 * recording stores a microsecond's count where it stored nanoseconds'.
 * The longest waits (max_ns) are kept to the nanosecond.
 */
#define TS_TIME_RES_NS 1000u

struct ts_delay {
	uint64_t count;    /* events, cumulative */
	uint64_t total_ns; /* delay, cumulative (wraps); whole us
			      (TS_TIME_RES_NS) */
	uint64_t max_ns;   /* longest single delay since the task started */
	double max_at;     /* when it ended, CLOCK_REALTIME seconds (v17) */
};

/*
 * A TGID record (query reply or exit record) holds the delays, and etime,
 * utime and stime summed over the threads, but the kernel leaves comm, pid,
 * ppid, uid, gid, btime and tgid zero in it (seen on 6.18): have_basic and
 * have_tgid say the payload covers those fields, not that they were filled.
 */
enum ts_kind { TS_KIND_PID, TS_KIND_TGID };

struct ts_reading {
	enum ts_kind kind;     /* thread (PID) or process (TGID) record */
	uint32_t id;           /* the pid or tgid the record is about */
	unsigned version;      /* struct version the kernel reported */
	uint32_t exitcode;
	uint8_t flag;          /* ac_flag (AGROUP etc.) */
	uint32_t pid, ppid, tgid, uid, gid;
	bool have_tgid;        /* ac_tgid present (version 12+) */
	char comm[TS_COMM_BYTES + 1];
	uint64_t btime;        /* start, seconds since the epoch */
	uint64_t etime_us;     /* elapsed */
	uint64_t utime_us, stime_us;
	uint64_t run_ns;       /* time on a CPU, ns (cpu_run_virtual_total:
				  the scheduler's clock, not ticks);
				  whole us (TS_TIME_RES_NS) */
	bool have_basic;       /* comm..etime present */
	bool one_thread;       /* /proc: its main thread alone at every
				  reading of the process */
	uint32_t threads;      /* /proc: the threads the reading sums;
				  0 unknown (taskstats) */
	struct ts_delay d[TS_NDELAY]; /* by enum ts_delay_kind */
	uint32_t have;         /* bit k: count and total of kind k present */
	uint32_t have_max;     /* bit k: max of kind k present */
	uint32_t have_max_at;  /* bit k: max_at of kind k present */
	uint32_t no_count;     /* bit k: total known but not the count (/proc) */
};

#endif
