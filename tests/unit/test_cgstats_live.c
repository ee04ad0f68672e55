/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cgroupstats on the running kernel (root): a new cgroup in a v1
 * hierarchy gets two spinning children, three sleeping in pause() and
 * one stopped by SIGSTOP; once /proc shows them so, CGROUPSTATS_CMD_GET
 * with the directory's descriptor must count exactly those states, as
 * must the /proc count of its "tasks" file. A v2 directory must be
 * refused (EINVAL), and the hierarchy's root must count no more tasks
 * than its "tasks" file lists, within a bound for tasks that come and go.
 * Skips when no v1 hierarchy is mounted or without root.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kernel/cg_layout.h"
#include "kernel/cgroup.h"
#include "kernel/cgstats.h"
#include "kernel/kval.h"
#include "kernel/procfs.h"
#include "kernel/taskstats.h"
#include "unit.h"

#define NSPIN 2
#define NSLEEP 3
#define NSTOP 1
#define NKIDS (NSPIN + NSLEEP + NSTOP)

static pid_t kids[NKIDS];

static char *slurp(const char *path)
{
	static char buf[1 << 20];

	if (procfs_read_lines(-1, path, buf, sizeof(buf)) < 0)
		return NULL;
	return buf;
}

/* A v1 hierarchy's mount point: cpu if there is one, else another. */
static bool find_v1(char *mnt, size_t size)
{
	static const char *const ctl[] = {
		"cpu", "memory", "pids", "freezer", "blkio", "name=systemd",
	};
	char root[4096];
	char *mi = slurp("/proc/self/mountinfo");

	for (size_t i = 0; mi && i < sizeof(ctl) / sizeof(ctl[0]); i++)
		if (cgroup_parse_mountinfo_v1(mi, ctl[i], mnt, size, root,
					      sizeof(root)) == 0)
			return true;
	return false;
}

static pid_t spawn(int kind)
{
	pid_t pid = fork();

	if (pid < 0) {
		perror("fork");
		exit(99);
	}
	if (pid > 0)
		return pid;
	if (kind == 0)
		for (volatile unsigned long n = 0;; n++)
			;
	for (;;)
		pause();
}

static void put_in(const char *dir, pid_t pid)
{
	char path[4300], num[32];
	int fd, len;

	snprintf(path, sizeof(path), "%s/tasks", dir);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	len = snprintf(num, sizeof(num), "%ld\n", (long)pid);
	if (fd < 0 || write(fd, num, (size_t)len) != len) {
		perror(path);
		exit(99);
	}
	close(fd);
}

/* Does the /proc count of the cgroup show the workload's states? */
static bool settled(int cgfd, struct cgstats *proc)
{
	int procfd = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int ret = cgstats_count_v1(cgfd, procfd, proc);

	close(procfd);
	return ret == 0 && proc->nr_running.v == NSPIN &&
	       proc->nr_sleeping.v == NSLEEP && proc->nr_stopped.v == NSTOP &&
	       proc->nr_tasks.v == NKIDS;
}

static void cleanup(const char *dir)
{
	for (int i = 0; i < NKIDS; i++) {
		if (kids[i] <= 0)
			continue;
		kill(kids[i], SIGKILL);
		kill(kids[i], SIGCONT);
		waitpid(kids[i], NULL, 0);
	}
	/* the last exits leave the cgroup as they are reaped */
	for (int i = 0; i < 50 && rmdir(dir) < 0 && errno == EBUSY; i++)
		nanosleep(&(struct timespec){ 0, 100000000 }, NULL);
}

static size_t count_lines(const char *text)
{
	size_t n = 0;

	for (; text && *text; text++)
		n += *text == '\n';
	return n;
}

static void test_root(struct ts_client *ts, const char *mnt)
{
	char path[4300];
	struct cgstats s;
	size_t before, after;
	int fd = open(mnt, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	snprintf(path, sizeof(path), "%s/tasks", mnt);
	before = count_lines(slurp(path));
	CHECK(cgstats_query(ts, fd, &s) == 0);
	after = count_lines(slurp(path));
	close(fd);
	CHECK(s.source == CGSTATS_KERNEL);
	CHECK(s.nr_running.v + s.nr_sleeping.v + s.nr_stopped.v +
	      s.nr_uninterruptible.v <= (before > after ? before : after) + 64);
	/* this thread is running while it asks, if it is in the root */
	printf("root of %s: %llu running, %llu sleeping, %zu tasks\n", mnt,
	       (unsigned long long)s.nr_running.v,
	       (unsigned long long)s.nr_sleeping.v, after);
}

static void test_v2(struct ts_client *ts)
{
	const char *root;
	struct cg_layout l;
	struct cgstats s;
	int fd;

	if (cg_layout_find(&l) < 0 || !*(root = l.m[CG_HIER_V2].dir)) {
		printf("no cgroup2 mount: the v2 refusal is not checked\n");
		return;
	}
	fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	CHECK(fd >= 0);
	errno = 0;
	CHECK(cgstats_query(ts, fd, &s) == -1 && errno == EINVAL);
	CHECK(s.source == CGSTATS_NONE);
	close(fd);
}

int main(void)
{
	char mnt[4096], dir[4200];
	struct cgstats kern, proc;
	struct ts_client *ts;
	int cgfd, i, k = 0;

	if (!find_v1(mnt, sizeof(mnt))) {
		unit_skip("no cgroup v1 hierarchy is mounted");
		return unit_done();
	}
	if (geteuid() != 0) {
		unit_skip("cgroupstats and a new v1 cgroup need root");
		return unit_done();
	}
	ts = taskstats_open();
	if (!ts) {
		perror("taskstats_open");
		return 99;
	}
	unit_live_lock();
	test_root(ts, mnt);
	test_v2(ts);

	snprintf(dir, sizeof(dir), "%s/stalltop-cgstats-%ld", mnt, (long)getpid());
	if (mkdir(dir, 0755) < 0) {
		perror(dir);
		return 99;
	}
	for (i = 0; i < NSPIN; i++)
		kids[k++] = spawn(0);
	for (i = 0; i < NSLEEP + NSTOP; i++)
		kids[k++] = spawn(1);
	for (i = 0; i < NKIDS; i++)
		put_in(dir, kids[i]);
	for (i = NSPIN + NSLEEP; i < NKIDS; i++)
		kill(kids[i], SIGSTOP);
	cgfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	CHECK(cgfd >= 0);

	/* at most 10 s for the children to reach pause() and the stop */
	for (i = 0; i < 100 && !settled(cgfd, &proc); i++)
		nanosleep(&(struct timespec){ 0, 100000000 }, NULL);
	CHECK(settled(cgfd, &proc));

	CHECK(cgstats_query(ts, cgfd, &kern) == 0);
	CHECK(kern.source == CGSTATS_KERNEL);
	CHECK_EQ_U(kern.nr_running.v, NSPIN);
	CHECK_EQ_U(kern.nr_sleeping.v, NSLEEP);
	CHECK_EQ_U(kern.nr_stopped.v, NSTOP);
	CHECK_EQ_U(kern.nr_uninterruptible.v, 0);
	CHECK(kern.nr_io_wait.have);
	/* the kernel's count and /proc's agree on every state */
	CHECK_EQ_U(kern.nr_running.v, proc.nr_running.v);
	CHECK_EQ_U(kern.nr_sleeping.v, proc.nr_sleeping.v);
	CHECK_EQ_U(kern.nr_stopped.v, proc.nr_stopped.v);
	CHECK_EQ_U(kern.nr_uninterruptible.v, proc.nr_uninterruptible.v);

	/* a closed descriptor is refused, not answered */
	close(cgfd);
	errno = 0;
	CHECK(cgstats_query(ts, cgfd, &kern) == -1 && errno == EBADF);
	cleanup(dir);
	taskstats_close(ts);
	return unit_done();
}
