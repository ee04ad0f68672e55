/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A sample: what every view consumes. Plain data, no kernel handles; a
 * recording could fill it as well as the live sources do.
 */
#ifndef STALLTOP_SAMPLE_H
#define STALLTOP_SAMPLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "kernel/psi_types.h"
#include "model/categories.h"

/* What views show of PSI: the reading plus the share of the last interval. */
struct psi_stat {
	bool present;
	double avg10, avg60, avg300;
	uint64_t total_us;
	bool have_pct;   /* false on the first reading or after a gap */
	double pct;      /* Δtotal / Δwall × 100 */
};

/* By enum psi_res and psi_kind (kernel/psi_types.h); delta_psi makes it. */
struct psi_sample {
	struct psi_stat s[NPSI][NPSI_KIND];
};

/*
 * The most events a figure counts: more than one a nanosecond for 18
 * years, never true of an interval (a count above it is dropped as
 * impossible, a sum above it is unknown), so that the count and the
 * flags share eight bytes.
 */
#define CAT_COUNT_BITS 59
#define CAT_COUNT_MAX ((UINT64_C(1) << CAT_COUNT_BITS) - 1)

/* One category's figures for one row over one interval. */
struct cat_figure {
	/* the numbers first, the flags packed with the count (a row has NCAT) */
	double pct;       /* Δdelay / Δwall × 100 */
	double avg_ms;    /* Δdelay / Δcount */
	double max_ms;    /* longest single wait that ended in the interval */
	uint64_t count : CAT_COUNT_BITS; /* events in the interval */
	bool avail : 1;   /* false: no true figure (shown -/null) */
	bool have_avg : 1; /* false when count is 0 or unknown */
	bool have_max : 1; /* the interval's longest wait is known */
	bool have_count : 1; /* false: the source gives no event count */
	bool dropped : 1; /* the kernel's figure cannot be true (see
			     delta.h): not shown, sorted on or summed */
};

/*
 * The size of a wait channel's name kept (kernel symbols are shorter):
 * its longest is one byte less.
 */
#define TASK_WCHAN_MAX 48

/*
 * What stands next to a stall: the task's memory, IO, faults, nice and
 * wait channel, read when a view shows the row (or sorts by one of
 * them: fields.h FIELD_DETAIL). A member counts only with its bit in
 * have (all zero: nothing known); the rates cover the time between two
 * readings of consecutive samples.
 */
enum task_ctx_have {
	CTX_RSS = 1u << 0,
	CTX_SWAP = 1u << 1,
	CTX_NICE = 1u << 2,
	CTX_READ = 1u << 3,
	CTX_WRITE = 1u << 4,
	CTX_MAJFLT = 1u << 5,
	CTX_WCHAN = 1u << 6,
};

struct task_ctx {
	unsigned have;        /* enum task_ctx_have */
	int nice;             /* -20..19 */
	long long rss_kib;    /* resident memory, KiB (a kernel thread has
				 none of its own: unknown) */
	long long swap_kib;   /* swapped out, KiB */
	double read_bps;      /* bytes read from storage per second */
	double write_bps;     /* bytes written to storage per second */
	double majflt_ps;     /* major faults per second */
	const char *wchan;    /* the kernel function it sleeps in, while
				 in D: kept once (model/wchan.h), never
				 freed; NULL unknown */
};

/*
 * What the sources read of a task apart from its delay figures, its
 * names and what stands next to a stall (struct task_ctx, kept apart:
 * only the rows a view shows have it read): read together (procinfo),
 * kept per task (struct task) and copied whole into its rows. A new
 * per-task value is a member here, and a field (fields.c) that shows it.
 */
struct task_info {
	double start;         /* when it started, seconds since the epoch
				 (from its /proc start and the boot time);
				 0 when unknown. With the id it names one
				 life of a task across samples. */
	pid_t ppid;           /* 0 when unknown */
	int threads;          /* -1 when unknown */
	char state;           /* '\0' when unknown */
};

/* Nothing known: what a task and a row hold before the first read. */
#define TASK_INFO_UNKNOWN ((struct task_info){ .threads = -1 })

/*
 * Why a row stalls: the evidence of the interval and a cause per stalled
 * category (model/rowwhy.h). Owned by the producer for the sample's
 * lifetime (or by a snapshot); a row points to it, NULL when nothing was
 * gathered (nothing stalled, or the row was not shown).
 */
struct row_why;

enum row_flags {
	ROW_EXITED = 1u << 0, /* ended during this interval */
	ROW_NEW = 1u << 1,    /* first seen in this interval */
};

struct row {
	/* by size, so that the rows of many idle threads cost little */
	pid_t pid;            /* thread id in thread rows, else the tgid */
	pid_t tgid;
	uid_t uid;            /* (uid_t)-1 when unknown */
	unsigned flags : 31;  /* enum row_flags */
	bool have_cpu_pct : 1; /* cpu_pct is known */
	const char *comm;     /* raw; views escape */
	const char *cmdline;  /* raw, arguments joined by spaces; may be "" */
	const char *user;     /* name, or the numeric uid as text */
	const char *cgroup;   /* path in the cgroup tree (kernel/cg_layout.h:
				 "/system.slice/x.service"), or NULL */
	const struct row_why *why; /* evidence of its stalls, or NULL */
	struct task_info info; /* state, parent, threads... */
	struct task_ctx ctx;  /* what stands next to a stall (rows a view
				 shows; nothing known in the others) */
	double cpu_pct;       /* CPU use, % of one CPU */
	double total_pct;     /* time held back, % (delta_stall) */
	double age;           /* seconds since first seen (for highlighting) */
	struct cat_figure d[NCAT];
};

/* One cgroup of the tree (kernel/cg_layout.h) and everything below it. */
struct cgroup_row {
	const char *path;     /* from the tree's root: "/", "/system.slice"... */
	const char *name;     /* what operators call it (model/cgname.h):
				 "nginx.service", "docker 3f2a1b4c5d6e" */
	int depth;            /* 0 for "/" */
	bool have_psi;        /* its *.pressure files could be read */
	struct psi_sample psi;
	struct cat_figure d[NCAT]; /* summed over its processes and below */
	double total_pct;
	size_t nr_tasks;      /* processes in it and below */
	/*
	 * The kernel's own counters of the cgroup at the sample (absent
	 * where its files are not there, and in a replay): time its tasks
	 * were throttled by its CPU quota (cpu.stat, its own), and the times
	 * its memory hit memory.high and memory.max and OOM kills
	 * (memory.events, it and below; v1: failcnt as max).
	 */
	uint64_t throttled_us;
	bool have_throttled;
	uint64_t mem_high, mem_max, mem_oom_kill;
	bool have_mem_high, have_mem_max, have_mem_oom_kill;
	const struct row_why *why; /* evidence of its stalls, or NULL (as
				      for a row: gathered for those shown) */
};

/*
 * The machine at a glance, as top and htop show it above the table: read
 * by the live source each sample; a recording does not hold it (all
 * absent).
 */
struct sample_machine {
	bool have_load;
	double load[3];       /* /proc/loadavg: 1, 5 and 15 minutes */
	bool have_cpu;
	double cpu_busy;      /* % of all online CPUs' time in the interval
				 not idle or waiting for IO (/proc/stat) */
	bool have_mem;
	uint64_t mem_total, mem_used;   /* bytes; used = total - available */
	bool have_swap;
	uint64_t swap_total, swap_used; /* bytes; used = total - free */
};

struct sample {
	double time;          /* wall clock at the end of the interval */
	double boottime;      /* CLOCK_BOOTTIME at the same moment (s), 0 if
				 unknown: tells a jump of the wall clock */
	double interval;      /* seconds the figures cover */
	bool delayacct;       /* kernel.task_delayacct is on */
	bool delayacct_known; /* the sysctl could be read */
	unsigned ts_version;  /* struct taskstats version, 0 if none */
	uint64_t events_lost; /* notifications lost since start */
	uint64_t exit_records_lost; /* of those, exit records */
	size_t dropped;       /* figures dropped as impossible in this sample */
	bool threads;         /* rows are threads (-H) */
	bool accumulated;     /* figures cover the time since start (-a) */
	struct psi_sample psi;
	struct row *rows;
	size_t nrows;
	struct row *exited;
	size_t nexited;
	const char *trigger;  /* the PSI trigger that took this sample, or NULL */
	struct cgroup_row *cgroups; /* when cgroups are collected, else NULL */
	size_t ncgroups;
	struct row *thread_rows;    /* a recording's thread rows (else NULL) */
	size_t nthread_rows;
	struct row *thread_exited;  /* ...and its threads that ended in the */
	size_t nthread_exited;      /* interval (else NULL) */
	struct sample_machine machine;
	size_t nprocs;        /* processes known */
	size_t nthreads;      /* threads known, 0 if not counted */
};

#endif
