/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * wl_io: synchronous block IO for the live tests.
 *
 *   wl_io [-r] [-t SECONDS] [-m MIB] [-w] FILE
 *
 * First makes FILE at least MIB MiB (default 16) of written, fsynced data,
 * so later overwrites need no block allocation and no journal. Then, for
 * SECONDS (default: until killed; 0: prepare only), it writes (with -r:
 * reads) 4 KiB blocks at pseudo-random offsets with O_DIRECT, one at a
 * time: each request goes to the device and the task sleeps in io_schedule
 * until it completes, which is what blkio delay accounting measures. Where
 * the filesystem refuses O_DIRECT, each write is followed by fdatasync
 * (reads drop the page cache with posix_fadvise first).
 * Prints "ready" after the preparation and "done OPS" at the end, flushed;
 * then exits, or with -w sleeps until killed.
 *
 * FILE must be on a real block device (not tmpfs): the tests check that.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define BLOCK 4096

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
	int reads = 0, wait = 0, c;
	double seconds = -1;
	long mib = 16;
	while ((c = getopt(argc, argv, "rt:m:w")) != -1) {
		switch (c) {
		case 'r': reads = 1; break;
		case 't': seconds = atof(optarg); break;
		case 'm': mib = atol(optarg); break;
		case 'w': wait = 1; break;
		default:
			fprintf(stderr, "usage: wl_io [-r] [-t SECONDS] [-m MIB] [-w] FILE\n");
			return 2;
		}
	}
	if (optind != argc - 1 || mib < 1)
		return 2;
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
	if (posix_memalign(&buf, BLOCK, BLOCK) != 0)
		die("posix_memalign");
	memset(buf, 0xa5, BLOCK);
	printf("ready\n");
	fflush(stdout);

	unsigned long ops = 0, x = (unsigned long)getpid();
	double end = now() + seconds;
	while (seconds < 0 || now() < end) {
		x = x * 6364136223846793005UL + 1442695040888963407UL;
		off_t off = (off_t)((x >> 33) % (unsigned long)(size / BLOCK)) * BLOCK;
		ssize_t n;
		if (reads) {
			if (!direct)
				(void)posix_fadvise(fd, off, BLOCK, POSIX_FADV_DONTNEED);
			n = pread(fd, buf, BLOCK, off);
		} else {
			n = pwrite(fd, buf, BLOCK, off);
			if (n == BLOCK && !direct && fdatasync(fd) < 0)
				die("fdatasync");
		}
		if (n != BLOCK)
			die(reads ? "read" : "write");
		ops++;
	}
	printf("done %lu\n", ops);
	fflush(stdout);
	while (wait)
		pause();
	close(fd);
	free(buf);
	return 0;
}
