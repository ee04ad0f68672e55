/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The live monitor's insides, shared by its parts. Nothing outside the
 * monitor includes it (but the unit tests of its handlers).
 */
#ifndef STALLTOP_MONITOR_INT_H
#define STALLTOP_MONITOR_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "kernel/cg_layout.h"
#include "kernel/psi.h"
#include "kernel/taskstats.h"
#include "live/monitor.h"
#include "live/tasktable.h"
#include "model/assemble.h"
#include "model/producer.h"

#define MAX_LISTENERS 64

struct cgtable;
struct gather;
struct machine;
struct pc_event;
struct pi_task;
struct procinfo_context;
struct proc_conn;
struct procinfo;
struct procstat;
struct ts_client;
struct ts_listener;
struct diskstats;
struct store_machine;
struct cpustat;
struct sysinfo_mem;
struct storesample;
struct store_task;
struct task_reading;
struct ts_reading;

struct monitor {
	struct producer p;          /* first: the monitor is a producer */
	struct monitor_opts o;
	struct evloop *loop;
	struct ts_client *ts;       /* NULL: readings come from /proc */
	struct procstat *ps;
	struct ts_listener *lis[MAX_LISTENERS];
	int nlis;
	struct proc_conn *pc;
	int hold_fd;                /* events.c: a batch's timer; -1 none */
	bool held;                  /* the notifications are not watched */
	struct procinfo *pi;
	struct psi_files psi;       /* /proc/pressure, read every sample */

	struct tasktable *procs;    /* process rows */
	struct tasktable *threads;  /* thread rows, in thread mode */

	/*
	 * scans of /proc so far: a task's seen is compared with the latest
	 * only, for equality, so its wrap is harmless (and 32 bits keep
	 * struct task small)
	 */
	uint32_t gen;
	uint64_t round;             /* readings taken so far */
	double prev_time;           /* monotonic time of the previous reading */
	double reading_time;        /* monotonic time of the latest reading */
	double reading_boot;        /* boot-clock time when it started */
	double prev_boot;           /* boot-clock time of the same */
	double start_time;
	uint64_t lost;              /* fork/exit notifications lost */
	uint64_t exit_lost;         /* exit records lost */
	struct tt_clocks clk;       /* when the notification at hand was read */
	struct task *group;         /* a last thread's record just taken: its
				       group's record may follow */
	size_t readings_let_go;      /* readings dropped at the last rebase */
	size_t tasks_high;           /* the most tasks known since memory
					was last given back */
	unsigned trim_left;          /* samples still to give it back after */
	bool need_rescan;
	bool parent_gone;           /* a process ended: children reparented */
	double rescan_every;        /* seconds, 0 = never */
	double last_rescan;
	/*
	 * When the scan or the drain of events at hand began: the time a
	 * task it finds was first seen (tasks_add), one for all of them,
	 * so that a recording writes it as the same value.
	 */
	double found_at;

	/*
	 * The gate of process mode's queries (readings.c): whether no task
	 * waited on block IO when /proc/stat was last read.
	 */
	bool io_quiet;

	int delayacct;              /* 1 on, 0 off, -1 unknown */
	unsigned kernel_cats;       /* categories this kernel collects */
	/*
	 * Delay accounting was switched on between these CLOCK_MONOTONIC
	 * times (-INFINITY: before stalltop started, taken as measured
	 * from the start); an interval from a base read by acct_hi is
	 * READING_UNSTAMPED for the tasks alive then.
	 */
	double acct_lo, acct_hi;
	/*
	 * Delay accounting was last seen on at this moment before it was
	 * switched off (-INFINITY: not seen on since stalltop started): a
	 * task born after it and by acct_hi may have begun while it was
	 * off, and the kernel never measures those (task.unmeasured).
	 */
	double acct_on_until;
	double acct_checked;        /* when the switch was last read */
	double reading_end;         /* monotonic end of the latest queries */
	double query_start;         /* ... and their start */
	double reading_real;        /* CLOCK_REALTIME of the latest reading */
	double prev_real;           /* ... of the previous one */
	bool own_pidns;             /* in a pid namespace of our own */

	struct cg_layout *cgl;      /* the cgroup hierarchies, NULL when the
				       sums per cgroup are not in use */
	struct cgtable *cgt;        /* the table of cgroups (cgtable.h): made
				       by the sums or by the evidence */
	bool status_filled;         /* this sample's rows have their state */
	double sample_dt;           /* the latest sample's interval (s) */
	struct gather *gather;      /* evidence of stalls (gather.c) */
	struct machine *machine;    /* load, CPU, memory (machine.c) */
	const char *fired;          /* label of the trigger that fired */

	struct assemble model;      /* the figures from the readings */
	struct storesample *whole;  /* the readings kept whole, when
				       recording (storesample.h), else NULL */
	uint32_t *ids;
	size_t nids, capids;
	pid_t *pidbuf;
	size_t npidbuf, cappidbuf;
};

/* Clocks, in seconds. */
static inline double monitor_clock(clockid_t id)
{
	struct timespec ts;
	clock_gettime(id, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static inline double monitor_now(void)
{
	return monitor_clock(CLOCK_MONOTONIC);
}

/* The clocks now, for placing lives (see struct tt_span). */
static inline void monitor_read_clocks(struct tt_clocks *c)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	c->mono_ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	clock_gettime(CLOCK_BOOTTIME, &ts);
	c->boot_ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	clock_gettime(CLOCK_REALTIME, &ts);
	c->real_ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* tasks.c: the lives in the task tables */
struct tasktable *tasks_active(struct monitor *m);
bool tasks_wanted_process(const struct monitor *m, pid_t tgid);
bool tasks_wanted_thread(const struct monitor *m, pid_t tgid);
struct tt_span tasks_span(const struct task *k);
/* The set of threads of process tgid changed (a thread began or ended). */
void tasks_threads_changed(struct monitor *m, pid_t tgid);
/* A task entered the table; from_zero: it started after the last reading. */
struct task *tasks_add(struct monitor *m, struct tasktable *t, pid_t id,
		       pid_t tgid, unsigned long long start, bool from_zero);
/* An earlier life of k's id has ended: a later one holds the id now. */
void tasks_retire_earlier(struct tasktable *t, struct task *k);
/* The earliest moment k can have begun to wait, from its start in ticks. */
void tasks_waits_from_ticks(const struct monitor *m, struct task *k,
			    unsigned long long ticks);
/*
 * k may have begun while delay accounting was off (before it last came
 * on), so the kernel measures nothing of it but cpu: its own unmeasured
 * bit, or its start in the last such stretch (or unknown).
 */
bool tasks_unmeasured(const struct monitor *m, const struct task *k);
/*
 * Delay accounting has just come on: mark every task that may have
 * begun while it was off, and every process with a live thread that
 * may have (a walk of /proc's threads, at each switch only).
 */
void tasks_mark_unmeasured(struct monitor *m);

/*
 * events.c: the proc connector and the exit-record sockets. The handlers
 * are open to the unit tests: m->clk holds the clocks of when the
 * notification was read; events_records_done() ends one drain of the
 * exit-record sockets.
 */
void events_open(struct monitor *m);
void events_close(struct monitor *m);
/* Take in what the sockets hold now. */
void events_drain(struct monitor *m);
void events_on_event(struct monitor *m, const struct pc_event *ev);
void events_on_exit_record(struct monitor *m, const struct ts_reading *r);
void events_records_done(struct monitor *m);

/* readings.c: queries, the /proc fallback, scans */
/* Read every task's figures (and scan, where due); -1 with errno. */
int readings_take(struct monitor *m);
/*
 * The latest readings become the base of the next interval; model: the
 * model had the rows' readings (assemble_task), which it rebased.
 */
void readings_rebase(struct monitor *m, bool model);
/*
 * Taskstats is out of reach (why: EPERM, ENOENT for no family, or another
 * errno): read what /proc has; -1: no memory.
 */
int readings_use_procstat(struct monitor *m, int why);
/* A scan of /proc found t (open to the unit tests). */
void readings_on_scanned(struct monitor *m, const struct pi_task *t,
			 bool threads);

/* rows.c: rows from the tasks */
/* The previous sample's rows are no longer referenced: start anew. */
void rows_forget(struct monitor *m);
/*
 * Every task's reading to the model (assemble_task), between
 * assemble_begin and assemble_end: the rows of the sample.
 */
void rows_build(struct monitor *m);
/* The threads' readings are given too (for a recording's thread rows). */
bool rows_thread_readings(const struct monitor *m);
/* What the kernel said of task k at the latest reading, and its names. */
void rows_store_task(struct monitor *m, struct task *k, struct store_task *st);
/* The baseline's tasks into the readings kept whole (m->whole). */
void rows_keep_baseline(struct monitor *m);
/*
 * The kept tasks' details and context as read for the rows shown (after
 * rows_fill_status), so the readings hold what the views were given.
 */
void rows_keep_status(struct monitor *m);
/* Names and users for tasks of t new or changed since the last sample. */
void rows_refresh_details(struct monitor *m, struct tasktable *t);
/* What the kernel said of task k at the latest reading (store/reading.h). */
void rows_reading(const struct monitor *m, const struct task *k,
		  struct task_reading *r);
/* The state of the rows a view is about to show. */
void rows_fill_status(struct monitor *m, struct row *rows, size_t n);
size_t rows_count_threads(struct monitor *m);

/* gather.c: why the shown rows stall */
/* The evidence of the stalled processes among rows (row.why). */
void gather_rows(struct monitor *m, struct row *rows, size_t n);
/*
 * Row r's evidence is to be read this round (its process stalls, and
 * gather_rows follows): its context's status is kept for it.
 */
void gather_expect(struct monitor *m, const struct row *r);
/*
 * The text of process k's status as its context read it this round: its
 * evidence of this round takes its allowed CPUs from it rather than read
 * that file again. Parsed only for a process gather_expect named this
 * round.
 */
void gather_context(struct monitor *m, struct task *k,
		    const struct procinfo_context *c);
/*
 * /proc/diskstats as read with this sample's evidence, or NULL when it
 * was not read (no shown row stalled on IO).
 */
const struct diskstats *gather_disks(const struct monitor *m);
/* The evidence of the stalled cgroups among rows (cgroup_row.why). */
void gather_cgroups(struct monitor *m, struct cgroup_row *rows, size_t n);
/*
 * The first interval's causes need a reading before it: the processes
 * of rows stalled in a short interval before the baseline (at most
 * GATHER_BASE_MAX), noted; gather_base_read, at the baseline, reads
 * their evidence (of the groups any first cause needs) as the base of
 * the first sample's (model/rowev.h, rowev_base) and into the recording
 * with the baseline's readings.
 */
void gather_base_pick(struct monitor *m, const struct row *rows, size_t n);
void gather_base_read(struct monitor *m);
/* A sample begins: forget what is too old to make an interval with. */
void gather_new_round(struct monitor *m);
void gather_free(struct monitor *m);

/*
 * machine.c: what the machine line is made of (store_sample.machine),
 * and this round's /proc/stat and /proc/meminfo for every reader of the
 * round (the line, the gate of the queries, the evidence): each read
 * once, when first asked for in the round. NULL when not read.
 */
void machine_read(struct monitor *m, struct store_machine *out);
const struct cpustat *machine_stat(struct monitor *m);
const struct sysinfo_mem *machine_mem(struct monitor *m);
void machine_free(struct monitor *m);

/* act.c: acting on a task (the producer's act and prio) */
int act_run(struct producer *p, struct producer_act *a);
int act_prio(struct producer *p, const struct producer_act *who,
	     struct producer_prio *out);

/* cgsum.c: the sums per cgroup */
/* A process's cgroup is read again at the latest this long after (s). */
#define CGSUM_RECHECK 5.0
bool cgsum_used(const struct monitor *m);
/* Find the cgroup hierarchies; -1 with errno (ENOENT: none is mounted). */
int cgsum_open(struct monitor *m);
void cgsum_update(struct monitor *m, struct task *k);
/*
 * Process k's /proc/PID/cgroup text, through the same read and the same
 * rule of when, kept from now on (read again after an exec, and at the
 * latest CGSUM_RECHECK seconds after the last read); NULL: not known.
 */
const char *cgsum_text(struct monitor *m, struct task *k);
/* Read again the cgroups that are due (see cgsum_update). */
void cgsum_update_all(struct monitor *m);
/* Read every process's cgroup now. */
void cgsum_read_all(struct monitor *m);
void cgsum_inherit(struct monitor *m, struct task *k, pid_t parent);
/*
 * Read every cgroup's pressure once, so the first interval has a share:
 * how many were read (cgtable_readings), 0 when none could be.
 */
size_t cgsum_prime(struct monitor *m);
void cgsum_build(struct monitor *m, struct sample *out);

#endif
