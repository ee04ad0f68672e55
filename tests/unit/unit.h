/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A very small unit-test harness: CHECK() records a failure with its
 * place and goes on; unit_done() prints the tally and gives the exit code
 * the automake test driver expects.
 */
#ifndef STALLTOP_UNIT_H
#define STALLTOP_UNIT_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int unit_checks, unit_failures;

#define CHECK(cond) do { \
	unit_checks++; \
	if (!(cond)) { \
		unit_failures++; \
		fprintf(stderr, "%s:%d: check failed: %s\n", \
			__FILE__, __LINE__, #cond); \
	} \
} while (0)

#define CHECK_EQ_U(a, b) do { \
	unsigned long long a_ = (a), b_ = (b); \
	unit_checks++; \
	if (a_ != b_) { \
		unit_failures++; \
		fprintf(stderr, "%s:%d: %s == %llu, expected %llu\n", \
			__FILE__, __LINE__, #a, a_, b_); \
	} \
} while (0)

#define CHECK_NEAR(a, b, eps) do { \
	double a_ = (a), b_ = (b); \
	unit_checks++; \
	if (!(fabs(a_ - b_) <= (eps))) { \
		unit_failures++; \
		fprintf(stderr, "%s:%d: %s == %g, expected %g\n", \
			__FILE__, __LINE__, #a, a_, b_); \
	} \
} while (0)

#define CHECK_STR(a, b) do { \
	const char *a_ = (a), *b_ = (b); \
	unit_checks++; \
	if (!a_ || strcmp(a_, b_) != 0) { \
		unit_failures++; \
		fprintf(stderr, "%s:%d: %s == \"%s\", expected \"%s\"\n", \
			__FILE__, __LINE__, #a, a_ ? a_ : "(null)", b_); \
	} \
} while (0)

/* Read a whole fixture file (below FIXTURES) into a malloc'd buffer. */
static inline char *unit_fixture(const char *name, size_t *len)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", FIXTURES, name);
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "cannot open fixture %s\n", path);
		exit(99);
	}
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap + 1);
	size_t got;
	while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap) {
			cap *= 2;
			buf = realloc(buf, cap + 1);
		}
	}
	fclose(f);
	if (!buf)
		exit(99);
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

static inline int unit_done(void)
{
	printf("%d checks, %d failed\n", unit_checks, unit_failures);
	return unit_failures ? 1 : 0;
}

#endif
