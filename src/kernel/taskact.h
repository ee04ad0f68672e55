/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Acting on a task the operator chose: a signal, a nice value, an IO
 * priority. Each action first checks that the id still names the task
 * chosen (its start time), so that a pid reused in between is never hit;
 * a signal goes through a pidfd, which holds the task itself.
 */
#ifndef STALLTOP_TASKACT_H
#define STALLTOP_TASKACT_H

#include <stdbool.h>
#include <sys/types.h>

/* The task acted on: a process (all its threads) or one thread. */
struct taskact_target {
	pid_t pid;     /* the thread's id when thread, else the tgid */
	pid_t tgid;
	bool thread;
	double start;  /* its start, seconds since the epoch (task_info) */
};

/* The IO scheduling classes, as ioprio_set(2) numbers them. */
enum taskact_ioclass {
	TASKACT_IO_NONE = 0,   /* none set: best-effort from the nice value */
	TASKACT_IO_RT = 1,
	TASKACT_IO_BE = 2,
	TASKACT_IO_IDLE = 3,
};

/*
 * Each returns 0, or -1 with errno set: ESRCH when the task ended,
 * ESTALE when its id now names another task (or its start is unknown),
 * EPERM/EACCES without the privilege, EINVAL for a value out of range.
 */
int taskact_signal(const struct taskact_target *t, int sig);
/* The nice value (of a process: its main thread's). */
int taskact_get_nice(const struct taskact_target *t, int *nice);
/* Every thread of a process, or the one thread; *done: how many. */
int taskact_set_nice(const struct taskact_target *t, int nice, int *done);
/* The IO priority (class, level 0-7; level -1 for idle). */
int taskact_get_ioprio(const struct taskact_target *t,
		       enum taskact_ioclass *cls, int *level);
int taskact_set_ioprio(const struct taskact_target *t,
		       enum taskact_ioclass cls, int level, int *done);

#endif
