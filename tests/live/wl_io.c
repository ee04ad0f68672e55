/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * wl_io: synchronous block IO for the live tests.
 *
 *   wl_io [-r] [-t SECONDS] [-m MIB] [-b KIB] [-N NICE] [-w] FILE
 *
 * First makes FILE at least MIB MiB (default 16) of written, fsynced data,
 * so later overwrites need no block allocation and no journal. Then, for
 * SECONDS (default: until killed; 0: prepare only), it writes (with -r:
 * reads) blocks of KIB KiB (default 4) at pseudo-random offsets with
 * O_DIRECT, one at a time: each request goes to the device and the task
 * sleeps in io_schedule until it completes, which is what blkio delay
 * accounting measures. -N sets the nice value (root for a negative one;
 * with autogroups the group's too), so that the rest of the machine does
 * not decide how long the task waits for a CPU between requests. Where
 * the filesystem refuses O_DIRECT, each write is followed by fdatasync
 * (reads drop the page cache with posix_fadvise first).
 * SIGTERM ends the IO early (after the request under way), as the end of
 * SECONDS does. Prints "ready" after the preparation and "done OPS" at
 * the end, flushed; then exits, or with -w sleeps until killed.
 *
 * FILE must be on a real block device (not tmpfs): the tests check that.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define ALIGN 4096

static volatile sig_atomic_t stop;

static void on_term(int signo)
{
	(void)signo;
	stop = 1;
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void __attribute__((noreturn)) die(const char *what)
{
	fprintf(stderr, "wl_io: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void prepare(const char *path, off_t size)
{
	int fd = open(path, O_RDWR | O_CREAT, 0600);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0)
		die(path);
	if (st.st_size < size) {
		static char chunk[1 << 20];
		memset(chunk, 0x5a, sizeof(chunk));
		for (off_t off = 0; off < size; off += (off_t)sizeof(chunk))
			if (pwrite(fd, chunk, sizeof(chunk), off) != (ssize_t)sizeof(chunk))
				die("write");
		if (fsync(fd) < 0)
			die("fsync");
	}
	close(fd);
}

int main(int argc, char **argv)
{
	int reads = 0, wait = 0, nice = 0, set_nice = 0, c;
	double seconds = -1;
	long mib = 16, kib = 4;
	while ((c = getopt(argc, argv, "rt:m:b:N:w")) != -1) {
		switch (c) {
		case 'r': reads = 1; break;
		case 't': seconds = atof(optarg); break;
		case 'm': mib = atol(optarg); break;
		case 'b': kib = atol(optarg); break;
		case 'N': nice = atoi(optarg); set_nice = 1; break;
		case 'w': wait = 1; break;
		default:
			fprintf(stderr, "usage: wl_io [-r] [-t SECONDS] [-m MIB] [-b KIB] [-N NICE] [-w] FILE\n");
			return 2;
		}
	}
	if (optind != argc - 1 || mib < 1 || kib < 4 || kib % 4 || kib > 1024)
		return 2;
	if (set_nice) {
		if (setpriority(PRIO_PROCESS, 0, nice) < 0)
			die("setpriority");
		/* with autogroups, the group's nice decides between sessions */
		FILE *f = fopen("/proc/self/autogroup", "we");
		if (f) {
			fprintf(f, "%d", nice);
			if (fclose(f) != 0)
				die("/proc/self/autogroup");
		}
	}
	const size_t block = (size_t)kib << 10;
	const char *path = argv[optind];
	off_t size = (off_t)mib << 20;
	prepare(path, size);

	int direct = 1;
	int fd = open(path, (reads ? O_RDONLY : O_WRONLY) | O_DIRECT);
	if (fd < 0 && errno == EINVAL) {
		direct = 0;
		fd = open(path, reads ? O_RDONLY : O_WRONLY);
	}
	if (fd < 0)
		die(path);
	void *buf;
	if (posix_memalign(&buf, ALIGN, block) != 0)
		die("posix_memalign");
	memset(buf, 0xa5, block);
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_term;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGTERM, &sa, NULL) < 0)
		die("sigaction");
	printf("ready\n");
	fflush(stdout);

	unsigned long ops = 0, x = (unsigned long)getpid();
	double end = now() + seconds;
	while (!stop && (seconds < 0 || now() < end)) {
		x = x * 6364136223846793005UL + 1442695040888963407UL;
		off_t off = (off_t)((x >> 33) % (unsigned long)(size / (off_t)block)) * (off_t)block;
		ssize_t n;
		if (reads) {
			if (!direct)
				(void)posix_fadvise(fd, off, (off_t)block, POSIX_FADV_DONTNEED);
			n = pread(fd, buf, block, off);
		} else {
			n = pwrite(fd, buf, block, off);
			if (n == (ssize_t)block && !direct && fdatasync(fd) < 0)
				die("fdatasync");
		}
		if (n != (ssize_t)block)
			die(reads ? "read" : "write");
		ops++;
	}
	printf("done %lu\n", ops);
	fflush(stdout);
	signal(SIGTERM, SIG_DFL); /* from now on it ends the process */
	while (wait)
		pause();
	close(fd);
	free(buf);
	return 0;
}
