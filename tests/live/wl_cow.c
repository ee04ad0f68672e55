/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * wl_cow: copy-on-write faults for the live tests.
 *
 *   wl_cow [-m MIB] [-w]
 *   wl_cow -l [-m MIB] [-N NICE]
 *
 * The parent maps MIB MiB (default 64) of private anonymous memory with
 * huge pages off (so every fault copies exactly one base page), writes
 * every page, then forks. The child writes one byte to every page: each
 * write hits a page still shared with the parent and takes one
 * copy-on-write fault, which delay accounting counts as wpcopy. The child
 * prints "child PID pages N" and "done" (flushed); then it exits, or with
 * -w sleeps until killed. The parent waits for the child and exits with
 * its status.
 *
 * With -l the copying goes on in one process: round after round, the
 * parent forks a child that only sleeps (it keeps every page shared),
 * writes every page itself, taking one copy-on-write fault per page, and
 * ends the child. It prints "ready" after the first round (flushed) and
 * runs until killed. -N sets the nice value (root for a negative one;
 * with autogroups the group's too), so that the rest of the machine does
 * not decide how long it waits for a CPU.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long mib = 64;
	int wait = 0, loop = 0, nice = 0, set_nice = 0, c;
	while ((c = getopt(argc, argv, "lm:N:w")) != -1) {
		switch (c) {
		case 'l': loop = 1; break;
		case 'm': mib = atol(optarg); break;
		case 'N': nice = atoi(optarg); set_nice = 1; break;
		case 'w': wait = 1; break;
		default:
			fprintf(stderr, "usage: wl_cow [-l] [-m MIB] [-N NICE] [-w]\n");
			return 2;
		}
	}
	if (set_nice) {
		if (setpriority(PRIO_PROCESS, 0, nice) < 0) {
			perror("wl_cow: setpriority");
			return 1;
		}
		/* with autogroups, the group's nice decides between sessions */
		FILE *f = fopen("/proc/self/autogroup", "we");
		if (f) {
			fprintf(f, "%d", nice);
			if (fclose(f) != 0) {
				perror("wl_cow: /proc/self/autogroup");
				return 1;
			}
		}
	}
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t len = (size_t)mib << 20, pages = len / page;
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		perror("wl_cow: mmap");
		return 1;
	}
	(void)madvise(p, len, MADV_NOHUGEPAGE);
	for (size_t i = 0; i < pages; i++)
		p[i * page] = 1;

	fflush(stdout);
	for (unsigned long round = 1; loop; round++) {
		pid_t child = fork();
		if (child < 0) {
			perror("wl_cow: fork");
			return 1;
		}
		if (child == 0) {
			for (;;)
				pause();
		}
		for (size_t i = 0; i < pages; i++)
			p[i * page] = (char)round;
		kill(child, SIGKILL);
		if (waitpid(child, NULL, 0) < 0) {
			perror("wl_cow: waitpid");
			return 1;
		}
		if (round == 1) {
			printf("ready\n");
			fflush(stdout);
		}
	}
	pid_t pid = fork();
	if (pid < 0) {
		perror("wl_cow: fork");
		return 1;
	}
	if (pid == 0) {
		for (size_t i = 0; i < pages; i++)
			p[i * page] = 2;
		printf("child %d pages %zu\ndone\n", (int)getpid(), pages);
		fflush(stdout);
		while (wait)
			pause();
		_exit(0);
	}
	int status;
	if (waitpid(pid, &status, 0) < 0)
		return 1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
