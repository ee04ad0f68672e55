/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * spawner: the exit storm of the benchmark. Forks short-lived processes
 * at a controlled rate for a while; each child exits at once. The ids of
 * all children go to a file so the benchmark can check that stalltop
 * reported every one of them in "exited".
 *
 * The rate is kept on an absolute schedule (child i is due at
 * start + i / rate), so a late wake-up is caught up in a burst and the
 * achieved rate is the asked one as long as fork() keeps up. With several
 * workers each takes an equal share of the rate. Rate 0: as fast as
 * possible. With a count, it stops after that many children.
 *
 * Prints: spawned=N seconds=S rate=R (achieved, per second).
 */
#include <config.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/numparse.h"

static bool use_vfork; /* share the address space: no page tables to copy */
static unsigned long limit; /* stop after this many children (0: no limit) */

static void usage(FILE *out, int status)
{
	fputs("Usage: spawner [options] PIDFILE\n"
	      "\n"
	      "Fork short-lived processes (each exits at once) at a steady rate\n"
	      "and write their ids to PIDFILE, one a line.\n"
	      "\n"
	      "Options:\n"
	      " -r, --rate N       processes per second (default 1000; 0: as\n"
	      "                    fast as possible)\n"
	      " -d, --duration S   seconds to keep spawning (default 2)\n"
	      " -n, --count N      stop after N processes, even before the time is\n"
	      "                    up (split over the jobs)\n"
	      " -j, --jobs N       parallel spawning processes (default 1)\n"
	      " -v, --vfork        vfork() instead of fork(): cheaper, so higher\n"
	      "                    rates are reachable\n"
	      " -h, --help         show this help and exit\n", out);
	exit(status);
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void sleep_until(double t)
{
	struct timespec ts = { (time_t)t, (long)((t - (double)(time_t)t) * 1e9) };
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

/* One child that exits at once; its id, or -1. */
static pid_t __attribute__((noinline)) spawn_one(void)
{
	pid_t p = use_vfork ? vfork() : fork();
	if (p == 0)
		_exit(0);
	return p;
}

/* One spawning loop; returns the number of children, ids in *out. */
static size_t spawn_loop(double rate, double start, double duration,
			 pid_t **out)
{
	size_t cap = rate > 0 ? (size_t)(rate * duration) + 16 : 65536, n = 0;
	pid_t *pids = malloc(cap * sizeof(*pids));
	if (!pids)
		err(1, "malloc");
	for (;;) {
		double t = now();
		if (t - start >= duration || (limit && n >= limit))
			break;
		if (rate > 0) {
			double due = start + (double)n / rate;
			if (due > t) {
				sleep_until(due);
				continue;
			}
		}
		pid_t p = spawn_one();
		if (p < 0) {
			if (errno == EAGAIN)
				continue; /* reaping is behind: try again */
			err(1, "fork");
		}
		if (n == cap) {
			cap *= 2;
			pid_t *np = realloc(pids, cap * sizeof(*np));
			if (!np)
				err(1, "realloc");
			pids = np;
		}
		pids[n++] = p;
	}
	*out = pids;
	return n;
}

static void write_pids(int fd, const pid_t *pids, size_t n)
{
	size_t cap = n * 12 + 1, len = 0;
	char *buf = malloc(cap);
	if (!buf)
		err(1, "malloc");
	for (size_t i = 0; i < n; i++)
		len += (size_t)snprintf(buf + len, cap - len, "%d\n", (int)pids[i]);
	/* O_APPEND: one write per worker lands whole */
	for (size_t at = 0; at < len;) {
		ssize_t w = write(fd, buf + at, len - at);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			err(1, "write");
		at += (size_t)w;
	}
	free(buf);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "rate", required_argument, NULL, 'r' },
		{ "duration", required_argument, NULL, 'd' },
		{ "count", required_argument, NULL, 'n' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "vfork", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	unsigned long rate = 1000, jobs = 1;
	double duration = 2;
	int c;

	while ((c = getopt_long(argc, argv, "r:d:n:j:vh", longopts, NULL)) != -1) {
		switch (c) {
		case 'r':
			if (numparse_ulong(optarg, 0, 10000000, &rate) < 0)
				errx(2, "invalid rate: %s", optarg);
			break;
		case 'd':
			if (numparse_positive_double(optarg, 3600, &duration) < 0)
				errx(2, "invalid duration: %s", optarg);
			break;
		case 'j':
			if (numparse_ulong(optarg, 1, 64, &jobs) < 0)
				errx(2, "invalid job count: %s", optarg);
			break;
		case 'n':
			if (numparse_ulong(optarg, 1, 100000000, &limit) < 0)
				errx(2, "invalid count: %s", optarg);
			break;
		case 'v':
			use_vfork = true;
			break;
		case 'h':
			usage(stdout, 0);
			break;
		default:
			usage(stderr, 2);
		}
	}
	if (optind != argc - 1)
		usage(stderr, 2);
	int fd = open(argv[optind], O_WRONLY | O_CREAT | O_TRUNC | O_APPEND |
		      O_CLOEXEC, 0644);
	if (fd < 0)
		err(1, "%s", argv[optind]);

	double share = (double)rate / (double)jobs;
	if (limit)
		limit = (limit + jobs - 1) / jobs;
	double start = now() + 0.01;
	pid_t *workers = calloc(jobs, sizeof(*workers));
	if (!workers)
		err(1, "calloc");
	for (unsigned long j = 0; j < jobs; j++) {
		pid_t w = jobs == 1 ? 0 : fork();
		if (w < 0)
			err(1, "fork");
		if (w > 0) {
			workers[j] = w;
			continue;
		}
		if (jobs > 1)
			prctl(PR_SET_PDEATHSIG, SIGKILL);
		/* children are reaped by the kernel: no zombies, no wait() */
		signal(SIGCHLD, SIG_IGN);
		pid_t *pids;
		size_t n = spawn_loop(share, start, duration, &pids);
		write_pids(fd, pids, n);
		free(pids);
		if (jobs > 1)
			_exit(0);
	}
	if (jobs > 1) {
		for (unsigned long j = 0; j < jobs; j++) {
			int st;
			while (waitpid(workers[j], &st, 0) < 0 && errno == EINTR)
				;
		}
	}
	double elapsed = now() - start;
	close(fd);

	/* count what was written */
	FILE *f = fopen(argv[optind], "re");
	size_t spawned = 0;
	if (f) {
		int ch;
		while ((ch = getc(f)) != EOF)
			spawned += ch == '\n';
		fclose(f);
	}
	printf("spawned=%zu seconds=%.3f rate=%.0f\n", spawned, elapsed,
	       (double)spawned / elapsed);
	free(workers);
	return 0;
}
