/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What every fuzz target shares: the libFuzzer entry point (built by
 * clang with -fsanitize=fuzzer for `make fuzz`, or linked with
 * corpus_runner.c for `make check`) and a check that holds in any build
 * (not assert(), which NDEBUG would remove).
 */
#ifndef STALLTOP_FUZZ_H
#define STALLTOP_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_CHECK(cond) do { \
	if (!(cond)) { \
		fprintf(stderr, "%s:%d: invariant failed: %s\n", \
			__FILE__, __LINE__, #cond); \
		fflush(stderr); \
		abort(); \
	} \
} while (0)

/* A NUL-terminated malloc'd copy of the input (text parsers). */
static inline char *fuzz_strdup(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		abort();
	for (size_t i = 0; i < size; i++)
		s[i] = (char)data[i];
	s[size] = '\0';
	return s;
}

#endif
