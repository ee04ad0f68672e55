/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The monitor's insides, shared by monitor.c (the live system) and
 * monitor_replay.c (a recording). Nothing outside the monitor includes it.
 */
#ifndef STALLTOP_MONITOR_INT_H
#define STALLTOP_MONITOR_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/psi.h"
#include "live/monitor.h"
#include "model/tasktable.h"

#define MAX_LISTENERS 64
#define MAX_NOTICES 8

struct cgtable;
struct pc_event;
struct pi_task;
struct proc_conn;
struct procinfo;
struct procstat;
struct replay;
struct ts_client;
struct ts_listener;
struct ts_reading;

struct monitor {
	struct monitor_opts o;
	struct evloop *loop;
	struct ts_client *ts;       /* NULL: readings come from /proc */
	struct procstat *ps;
	struct ts_listener *lis[MAX_LISTENERS];
	int nlis;
	struct proc_conn *pc;
	struct procinfo *pi;

	struct tasktable *procs;    /* process rows */
	struct tasktable *threads;  /* thread rows, in thread mode */

	uint64_t gen;
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
	bool need_rescan;
	double rescan_every;        /* seconds, 0 = never */
	double last_rescan;

	int delayacct;              /* 1 on, 0 off, -1 unknown */
	unsigned kernel_cats;       /* categories this kernel collects */
	/*
	 * Delay accounting was switched on between these CLOCK_MONOTONIC
	 * times (-INFINITY: before stalltop started, taken as measured
	 * from the start); only tasks born after acct_hi have figures.
	 */
	double acct_lo, acct_hi;
	double acct_checked;        /* when the switch was last read */
	double reading_end;         /* monotonic end of the latest queries */
	double query_start;         /* ... and their start */
	double reading_real;        /* CLOCK_REALTIME of the latest reading */
	double prev_real;           /* ... of the previous one */
	size_t dropped;             /* figures dropped in this sample */
	bool own_pidns;             /* in a pid namespace of our own */

	struct psi_reading psi_prev;

	struct replay *rp;          /* replaying: the recording */
	size_t rp_next;             /* sample monitor_sample() hands out next */
	size_t rp_shown;            /* the one handed out last */
	bool rp_started, rp_paused, rp_done;

	char cg_root[4096];         /* cgroup v2 mount, "" when not in use */
	struct cgtable *cgt;
	struct row *trows;          /* thread rows kept for a recording */
	size_t ntrows, captrows;
	struct row *texited;        /* ...and its threads that ended */
	size_t ntexited, captexited;
	bool status_filled;         /* this sample's rows have their state */
	void (*sample_cb)(const struct sample *, void *);
	void *sample_arg;
	void (*trigger_cb)(void *);
	void *trigger_arg;
	const char *fired;          /* label of the trigger that fired */

	struct row *rows;
	size_t nrows, caprows;
	struct row *exited;
	size_t nexited, capexited;
	uint32_t *ids;
	size_t nids, capids;
	pid_t *pidbuf;
	size_t npidbuf, cappidbuf;

	char *notices[MAX_NOTICES + 1];
	int nnotices;
};

/* Add a notice for the user (copied; duplicates are dropped). */
void monitor_notice(struct monitor *m, const char *text);

/* Append a zeroed row to a growing array; NULL when out of memory. */
struct row *monitor_push_row(struct row **v, size_t *n, size_t *cap);

/*
 * The handlers of notifications, and of a scan's finds (monitor.c), open to
 * the unit tests: m->clk holds the clocks of when the notification was
 * read. monitor_records_done() ends one drain of the exit-record sockets.
 */
void monitor_on_event(struct monitor *m, const struct pc_event *ev);
void monitor_on_exit_record(struct monitor *m, const struct ts_reading *r);
void monitor_records_done(struct monitor *m);
void monitor_on_scanned(struct monitor *m, const struct pi_task *t,
			bool threads);

/* monitor_replay.c: open the recording at path into m; 0, or -1 with a
 * translated message in err. */
int monitor_replay_open(struct monitor *m, const char *path, char *err,
			size_t errsize);
/* monitor_replay.c: the next recorded sample, shaped for the view. */
int monitor_replay_sample(struct monitor *m, struct sample *out);

#endif
