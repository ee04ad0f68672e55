/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * wl_threads: thread churn for the live tests.
 *
 *   wl_threads [-c CPU] [-q QUIETCPU] [-s SECONDS] [-l LIFE_MS] [-k CHURNERS]
 *
 * Everything runs pinned to CPU (default 1): one contender thread spins
 * for the whole run, and CHURNERS (default 2) short-lived threads at a
 * time spin for LIFE_MS, 1.5 x LIFE_MS or 2 x LIFE_MS (default 150) of
 * wall time each and exit, replaced at once by new ones, for SECONDS
 * (default 3). So threads end mid-interval while the process lives on,
 * and every one of them has run-queue wait (cpu delay) when it ends.
 *
 * The independent figure: just before it ends, each thread moves itself
 * to QUIETCPU (default 0), where nothing of ours competes, and adds its
 * own /proc/thread-self/schedstat (run time, run-queue wait, timeslices)
 * to process-wide sums; the main thread adds its own at the end. Those
 * are the same scheduler counters taskstats reports, so the sums are the
 * process's total cpu delay over its whole life. Prints
 *   threads N run_ns R delay_ns D slices S
 * and "done" (flushed), then sleeps until killed, its counters still.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int quiet_cpu = 0;
static atomic_ullong sum_run, sum_delay, sum_slices;
static atomic_int stop;

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void pin(int cpu)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) < 0) {
		perror("wl_threads: sched_setaffinity");
		exit(1);
	}
}

/* Move to the quiet CPU, then add this thread's scheduler counters. */
static void account_self(void)
{
	unsigned long long run, delay, slices;
	pin(quiet_cpu);
	FILE *f = fopen("/proc/thread-self/schedstat", "re");
	if (!f || fscanf(f, "%llu %llu %llu", &run, &delay, &slices) != 3) {
		perror("wl_threads: /proc/thread-self/schedstat");
		exit(1);
	}
	fclose(f);
	sum_run += run;
	sum_delay += delay;
	sum_slices += slices;
}

static void spin_until(double end)
{
	volatile unsigned long n = 0;
	while (now() < end && !stop)
		for (int i = 0; i < 20000; i++)
			n++;
}

static void *churner(void *arg)
{
	double life = *(double *)arg;
	spin_until(now() + life);
	account_self();
	return NULL;
}

static void *contender(void *arg)
{
	(void)arg;
	spin_until(1e300);
	account_self();
	return NULL;
}

static void start(pthread_t *t, void *(*fn)(void *), void *arg)
{
	int err = pthread_create(t, NULL, fn, arg);
	if (err) {
		fprintf(stderr, "wl_threads: pthread_create: %s\n", strerror(err));
		exit(1);
	}
}

int main(int argc, char **argv)
{
	int cpu = 1, churners = 2, c;
	double seconds = 3, life = 0.150;
	while ((c = getopt(argc, argv, "c:q:s:l:k:")) != -1) {
		switch (c) {
		case 'c': cpu = atoi(optarg); break;
		case 'q': quiet_cpu = atoi(optarg); break;
		case 's': seconds = atof(optarg); break;
		case 'l': life = atof(optarg) / 1000.0; break;
		case 'k': churners = atoi(optarg); break;
		default:
			fprintf(stderr, "usage: wl_threads [-c CPU] [-q QUIETCPU] "
				"[-s SECONDS] [-l LIFE_MS] [-k CHURNERS]\n");
			return 2;
		}
	}
	if (churners < 1 || churners > 64 || life <= 0)
		return 2;
	pin(cpu);

	static const double factor[] = { 1.0, 1.5, 2.0 };
	double lives[3];
	for (int i = 0; i < 3; i++)
		lives[i] = life * factor[i];
	pthread_t cont, *t = calloc((size_t)churners, sizeof(*t));
	start(&cont, contender, NULL);
	int n = 1;
	for (int i = 0; i < churners; i++, n++)
		start(&t[i], churner, &lives[n % 3]);
	double end = now() + seconds;
	for (int i = 0; now() < end; i = (i + 1) % churners, n++) {
		pthread_join(t[i], NULL);
		start(&t[i], churner, &lives[n % 3]);
	}
	for (int i = 0; i < churners; i++)
		pthread_join(t[i], NULL);
	stop = 1;
	pthread_join(cont, NULL);
	account_self();
	printf("threads %d run_ns %llu delay_ns %llu slices %llu\ndone\n", n,
	       (unsigned long long)sum_run, (unsigned long long)sum_delay,
	       (unsigned long long)sum_slices);
	fflush(stdout);
	free(t);
	for (;;)
		pause();
}
