/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * wl_threads: thread churn for the live tests.
 *
 *   wl_threads [-g] [-c CPU] [-q QUIETCPU] [-N NICE] [-s SECONDS]
 *              [-l LIFE_MS] [-k CHURNERS]
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
 * process's total cpu delay over its whole life. With -g it first prints
 * "waiting" and sleeps until SIGUSR1; the sums then start from that
 * moment (the main thread counts only what it accrues after it). -N sets
 * the nice value of the process and of its autogroup, as wl_spin does, so
 * that other tasks hardly preempt a thread between its reading and its
 * end. Prints
 *   threads N run_ns R delay_ns D slices S
 * and "done" (flushed), then sleeps until killed, its counters still.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
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

static void schedstat(unsigned long long v[3])
{
	FILE *f = fopen("/proc/thread-self/schedstat", "re");
	if (!f || fscanf(f, "%llu %llu %llu", &v[0], &v[1], &v[2]) != 3) {
		perror("wl_threads: /proc/thread-self/schedstat");
		exit(1);
	}
	fclose(f);
}

/* Move to the quiet CPU, then add this thread's scheduler counters
 * (less base, its counters at the start). */
static void account_self(const unsigned long long base[3])
{
	unsigned long long v[3];
	pin(quiet_cpu);
	schedstat(v);
	sum_run += v[0] - base[0];
	sum_delay += v[1] - base[1];
	sum_slices += v[2] - base[2];
}

static const unsigned long long zero[3];

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
	account_self(zero);
	return NULL;
}

static void *contender(void *arg)
{
	(void)arg;
	spin_until(1e300);
	account_self(zero);
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
	int cpu = 1, churners = 2, go = 0, nice = 0, set_nice = 0, c;
	double seconds = 3, life = 0.150;
	while ((c = getopt(argc, argv, "gc:q:N:s:l:k:")) != -1) {
		switch (c) {
		case 'g': go = 1; break;
		case 'N': nice = atoi(optarg); set_nice = 1; break;
		case 'c': cpu = atoi(optarg); break;
		case 'q': quiet_cpu = atoi(optarg); break;
		case 's': seconds = atof(optarg); break;
		case 'l': life = atof(optarg) / 1000.0; break;
		case 'k': churners = atoi(optarg); break;
		default:
			fprintf(stderr, "usage: wl_threads [-g] [-c CPU] [-q QUIETCPU] "
				"[-N NICE] [-s SECONDS] [-l LIFE_MS] [-k CHURNERS]\n");
			return 2;
		}
	}
	if (churners < 1 || churners > 64 || life <= 0)
		return 2;
	if (set_nice) {
		FILE *f;
		if (setpriority(PRIO_PROCESS, 0, nice) < 0) {
			perror("wl_threads: setpriority");
			return 1;
		}
		if ((f = fopen("/proc/self/autogroup", "we"))) {
			fprintf(f, "%d", nice);
			if (fclose(f) != 0)
				perror("wl_threads: /proc/self/autogroup");
		}
	}
	unsigned long long main_base[3] = { 0, 0, 0 };
	if (go) {
		sigset_t usr1;
		int sig;
		sigemptyset(&usr1);
		sigaddset(&usr1, SIGUSR1);
		sigprocmask(SIG_BLOCK, &usr1, NULL);
		printf("waiting\n");
		fflush(stdout);
		sigwait(&usr1, &sig);
		schedstat(main_base);
	}
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
	account_self(main_base);
	printf("threads %d run_ns %llu delay_ns %llu slices %llu\ndone\n", n,
	       (unsigned long long)sum_run, (unsigned long long)sum_delay,
	       (unsigned long long)sum_slices);
	fflush(stdout);
	free(t);
	for (;;)
		pause();
}
