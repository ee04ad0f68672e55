/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * wl_wake: a process of idle threads for the live tests, whose threads
 * wake only when told.
 *
 *   wl_wake [-t THREADS] [-c CPU] [-b BURST_MS]
 *
 * THREADS threads (default 8, the main thread counts as the first) sleep.
 * Prints "ready" (flushed) once they all exist, and then:
 *  - on SIGUSR1, one of them (the waker) pins itself to CPU (default 0)
 *    and spins for BURST_MS (default 300) of wall time, reading its own
 *    /proc/thread-self/schedstat (run time, run-queue wait: what taskstats
 *    reports as run time and cpu delay) before and after, and prints
 *      wake tid T begin B end E run_ns R delay_ns D
 *    with B and E on CLOCK_REALTIME (seconds), then sleeps again. Run
 *    next to a spinner pinned to the same CPU, the burst waits for the
 *    CPU about half of the time.
 *  - on SIGUSR2, another one (the forker) prints "vfork tid T" and calls
 *    vfork(): it waits in uninterruptible sleep (state D) until its child,
 *    which only sleeps, is killed; it then prints "released" and sleeps.
 * Every other thread sleeps until the process is killed.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static int cpu;
static double burst = 0.300;

static double clock_s(clockid_t id)
{
	struct timespec ts;
	clock_gettime(id, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void schedstat(unsigned long long v[2])
{
	FILE *f = fopen("/proc/thread-self/schedstat", "re");
	if (!f || fscanf(f, "%llu %llu", &v[0], &v[1]) != 2) {
		perror("wl_wake: /proc/thread-self/schedstat");
		exit(1);
	}
	fclose(f);
}

static void wait_signal(int sig)
{
	sigset_t set;
	int got;
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigwait(&set, &got);
}

static void *waker(void *arg)
{
	(void)arg;
	for (;;) {
		wait_signal(SIGUSR1);
		cpu_set_t set;
		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set) < 0) {
			perror("wl_wake: sched_setaffinity");
			exit(1);
		}
		unsigned long long a[2], b[2];
		schedstat(a);
		double begin = clock_s(CLOCK_REALTIME);
		double end = clock_s(CLOCK_MONOTONIC) + burst;
		volatile unsigned long n = 0;
		while (clock_s(CLOCK_MONOTONIC) < end)
			for (int i = 0; i < 20000; i++)
				n++;
		schedstat(b);
		double stop = clock_s(CLOCK_REALTIME);
		printf("wake tid %ld begin %.6f end %.6f run_ns %llu delay_ns %llu\n",
		       (long)syscall(SYS_gettid), begin, stop, b[0] - a[0],
		       b[1] - a[1]);
		fflush(stdout);
	}
	return NULL;
}

static void *forker(void *arg)
{
	(void)arg;
	for (;;) {
		wait_signal(SIGUSR2);
		printf("vfork tid %ld\n", (long)syscall(SYS_gettid));
		fflush(stdout);
		pid_t child = vfork();
		if (child == 0) {
			/* the parent waits (D) until this ends: only sleep */
			for (;;)
				syscall(SYS_pause);
		}
		printf("released\n");
		fflush(stdout);
	}
	return NULL;
}

static void *sleeper(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

int main(int argc, char **argv)
{
	int threads = 8, c;
	while ((c = getopt(argc, argv, "t:c:b:")) != -1) {
		switch (c) {
		case 't': threads = atoi(optarg); break;
		case 'c': cpu = atoi(optarg); break;
		case 'b': burst = atof(optarg) / 1000.0; break;
		default:
			fprintf(stderr, "usage: wl_wake [-t THREADS] [-c CPU] "
				"[-b BURST_MS]\n");
			return 2;
		}
	}
	if (threads < 3 || threads > 1000 || burst <= 0)
		return 2;
	/* the signals go to the threads that wait for them */
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGUSR2);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	pthread_t t;
	void *(*fn[])(void *) = { waker, forker };
	for (int i = 1; i < threads; i++) {
		int err = pthread_create(&t, NULL, i <= 2 ? fn[i - 1] : sleeper,
					 NULL);
		if (err) {
			fprintf(stderr, "wl_wake: pthread_create: %s\n",
				strerror(err));
			return 1;
		}
	}
	printf("ready\n");
	fflush(stdout);
	for (;;)
		pause();
}
