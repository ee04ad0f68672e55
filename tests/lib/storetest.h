/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the store's tests and bench/storesize share: a random sequence
 * that is the same each run (xorshift64, a seed per program), a file in
 * memory to write records to, strings that stay until the end (the
 * codec takes `const char *` strings whose storage the caller keeps),
 * and a count of the recordings a directory holds.
 */
#ifndef STALLTOP_STORETEST_H
#define STALLTOP_STORETEST_H

#include <dirent.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <zlib.h>

static uint64_t storetest_rng = 0x9e3779b97f4a7c15ull;

static inline void storetest_seed(uint64_t seed)
{
	storetest_rng = seed ? seed : 0x9e3779b97f4a7c15ull;
}

static inline uint64_t storetest_rnd(void)
{
	storetest_rng ^= storetest_rng << 13;
	storetest_rng ^= storetest_rng >> 7;
	storetest_rng ^= storetest_rng << 17;
	return storetest_rng;
}

/* true percent times in a hundred */
static inline bool storetest_chance(unsigned percent)
{
	return storetest_rnd() % 100 < percent;
}

/* An empty file in memory (exits when there is none to be had). */
static inline int storetest_memfd(const char *name)
{
	int fd = memfd_create(name, MFD_CLOEXEC);

	if (fd < 0) {
		perror("memfd_create");
		exit(1);
	}
	return fd;
}

/* Strings kept until storetest_strings_free. */
struct storetest_str {
	struct storetest_str *next;
	char s[];
};

static struct storetest_str *storetest_strs;

/* A copy of the n bytes at s, NUL-terminated, kept (exits without memory). */
static inline const char *storetest_keep(const char *s, size_t n)
{
	struct storetest_str *k = malloc(sizeof(*k) + n + 1);

	if (!k) {
		perror("malloc");
		exit(1);
	}
	memcpy(k->s, s, n);
	k->s[n] = '\0';
	k->next = storetest_strs;
	storetest_strs = k;
	return k->s;
}

static inline void storetest_strings_free(void)
{
	while (storetest_strs) {
		struct storetest_str *n = storetest_strs->next;

		free(storetest_strs);
		storetest_strs = n;
	}
}

/*
 * A record of the file format (store/frame.h) into out (20 + len + 4
 * bytes): its size.
 */
static inline size_t storetest_record(unsigned char *out, int type, int flags,
				      double time, const void *payload,
				      size_t len)
{
	uint64_t bits;
	uint32_t crc;

	memcpy(out, "\xf5STK", 4);
	out[4] = (unsigned char)type;
	out[5] = (unsigned char)flags;
	out[6] = out[7] = 0;
	for (int i = 0; i < 4; i++)
		out[8 + i] = (unsigned char)(len >> (8 * i));
	memcpy(&bits, &time, 8);
	for (int i = 0; i < 8; i++)
		out[12 + i] = (unsigned char)(bits >> (8 * i));
	memcpy(out + 20, payload, len);
	crc = (uint32_t)crc32(0, out, (uInt)(20 + len));
	for (int i = 0; i < 4; i++)
		out[20 + len + i] = (unsigned char)(crc >> (8 * i));
	return 20 + len + 4;
}

/* Put the n bytes at p into the file fd at offset at (exits on failure). */
static inline void storetest_insert(int fd, off_t at, const void *p, size_t n)
{
	off_t end = lseek(fd, 0, SEEK_END);
	size_t rest = end > at ? (size_t)(end - at) : 0;
	char *tail = malloc(rest + 1);

	if (!tail || end < 0 || pread(fd, tail, rest, at) != (ssize_t)rest ||
	    pwrite(fd, p, n, at) != (ssize_t)n ||
	    pwrite(fd, tail, rest, at + (off_t)n) != (ssize_t)rest) {
		perror("storetest_insert");
		exit(1);
	}
	free(tail);
}

/* The file fd as it was: its first size bytes (exits on failure). */
static inline void storetest_cut(int fd, off_t size)
{
	if (ftruncate(fd, size) < 0) {
		perror("ftruncate");
		exit(1);
	}
}

/*
 * The time of the record at offset at (size bytes) of fd set to time,
 * its CRC made again (exits on failure).
 */
static inline void storetest_retime(int fd, off_t at, size_t size, double time)
{
	unsigned char *r = malloc(size);
	uint64_t bits;
	uint32_t crc;

	if (!r || pread(fd, r, size, at) != (ssize_t)size) {
		perror("storetest_retime");
		exit(1);
	}
	memcpy(&bits, &time, 8);
	for (int i = 0; i < 8; i++)
		r[12 + i] = (unsigned char)(bits >> (8 * i));
	crc = (uint32_t)crc32(0, r, (uInt)(size - 4));
	for (int i = 0; i < 4; i++)
		r[size - 4 + i] = (unsigned char)(crc >> (8 * i));
	if (pwrite(fd, r, size, at) != (ssize_t)size) {
		perror("storetest_retime");
		exit(1);
	}
	free(r);
}

/* The files of dir that are recordings of ours (stalltop-*), counted. */
static inline int storetest_count_files(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	while (d && (e = readdir(d)))
		n += strncmp(e->d_name, "stalltop-", 9) == 0;
	if (d)
		closedir(d);
	return n;
}

#endif
