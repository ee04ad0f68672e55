/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the store's tests and bench/storesize share: a random sequence
 * that is the same each run (xorshift64, a seed per program), a file in
 * memory to write records to, and strings that stay until the end (the
 * codec takes `const char *` strings whose storage the caller keeps).
 */
#ifndef STALLTOP_STORETEST_H
#define STALLTOP_STORETEST_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

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

#endif
