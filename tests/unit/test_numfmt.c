/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lib/numfmt.c: integers as printf prints them, fixed decimals rounded
 * as stalltop always did (llround of the scaled value, no "-0"), and
 * snprintf's way of cutting a text that does not fit.
 */
#include <config.h>

#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "lib/numfmt.h"
#include "unit.h"

static void test_ints(void)
{
	char buf[NUMFMT_INT_SIZE];

	CHECK(numfmt_u64(buf, 0) == 1);
	CHECK_STR(buf, "0");
	CHECK(numfmt_u64(buf, 9) == 1);
	CHECK(numfmt_u64(buf, 10) == 2);
	CHECK_STR(buf, "10");
	CHECK(numfmt_u64(buf, 100) == 3);
	CHECK_STR(buf, "100");
	CHECK(numfmt_u64(buf, 1234567) == 7);
	CHECK_STR(buf, "1234567");
	CHECK(numfmt_u64(buf, UINT64_MAX) == 20);
	CHECK_STR(buf, "18446744073709551615");
	CHECK(numfmt_i64(buf, 0) == 1);
	CHECK_STR(buf, "0");
	CHECK(numfmt_i64(buf, -1) == 2);
	CHECK_STR(buf, "-1");
	CHECK(numfmt_i64(buf, -90) == 3);
	CHECK_STR(buf, "-90");
	CHECK(numfmt_i64(buf, INT64_MAX) == 19);
	CHECK_STR(buf, "9223372036854775807");
	CHECK(numfmt_i64(buf, INT64_MIN) == 20);
	CHECK_STR(buf, "-9223372036854775808");
}

static void fixed(double v, int decimals, const char *want)
{
	char buf[64];

	CHECK(numfmt_fixed_len(buf, sizeof(buf), v, decimals) == strlen(want));
	CHECK_STR(buf, want);
	CHECK(numfmt_fixed(buf, sizeof(buf), v, decimals));
	CHECK_STR(buf, want);
}

static void test_fixed(void)
{
	char buf[8];

	fixed(0, 3, "0.000");
	fixed(-0.0, 3, "0.000");
	fixed(0, 0, "0");
	fixed(-0.0, 0, "0");
	fixed(0, 1, "0.0");
	fixed(0, 6, "0.000000");
	fixed(0, 9, "0.000000");   /* decimals clamped to 0-6 */
	/* printf gives "-0.000": the sign only when the rounded value has one */
	fixed(-0.0004, 3, "0.000");
	fixed(-0.0005, 3, "-0.001");
	fixed(0.0005, 3, "0.001");
	/* half away from zero on the scaled double, not printf's half-even */
	fixed(0.125, 2, "0.13");
	fixed(2.5, 0, "3");
	fixed(-2.5, 0, "-3");
	fixed(0.0625, 2, "0.06");
	fixed(1.005, 2, "1.00");
	fixed(0.000001, 6, "0.000001");
	fixed(-12.05, 1, "-12.1");
	fixed(99.9996, 3, "100.000");
	fixed(1763740000.123, 3, "1763740000.123");
	/* the last values below 2^53 after scaling, and past it */
	fixed(9007199254740991.0, 0, "9007199254740991");
	fixed(9007199254.74099, 6, "9007199254.740990");
	/* this one scales to 2^53 itself: no decimals left */
	fixed(9007199254.740991, 6, "9007199255");
	fixed(9007199254740992.0, 0, "9007199254740992");
	fixed(9007199254740992.0, 3, "9007199254740992");
	fixed(-1e20, 3, "-100000000000000000000");
	fixed(7.5, 9, "7.500000");  /* decimals clamped to 0-6 */
	fixed(7.5, -1, "8");

	CHECK(numfmt_fixed_len(buf, sizeof(buf), NAN, 3) == 0);
	CHECK_STR(buf, "");
	CHECK(!numfmt_fixed(buf, sizeof(buf), INFINITY, 3));
	CHECK_STR(buf, "");
	CHECK(!numfmt_fixed(buf, sizeof(buf), -INFINITY, 0));

	/* cut like snprintf: size - 1 bytes and the NUL */
	memset(buf, 'x', sizeof(buf));
	CHECK(numfmt_fixed_len(buf, 5, -123.456, 3) == 4);
	CHECK_STR(buf, "-123");
	CHECK(buf[5] == 'x');
	memset(buf, 'x', sizeof(buf));
	CHECK(numfmt_fixed_len(buf, 4, 0, 3) == 3);
	CHECK_STR(buf, "0.0");
	CHECK(buf[4] == 'x');
	CHECK(numfmt_fixed_len(buf, 1, 1.5, 1) == 0);
	CHECK_STR(buf, "");
	CHECK(numfmt_fixed(buf, 0, 1.5, 1));
}

int main(void)
{
	test_ints();
	test_fixed();
	return unit_done();
}
