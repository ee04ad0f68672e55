/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * wl_spin: a CPU spinner for the live tests.
 *
 *   wl_spin [-t THREADS] [-i IDLE] [-P PROCS] [-c CPU] [-N NICE]
 *           [-s SECONDS] [-w]
 *
 * THREADS threads (default 1, the main thread counts as the first) spin in
 * user space, never sleeping, so every nanosecond of each is either run
 * time or run-queue wait (cpu delay). With -c the whole process is pinned
 * to CPU first, so N threads share that one CPU. With -N (root for a
 * negative value) the process and its autogroup get that nice value: at
 * -20 other tasks on the CPU get about 1 % of it, so the spinners' share
 * does not depend on what else the machine runs. With -s each thread stops
 * after SECONDS of wall time; the process then exits, or with -w sleeps
 * until killed (its counters stop moving). Without -s it spins until
 * killed. -i adds IDLE threads that only sleep, -P forks PROCS child
 * processes that only sleep (rows that cost stalltop work but have no
 * delay; they end with the process group). Prints "ready" once all threads run and "done" when the
 * spinning ends, each on its own line, flushed.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double seconds = -1;

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void *spin(void *arg)
{
	volatile unsigned long n = 0;
	double end = seconds >= 0 ? now() + seconds : 0;
	(void)arg;
	for (;;) {
		for (int i = 0; i < 100000; i++)
			n++;
		if (end && now() >= end)
			return NULL;
	}
}

static void *idle(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

static void __attribute__((noreturn)) usage(void)
{
	fprintf(stderr, "usage: wl_spin [-t THREADS] [-i IDLE] [-P PROCS] [-c CPU] [-N NICE] "
		"[-s SECONDS] [-w]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	int threads = 1, idlers = 0, procs = 0, cpu = -1, nice = 0, set_nice = 0;
	int wait = 0, c;
	while ((c = getopt(argc, argv, "t:i:P:c:N:s:w")) != -1) {
		switch (c) {
		case 't': threads = atoi(optarg); break;
		case 'i': idlers = atoi(optarg); break;
		case 'P': procs = atoi(optarg); break;
		case 'c': cpu = atoi(optarg); break;
		case 'N': nice = atoi(optarg); set_nice = 1; break;
		case 's': seconds = atof(optarg); break;
		case 'w': wait = 1; break;
		default: usage();
		}
	}
	if (threads < 1 || threads > 1024 || idlers < 0 || procs < 0 || optind != argc)
		usage();
	for (int i = 0; i < procs; i++) {
		pid_t pid = fork();
		if (pid < 0) {
			perror("wl_spin: fork");
			return 1;
		}
		if (pid == 0)
			for (;;)
				pause();
	}
	if (cpu >= 0) {
		cpu_set_t set;
		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set) < 0) {
			perror("wl_spin: sched_setaffinity");
			return 1;
		}
	}
	if (set_nice) {
		/* threads made from now on inherit it */
		if (setpriority(PRIO_PROCESS, 0, nice) < 0) {
			perror("wl_spin: setpriority");
			return 1;
		}
		/* with autogroups, the group's nice decides between sessions */
		FILE *f = fopen("/proc/self/autogroup", "we");
		if (f) {
			fprintf(f, "%d", nice);
			if (fclose(f) != 0)
				perror("wl_spin: /proc/self/autogroup");
		}
	}
	pthread_t *tid = calloc((size_t)threads, sizeof(*tid));
	for (int i = 1; i < threads; i++) {
		int err = pthread_create(&tid[i], NULL, spin, NULL);
		if (err) {
			fprintf(stderr, "wl_spin: pthread_create: %s\n", strerror(err));
			return 1;
		}
	}
	for (int i = 0; i < idlers; i++) {
		pthread_t t;
		pthread_attr_t attr;
		pthread_attr_init(&attr);
		pthread_attr_setstacksize(&attr, 64 * 1024);
		int err = pthread_create(&t, &attr, idle, NULL);
		pthread_attr_destroy(&attr);
		if (err) {
			fprintf(stderr, "wl_spin: pthread_create: %s\n", strerror(err));
			return 1;
		}
	}
	printf("ready\n");
	fflush(stdout);
	spin(NULL);
	for (int i = 1; i < threads; i++)
		pthread_join(tid[i], NULL);
	printf("done\n");
	fflush(stdout);
	while (wait)
		pause();
	free(tid);
	return 0;
}
