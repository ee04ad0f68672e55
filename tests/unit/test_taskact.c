/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Acting on a task checks its start time first: a child of the test
 * named with a start one tick off (as a reused pid would be) is neither
 * signalled nor reniced (ESTALE), with its own start it is; an ended
 * task is ESRCH. The nice value and IO class read back are the ones
 * set, through the kernel's own getpriority/ioprio_get. A process gets
 * them on every thread, a thread alone on itself.
 */
#include <config.h>

#include <dirent.h>
#include <pthread.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "kernel/procfs.h"
#include "kernel/procinfo.h"
#include "kernel/taskact.h"
#include "unit.h"

static void *sleeper(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

/* The thread of pid that is not pid (it has two), or 0. */
static pid_t other_thread(pid_t pid)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	DIR *d = opendir(path);
	pid_t tid = 0;
	struct dirent *e;
	while (d && (e = readdir(d)))
		if (atoi(e->d_name) > 0 && atoi(e->d_name) != pid)
			tid = atoi(e->d_name);
	if (d)
		closedir(d);
	return tid;
}

static double start_of(pid_t tgid, pid_t pid)
{
	char path[64], text[1024];
	snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", (int)tgid,
		 (int)pid);
	FILE *f = fopen(path, "re");
	if (!f)
		return 0;
	size_t n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[n] = '\0';
	struct procfs_stat st;
	if (procfs_parse_stat(text, &st) < 0 || !st.have_start)
		return 0;
	return procinfo_start_epoch(st.start);
}

int main(void)
{
	pid_t child = fork();
	if (child == 0) {
		pthread_t t;
		if (pthread_create(&t, NULL, sleeper, NULL) != 0)
			_exit(1);
		for (;;)
			pause();
	}
	CHECK(child > 0);
	pid_t tid = 0;
	for (int i = 0; i < 1000 && !(tid = other_thread(child)); i++)
		usleep(2000);
	CHECK(tid > 0);
	double start = start_of(child, child);
	CHECK(start > 0);
	double tick = 1.0 / (double)procinfo_hertz();
	/* a nice value other than the one it runs at (the test may run under
	   nice): 19, or 18 where it is 19 already */
	errno = 0;
	int n0 = getpriority(PRIO_PROCESS, (id_t)child);
	CHECK(errno == 0);
	int want = n0 == 19 ? 18 : 19;
	if (want < n0 && geteuid() != 0) {
		unit_skip("a lower nice value needs root (CAP_SYS_NICE)");
		kill(child, SIGKILL);
		return unit_done();
	}

	/* a start one tick off: another task with the same id */
	struct taskact_target other = { child, child, false, start + tick };
	errno = 0;
	CHECK(taskact_signal(&other, SIGTERM) == -1 && errno == ESTALE);
	int done = -1;
	errno = 0;
	CHECK(taskact_set_nice(&other, want, &done) == -1 && errno == ESTALE);
	CHECK_EQ_U(done, 0);
	errno = 0;
	CHECK(getpriority(PRIO_PROCESS, (id_t)child) == n0);

	/* its own start: nice, IO class, then the signal */
	struct taskact_target t = { child, child, false, start };
	CHECK(taskact_set_nice(&t, want, &done) == 0);
	CHECK_EQ_U(done, 2);
	int nice = -100;
	CHECK(taskact_get_nice(&t, &nice) == 0);
	CHECK(nice == want);
	errno = 0;
	CHECK(getpriority(PRIO_PROCESS, (id_t)child) == want);
	/* every thread of the process */
	CHECK(getpriority(PRIO_PROCESS, (id_t)tid) == want);
	/* the thread alone: the main thread keeps its value */
	struct taskact_target th = { tid, child, true, start_of(child, tid) };
	CHECK(taskact_set_nice(&th, n0, &done) == 0);
	CHECK_EQ_U(done, 1);
	CHECK(getpriority(PRIO_PROCESS, (id_t)tid) == n0);
	CHECK(getpriority(PRIO_PROCESS, (id_t)child) == want);
	th.start += tick;
	errno = 0;
	CHECK(taskact_set_nice(&th, want, &done) == -1 && errno == ESTALE);
	CHECK(taskact_set_ioprio(&t, TASKACT_IO_BE, 6, &done) == 0);
	long v = syscall(SYS_ioprio_get, 1, child);
	CHECK_EQ_U(v, (2 << 13) | 6);
	enum taskact_ioclass cls;
	int level;
	CHECK(taskact_get_ioprio(&t, &cls, &level) == 0);
	CHECK(cls == TASKACT_IO_BE && level == 6);
	errno = 0;
	CHECK(taskact_set_ioprio(&t, TASKACT_IO_BE, 8, &done) == -1 &&
	      errno == EINVAL);
	CHECK(taskact_set_nice(&t, 20, &done) == -1 && errno == EINVAL);

	CHECK(taskact_signal(&t, SIGUSR1) == 0);
	int status = 0;
	CHECK(waitpid(child, &status, 0) == child);
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGUSR1);

	/* ended (and reaped) */
	errno = 0;
	CHECK(taskact_signal(&t, SIGTERM) == -1 && errno == ESRCH);
	errno = 0;
	CHECK(taskact_get_nice(&t, &nice) == -1 && errno == ESRCH);
	return unit_done();
}
