/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Points in time (--begin, --end) and sizes (--record-max-size): every
 * form, in a fixed time zone with daylight saving (given as a POSIX TZ
 * rule, so no time-zone database is needed), fields out of range, a day
 * the month does not have, a local time a daylight saving change
 * skipped, trailing junk; a rejected input leaves the output alone.
 */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include "lib/numparse.h"
#include "lib/timeparse.h"
#include "unit.h"

/* 2026-03-10 12:00:00 UTC: 13:00 in Berlin (CET, UTC+1) */
#define NOW 1773144000

static void ok(const char *s, double want)
{
	double got = -1;
	int ret = timeparse_point(s, NOW, &got);

	CHECK(ret == 0);
	CHECK_NEAR(got, want, 1e-6);
	if (ret != 0 || fabs(got - want) > 1e-6)
		fprintf(stderr, "  '%s': %d, %.3f, expected %.3f\n", s, ret,
			got, want);
}

static void bad(const char *s, int want_errno)
{
	double got = -1;

	errno = 0;
	CHECK(timeparse_point(s, NOW, &got) == -1);
	CHECK(got == -1);
	CHECK(errno == want_errno);
	if (got != -1 || errno != want_errno)
		fprintf(stderr, "  '%s' was not refused with errno %d (%d)\n",
			s, want_errno, errno);
}

static void size_ok(const char *s, uint64_t want)
{
	uint64_t got = 1;

	CHECK(numparse_size(s, 0, UINT64_MAX, &got) == 0);
	CHECK_EQ_U(got, want);
}

static void size_bad(const char *s, uint64_t min, uint64_t max)
{
	uint64_t got = 12345;

	CHECK(numparse_size(s, min, max, &got) == -1);
	CHECK_EQ_U(got, 12345);
}

/* A number names the values that print as it at its places. */
static void test_half_unit(void)
{
	CHECK(numparse_half_unit("12") == 0.5);
	CHECK(fabs(numparse_half_unit("1763740000.123") - 0.0005) < 1e-12);
	CHECK(fabs(numparse_half_unit("0.5") - 0.05) < 1e-12);
	CHECK(fabs(numparse_half_unit("7.") - 0.5) < 1e-12);
}

int main(void)
{
	/* Central European Time: DST from the last Sunday of March, 02:00 */
	setenv("TZ", "CET-1CEST,M3.5.0,M10.5.0/3", 1);
	tzset();
	test_half_unit();

	/* dates and times, local */
	ok("2026-03-10 13:00", NOW);
	ok("2026-03-10T13:00", NOW);
	ok("2026-03-10 13:00:07", NOW + 7);
	ok("2026-03-10", NOW - 13 * 3600);
	ok("2026-07-01 03:00", 1782867600); /* CEST, UTC+2 */
	ok("2024-02-29 00:00", 1709161200);  /* a leap day */
	ok("1970-01-01 01:00", 0);
	/* a time of today: the day of now, local */
	ok("03:00", NOW - 10 * 3600);
	ok("13:00:30", NOW + 30);
	ok("00:00", NOW - 13 * 3600);
	ok("23:59:59", NOW + 11 * 3600 - 1);
	/* the epoch */
	ok("@0", 0);
	ok("@1773144000", NOW);
	ok("@1773144000.25", NOW + 0.25);

	/* not one of the forms */
	bad("", EINVAL);
	bad("now", EINVAL);
	bad("3:00", EINVAL);
	bad("03:00 ", EINVAL);
	bad(" 03:00", EINVAL);
	bad("03:00:1", EINVAL);
	bad("03:00:", EINVAL);
	bad("0300", EINVAL);
	bad("2026-3-10 13:00", EINVAL);
	bad("2026-03-10 13", EINVAL);
	bad("2026-03-10  13:00", EINVAL);
	bad("2026-03-10x13:00", EINVAL);
	bad("2026-03-10 13:00x", EINVAL);
	bad("+2026-03-10", EINVAL);
	bad("@", EINVAL);
	bad("@-1", EINVAL);
	bad("@1e9", EINVAL);
	bad("@.5", EINVAL);
	bad("@5.", EINVAL);
	bad("@1.2.3", EINVAL);
	bad("@ 5", EINVAL);
	bad("@0x10", EINVAL);
	/* fields out of range, days the month does not have */
	bad("24:00", EINVAL);
	bad("12:60", EINVAL);
	bad("12:00:60", EINVAL);
	bad("2026-13-01", EINVAL);
	bad("2026-00-01", EINVAL);
	bad("2026-01-00", EINVAL);
	bad("2026-01-32", EINVAL);
	bad("2026-02-29", EINVAL);
	bad("2026-04-31 10:00", EINVAL);
	/* years the epoch cannot hold, a time DST skipped, huge epochs */
	bad("1969-12-31 23:00", ERANGE);
	bad("0000-01-01", ERANGE);
	bad("2026-03-29 02:30", ERANGE);
	bad("@99999999999999999999", ERANGE);

	/* sizes: powers of 1024 */
	size_ok("0", 0);
	size_ok("4096", 4096);
	size_ok("1K", 1024);
	size_ok("1k", 1024);
	size_ok("256M", 256ULL << 20);
	size_ok("256MiB", 256ULL << 20);
	size_ok("256MB", 256ULL << 20);
	size_ok("2G", 2ULL << 30);
	size_ok("3T", 3ULL << 40);
	size_ok("18446744073709551615", UINT64_MAX);
	size_bad("", 0, UINT64_MAX);
	size_bad("M", 0, UINT64_MAX);
	size_bad("-1", 0, UINT64_MAX);
	size_bad(" 1", 0, UINT64_MAX);
	size_bad("1 M", 0, UINT64_MAX);
	size_bad("1.5M", 0, UINT64_MAX);
	size_bad("1Q", 0, UINT64_MAX);
	size_bad("1MM", 0, UINT64_MAX);
	size_bad("1Mx", 0, UINT64_MAX);
	size_bad("1iB", 0, UINT64_MAX);
	size_bad("2Mi", 0, UINT64_MAX);
	size_bad("2MBi", 0, UINT64_MAX);
	size_bad("18446744073709551616", 0, UINT64_MAX);
	size_bad("16777216T", 0, UINT64_MAX);
	size_bad("1K", 2048, UINT64_MAX);
	size_bad("3K", 0, 2048);
	return unit_done();
}
