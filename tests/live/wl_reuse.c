/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * wl_reuse: make a new process take the pid of one that just ended.
 *
 *   wl_reuse [-a PAGES_A] [-b PAGES_B] [-x]
 *
 * Needs root (writes /proc/sys/kernel/ns_last_pid). The parent writes
 * max(PAGES_A, PAGES_B) pages of private memory, then forks child A,
 * which writes PAGES_A (default 8192) of them (that many copy-on-write
 * faults), prints "a PID" and waits. On SIGUSR1 the parent lets A exit,
 * reaps it, sets ns_last_pid to PID - 1 and forks until a child gets PID
 * again (another task on the machine may take it first: such children
 * exit at once; up to 1000 tries). That child B writes PAGES_B (default
 * 64) pages, so its figures differ from A's by two orders of magnitude,
 * and tells the parent, which prints "b PID" (or "b none" when the pid
 * never came back). B then sleeps until killed, or with -x exits at once;
 * with -x the parent reaps B before printing.
 * All of A's end and B's start happen within a few milliseconds.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

static char *mem;
static size_t page;

static void cow(long pages)
{
	for (long i = 0; i < pages; i++)
		mem[(size_t)i * page] = 2;
}

static void set_last_pid(pid_t pid)
{
	FILE *f = fopen("/proc/sys/kernel/ns_last_pid", "we");
	if (!f || fprintf(f, "%d", (int)pid) < 0 || fclose(f) != 0) {
		perror("wl_reuse: /proc/sys/kernel/ns_last_pid");
		exit(1);
	}
}

int main(int argc, char **argv)
{
	long pages_a = 8192, pages_b = 64;
	int exit_b = 0, c;
	while ((c = getopt(argc, argv, "a:b:x")) != -1) {
		switch (c) {
		case 'a': pages_a = atol(optarg); break;
		case 'b': pages_b = atol(optarg); break;
		case 'x': exit_b = 1; break;
		default:
			fprintf(stderr, "usage: wl_reuse [-a PAGES_A] [-b PAGES_B] [-x]\n");
			return 2;
		}
	}
	page = (size_t)sysconf(_SC_PAGESIZE);
	size_t len = (size_t)(pages_a > pages_b ? pages_a : pages_b) * page;
	mem = mmap(NULL, len, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED) {
		perror("wl_reuse: mmap");
		return 1;
	}
	(void)madvise(mem, len, MADV_NOHUGEPAGE);
	memset(mem, 1, len);

	sigset_t usr1;
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	sigprocmask(SIG_BLOCK, &usr1, NULL);

	int hold[2], ready[2];
	if (pipe(hold) < 0 || pipe(ready) < 0)
		return 1;
	fflush(stdout);
	pid_t a = fork();
	if (a < 0)
		return 1;
	if (a == 0) {
		char x;
		close(hold[1]);
		cow(pages_a);
		printf("a %d\n", (int)getpid());
		fflush(stdout);
		(void)read(hold[0], &x, 1); /* until the parent closes it */
		_exit(0);
	}
	close(hold[0]);
	int sig;
	sigwait(&usr1, &sig);

	close(hold[1]);
	if (waitpid(a, NULL, 0) != a)
		return 1;
	pid_t b = -1;
	for (int tries = 0; tries < 1000 && b != a; tries++) {
		set_last_pid(a - 1);
		fflush(stdout);
		b = fork();
		if (b < 0)
			return 1;
		if (b == 0) {
			if (getpid() != a)
				_exit(0);
			cow(pages_b);
			(void)write(ready[1], "b", 1);
			while (!exit_b)
				pause();
			_exit(0);
		}
		if (b != a)
			waitpid(b, NULL, 0);
	}
	if (b != a) {
		printf("b none\n");
		return 1;
	}
	char x;
	(void)read(ready[0], &x, 1);
	if (exit_b)
		waitpid(b, NULL, 0);
	printf("b %d\n", (int)b);
	fflush(stdout);
	if (!exit_b)
		waitpid(b, NULL, 0);
	return 0;
}
