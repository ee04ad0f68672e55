/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Acting on a chosen task: kill through a pidfd (pidfd_send_signal),
 * setpriority and ioprio_set by id after the task's start time was
 * checked. A process's nice value and IO priority are per thread in
 * Linux, so a process gets them on every one of its threads.
 */
#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "kernel/procfs.h"
#include "kernel/procinfo.h"
#include "kernel/procstat.h"
#include "kernel/taskact.h"

#ifndef PIDFD_THREAD
#define PIDFD_THREAD O_EXCL
#endif
#define IOPRIO_SHIFT 13
#define IOPRIO_WHO_PROC 1

/*
 * Start times match when they are the same conversion of the same tick
 * count; ticks are 10 ms apart, so half of one tells them apart.
 */
#define START_SLACK 0.005

/* The task's start in seconds since the epoch, or -1 (errno ESRCH). */
static int read_start(pid_t tgid, pid_t pid, double *out)
{
	char path[64], text[1024];
	if (pid != tgid)
		snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", (int)tgid,
			 (int)pid);
	else
		snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	struct procfs_stat st;
	if (procfs_read(AT_FDCWD, path, text, sizeof(text)) <= 0 ||
	    procfs_parse_stat(text, &st) < 0 || !st.have_start) {
		errno = ESRCH;
		return -1;
	}
	*out = procinfo_start_epoch(st.start);
	return 0;
}

/* Is the id still the task chosen? 0, or -1 (ESRCH, ESTALE). */
static int check(const struct taskact_target *t)
{
	double now;
	if (t->pid <= 0 || t->tgid <= 0) {
		errno = EINVAL;
		return -1;
	}
	if (read_start(t->tgid, t->pid, &now) < 0)
		return -1;
	if (t->start <= 0 || now <= 0 || fabs(now - t->start) > START_SLACK) {
		errno = ESTALE;
		return -1;
	}
	return 0;
}

int taskact_signal(const struct taskact_target *t, int sig)
{
	if (sig <= 0 || sig >= NSIG) {
		errno = EINVAL;
		return -1;
	}
	/* the pidfd holds this task: checked once, it cannot become another */
	int fd = (int)syscall(SYS_pidfd_open, t->pid,
			      t->thread ? PIDFD_THREAD : 0);
	if (fd < 0) {
		if (errno != ENOSYS && errno != EINVAL)
			return -1;
		/* no pidfd (or none for threads): the check, then the id */
		if (check(t) < 0)
			return -1;
		return t->thread ? (int)syscall(SYS_tgkill, t->tgid, t->pid, sig)
				 : kill(t->pid, sig);
	}
	int rc = check(t);
	if (rc == 0)
		rc = (int)syscall(SYS_pidfd_send_signal, fd, sig, NULL, 0);
	int e = errno;
	close(fd);
	errno = e;
	return rc;
}

int taskact_get_nice(const struct taskact_target *t, int *nice)
{
	if (check(t) < 0)
		return -1;
	errno = 0;
	int v = getpriority(PRIO_PROCESS, (id_t)t->pid);
	if (v == -1 && errno)
		return -1;
	*nice = v;
	return 0;
}

/* Call fn on the thread, or on every thread of the process. */
static int each_thread(const struct taskact_target *t,
		       int (*fn)(pid_t tid, int a, int b), int a, int b,
		       int *done)
{
	*done = 0;
	if (check(t) < 0)
		return -1;
	if (t->thread) {
		if (fn(t->pid, a, b) < 0)
			return -1;
		*done = 1;
		return 0;
	}
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/task", (int)t->tgid);
	DIR *d = opendir(path);
	if (!d) {
		errno = ESRCH;
		return -1;
	}
	int rc = 0, first_err = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		char *end;
		long tid = strtol(e->d_name, &end, 10);
		if (*end || tid <= 0)
			continue;
		if (fn((pid_t)tid, a, b) == 0)
			(*done)++;
		else if (errno != ESRCH && !first_err)
			first_err = errno; /* a thread that ended is no failure */
	}
	closedir(d);
	if (first_err) {
		errno = first_err;
		rc = -1;
	} else if (!*done) {
		errno = ESRCH;
		rc = -1;
	}
	return rc;
}

static int set_nice(pid_t tid, int nice, int unused)
{
	(void)unused;
	return setpriority(PRIO_PROCESS, (id_t)tid, nice);
}

int taskact_set_nice(const struct taskact_target *t, int nice, int *done)
{
	if (nice < -20 || nice > 19) {
		errno = EINVAL;
		return -1;
	}
	return each_thread(t, set_nice, nice, 0, done);
}

int taskact_get_ioprio(const struct taskact_target *t,
		       enum taskact_ioclass *cls, int *level)
{
	if (check(t) < 0)
		return -1;
	long v = syscall(SYS_ioprio_get, IOPRIO_WHO_PROC, t->pid);
	if (v < 0)
		return -1;
	*cls = (enum taskact_ioclass)((v >> IOPRIO_SHIFT) & 7);
	*level = (int)(v & 7);
	if (*cls == TASKACT_IO_IDLE)
		*level = -1;
	return 0;
}

static int set_ioprio(pid_t tid, int cls, int level)
{
	long v = ((long)cls << IOPRIO_SHIFT) | (level < 0 ? 0 : level);
	return (int)syscall(SYS_ioprio_set, IOPRIO_WHO_PROC, tid, v);
}

int taskact_set_ioprio(const struct taskact_target *t,
		       enum taskact_ioclass cls, int level, int *done)
{
	bool levels = cls == TASKACT_IO_RT || cls == TASKACT_IO_BE;
	if ((levels && (level < 0 || level > 7)) ||
	    (!levels && cls != TASKACT_IO_IDLE && cls != TASKACT_IO_NONE)) {
		errno = EINVAL;
		return -1;
	}
	return each_thread(t, set_ioprio, (int)cls, levels ? level : 0, done);
}
