/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * wl_woken: a process whose one thread is woken from a block IO wait at
 * a moment it cannot run, for the live tests.
 *
 *   wl_woken [-a CPU] [-c CPU] [-b BUSY_MS] [-k KIB] [-s START_MS]
 *            [-l HOG_MS] FILE
 *
 * Forks a hog: a process of its own, pinned to the -c CPU (default 1) at
 * SCHED_FIFO priority 1, that waits. Prints "ready" (flushed), then on
 * each SIGUSR1 spins BUSY_MS (default 0) on the -c CPU (so that a
 * monitor sees it move just before it waits), pins itself to the -a CPU
 * (default 0), tells the hog to spin from START_MS (default 200) on for
 * HOG_MS (default 600), and reads KIB (default 8) KiB of FILE with
 * O_DIRECT, one request. In a
 * cgroup whose reads the test throttles, the read waits for its IO for
 * longer than START_MS. The hog, as it starts, moves the waiting thread
 * to its own CPU: the IO is sent and completed on the other one (where
 * the throttled request's dispatch runs), the kernel wakes the thread
 * there and ends its block IO wait, but the thread cannot run until the
 * hog stops. It then prints
 *   woken begin B end E hog H1 H2 run_delay_ns D
 * on CLOCK_REALTIME (seconds): B just before the read, E once it ran
 * again after it, H1 and H2 the hog's spin as asked, D the time it waited
 * for the CPU over the read (its /proc/thread-self/schedstat).
 * The hog ends when this process does.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define ALIGN 4096

static double clock_s(clockid_t id)
{
	struct timespec ts;
	clock_gettime(id, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void __attribute__((noreturn)) die(const char *what)
{
	fprintf(stderr, "wl_woken: %s: %s\n", what, strerror(errno));
	exit(1);
}

static unsigned long long run_delay(void)
{
	unsigned long long run, delay;
	FILE *f = fopen("/proc/thread-self/schedstat", "re");
	if (!f || fscanf(f, "%llu %llu", &run, &delay) != 2)
		die("/proc/thread-self/schedstat");
	fclose(f);
	return delay;
}

static void pin_task(pid_t pid, int cpu)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(pid, sizeof(set), &set) < 0)
		die("sched_setaffinity");
}

/*
 * The hog: for each pair of monotonic times read, at the first move the
 * waiting thread (victim) to its CPU and spin until the second.
 */
static void __attribute__((noreturn)) hog(int fd, int cpu, pid_t victim)
{
	struct sched_param sp = { .sched_priority = 1 };
	double when[2];

	pin_task(0, cpu);
	if (sched_setscheduler(0, SCHED_FIFO, &sp) < 0)
		die("sched_setscheduler");
	while (read(fd, when, sizeof(when)) == (ssize_t)sizeof(when)) {
		struct timespec ts = { (time_t)when[0],
				       (long)((when[0] - (double)(time_t)when[0]) * 1e9) };
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
			;
		pin_task(victim, cpu);
		while (clock_s(CLOCK_MONOTONIC) < when[1])
			;
	}
	_exit(0);
}

int main(int argc, char **argv)
{
	int cpu = 1, own = 0, opt;
	long kib = 8;
	double start = 0.2, len = 0.6, busy = 0;

	while ((opt = getopt(argc, argv, "a:b:c:k:s:l:")) != -1) {
		switch (opt) {
		case 'a': own = atoi(optarg); break;
		case 'b': busy = atof(optarg) / 1000; break;
		case 'c': cpu = atoi(optarg); break;
		case 'k': kib = atol(optarg); break;
		case 's': start = atof(optarg) / 1000; break;
		case 'l': len = atof(optarg) / 1000; break;
		default:
			fprintf(stderr, "usage: wl_woken [-a CPU] [-c CPU] [-b BUSY_MS] [-k KIB] [-s START_MS] [-l HOG_MS] FILE\n");
			return 2;
		}
	}
	if (optind != argc - 1 || kib <= 0 || kib % 4) {
		fprintf(stderr, "usage: wl_woken [-a CPU] [-c CPU] [-b BUSY_MS] [-k KIB] [-s START_MS] [-l HOG_MS] FILE\n");
		return 2;
	}
	int fd = open(argv[optind], O_RDONLY | O_DIRECT);
	if (fd < 0)
		die(argv[optind]);
	off_t size = lseek(fd, 0, SEEK_END);
	size_t bytes = (size_t)kib * 1024;
	if (size < (off_t)bytes) {
		fprintf(stderr, "wl_woken: %s: shorter than %ld KiB\n", argv[optind], kib);
		return 1;
	}
	void *buf;
	if (posix_memalign(&buf, ALIGN, bytes))
		die("posix_memalign");

	int p[2];
	if (pipe(p) < 0)
		die("pipe");
	pid_t self = getpid();
	pid_t child = fork();
	if (child < 0)
		die("fork");
	if (child == 0) {
		close(p[1]);
		hog(p[0], cpu, self);
	}
	close(p[0]);

	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, NULL);
	printf("ready\n");
	fflush(stdout);

	off_t at = 0;
	for (;;) {
		int got;
		sigwait(&set, &got);
		pin_task(0, cpu);
		double spin = clock_s(CLOCK_MONOTONIC) + busy;
		while (clock_s(CLOCK_MONOTONIC) < spin)
			;
		pin_task(0, own);
		double mono = clock_s(CLOCK_MONOTONIC);
		double off = clock_s(CLOCK_REALTIME) - mono;
		double when[2] = { mono + start, mono + start + len };
		if (write(p[1], when, sizeof(when)) != (ssize_t)sizeof(when))
			die("write to the hog");
		unsigned long long d0 = run_delay();
		double begin = clock_s(CLOCK_REALTIME);
		if (pread(fd, buf, bytes, at) != (ssize_t)bytes)
			die("pread");
		double end = clock_s(CLOCK_REALTIME);
		unsigned long long d1 = run_delay();
		at = (at + (off_t)bytes) % (size - (off_t)bytes + 1) / ALIGN * ALIGN;
		printf("woken begin %.6f end %.6f hog %.6f %.6f run_delay_ns %llu\n",
		       begin, end, when[0] + off, when[1] + off, d1 - d0);
		fflush(stdout);
	}
}
