/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The evidence next to a stall: what the kernel's own counters say about
 * a stalled process and its cgroups over one interval, as plain data a
 * sample can carry, a recording can hold and the rule table (why.h)
 * reads.
 *
 * Two steps. A reading (struct evidence_reading: cumulative counters as
 * the kernel keeps them) is taken by the live side (live/evidence_read.h,
 * through descriptors the caller opened, so fixture folders can stand in
 * for /sys/fs/cgroup and /proc). evidence_interval() turns two readings
 * of the same process into the figures of the interval between them
 * (struct evidence); it reads nothing.
 *
 * Every value is a struct kval: absent unless the kernel gave it (a file
 * missing, unreadable, of the other cgroup version, garbage, or a counter
 * that went back all leave it absent; never 0 for unknown).
 *
 * THE FIELD LIST. evidence_fields[] names every member of struct evidence
 * with its stable snake_case name, unit and meaning: the JSON "why"
 * object, recordings and the manual page take the names from there. The
 * per-device arrays have their own lists (evidence_io_dev_fields[],
 * evidence_disk_fields[]) under the names "io_devices" and "disks".
 */
#ifndef STALLTOP_EVIDENCE_H
#define STALLTOP_EVIDENCE_H

#include <stdbool.h>
#include <stddef.h>

#include <stdint.h>

#include "kernel/cgstats_types.h"
#include "kernel/diskstats_types.h"
#include "kernel/kval_types.h"
#include "store/evreading.h"

/*
 * The groups of evidence a reading takes, as a mask (EVIDENCE_WANT of enum
 * evidence_group; 0: all). A row's stalls name theirs (rowwhy_wants).
 */
#define EVIDENCE_WANT(group) (1u << (group))

/* Per-device IO of the process's cgroup, for devices it used or limits. */
#define EVIDENCE_IO_DEVS 4
struct evidence_io_dev {
	unsigned major, minor;
	char name[DISKSTATS_NAME];   /* from diskstats; "" when not found */
	struct kval rbps, wbps, riops, wiops;   /* limits; max: none */
	struct kval rbytes, wbytes, rios, wios; /* in the interval */
};

/* The longest "HIERARCHY:PATH" an evidence names (longer: not named). */
#define EVIDENCE_CGROUP 256

/* The machine's busiest block devices of the interval. */
#define EVIDENCE_DISKS 3

/* One device of an interval. */
struct diskstats_busy {
	unsigned major, minor;
	char name[DISKSTATS_NAME];
	double util_pct;        /* 0..100 */
	double queue;           /* mean IOs in flight */
	uint64_t read_bytes, write_bytes;
};

struct evidence {
	double interval_s;                /* 0 when there is no interval */
	int cpu_cgroup_version, mem_cgroup_version, io_cgroup_version;

	/* cpu: the cgroup's limit and throttling, the process's CPUs */
	struct kval cpu_quota_us, cpu_period_us;
	struct kval cpu_periods, cpu_throttled_periods, cpu_throttled_us;
	struct kval cpu_usage_us;
	struct kval cpu_some_us, cpu_full_us;  /* cgroup cpu.pressure */
	struct kval allowed_cpus, threads, runnable_threads;
	struct kval cpus_online, sys_runnable;
	/* the CPUs it may use and the others: idle and in all, summed */
	struct kval allowed_cpus_idle_us, allowed_cpus_time_us;
	struct kval other_cpus_idle_us, other_cpus_time_us;
	struct kval other_cpus_nice_us;   /* of tasks of nice above 0 */
	bool have_nice;                   /* the process's nice, next */
	int nice;                         /* (its row's, for the rules) */

	/* memory: the cgroup's limits, usage, events, swap, refaults */
	struct kval mem_max, mem_high, mem_current;
	struct kval mem_events_low, mem_events_high, mem_events_max;
	struct kval mem_events_oom, mem_events_oom_kill;
	struct kval mem_failcnt;
	struct kval swap_current, swap_max;
	struct kval memsw_usage, memsw_limit, memsw_failcnt;
	struct kval refaults_anon, refaults_file, refaults;
	struct kval mem_some_us, mem_full_us;  /* cgroup memory.pressure */
	struct kval sys_mem_total, sys_mem_free, sys_mem_available;
	struct kval sys_swap_total, sys_swap_free;

	/* io: the process's bytes, the cgroup's devices, the busiest disks */
	struct kval task_read_bytes, task_write_bytes;
	struct kval task_rchar, task_wchar;
	struct kval io_some_us, io_full_us;    /* cgroup io.pressure */
	size_t n_io_devs;
	struct evidence_io_dev io_devs[EVIDENCE_IO_DEVS];
	size_t n_disks;
	struct diskstats_busy disks[EVIDENCE_DISKS];

	/* wpcopy */
	struct kval forks, private_bytes;

	/* task states of the cgroup */
	/* where the cgroup figures were read (model/evorigin.h): "" unknown */
	char cpu_cgroup[EVIDENCE_CGROUP], mem_cgroup[EVIDENCE_CGROUP];
	char io_cgroup[EVIDENCE_CGROUP], states_cgroup[EVIDENCE_CGROUP];

	enum cgstats_source states_source;
	struct kval tasks_running, tasks_sleeping, tasks_uninterruptible;
	struct kval tasks_stopped, tasks_io_wait;
};

/*
 * The interval between two readings of one process (prev may be NULL:
 * then only current values are known, no deltas). Counters that went
 * back (a new cgroup, a reset) are absent. disks_prev/disks_cur (may be
 * NULL) give the busiest devices and the names of the cgroup's devices.
 */
void evidence_interval(const struct evidence_reading *prev,
		       const struct evidence_reading *cur,
		       const struct diskstats *disks_prev,
		       const struct diskstats *disks_cur, struct evidence *out);

/*
 * The busiest disks of the interval between two readings of the same
 * devices: the figures of each device present in both (same numbers
 * and name) whose counters did not go back, for an interval of more
 * than zero. Devices without any IO are left out; the rest come busiest
 * first, then by bytes; at most max of them into out. Returns how many
 * were written.
 */
size_t evidence_disks(const struct diskstats *prev, const struct diskstats *cur,
		      struct diskstats_busy *out, size_t max);

/* What a field is, for the JSON writer and the manual page. */
enum evidence_kind {
	EVIDENCE_GAUGE,   /* a value at the end of the interval */
	EVIDENCE_DELTA,   /* counted in the interval */
	EVIDENCE_LIMIT,   /* a number or "max" (no limit: JSON "max") */
};

enum evidence_group {
	EVIDENCE_CPU, EVIDENCE_MEMORY, EVIDENCE_IO, EVIDENCE_WPCOPY,
	EVIDENCE_STATES,
};

struct evidence_field {
	const char *name;        /* stable JSON key */
	size_t offset;           /* of its struct kval */
	enum evidence_kind kind;
	enum evidence_group group;
	const char *unit;        /* "us", "bytes", "count", "cpus", "bytes/s",
				    "ios/s", "tasks" */
	const char *help;        /* N_(): one line for the manual and help */
};

extern const struct evidence_field evidence_fields[];
extern const size_t evidence_nfields;
/* The members of one entry of "io_devices" (besides "device", "name"). */
extern const struct evidence_field evidence_io_dev_fields[];
extern const size_t evidence_io_dev_nfields;

/*
 * The members of one entry of "disks", which are not struct kval but
 * always there: "device" (MAJ:MIN), "name", "util_pct", "queue",
 * "read_bytes", "write_bytes".
 */
extern const char *const evidence_disk_fields[];
extern const size_t evidence_disk_nfields;

/* The value of a field in an evidence (or an io_devs entry). */
const struct kval *evidence_value(const void *base,
				  const struct evidence_field *f);

#endif
