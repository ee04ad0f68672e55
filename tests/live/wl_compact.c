/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * wl_compact: direct memory compaction for the live tests.
 *
 *   wl_compact [-R MARGIN_MIB] [-f FLOOR_MIB] [-k CHUNK_MIB]
 *
 * A transparent huge page fault in a MADV_HUGEPAGE region (with a THP
 * "defrag" setting that lets such faults compact) compacts memory itself
 * when no free 2 MiB block is left: that wait is compact delay. So first
 * the free 2 MiB blocks must go:
 *  - with -R, it sets aside all free 2 MiB blocks (from /proc/buddyinfo)
 *    but MARGIN_MIB as hugetlb pages: a MAP_HUGETLB mapping reserves
 *    them without touching them (quick, where touching gigabytes is
 *    not), as surplus pages (the caller raises vm.nr_overcommit_hugepages)
 *    that go back when the process ends, however it ends. Where MemFree
 *    then still shows more than FLOOR_MIB + 2 GiB (a kernel that
 *    initialises memory only once it is asked for, or free memory in
 *    pieces), it asks for more, 4 GiB at a time, as long as it gets
 *    some;
 *  - then it faults in transparent huge pages, CHUNK_MIB (default 64) at
 *    a time, until MemFree in /proc/meminfo is below FLOOR_MIB (default
 *    256) + CHUNK_MIB. What stays free is small pieces.
 * Then, round after round, it takes its oldest chunk of huge pages,
 * splits them (MADV_COLD on part of a huge page splits it) and gives back
 * every other base page: 2 MiB blocks half used, holes, no free block. It
 * gives back the half chunk it kept from 4 rounds before (compaction has
 * moved much of it by then, so that leaves holes too) and faults in a new
 * chunk of huge pages: with no free 2 MiB block, each fault compacts
 * first, moving base pages into the holes. What it holds stays the same
 * while the rest of the machine does: when MemFree falls below FLOOR_MIB
 * (others took memory) it gives back what it set aside last (or its
 * newest chunk), and when MemFree rises above FLOOR_MIB + 2 x CHUNK_MIB
 * (others gave memory back, in free 2 MiB blocks its faults would take
 * without compacting) it faults in one chunk more: so it goes on
 * compacting whatever else the machine does.
 * It makes itself the OOM killer's first choice and exits (status 5) if
 * MemFree falls below FLOOR_MIB / 2 all the same: the machine needs its
 * memory back.
 *
 * Prints "reserved MIB filled MIB free MIB" and "ready" after the setup
 * and "round N free MIB gave G took T" (how many times it gave memory
 * back and took more) after every 16th round, flushed; runs until
 * killed. Exits 3 when the kernel has no transparent huge pages, 4 when
 * there is too little free memory to work with, 6 when more than 4 GiB
 * are still free after setting memory aside (filling that would take
 * too long).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define HUGE (2UL << 20)

static void __attribute__((noreturn)) die(const char *what)
{
	fprintf(stderr, "wl_compact: %s: %s\n", what, strerror(errno));
	exit(1);
}

/* MemFree in MiB */
static long mem_free(void)
{
	char line[256];
	long kb = -1;
	FILE *f = fopen("/proc/meminfo", "re");
	if (!f)
		die("/proc/meminfo");
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemFree: %ld kB", &kb) == 1)
			break;
	fclose(f);
	if (kb < 0)
		die("MemFree");
	return kb >> 10;
}

/* free 2 MiB blocks (order 9 and up) in the buddy allocator's zones
 * that serve user memory, from /proc/buddyinfo */
static long free_blocks(void)
{
	char line[512], zone[32];
	long blocks = 0;
	FILE *f = fopen("/proc/buddyinfo", "re");
	if (!f)
		die("/proc/buddyinfo");
	while (fgets(line, sizeof(line), f)) {
		int used;
		if (sscanf(line, "Node %*d, zone %31s%n", zone, &used) != 1)
			continue;
		if (!strcmp(zone, "DMA"))
			continue; /* never used for user pages here */
		char *p = line + used;
		for (int order = 0;; order++) {
			char *end;
			long n = strtol(p, &end, 10);
			if (end == p)
				break;
			p = end;
			if (order >= 9)
				blocks += n << (order - 9);
		}
	}
	fclose(f);
	return blocks;
}

/* the hugetlb mappings that set memory aside, newest last */
enum { NRES = 4096 };
static struct { void *p; long blocks; } res[NRES];
static int nres;

/* Set aside up to want free 2 MiB blocks as hugetlb pages (reserved by
 * the mapping, never touched); how many it did. */
static long reserve(long want)
{
	long got = 0;
	for (long step = 128; want > 0 && step >= 1 && nres < NRES; step /= 2) {
		while (want >= step && nres < NRES) {
			void *h = mmap(NULL, (size_t)step * HUGE, PROT_READ | PROT_WRITE,
				       MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);
			if (h == MAP_FAILED)
				break;
			res[nres].p = h, res[nres++].blocks = step;
			got += step, want -= step;
		}
	}
	return got;
}

/* a 2 MiB-aligned mapping of len bytes */
static char *map_aligned(size_t len)
{
	char *p = mmap(NULL, len + HUGE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED)
		die("mmap");
	size_t lead = (HUGE - (size_t)p % HUGE) % HUGE;
	if (lead)
		munmap(p, lead);
	munmap(p + lead + len, HUGE - lead);
	return p + lead;
}

static char *huge_chunk(size_t len)
{
	char *p = map_aligned(len);
	if (madvise(p, len, MADV_HUGEPAGE) < 0) {
		if (errno == EINVAL) {
			fprintf(stderr, "wl_compact: no transparent huge pages (MADV_HUGEPAGE: EINVAL)\n");
			exit(3);
		}
		die("madvise");
	}
	for (size_t off = 0; off < len; off += 4096)
		p[off] = 1;
	return p;
}

int main(int argc, char **argv)
{
	long floor_mib = 256, chunk_mib = 64, reserve_margin = -1;
	int c;
	while ((c = getopt(argc, argv, "f:k:R:")) != -1) {
		switch (c) {
		case 'f': floor_mib = atol(optarg); break;
		case 'k': chunk_mib = atol(optarg); break;
		case 'R': reserve_margin = atol(optarg); break;
		default:
			fprintf(stderr, "usage: wl_compact [-f FLOOR_MIB] [-k CHUNK_MIB] [-R MARGIN_MIB]\n");
			return 2;
		}
	}
	if (optind != argc || floor_mib < 0 || chunk_mib < 8 || chunk_mib % 8)
		return 2;
	int fd = open("/proc/self/oom_score_adj", O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write(fd, "1000", 4) != 4)
		die("/proc/self/oom_score_adj");
	close(fd);

	/* set aside all free 2 MiB blocks but MARGIN_MIB, untouched */
	long reserved = 0;
	for (int pass = 0; reserve_margin >= 0 && pass < 16; pass++) {
		long free_now = mem_free();
		if (pass > 0 && free_now <= floor_mib + 2048)
			break; /* the rest is for the huge page faults below */
		long want = free_blocks() - reserve_margin / 2;
		/* more free than the buddy lists hold in 2 MiB blocks: memory
		 * the kernel makes ready only when it is asked for it (lazy
		 * initialisation), or pieces: asking makes it (initialises or
		 * compacts), 4 GiB at a time */
		if (want <= 0 && pass > 0)
			want = (free_now - floor_mib - 2048) / 2 < 2048 ?
			       (free_now - floor_mib - 2048) / 2 : 2048;
		long got = reserve(want);
		reserved += got;
		if (got == 0)
			break;
	}
	if (reserve_margin >= 0 && mem_free() > floor_mib + 4096) {
		fprintf(stderr, "wl_compact: set aside %ld MiB, MemFree still %ld MiB "
			"(%ld MiB of it in free 2 MiB blocks)\n",
			reserved * 2, mem_free(), free_blocks() * 2);
		exit(6);
	}
	/* huge pages until no free 2 MiB block is left */
	size_t chunk = (size_t)chunk_mib << 20, page = (size_t)sysconf(_SC_PAGESIZE);
	enum { NMAX = 4096, KEEP = 4 };
	char *ring[NMAX], *halves[KEEP] = { 0 };
	size_t n = 0;
	while (mem_free() > floor_mib + chunk_mib && n < NMAX)
		ring[n++] = huge_chunk(chunk);
	if (n < 2) {
		fprintf(stderr, "wl_compact: MemFree %ld MiB: too little to work with\n", mem_free());
		exit(4);
	}
	printf("reserved %ld filled %zu free %ld\nready\n", reserved * 2,
	       n * (size_t)chunk_mib, mem_free());
	fflush(stdout);

	unsigned long gave = 0, took = 0;
	for (unsigned long round = 1;; round++) {
		char **t = &ring[(round - 1) % n];
		/* split the oldest chunk's huge pages (MADV_COLD on part of
		 * one splits it) and give back every other base page: half
		 * used 2 MiB blocks, holes and no free block */
		for (size_t off = 0; off < chunk; off += HUGE)
			(void)madvise(*t + off, page, MADV_COLD);
		for (size_t off = 0; off < chunk; off += 2 * page)
			(void)madvise(*t + off, page, MADV_DONTNEED);
		/* the half kept KEEP rounds ago: compaction has moved much
		 * of it by now, so giving it back leaves holes too */
		char **h = &halves[round % KEEP];
		if (*h)
			munmap(*h, chunk);
		*h = *t;
		/* huge pages again: with no free 2 MiB block, each fault
		 * compacts first */
		*t = huge_chunk(chunk);
		long free_now = mem_free();
		if (free_now < floor_mib && (nres > 0 || n > 2)) {
			/* the machine took memory: give some back (what was
			 * set aside first), and the faults take what is
			 * left */
			if (nres > 0)
				--nres, munmap(res[nres].p, (size_t)res[nres].blocks * HUGE);
			else
				munmap(ring[--n], chunk);
			gave++;
		} else if (free_now > floor_mib + 2 * chunk_mib && n < NMAX) {
			/* the machine gave memory back: free 2 MiB blocks
			 * that a fault would take without compacting; take
			 * them first */
			ring[n++] = huge_chunk(chunk);
			took++;
		}
		if (round % 16 == 0) {
			printf("round %lu free %ld gave %lu took %lu\n", round, free_now,
			       gave, took);
			fflush(stdout);
		}
		if (free_now < floor_mib / 2) {
			fprintf(stderr, "wl_compact: MemFree below %ld MiB: the machine needs it\n",
				floor_mib / 2);
			exit(5);
		}
	}
}
