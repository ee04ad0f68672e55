/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The monitor: owns the kernel sources (taskstats, proc connector, exit
 * listener, PSI, libproc2) and the task table, and turns them into
 * samples. Views only ever see struct sample.
 */
#ifndef STALLTOP_MONITOR_H
#define STALLTOP_MONITOR_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "kernel/psi_trigger.h"
#include "model/sample.h"

struct evloop;
struct monitor;

struct monitor_opts {
	bool threads;          /* thread rows instead of process rows */
	pid_t only_tgid;       /* threads of this process only (0: all) */
	bool accumulate;       /* figures since start instead of per interval */
	const pid_t *pids;     /* collect only these processes (NULL: all) */
	size_t npids;
	bool no_events;        /* scan /proc every sample instead */
	bool cgroups;          /* sum rows per cgroup (sample.cgroups) */
	const char *cgroup_within; /* only tasks in this v2 subtree (normalised) */
	bool record_threads;   /* thread rows too (sample.thread_rows) */
	const char *replay;    /* read samples from this recording instead */
	struct psi_trigger *triggers; /* parsed, to arm; owned by the caller */
	size_t ntriggers;
	double rescan;         /* safety rescan period, 0 = never */
};

/*
 * Open every source and take the baseline reading. On failure returns
 * NULL, prints one clear message on stderr and sets *exit_code (1 for a
 * missing privilege or kernel feature).
 */
struct monitor *monitor_new(const struct monitor_opts *o, struct evloop *loop,
			    int *exit_code);
void monitor_free(struct monitor *m);

/*
 * Close the interval since the previous sample (or the baseline) and fill
 * out. The sample and the strings it points to stay valid until the next
 * call to monitor_sample() or monitor_free().
 */
int monitor_sample(struct monitor *m, struct sample *out);

/*
 * Read what changes every interval (state, parent, thread count) for the
 * rows a view is about to show; cheaper than doing it for every task.
 */
void monitor_fill_status(struct monitor *m, struct row *rows, size_t n);

/* Switch rows between processes and threads; takes a new baseline. */
void monitor_set_threads(struct monitor *m, bool threads, pid_t only_tgid);
void monitor_set_accumulate(struct monitor *m, bool accumulate);

/*
 * Start (or stop) summing rows per cgroup. Returns 0, or -1 with errno
 * set (ENOENT: no cgroup v2 hierarchy is mounted).
 */
int monitor_set_cgroups(struct monitor *m, bool on);

/*
 * Call cb when a PSI trigger fires (the next sample then carries its
 * label in sample.trigger): views take a sample at once.
 */
void monitor_on_trigger(struct monitor *m, void (*cb)(void *), void *arg);

/*
 * Call cb with every sample monitor_sample() hands out, before any view
 * filters it (a recording keeps everything).
 */
void monitor_on_sample(struct monitor *m,
		       void (*cb)(const struct sample *, void *), void *arg);

/*
 * Replaying a recording: samples come from the file, one per call of
 * monitor_sample() (the last one again at the end, unless paused, when
 * the same one comes again).
 */
bool monitor_is_replay(const struct monitor *m);
/* Show the sample delta steps from the one shown last (t: +1, T: -1). */
void monitor_replay_step(struct monitor *m, long delta);
/* Show the sample at or just before a wall-clock time. */
void monitor_replay_jump(struct monitor *m, double epoch);
void monitor_replay_pause(struct monitor *m, bool pause);
bool monitor_replay_paused(const struct monitor *m);
/* Position of the sample shown last (0-based) and the count; false live. */
bool monitor_replay_position(const struct monitor *m, size_t *index,
			     size_t *count);
/* true once the last sample of a recording was handed out. */
bool monitor_replay_done(const struct monitor *m);

/* Notices for the user (fallbacks, missing features); NULL-terminated. */
const char *const *monitor_notices(const struct monitor *m);

#endif
