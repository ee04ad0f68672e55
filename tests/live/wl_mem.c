/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * wl_mem: memory pressure for the live tests.
 *
 *   wl_mem [-r] [-o OPS] [-a MIB] [-f FILE] [-m MIB] [-b KIB] [-N NICE]
 *          [-T THREADS]
 *
 * Meant to run in a memory cgroup whose limit is below its working set.
 * With -a it maps MIB MiB of private anonymous memory (huge pages off)
 * and fills every page with data that compresses but is not one repeated
 * value (so a compressing swap device really stores and decompresses it).
 * With -f it makes FILE at least -m MIB (default 64) of written, fsynced
 * data and drops it from the page cache. Then it goes round and round:
 * each round reads one word of every anonymous page, page after page,
 * then reads the file from start to end with read() in 1 MiB pieces.
 * With -r the reads are at random: as many pages as the mapping has, and
 * blocks of -b KIB (default 64; the file is read with POSIX_FADV_RANDOM,
 * no readahead) at random offsets, as many bytes as the file has; with
 * -o, OPS of each per round instead.
 * Above the limit, anonymous pages go to swap and come back (swap
 * delay), the page cache is dropped and read again (IO delay), and the
 * cgroup's own reclaim makes room (reclaim delay). Pages in active use
 * when they were dropped count as thrashing when they come back, which
 * random reads of a working set a little larger than the limit make the
 * rule. -N sets the nice value (root for a negative one; with autogroups
 * the group's too), so that the rest of the machine does not decide how
 * long the workload waits for a CPU. With -T, THREADS threads (the main
 * thread the first) go round and round at once over the same memory and
 * file, each with its own random sequence (or, page after page, each
 * starting its own part of the way in): the process waits in each of
 * them, so its figures (the kernel adds up the threads) are about
 * THREADS times one thread's.
 *
 * Prints "ready" after the setup and the main thread's first round, and
 * "round N" after every 8th round of the main thread, each on its own
 * line, flushed; runs until killed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#define CHUNK (1 << 20)

static void __attribute__((noreturn)) die(const char *what)
{
	fprintf(stderr, "wl_mem: %s: %s\n", what, strerror(errno));
	exit(1);
}

/* Compressible, different on every page: a page number and a few
 * small values that repeat. */
static void fill(uint64_t *w, size_t words, uint64_t page)
{
	for (size_t i = 0; i < words; i++)
		w[i] = page << 16 | ((i * 7 + page) & 0x3f);
}

static void prepare_file(const char *path, off_t size)
{
	int fd = open(path, O_RDWR | O_CREAT, 0600);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0)
		die(path);
	if (st.st_size < size) {
		static uint64_t chunk[CHUNK / 8];
		for (off_t off = 0; off < size; off += CHUNK) {
			fill(chunk, CHUNK / 8, (uint64_t)off / CHUNK);
			if (pwrite(fd, chunk, CHUNK, off) != CHUNK)
				die("write");
		}
		if (fsync(fd) < 0)
			die("fsync");
	}
	/* from the disk, charged to our cgroup, whoever read it before */
	(void)posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	close(fd);
}

static off_t block = 64 << 10;
static long ops; /* per round, with -r: 0 = the whole size */
static volatile uint64_t sink;

/* what every thread works on */
static volatile uint64_t *anon;
static size_t pages, page;
static int fd = -1, at_random;
static off_t file_size;
static long nthreads = 1;

static uint64_t next_random(uint64_t *x) /* xorshift64 */
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

static uint64_t read_file(char *buf, uint64_t *x)
{
	off_t size = file_size;
	uint64_t sum = 0;
	if (at_random) {
		/* OPS blocks, or as many bytes as the file holds */
		long n = ops ? ops : (long)(size / block);
		for (long done = 0; done < n; done++) {
			off_t off = (off_t)(next_random(x) % (uint64_t)(size / block)) * block;
			if (pread(fd, buf, (size_t)block, off) != block)
				die("read");
			sum += (unsigned char)buf[0];
		}
		return sum;
	}
	ssize_t n;
	off_t off = 0;
	while ((n = pread(fd, buf, CHUNK, off)) > 0) {
		sum += (unsigned char)buf[0];
		off += n;
	}
	if (n < 0)
		die("read");
	return sum;
}

/* Round after round (arg: the thread's number, NULL for the main
 * thread, which reports). */
static void *rounds(void *arg)
{
	int main_thread = arg == NULL;
	/* page after page, thread i from i / THREADS of the way in */
	size_t start = pages * (size_t)(uintptr_t)arg / (size_t)nthreads;
	uint64_t x = 88172645463325252ULL + (uint64_t)(uintptr_t)arg * 0x9e3779b97f4a7c15ULL;
	uint64_t sum = 0;
	char *buf = NULL;
	if (fd >= 0) {
		buf = malloc(CHUNK);
		if (!buf)
			die("malloc");
	}
	for (unsigned long round = 1;; round++) {
		size_t touches = at_random && ops ? (size_t)ops : pages;
		for (size_t i = 0; anon && i < touches; i++) {
			size_t n = at_random ? (size_t)(next_random(&x) % pages) : (start + i) % pages;
			sum += anon[n * (page / 8) + (i & 7)];
		}
		if (fd >= 0)
			sum += read_file(buf, &x);
		if (main_thread) {
			if (round == 1)
				printf("ready\n");
			else if (round % 8 == 0)
				printf("round %lu\n", round);
			fflush(stdout);
		}
		sink = sum;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	long anon_mib = 0, file_mib = 64;
	const char *file = NULL;
	int nice = 0, set_nice = 0, c;
	while ((c = getopt(argc, argv, "a:b:f:m:N:o:rT:")) != -1) {
		switch (c) {
		case 'a': anon_mib = atol(optarg); break;
		case 'f': file = optarg; break;
		case 'm': file_mib = atol(optarg); break;
		case 'N': nice = atoi(optarg); set_nice = 1; break;
		case 'r': at_random = 1; break;
		case 'o': ops = atol(optarg); break;
		case 'b': block = (off_t)atol(optarg) << 10; break;
		case 'T': nthreads = atol(optarg); break;
		default:
			fprintf(stderr, "usage: wl_mem [-r] [-o OPS] [-a MIB] [-f FILE] "
				"[-m MIB] [-b KIB] [-N NICE] [-T THREADS]\n");
			return 2;
		}
	}
	if (optind != argc || anon_mib < 0 || file_mib < 1 || (!anon_mib && !file) ||
	    ops < 0 || block < 4096 || block > CHUNK || ((off_t)file_mib << 20) % block ||
	    nthreads < 1 || nthreads > 64)
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

	page = (size_t)sysconf(_SC_PAGESIZE);
	size_t len = (size_t)anon_mib << 20;
	pages = len / page;
	if (len) {
		void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			die("mmap");
		(void)madvise(p, len, MADV_NOHUGEPAGE);
		for (size_t i = 0; i < pages; i++)
			fill((uint64_t *)((char *)p + i * page), page / 8, i);
		anon = p;
	}
	if (file) {
		file_size = (off_t)file_mib << 20;
		prepare_file(file, file_size);
		fd = open(file, O_RDONLY);
		if (fd < 0)
			die(file);
		if (at_random)
			(void)posix_fadvise(fd, 0, 0, POSIX_FADV_RANDOM);
	}
	for (long i = 1; i < nthreads; i++) {
		pthread_t t;
		int err = pthread_create(&t, NULL, rounds, (void *)(uintptr_t)i);
		if (err) {
			errno = err;
			die("pthread_create");
		}
	}
	rounds(NULL);
	return 0;
}
