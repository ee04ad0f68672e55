/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Process details: the task list (for the initial scan and
 * resynchronisation; libproc2), names, command lines, users (libproc2),
 * state, parent and thread counts, and what stands next to a stall (each
 * task's own /proc files). Callers cache what does not change.
 */
#ifndef STALLTOP_PROCINFO_H
#define STALLTOP_PROCINFO_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "kernel/taskev.h"

struct procinfo;

struct pi_task {
	pid_t pid;                /* thread id (== tgid for a process) */
	pid_t tgid;
	unsigned long long start; /* start time, clock ticks since boot */
};

/* What both reads of the details give. */
struct procinfo_info {
	pid_t ppid;               /* 0 when unknown */
	char state;               /* '\0' when unknown */
	int threads;              /* -1 when unknown */
	double start;             /* seconds since the epoch; 0 unknown */
};

struct procinfo_details {
	pid_t pid, tgid;
	unsigned long long start;
	struct procinfo_info info; /* every member, in both reads */
	const char *comm;        /* valid during the callback */
	const char *cmdline;     /* "" for kernel threads */
	const char *user;
	uid_t uid;
};

/* The size of a wait channel's name kept (kernel symbols are shorter). */
#define PROCINFO_WCHAN_MAX 48

/*
 * What stands next to a stall as read at one moment: the levels as they
 * are, the counters the rates are made of.
 */
struct procinfo_context {
	pid_t pid;
	unsigned long long start; /* clock ticks since boot; 0 unknown */
	char state;
	pid_t ppid;               /* a process's parent; 0 unknown, and in a
				     thread's read */
	int threads;              /* a process's threads; -1 unknown, and in
				     a thread's read */
	bool have_nice;
	int nice;                 /* -20..19 */
	bool have_mem;            /* not for a kernel thread or a zombie */
	long long rss_kib, swap_kib;
	char wchan[PROCINFO_WCHAN_MAX]; /* where it sleeps in D; "" none */
	bool have_majflt;
	unsigned long long majflt; /* major faults of the whole process */
	/*
	 * Its /proc/PID/io, each line had where read (not in a thread's
	 * read, nor without ptrace rights): its storage bytes are its
	 * row's, and the whole is its evidence's of the same round.
	 */
	struct taskev_io io;
	double at;                /* CLOCK_MONOTONIC seconds of the read */
	/*
	 * The text of a process's status, read for its memory, valid during
	 * the callback (its evidence takes its allowed CPUs from it:
	 * taskev_parse_cpu); NULL in a thread's read and where it was not
	 * read (a kernel thread, a zombie).
	 */
	const char *status;
};

typedef void (*pi_task_cb)(const struct pi_task *t, void *arg);
typedef void (*pi_details_cb)(const struct procinfo_details *d, void *arg);

struct procinfo *procinfo_new(void);
void procinfo_free(struct procinfo *pi);

/* Walk /proc: every process, or with threads every thread too. */
int procinfo_scan(struct procinfo *pi, bool threads, pi_task_cb cb, void *arg);

/* The threads of some processes. */
int procinfo_threads(struct procinfo *pi, const pid_t *tgids, size_t n,
	       pi_task_cb cb, void *arg);

/*
 * Details of these ids (thread ids or tgids). full=false reads only what
 * changes (the struct task_info, from /proc/PID/stat alone); comm,
 * cmdline and user are then NULL, tgid 0 (not read). Ids that vanished
 * are skipped.
 */
int procinfo_details(struct procinfo *pi, const pid_t *ids, size_t n, bool full,
	       pi_details_cb cb, void *arg);

typedef void (*pi_context_cb)(const struct procinfo_context *c, void *arg);

/*
 * What stands next to a stall for these processes: each one's
 * /proc/PID/stat (state, nice, faults, whether a kernel thread), the
 * memory of its status (none for a kernel thread or a zombie), its IO
 * (/proc/PID/io, readable with ptrace rights only) and, in D only, its
 * wait channel. Ids that vanished are skipped.
 */
int procinfo_context(struct procinfo *pi, const pid_t *ids, size_t n,
		     pi_context_cb cb, void *arg);

/*
 * The same for processes none of whose threads ran since the last such
 * read, without the reads that make the kernel walk every thread of it
 * (/proc/PID/stat sums their faults and times, /proc/PID/io their IO):
 * the stat line of its leader alone (/proc/PID/task/PID/stat: its state,
 * parent, threads, nice and start are the process's, as /proc/PID/stat
 * shows them) and the memory of its status (the whole address space's,
 * no walk either). Neither faults nor IO: have_majflt false, io's lines
 * not had.
 */
int procinfo_context_asleep(struct procinfo *pi, const pid_t *ids, size_t n,
			    pi_context_cb cb, void *arg);

/*
 * The raw name (/proc/PID/comm) of a task, control bytes and all; NULL if
 * it ended. Valid until the next call.
 */
const char *procinfo_comm(struct procinfo *pi, pid_t pid);

/*
 * The same for threads tids[i] of processes tgids[i]: each one's
 * /proc/TGID/task/TID/stat (state, nice, whether a kernel
 * thread; through /proc/TID instead, the kernel adds up the CPU time of
 * the whole thread group for every thread: quadratic in a large
 * process), its wait channel while in D, and the memory of its process,
 * which its threads share, read once per process. No faults, no IO (the
 * process's). Ids that vanished are skipped; -1 with errno when memory
 * runs out.
 */
int procinfo_thread_context(struct procinfo *pi, const pid_t *tgids,
			    const pid_t *tids, size_t n, pi_context_cb cb,
			    void *arg);

/* Threads in the whole system (the kernel's count in /proc/loadavg). */
long procinfo_system_threads(void);

/* Clock ticks per second (for start times). */
long procinfo_hertz(void);

/*
 * A start in ticks since boot as seconds since the epoch, as struct
 * task_info has it (the same boot time every time); 0 unknown.
 */
double procinfo_start_epoch(unsigned long long ticks);

/*
 * Whether we run in the initial pid namespace (where /proc shows every
 * process of the machine). True when it cannot be told.
 */
bool procinfo_in_initial_pid_ns(void);

/*
 * A boolean option of the running kernel's configuration, from
 * /proc/config.gz or /boot/config-RELEASE: 1 set (y or m), 0 not set,
 * -1 when no configuration can be read.
 */
int procinfo_kernel_config(const char *option);

/* The name of a user, or the uid as digits; cached. Never NULL. */
const char *procinfo_user_name(struct procinfo *pi, uid_t uid);

#endif
