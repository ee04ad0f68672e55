/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Processes' CPU clocks (kernel/cpuclock.c): a child's clock, read from
 * here, stands while the child sleeps and moves when one of its threads
 * runs, by what that thread ran as the child's own clock tells; the clock
 * of an id no process has fails with ESRCH or EINVAL.
 */
#include <config.h>

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kernel/cpuclock.h"
#include "unit.h"

static uint64_t own_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/*
 * The child: on each byte read, spin 20 ms of its own CPU time and
 * write back how much it ran (its own clock, 8 bytes).
 */
static void __attribute__((noreturn)) child(int in, int out)
{
	char c;
	while (read(in, &c, 1) == 1) {
		uint64_t a = own_ns(), b;
		while ((b = own_ns()) - a < 20000000u)
			;
		uint64_t ran = b - a;
		if (write(out, &ran, sizeof(ran)) != (ssize_t)sizeof(ran))
			_exit(1);
	}
	_exit(0);
}

static void test_child(void)
{
	int to[2], from[2];
	if (pipe(to) < 0 || pipe(from) < 0)
		exit(99);
	pid_t pid = fork();
	if (pid < 0)
		exit(99);
	if (pid == 0) {
		close(to[1]);
		close(from[0]);
		child(to[0], from[1]);
	}
	close(to[0]);
	close(from[1]);

	clockid_t id;
	uint64_t a, b, c, ran;
	CHECK(cpuclock_id(pid, &id) == 0);
	/* asleep in read(): the clock stands, however often it is read */
	usleep(20000);
	CHECK(cpuclock_read(id, &a) == 0);
	usleep(20000);
	CHECK(cpuclock_read(id, &b) == 0);
	CHECK_EQ_U(b, a);
	/* it runs: the clock moves by what it ran (it stands again after) */
	CHECK(write(to[1], "x", 1) == 1);
	CHECK(read(from[0], &ran, sizeof(ran)) == (ssize_t)sizeof(ran));
	usleep(20000);
	CHECK(cpuclock_read(id, &c) == 0);
	CHECK(c - b >= ran);
	/* its write, the loop around the spin: measured 0.05..0.09 ms, 1 ms
	   under valgrind */
	CHECK(c - b < ran + 5000000u);

	close(to[1]);
	int st;
	CHECK(waitpid(pid, &st, 0) == pid);
	/* reaped: its clock is gone */
	errno = 0;
	CHECK(cpuclock_read(id, &a) == -1);
	CHECK(errno == EINVAL || errno == ESRCH);
	close(from[0]);
}

static void test_none(void)
{
	clockid_t id;
	uint64_t ns = 7;
	/* above the largest pid the kernel hands out (pid_max <= 2^22) */
	pid_t none = (1 << 22) + 1;
	errno = 0;
	if (cpuclock_id(none, &id) == 0) {
		CHECK(cpuclock_read(id, &ns) == -1);
		CHECK_EQ_U(ns, 7);
	} else {
		CHECK(errno == ESRCH || errno == EINVAL);
	}
}

int main(void)
{
	test_child();
	test_none();
	return unit_done();
}
