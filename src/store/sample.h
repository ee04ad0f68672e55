/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A sample of readings: everything the kernel said at one sample that
 * any figure a view shows is made of, and nothing computed. The live
 * monitor fills one each sample; a recording stores exactly this (and a
 * replay reads it back); the model (model/assemble.h) turns a sequence
 * of them into the struct sample views see. Two producers giving the
 * same store samples give the same figures.
 *
 * Flat and fixed-size where it can be, for the codec (store/codec.h):
 * what is known is said by a bit in a `have` mask, never by a magic
 * value in the member. Strings are `const char *` owned by the producer
 * for the sample's lifetime (raw kernel text: views escape); arrays
 * likewise. Times are seconds; "mono" is CLOCK_MONOTONIC, "real"
 * CLOCK_REALTIME, "boot" CLOCK_BOOTTIME.
 */
#ifndef STALLTOP_STORE_SAMPLE_H
#define STALLTOP_STORE_SAMPLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/diskstats_types.h"
#include "kernel/psi_types.h"
#include "store/evreading.h"
#include "store/reading.h"

/* The size of a wait channel's name kept (kernel symbols are shorter). */
#define STORE_WCHAN_MAX 48

/* What a store_task says beyond its counters (store_task.have). */
enum store_task_have {
	STORE_HAVE_UID = 1u << 0,     /* uid */
	STORE_HAVE_PPID = 1u << 1,    /* ppid */
	STORE_HAVE_STATE = 1u << 2,   /* state */
	STORE_HAVE_THREADS = 1u << 3, /* threads */
	STORE_HAVE_START = 1u << 4,   /* start_real */
	STORE_HAVE_RSS = 1u << 5,     /* rss_kib */
	STORE_HAVE_SWAP = 1u << 6,    /* swap_kib */
	STORE_HAVE_NICE = 1u << 7,    /* nice */
	STORE_HAVE_IO = 1u << 8,      /* read_bytes, write_bytes */
	STORE_HAVE_MAJFLT = 1u << 9,  /* majflt */
	STORE_HAVE_WCHAN = 1u << 10,  /* wchan */
	STORE_HAVE_CTX_AT = 1u << 11, /* ctx_at */
	/*
	 * r is the latest reading already given, not a new one (an ended
	 * task whose row was shown): nothing new of it (in -a, its window
	 * still stands)
	 */
	STORE_REPEAT = 1u << 12,
};

/*
 * One task (a process, or a thread in thread mode and in thread_tasks)
 * at the sample: its counters and what names it.
 */
struct store_task {
	/*
	 * The counters as read (store/reading.h): its id, tgid and start
	 * ticks name one life; READING_ENDED in r.flags: it has ended.
	 */
	struct task_reading r;
	uint32_t have;        /* enum store_task_have */
	uint32_t uid;         /* owner; unknown without STORE_HAVE_UID */
	int32_t ppid;         /* parent's tgid; unknown without _PPID */
	int32_t threads;      /* a process's threads as read; unknown
				 without _THREADS (never given for a
				 thread row) */
	char state;           /* /proc state letter ('R', 'D'...); unknown
				 without _STATE */
	int8_t nice;          /* -20..19; unknown without _NICE */
	double start_real;    /* when it started, real s (its start ticks
				 and the boot time); unknown without _START */
	const char *comm;     /* its name; "" unknown */
	const char *cmdline;  /* arguments joined by spaces; "" unknown */
	const char *user;     /* owner's name or uid as text; "" unknown */
	const char *cgroup;   /* its path in the cgroup tree
				 ("/system.slice/x.service"); NULL unknown
				 or not collected */
	/*
	 * What stands next to a stall, read for the rows a view shows (all
	 * rows when recording): the model makes the rates from two readings
	 * of one life.
	 */
	int64_t rss_kib;      /* resident memory, KiB; unknown without _RSS */
	int64_t swap_kib;     /* swapped out, KiB; unknown without _SWAP */
	uint64_t read_bytes;  /* read from storage, bytes, cumulative;
				 unknown without _IO */
	uint64_t write_bytes; /* written to storage, bytes, cumulative;
				 unknown without _IO */
	uint64_t majflt;      /* major faults, cumulative; unknown without
				 _MAJFLT */
	double ctx_at;        /* mono s of the sample whose context read
				 (or keep: the task did not run) gave the
				 cumulative ones above (the live monitor
				 dates it at the sample's readings, as it
				 does their counters); unknown without
				 _CTX_AT */
	char wchan[STORE_WCHAN_MAX]; /* the kernel function it sleeps in;
				 unknown without _WCHAN */
};

/* What a store_cgroup says (store_cgroup.have). */
enum store_cgroup_have {
	STORE_CG_PSI = 1u << 0,       /* psi: its *.pressure files were read */
	STORE_CG_THROTTLED = 1u << 1, /* throttled_us */
	STORE_CG_MEM_HIGH = 1u << 2,  /* mem_high */
	STORE_CG_MEM_MAX = 1u << 3,   /* mem_max */
	STORE_CG_OOM_KILL = 1u << 4,  /* mem_oom_kill */
};

/* One cgroup of the tree at the sample: the kernel's counters of it. */
struct store_cgroup {
	const char *path;     /* from the tree's root: "/", "/system.slice" */
	uint32_t have;        /* enum store_cgroup_have */
	struct psi_reading psi; /* its pressure totals and the kernel's
				 averages (line[][].present per line) */
	uint64_t throttled_us; /* throttled by its CPU quota, us, cumulative
				 (cpu.stat, its own) */
	uint64_t mem_high;    /* times memory.high was hit, cumulative (it
				 and below) */
	uint64_t mem_max;     /* times memory.max was hit (v1: failcnt) */
	uint64_t mem_oom_kill; /* OOM kills, cumulative */
};

/*
 * The evidence next to a stall as read (store/evreading.h): cumulative
 * counters at one moment, per task or per cgroup; the model makes the
 * interval's figures from two readings of the same owner.
 */
struct store_evidence {
	int32_t id;           /* the task (with start), or 0 for a cgroup */
	uint64_t start;       /* the task's start ticks */
	const char *cgroup;   /* the cgroup's path (id 0), else NULL */
	const char *cgroups;  /* a task's /proc/PID/cgroup text: the
				 cgroups r's cgroups' part is of; NULL
				 unknown (then r has no cgroups' part) */
	struct evidence_reading r; /* r.when: mono s of the reading */
};

/* What the machine line is made of (store_machine.have). */
enum store_machine_have {
	STORE_M_LOAD = 1u << 0,  /* load */
	STORE_M_CPU = 1u << 1,   /* cpu_idle, cpu_total */
	STORE_M_MEM = 1u << 2,   /* mem_total, mem_available */
	STORE_M_SWAP = 1u << 3,  /* swap_total, swap_free */
};

struct store_machine {
	uint32_t have;           /* enum store_machine_have */
	double load[3];          /* /proc/loadavg: 1, 5, 15 minutes */
	uint64_t cpu_idle;       /* ticks idle or in IO wait, all CPUs,
				    cumulative (/proc/stat) */
	uint64_t cpu_total;      /* ticks in all, all CPUs, cumulative */
	uint64_t mem_total, mem_available; /* bytes (/proc/meminfo) */
	uint64_t swap_total, swap_free;    /* bytes */
};

/* Delay accounting's switch (store_sample.delayacct). */
enum store_delayacct {
	STORE_DELAYACCT_UNKNOWN = -1, /* the sysctl could not be read */
	STORE_DELAYACCT_OFF = 0,
	STORE_DELAYACCT_ON = 1,
};

struct store_sample {
	double time;            /* real s when the sample was taken (after
				   its readings) */
	double boot;            /* boot s of the same moment; 0 unknown */
	double mono;            /* mono s of the task readings */
	double real;            /* real s of the same moment */
	double query_start;     /* mono s when the task queries began */
	int32_t delayacct;      /* enum store_delayacct */
	uint32_t ts_version;    /* struct taskstats version, 0 none */
	uint64_t events_lost;   /* fork/exit notifications and exit records
				   lost since the start, cumulative */
	uint64_t exit_records_lost; /* of those, exit records */
	bool threads;           /* the rows are threads (-H) */
	const char *trigger;    /* label of the PSI trigger that took this
				   sample, or NULL */
	struct psi_reading psi; /* /proc/pressure: totals and averages */
	struct store_task *tasks;   /* a reading per task of the rows */
	size_t ntasks;
	/*
	 * Thread readings kept for a replay's thread view (process mode
	 * when recording threads), else NULL
	 */
	struct store_task *thread_tasks;
	size_t nthread_tasks;
	/*
	 * thread readings were taken (a producer may give them to the model
	 * one at a time, thread_tasks NULL)
	 */
	bool thread_readings;
	struct store_cgroup *cgroups; /* when cgroups are collected, else NULL */
	size_t ncgroups;
	struct store_evidence *evidence; /* read for the stalled rows shown */
	size_t nevidence;
	const struct diskstats *disks; /* /proc/diskstats with the evidence,
				   or NULL when not read */
	struct store_machine machine;
	uint64_t nprocs;        /* processes known */
	uint64_t nthreads;      /* threads known, 0 if not counted */
};

#endif
