/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A very small unit-test harness: CHECK() records a failure with its
 * place and goes on; unit_skip() says a part cannot run here and why;
 * unit_done() prints the tally and gives the exit code the automake test
 * driver expects (1 failed, 77 skipped, 0 passed). unit_live_lock()
 * takes the live tests' lock.
 */
#ifndef STALLTOP_UNIT_H
#define STALLTOP_UNIT_H

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

static int unit_checks, unit_failures;
static const char *unit_skipped;

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

/*
 * A part of the test cannot run on this machine (why, a string that
 * lives on): the test ends with 77, skipped, unless a check failed. Only
 * where the feature is truly absent, never to hide a failure.
 */
static inline void unit_skip(const char *why)
{
	printf("SKIP: %s\n", why);
	if (!unit_skipped)
		unit_skipped = why;
}

/*
 * Take the machine-wide lock of the live tests (tests/lib/functions.sh,
 * live_lock: $STALLTOP_LIVE_LOCK, else /tmp/stalltop-live-tests.lock)
 * for the rest of the process. Every test that loads the CPU, forks in
 * bulk or measures the machine takes it, so that it neither disturbs a
 * live test's measurement nor is disturbed by one, under make -j and
 * across build trees. Waits up to 20 minutes, then exits 99.
 */
static inline void unit_live_lock(void)
{
	const char *path = getenv("STALLTOP_LIVE_LOCK");
	if (!path || !*path)
		path = "/tmp/stalltop-live-tests.lock";
	int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0666);
	if (fd < 0) {
		fprintf(stderr, "cannot open the live-test lock %s: %s\n", path,
			strerror(errno));
		exit(99);
	}
	for (int waited = 0; flock(fd, LOCK_EX | LOCK_NB) < 0; waited++) {
		if (errno != EWOULDBLOCK && errno != EINTR) {
			fprintf(stderr, "cannot lock %s: %s\n", path,
				strerror(errno));
			exit(99);
		}
		if (waited >= 20 * 60 * 10) {
			fprintf(stderr, "another live test held %s for 20 minutes\n",
				path);
			exit(99);
		}
		nanosleep(&(struct timespec){ 0, 100000000 }, NULL);
	}
	/* the descriptor stays open: the lock goes when the process does */
}

static inline int unit_done(void)
{
	printf("%d checks, %d failed\n", unit_checks, unit_failures);
	if (unit_failures)
		return 1;
	if (unit_skipped) {
		printf("skipped: %s\n", unit_skipped);
		return 77;
	}
	return 0;
}

#endif
