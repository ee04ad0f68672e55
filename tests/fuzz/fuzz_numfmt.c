/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Fuzz target: the number printers of lib/numfmt.c against printf, in
 * the C locale (nothing here calls setlocale).
 *
 * Input: byte 0 picks the decimals (0-6) and a buffer size, byte 1 a
 * scale and a shift, the next 8 bytes (zero-padded) a 64-bit value u.
 *
 * - numfmt_u64(u) must equal "%" PRIu64 and numfmt_i64((int64_t)u)
 *   "%" PRId64, with the length returned.
 * - numfmt_fixed and numfmt_fixed_len, on u's bits as a double and on
 *   doubles made from u to land on decimal boundaries (u / 10^k, its
 *   neighbours, small integers), must equal the reference: the former
 *   printf implementation (llround of v * 10^decimals, "%llu.%0*llu",
 *   "%.0f" beyond 2^53), byte for byte and cut the same way in a small
 *   buffer, never writing past it. Not finite: false, "", length 0.
 * - Away from halfway cases and below 2^40 after scaling (where the
 *   product v * 10^decimals is exact enough to round the same way),
 *   numfmt_fixed must equal "%.*f" itself, except that printf writes
 *   "-0.000" where we write "0.000". At the halfway cases the two differ
 *   by design: printf rounds the exact binary value half to even, we
 *   round the scaled double half away from zero, as stalltop always did.
 */
#include <config.h>

#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "fuzz.h"
#include "lib/numfmt.h"

#define BIG 512
#define GUARD 0x5a

/* The implementation numfmt_fixed had before it stopped using printf. */
static bool ref_fixed(char *buf, size_t size, double v, int decimals)
{
	static const unsigned long long scale[] = {
		1, 10, 100, 1000, 10000, 100000, 1000000,
	};
	unsigned long long a, p;
	long long i;
	const char *sign;
	double x;

	if (size)
		buf[0] = '\0';
	if (!isfinite(v))
		return false;
	p = scale[decimals];
	x = v * (double)p;
	if (fabs(x) >= 9007199254740992.0) {
		snprintf(buf, size, "%.0f", v);
		return true;
	}
	i = llround(x);
	sign = i < 0 ? "-" : "";
	a = i < 0 ? 0ULL - (unsigned long long)i : (unsigned long long)i;
	if (decimals == 0)
		snprintf(buf, size, "%s%llu", sign, a);
	else
		snprintf(buf, size, "%s%llu.%0*llu", sign, a / p, decimals, a % p);
	return true;
}

static void check_ints(uint64_t u)
{
	char want[64], got[NUMFMT_INT_SIZE];
	size_t n;

	snprintf(want, sizeof(want), "%" PRIu64, u);
	n = numfmt_u64(got, u);
	FUZZ_CHECK(strcmp(got, want) == 0);
	FUZZ_CHECK(n == strlen(want));

	snprintf(want, sizeof(want), "%" PRId64, (int64_t)u);
	n = numfmt_i64(got, (int64_t)u);
	FUZZ_CHECK(strcmp(got, want) == 0);
	FUZZ_CHECK(n == strlen(want));
}

/* Equal to "%.*f" where both round the same way (see the top). */
static void check_printf(const char *got, double v, int decimals)
{
	char want[BIG];
	const char *w = want;
	double x = fabs(v) * pow(10, decimals), frac = x - floor(x);

	if (x >= 1099511627776.0 || fabs(frac - 0.5) < 1e-3)
		return;
	snprintf(want, sizeof(want), "%.*f", decimals, v);
	if (want[0] == '-' && strspn(want + 1, "0.") == strlen(want + 1))
		w++;
	FUZZ_CHECK(strcmp(got, w) == 0);
}

static void check_fixed(double v, int decimals, size_t small)
{
	char want[BIG], got[BIG + 1];
	bool ok = ref_fixed(want, sizeof(want), v, decimals);
	size_t n;

	FUZZ_CHECK(numfmt_fixed(got, BIG, v, decimals) == ok);
	FUZZ_CHECK(strcmp(got, want) == 0);
	memset(got, GUARD, sizeof(got));
	n = numfmt_fixed_len(got, BIG, v, decimals);
	FUZZ_CHECK(strcmp(got, want) == 0);
	FUZZ_CHECK(n == strlen(want));
	FUZZ_CHECK(ok || n == 0);
	if (ok)
		check_printf(got, v, decimals);

	/* cut to small - 1 bytes like snprintf, nothing written beyond */
	ref_fixed(want, small, v, decimals);
	memset(got, GUARD, sizeof(got));
	n = numfmt_fixed_len(got, small, v, decimals);
	FUZZ_CHECK(strcmp(got, want) == 0);
	FUZZ_CHECK(n == strlen(want));
	FUZZ_CHECK((unsigned char)got[small] == GUARD);
	memset(got, GUARD, sizeof(got));
	FUZZ_CHECK(numfmt_fixed(got, small, v, decimals) == ok);
	FUZZ_CHECK(strcmp(got, want) == 0);
	FUZZ_CHECK((unsigned char)got[small] == GUARD);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const double pow10[] = {
		1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9,
	};
	uint8_t b[10] = { 0 };
	uint64_t u;
	int decimals;
	size_t small;
	double v, d;

	memcpy(b, data, size < sizeof(b) ? size : sizeof(b));
	decimals = b[0] % 7;
	small = 1 + (size_t)(b[0] / 7) % 40;
	memcpy(&u, b + 2, sizeof(u));

	check_ints(u);
	check_ints(u >> (b[1] % 64));

	/* the bits as a double: every finite value, NaN and the infinities */
	memcpy(&d, &u, sizeof(d));
	check_fixed(d, decimals, small);

	/* decimal boundaries: u / 10^k, its neighbours, small integers */
	v = (double)(int64_t)u / pow10[b[1] % 10];
	check_fixed(v, decimals, small);
	check_fixed(nextafter(v, INFINITY), decimals, small);
	check_fixed(nextafter(v, -INFINITY), decimals, small);
	v = (double)((int64_t)u >> (b[1] % 64)) / pow10[b[1] % 10];
	check_fixed(v, decimals, small);
	check_fixed(nextafter(v, INFINITY), decimals, small);
	check_fixed(nextafter(v, -INFINITY), decimals, small);
	return 0;
}
