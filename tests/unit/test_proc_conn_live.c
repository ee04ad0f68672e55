/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The proc connector socket itself, on the running kernel: subscribe, fork
 * a child that renames itself and execs /bin/true, and wait (poll, bounded,
 * no sleeps) for its fork, comm, exec and exit events. Then overflow a
 * deliberately tiny receive buffer and check the loss is counted and the
 * socket goes on working. Skips (77) only without a connector or root.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kernel/proc_conn.h"
#include "unit.h"

#define WAIT_MS 10000

struct seen {
	pid_t child;
	bool fork, comm, exec, exit;
	struct pc_event fork_ev, comm_ev, exec_ev, exit_ev;
};

static void watch(const struct pc_event *ev, void *arg)
{
	struct seen *s = arg;

	if (ev->pid != s->child)
		return;
	switch (ev->type) {
	case PC_FORK:
		s->fork = true;
		s->fork_ev = *ev;
		break;
	case PC_COMM:
		s->comm = true;
		s->comm_ev = *ev;
		break;
	case PC_EXEC:
		s->exec = true;
		s->exec_ev = *ev;
		break;
	case PC_EXIT:
		s->exit = true;
		s->exit_ev = *ev;
		break;
	default:
		break;
	}
}

static uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* Drain until done(arg) or WAIT_MS pass; returns whether done. */
static bool drain_until(struct proc_conn *pc, bool (*done)(void *), void *arg,
			pc_event_cb cb, uint64_t *lost)
{
	uint64_t deadline = now_ns() + (uint64_t)WAIT_MS * 1000000u;

	for (;;) {
		if (proc_conn_drain(pc, cb, arg, lost) < 0) {
			perror("proc_conn_drain");
			return false;
		}
		if (done(arg))
			return true;
		uint64_t t = now_ns();
		if (t >= deadline)
			return false;
		struct pollfd pfd = { proc_conn_fd(pc), POLLIN, 0 };
		int ms = (int)((deadline - t) / 1000000u) + 1;
		if (poll(&pfd, 1, ms) < 0 && errno != EINTR) {
			perror("poll");
			return false;
		}
	}
}

static bool all_seen(void *arg)
{
	struct seen *s = arg;

	return s->fork && s->comm && s->exec && s->exit;
}

/* Linux 6.6 and later take the event filter. */
static bool kernel_filters(void)
{
	struct utsname u;
	unsigned major = 0, minor = 0;

	if (uname(&u) < 0 || sscanf(u.release, "%u.%u", &major, &minor) != 2)
		return false;
	return major > 6 || (major == 6 && minor >= 6);
}

static void test_events(struct proc_conn *pc)
{
	struct seen s = { 0 };
	uint64_t lost = 0;
	uint64_t t0 = now_ns();

	fflush(NULL);
	pid_t child = fork();
	if (child < 0) {
		perror("fork");
		exit(99);
	}
	if (child == 0) {
		prctl(PR_SET_NAME, "pc-live-test", 0, 0, 0);
		execl("/bin/true", "true", (char *)NULL);
		_exit(127);
	}
	s.child = child;

	bool ok = drain_until(pc, all_seen, &s, watch, &lost);
	uint64_t t1 = now_ns();
	int status;
	CHECK(waitpid(child, &status, 0) == child);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);

	CHECK(ok);
	if (!ok)
		fprintf(stderr, "child %d: fork %d comm %d exec %d exit %d\n",
			(int)child, s.fork, s.comm, s.exec, s.exit);
	CHECK(s.fork);
	CHECK_EQ_U(s.fork_ev.tgid, child);
	CHECK_EQ_U(s.fork_ev.parent_tgid, getpid());
	CHECK_EQ_U(s.fork_ev.parent_pid, getpid());
	CHECK(s.comm);
	CHECK_EQ_U(s.comm_ev.tgid, child);
	CHECK_STR(s.comm_ev.comm, "pc-live-test");
	CHECK(s.exec);
	CHECK_EQ_U(s.exec_ev.tgid, child);
	CHECK(s.exit);
	CHECK_EQ_U(s.exit_ev.tgid, child);
	CHECK_EQ_U(s.exit_ev.exit_code, 0);

	/* CLOCK_MONOTONIC, in the order they happened */
	if (s.fork && s.comm && s.exec && s.exit) {
		CHECK(s.fork_ev.timestamp_ns >= t0);
		CHECK(s.fork_ev.timestamp_ns <= s.comm_ev.timestamp_ns);
		CHECK(s.comm_ev.timestamp_ns <= s.exec_ev.timestamp_ns);
		CHECK(s.exec_ev.timestamp_ns <= s.exit_ev.timestamp_ns);
		CHECK(s.exit_ev.timestamp_ns <= t1);
	}
	printf("events seen; lost %llu meanwhile\n", (unsigned long long)lost);
}

struct fork_seen {
	pid_t pid;
	bool seen;
};

static void watch_fork(const struct pc_event *ev, void *arg)
{
	struct fork_seen *f = arg;

	if (ev->type == PC_FORK && ev->pid == f->pid)
		f->seen = true;
}

static bool fork_seen(void *arg)
{
	return ((struct fork_seen *)arg)->seen;
}

static pid_t spawn_and_reap(void)
{
	fflush(NULL);   /* or the child may print our buffered output again */
	pid_t pid = fork();
	if (pid == 0)
		_exit(0);
	if (pid > 0)
		waitpid(pid, NULL, 0);
	return pid;
}

/* A buffer far too small for a burst: ENOBUFS is counted, then all goes on. */
static void test_overflow(void)
{
	struct proc_conn *pc = proc_conn_open();
	CHECK(pc != NULL);
	if (!pc)
		return;

	int tiny = 1;   /* the kernel rounds it up to its minimum */
	CHECK(setsockopt(proc_conn_fd(pc), SOL_SOCKET, SO_RCVBUF, &tiny,
			 sizeof(tiny)) == 0);
	for (int i = 0; i < 200; i++)
		spawn_and_reap();

	uint64_t lost = 0;
	int n = proc_conn_drain(pc, NULL, NULL, &lost);
	CHECK(n >= 0);
	CHECK(lost >= 1);
	printf("overflow: %d events read, %llu counted lost\n", n,
	       (unsigned long long)lost);

	/* with room again, the socket goes on working */
	int room = 4 << 20;
	CHECK(setsockopt(proc_conn_fd(pc), SOL_SOCKET, SO_RCVBUF, &room,
			 sizeof(room)) == 0);
	struct fork_seen f = { .pid = spawn_and_reap() };
	CHECK(drain_until(pc, fork_seen, &f, watch_fork, &lost));
	proc_conn_close(pc);
}

/*
 * Root as the kernel sees it for the connector: uid 0 in the initial user
 * namespace ("0 0 4294967295" in uid_map), in the initial pid namespace
 * (one pid on the NSpid line).
 */
static bool initial_root(void)
{
	if (geteuid() != 0)
		return false;

	char line[256];
	unsigned a = 1, b = 1, n = 0;
	bool init_user = false, init_pid = true;
	FILE *f = fopen("/proc/self/uid_map", "r");
	if (f) {
		init_user = fscanf(f, "%u %u %u", &a, &b, &n) == 3 &&
			    a == 0 && b == 0 && n == 4294967295u;
		fclose(f);
	}
	f = fopen("/proc/self/status", "r");
	while (f && fgets(line, sizeof(line), f)) {
		int pid1, pid2;
		if (strncmp(line, "NSpid:", 6) == 0)
			init_pid = sscanf(line + 6, "%d %d", &pid1, &pid2) < 2;
	}
	if (f)
		fclose(f);
	return init_user && init_pid;
}

int main(void)
{
	/* it forks 200 children and counts events: not beside a live test */
	unit_live_lock();
	struct proc_conn *pc = proc_conn_open();
	if (!pc) {
		int e = errno;
		if (e == EPROTONOSUPPORT) {
			printf("SKIP: this kernel has no proc connector (%s)\n",
			       strerror(e));
			return 77;
		}
		if (e == EPERM && !initial_root()) {
			printf("SKIP: the proc connector needs root in the "
			       "initial user and pid namespaces (%s)\n",
			       strerror(e));
			return 77;
		}
		fprintf(stderr, "proc_conn_open: %s\n", strerror(e));
		return 1;
	}

	int fd = proc_conn_fd(pc);
	CHECK(fd >= 0);
	CHECK(fcntl(fd, F_GETFL) & O_NONBLOCK);
	CHECK(fcntl(fd, F_GETFD) & FD_CLOEXEC);
	printf("filtered: %s\n", proc_conn_filtered(pc) ? "yes" : "no");
	if (kernel_filters())
		CHECK(proc_conn_filtered(pc));

	test_events(pc);
	proc_conn_close(pc);

	test_overflow();
	return unit_done();
}
