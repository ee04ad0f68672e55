/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The live monitor: owns the kernel sources (taskstats, proc connector,
 * exit listener, PSI, libproc2) and the task table, and turns them into
 * samples. It is a producer (model/producer.h): views see only that.
 */
#ifndef STALLTOP_MONITOR_H
#define STALLTOP_MONITOR_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "kernel/psi_trigger.h"

struct evloop;
struct producer;

struct monitor_opts {
	bool threads;          /* thread rows instead of process rows */
	pid_t only_tgid;       /* threads of this process only (0: all) */
	bool accumulate;       /* figures since start instead of per interval */
	const pid_t *pids;     /* collect only these processes (NULL: all) */
	size_t npids;
	bool no_events;        /* scan /proc every sample instead */
	bool cgroups;          /* sum rows per cgroup (sample.cgroups) */
	const char *cgroup_within; /* only tasks in this v2 subtree (normalised) */
	bool record;           /* keep each sample's readings whole, for a
				  recording (producer_readings) */
	bool record_threads;   /* thread rows too (sample.thread_rows) */
	struct psi_trigger *triggers; /* parsed, to arm; owned by the caller */
	size_t ntriggers;
	double rescan;         /* safety rescan period, 0 = never */
	bool machine;          /* the machine at a glance (sample.machine),
				  which only the screen shows */
	bool thread_state_waits; /* thread rows: a thread's state (and what
				  else its own stat line gives: nice,
				  memory, wait channel) read only for the
				  rows that waited on something other than
				  a CPU in the interval; batch output that
				  sorts by no detail (fields.h FIELD_DETAIL)
				  and is not recorded */
};

/*
 * Open every source and take the baseline reading. On failure returns
 * NULL, prints one clear message on stderr and sets *exit_code (1 for a
 * missing privilege or kernel feature). Free with producer_free().
 */
struct producer *monitor_new(const struct monitor_opts *o, struct evloop *loop,
			     int *exit_code);

#endif
