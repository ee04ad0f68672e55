/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Fuzz target: the strict number parsers of the command line and the
 * settings file (numparse_positive_double, numparse_ulong, numparse_pid) on the
 * input as a string (cut at its first NUL, as argv would be). numparse_ulong
 * is checked against a reference: it must accept exactly the non-empty
 * all-digit strings whose value fits and is in range, with that value.
 * numparse_positive_double must accept exactly the strings of digits with at
 * most one point (and a digit) whose value is in (0, max], and give that
 * value to within 1e-12 relative (strtod, in the C locale here, is the
 * reference; the parser is not correctly rounded: "0.3" gives
 * 0.30000000000000004). Values below 1e-290 and within 1e-12 of max are
 * only checked to be in range. A rejected input leaves the output alone.
 */
#include <config.h>

#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "fuzz.h"
#include "lib/numparse.h"

/* The reference: decimal digits only, non-empty, no overflow. */
static bool ref_ulong(const char *s, unsigned long *out)
{
	unsigned long v = 0;

	if (!*s)
		return false;
	for (; *s; s++) {
		unsigned d;

		if (*s < '0' || *s > '9')
			return false;
		d = (unsigned)(*s - '0');
		if (v > (ULONG_MAX - d) / 10)
			return false;
		v = v * 10 + d;
	}
	*out = v;
	return true;
}

static void check_ulong(const char *s, unsigned long min, unsigned long max)
{
	unsigned long want = 0, got = 12345;
	bool ok = ref_ulong(s, &want) && want >= min && want <= max;
	int ret = numparse_ulong(s, min, max, &got);

	FUZZ_CHECK(ret == 0 || ret == -1);
	FUZZ_CHECK((ret == 0) == ok);
	FUZZ_CHECK(got == (ok ? want : 12345));
}

static bool plain_decimal(const char *s)
{
	int digits = 0, dots = 0;

	for (; *s; s++) {
		if (*s >= '0' && *s <= '9')
			digits++;
		else if (*s == '.' && !dots)
			dots++;
		else
			return false;
	}
	return digits > 0;
}

/* Far enough from 0, max and the subnormals for 1e-12 to hold. */
#define TOLERANCE 1e-12
#define SMALLEST 1e-290

static void check_double(const char *s, double max)
{
	bool plain = plain_decimal(s);
	double ref = plain ? strtod(s, NULL) : 0;
	bool clear = plain && isfinite(ref) && ref >= SMALLEST &&
		     ref <= max * (1 - TOLERANCE);
	double got = -7.0;
	int ret = numparse_positive_double(s, max, &got);

	FUZZ_CHECK(ret == 0 || ret == -1);
	if (clear)
		FUZZ_CHECK(ret == 0);
	if (ret < 0) {
		FUZZ_CHECK(got == -7.0);
		return;
	}
	FUZZ_CHECK(plain);
	FUZZ_CHECK(isfinite(got) && got > 0 && got <= max);
	if (clear)
		FUZZ_CHECK(fabs(got - ref) <= ref * TOLERANCE);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_strdup(data, size);
	pid_t pid = -5;
	unsigned long v;
	bool ok;

	check_double(s, 24.0 * 3600.0);
	check_double(s, 1e300);
	check_double(s, 0.001);
	check_ulong(s, 0, ULONG_MAX);
	check_ulong(s, 1, 1000);
	check_ulong(s, 5, 5);

	ok = ref_ulong(s, &v) && v >= 1 && v <= 4194304;
	FUZZ_CHECK((numparse_pid(s, &pid) == 0) == ok);
	FUZZ_CHECK(pid == (ok ? (pid_t)v : -5));
	free(s);
	return 0;
}
