/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tsfloor: the floor of the benchmark. Measures what the bare taskstats
 * round trips cost, through the same client stalltop uses (taskstats_query() of
 * src/libstalltop.a): one query by TGID for every process of a set, and
 * one by PID for every thread of it. Nothing else happens between the two
 * getrusage() calls around a query, so no monitor can do the same work
 * for less.
 *
 * With -i SECONDS the repetitions are that far apart, as a monitor's
 * refreshes are: what a query costs then includes fetching the tasks'
 * counters from memory, where back to back they are in the caches. The
 * kernel walks every thread of a process for a TGID query, so with 100
 * threads a process the difference is a third or more.
 *
 * Output, one line per kind, key=value (times in microseconds, medians
 * over the repetitions):
 *   tgid procs=N threads=M reps=R cpu_us=... per_proc_us=... wall_us=...
 *   pid procs=N threads=M reps=R cpu_us=... per_thread_us=... wall_us=...
 */
#include <config.h>

#include <ctype.h>
#include <dirent.h>
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "kernel/taskstats.h"
#include "lib/numparse.h"

struct ids {
	uint32_t *v;
	size_t n, cap;
};

static void usage(FILE *out, int status)
{
	fputs("Usage: tsfloor [options] [PID...]\n"
	      "\n"
	      "Measure the CPU time of bare taskstats queries: by TGID for each\n"
	      "process PID, and by PID for each of their threads. Without PIDs,\n"
	      "every process on the system.\n"
	      "\n"
	      "Options:\n"
	      " -r, --reps N    repetitions of each query (default 15)\n"
	      " -i, --interval SECONDS\n"
	      "                 pause between repetitions, as between a\n"
	      "                 monitor's refreshes (default 0: back to back)\n"
	      " -h, --help      show this help and exit\n", out);
	exit(status);
}

static void push(struct ids *s, uint32_t id)
{
	if (s->n == s->cap) {
		size_t n = s->cap ? s->cap * 2 : 1024;
		uint32_t *p = realloc(s->v, n * sizeof(*p));
		if (!p)
			err(1, "realloc");
		s->v = p;
		s->cap = n;
	}
	s->v[s->n++] = id;
}

static bool numeric(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

/* Push the numeric entries of a directory; false when it is gone. */
static bool list_dir(const char *path, struct ids *out)
{
	DIR *d = opendir(path);
	if (!d)
		return false;
	struct dirent *e;
	while ((e = readdir(d)))
		if (numeric(e->d_name))
			push(out, (uint32_t)strtoul(e->d_name, NULL, 10));
	closedir(d);
	return true;
}

static void threads_of(uint32_t pid, struct ids *out)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%u/task", pid);
	if (!list_dir(path, out))
		warnx("process %u is gone", pid);
}

static double cpu_us(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e6 +
	       (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
}

static double wall_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void count_reading(const struct ts_reading *r, void *arg)
{
	(void)r;
	++*(size_t *)arg;
}

/* Query ids reps times; print the medians. */
static void measure(struct ts_client *c, enum ts_kind kind,
		    const struct ids *set, size_t procs, size_t threads,
		    unsigned long reps, double interval)
{
	double *cpu = calloc(reps, sizeof(*cpu));
	double *wall = calloc(reps, sizeof(*wall));
	size_t readings = 0, vanished = 0;
	if (!cpu || !wall)
		err(1, "calloc");

	/* one untimed round: sockets warm, buffers allocated */
	if (taskstats_query(c, kind, set->v, set->n, count_reading, &readings, NULL) < 0)
		err(1, "taskstats_query");
	for (unsigned long i = 0; i < reps; i++) {
		if (interval > 0 && usleep((useconds_t)(interval * 1e6)) < 0)
			err(1, "usleep");
		readings = 0;
		double c0 = cpu_us(), w0 = wall_us();
		if (taskstats_query(c, kind, set->v, set->n, count_reading, &readings,
			     &vanished) < 0)
			err(1, "taskstats_query");
		wall[i] = wall_us() - w0;
		cpu[i] = cpu_us() - c0;
	}
	if (readings + vanished != set->n)
		warnx("%zu answers for %zu queries", readings + vanished, set->n);

	double mc = median(cpu, reps), mw = median(wall, reps);
	if (kind == TS_KIND_TGID)
		printf("tgid procs=%zu threads=%zu reps=%lu cpu_us=%.1f "
		       "per_proc_us=%.3f per_thread_us=%.3f wall_us=%.1f\n",
		       procs, threads, reps, mc, mc / (double)procs,
		       mc / (double)threads, mw);
	else
		printf("pid procs=%zu threads=%zu reps=%lu cpu_us=%.1f "
		       "per_thread_us=%.3f wall_us=%.1f\n",
		       procs, threads, reps, mc, mc / (double)threads, mw);
	free(cpu);
	free(wall);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "reps", required_argument, NULL, 'r' },
		{ "interval", required_argument, NULL, 'i' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	unsigned long reps = 15;
	double interval = 0;
	int c;

	while ((c = getopt_long(argc, argv, "r:i:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'i':
			if (numparse_positive_double(optarg, 10, &interval) < 0)
				errx(2, "invalid interval (more than 0, at most 10 seconds): %s", optarg);
			break;
		case 'r':
			if (numparse_ulong(optarg, 1, 100000, &reps) < 0)
				errx(2, "invalid repetition count: %s", optarg);
			break;
		case 'h':
			usage(stdout, 0);
			break;
		default:
			usage(stderr, 2);
		}
	}

	struct ids procs = { 0 }, threads = { 0 };
	if (optind == argc) {
		list_dir("/proc", &procs);
	} else {
		for (int i = optind; i < argc; i++) {
			pid_t p;
			if (numparse_pid(argv[i], &p) < 0)
				errx(2, "invalid process id: %s", argv[i]);
			push(&procs, (uint32_t)p);
		}
	}
	for (size_t i = 0; i < procs.n; i++)
		threads_of(procs.v[i], &threads);
	if (!procs.n || !threads.n)
		errx(1, "no tasks to query");

	struct ts_client *cl = taskstats_open();
	if (!cl) {
		if (errno == EPERM)
			errx(1, "taskstats needs CAP_NET_ADMIN: run as root");
		err(1, "taskstats");
	}
	measure(cl, TS_KIND_TGID, &procs, procs.n, threads.n, reps, interval);
	measure(cl, TS_KIND_PID, &threads, procs.n, threads.n, reps, interval);
	taskstats_close(cl);
	free(procs.v);
	free(threads.v);
	return 0;
}
