/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Workloads for the terminal tests, each under a name of our choosing:
 *   stallhelper busy NAME           spin on the CPU
 *   stallhelper io NAME FILE        synchronous direct writes to FILE
 *   stallhelper threads NAME N      N extra threads; prints every tid
 *   stallhelper name NAME           just sleep (NAME may hold anything)
 *   stallhelper alloc NAME MIB      touch MIB MiB of memory, then sleep
 *   stallhelper paced NAME FILE KIB direct writes of KIB KiB a second to
 *                                   FILE, 64 KiB at a time on a clock
 *   stallhelper vfork NAME          in state D: waits (killable) for a
 *                                   vfork child that sleeps
 * Each dies with its parent and after ten minutes at the latest.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define LIFETIME 600
#define IO_BLOCK 65536
#define IO_SPAN (16 * 1024 * 1024)

static void name_self(const char *name)
{
	if (prctl(PR_SET_NAME, name, 0, 0, 0) < 0) {
		perror("prctl");
		exit(1);
	}
}

static void busy(void)
{
	volatile unsigned long n = 0;
	for (;;)
		n++;
}

static void io(const char *path)
{
	void *buf;
	if (posix_memalign(&buf, 4096, IO_BLOCK) != 0)
		exit(1);
	memset(buf, 'x', IO_BLOCK);
	int fd = open(path, O_WRONLY | O_CREAT | O_DIRECT, 0600);
	if (fd < 0) /* no O_DIRECT here: fsync does the waiting instead */
		fd = open(path, O_WRONLY | O_CREAT, 0600);
	if (fd < 0) {
		perror(path);
		exit(1);
	}
	for (off_t off = 0;; off = (off + IO_BLOCK) % IO_SPAN) {
		if (pwrite(fd, buf, IO_BLOCK, off) != IO_BLOCK) {
			perror("pwrite");
			exit(1);
		}
		fdatasync(fd);
	}
}

static void alloc(long mib)
{
	size_t n = (size_t)mib << 20;
	volatile char *p = malloc(n);

	if (mib <= 0 || !p) {
		fprintf(stderr, "cannot allocate %ld MiB\n", mib);
		exit(1);
	}
	/* every page written (volatile: the compiler may not skip it) */
	for (size_t i = 0; i < n; i += 4096)
		p[i] = 'x';
	printf("ready\n");
	fflush(stdout);
	for (;;)
		pause();
}

/* Writes of IO_BLOCK at fixed moments: kib KiB a second on average. */
static void paced(const char *path, long kib)
{
	void *buf;
	struct timespec next;
	long step_ns;

	if (kib < 64 || posix_memalign(&buf, 4096, IO_BLOCK) != 0)
		exit(2);
	memset(buf, 'x', IO_BLOCK);
	int fd = open(path, O_WRONLY | O_CREAT | O_DIRECT, 0600);
	if (fd < 0) {
		perror(path);
		exit(1);
	}
	step_ns = (long)(1e9 * (IO_BLOCK / 1024) / (double)kib);
	clock_gettime(CLOCK_MONOTONIC, &next);
	for (off_t off = 0;; off = (off + IO_BLOCK) % IO_SPAN) {
		if (pwrite(fd, buf, IO_BLOCK, off) != IO_BLOCK) {
			perror("pwrite");
			exit(1);
		}
		next.tv_nsec += step_ns;
		while (next.tv_nsec >= 1000000000L) {
			next.tv_nsec -= 1000000000L;
			next.tv_sec++;
		}
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
	}
}

static void *thread_main(void *arg)
{
	char name[16];
	snprintf(name, sizeof(name), "%.10s-%d", (const char *)arg,
		 (int)(syscall(SYS_gettid) % 1000));
	prctl(PR_SET_NAME, name, 0, 0, 0);
	printf("%ld\n", (long)syscall(SYS_gettid));
	fflush(stdout);
	for (;;)
		pause();
	return NULL;
}

static void threads(const char *name, int n)
{
	static char base[16];
	snprintf(base, sizeof(base), "%s", name);
	printf("%ld\n", (long)getpid());
	fflush(stdout);
	for (int i = 0; i < n; i++) {
		pthread_t t;
		if (pthread_create(&t, NULL, thread_main, base) != 0) {
			fprintf(stderr, "pthread_create failed\n");
			exit(1);
		}
	}
	for (;;)
		pause();
}

static int vfork_child(void *arg)
{
	(void)arg;
	prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
	alarm(LIFETIME);
	for (;;)
		pause();
	return 0;
}

/*
 * The parent of a CLONE_VFORK child sleeps uninterruptibly (killable)
 * until the child execs or ends: state D with a wait channel, for as long
 * as the child sleeps. The child has its own stack and memory.
 */
static void vfork_wait(void)
{
	static char stack[64 * 1024];

	printf("ready\n");
	fflush(stdout);
	if (clone(vfork_child, stack + sizeof(stack), CLONE_VFORK | SIGCHLD,
		  NULL) < 0) {
		perror("clone");
		exit(1);
	}
	exit(0);
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: %s busy|io|threads|name|alloc|paced|vfork "
			"NAME [ARG...]\n",
			argv[0]);
		return 2;
	}
	prctl(PR_SET_PDEATHSIG, SIGTERM, 0, 0, 0);
	alarm(LIFETIME);
	name_self(argv[2]);
	if (strcmp(argv[1], "busy") == 0)
		busy();
	else if (strcmp(argv[1], "io") == 0 && argc == 4)
		io(argv[3]);
	else if (strcmp(argv[1], "threads") == 0 && argc == 4)
		threads(argv[2], atoi(argv[3]));
	else if (strcmp(argv[1], "alloc") == 0 && argc == 4)
		alloc(atol(argv[3]));
	else if (strcmp(argv[1], "paced") == 0 && argc == 5)
		paced(argv[3], atol(argv[4]));
	else if (strcmp(argv[1], "vfork") == 0)
		vfork_wait();
	else if (strcmp(argv[1], "name") == 0)
		for (;;)
			pause();
	fprintf(stderr, "%s: bad arguments\n", argv[0]);
	return 2;
}
