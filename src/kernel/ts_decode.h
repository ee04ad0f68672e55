/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Decoding of taskstats generic-netlink messages into plain readings.
 * No sockets here: this takes bytes and gives structs, so saved payloads
 * of any kernel version can be replayed in unit tests.
 */
#ifndef STALLTOP_TS_DECODE_H
#define STALLTOP_TS_DECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/ts_layout.h"

/* The newest struct taskstats version whose layout we know. */
#define TS_KNOWN_VERSION 17

/*
 * Generic-netlink numbers of the TASKSTATS family (<linux/taskstats.h>),
 * carried here so the build host's header version does not matter.
 */
enum {
	TS_GENL_VERSION = 1,            /* TASKSTATS_GENL_VERSION */
	TS_CMD_GET = 1,                 /* TASKSTATS_CMD_GET: request */
	TS_CMD_NEW = 2,                 /* TASKSTATS_CMD_NEW: reply, exit record */
};
enum {
	TS_TYPE_PID = 1,                /* u32 */
	TS_TYPE_TGID = 2,               /* u32 */
	TS_TYPE_STATS = 3,              /* struct taskstats */
	TS_TYPE_AGGR_PID = 4,           /* nest: PID + STATS */
	TS_TYPE_AGGR_TGID = 5,          /* nest: TGID + STATS */
	TS_TYPE_NULL = 6,               /* alignment pad, no payload */
};
enum {
	TS_CMD_ATTR_PID = 1,            /* u32 */
	TS_CMD_ATTR_TGID = 2,           /* u32 */
	TS_CMD_ATTR_REGISTER_CPUMASK = 3,   /* string "0-3" */
	TS_CMD_ATTR_DEREGISTER_CPUMASK = 4, /* string */
};

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

static inline uint64_t ts_time_res(uint64_t ns)
{
	return ns - ns % TS_TIME_RES_NS;
}

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

/*
 * Decode the struct taskstats bytes of one TASKSTATS_TYPE_STATS attribute
 * into r (whose kind and id the caller sets). Copies min(len, layout)
 * bytes and uses only the fields the reported version and the payload
 * length both cover. Returns 0, or -1 when the payload is too short to
 * hold even the version field.
 */
int ts_decode_stats(const void *payload, size_t len, struct ts_reading *r);

typedef void (*ts_reading_cb)(const struct ts_reading *r, void *arg);

/*
 * Walk one TASKSTATS_CMD_NEW message (reply or exit record): for every
 * AGGR_PID / AGGR_TGID nest that holds an id and stats, call cb. Unknown
 * attributes and TASKSTATS_TYPE_NULL pads are skipped. Returns the number
 * of records delivered, or -1 when the message is malformed.
 */
int ts_decode_msg(const void *nlmsg, size_t len, ts_reading_cb cb, void *arg);

#endif
