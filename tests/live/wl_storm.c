/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * wl_storm: an exit storm for the live tests.
 *
 *   wl_storm [-n COUNT] [-p PAGES] [-j INFLIGHT] PIDFILE
 *
 * Forks COUNT (default 5000) short-lived children as fast as it can, at
 * most INFLIGHT (default 64) alive at a time. The parent has PAGES
 * (default 16) pages of private anonymous memory written before the
 * storm; every child writes each of them once, a copy-on-write burst of
 * exactly PAGES wpcopy faults, then calls _exit(0). When all are reaped
 * the child pids go to PIDFILE, one a line, and "done COUNT SECONDS" to
 * stdout.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int reap(int block)
{
	int status;
	pid_t pid = waitpid(-1, &status, block ? 0 : WNOHANG);
	if (pid > 0 && !(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
		fprintf(stderr, "wl_storm: child %d failed\n", (int)pid);
		exit(1);
	}
	return pid > 0;
}

int main(int argc, char **argv)
{
	long count = 5000, npages = 16, inflight = 64;
	int c;
	while ((c = getopt(argc, argv, "n:p:j:")) != -1) {
		switch (c) {
		case 'n': count = atol(optarg); break;
		case 'p': npages = atol(optarg); break;
		case 'j': inflight = atol(optarg); break;
		default:
			fprintf(stderr, "usage: wl_storm [-n COUNT] [-p PAGES] [-j INFLIGHT] PIDFILE\n");
			return 2;
		}
	}
	if (optind != argc - 1 || count < 1 || npages < 1 || inflight < 1)
		return 2;
	size_t page = (size_t)sysconf(_SC_PAGESIZE), len = (size_t)npages * page;
	char *mem = mmap(NULL, len, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	pid_t *pids = calloc((size_t)count, sizeof(*pids));
	if (mem == MAP_FAILED || !pids) {
		perror("wl_storm");
		return 1;
	}
	(void)madvise(mem, len, MADV_NOHUGEPAGE);
	memset(mem, 1, len);

	double t0 = now();
	long alive = 0;
	for (long i = 0; i < count; i++) {
		while (alive > 0 && reap(0))
			alive--;
		if (alive >= inflight && reap(1))
			alive--;
		pid_t pid = fork();
		if (pid < 0) {
			if (errno == EAGAIN && alive > 0 && reap(1)) {
				alive--;
				i--;
				continue;
			}
			perror("wl_storm: fork");
			return 1;
		}
		if (pid == 0) {
			for (size_t off = 0; off < len; off += page)
				mem[off] = 2;
			_exit(0);
		}
		pids[i] = pid;
		alive++;
	}
	while (alive > 0 && reap(1))
		alive--;
	double t = now() - t0;

	FILE *f = fopen(argv[optind], "w");
	if (!f) {
		perror(argv[optind]);
		return 1;
	}
	for (long i = 0; i < count; i++)
		fprintf(f, "%d\n", (int)pids[i]);
	if (fclose(f) != 0) {
		perror(argv[optind]);
		return 1;
	}
	printf("done %ld %.3f\n", count, t);
	fflush(stdout);
	free(pids);
	return 0;
}
