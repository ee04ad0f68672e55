/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Numbers as text the same way in every locale. printf("%.*f") follows
 * LC_NUMERIC, which would break JSON and CSV under a "1,5" locale, and
 * printf of any kind was a quarter of the batch writers' time: digits are
 * made here two at a time, right to left, into a small buffer.
 */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lib/numfmt.h"

/* 2^53: beyond it a double has no fraction left to show. */
#define EXACT_LIMIT 9007199254740992.0

static const char pairs[201] =
	"00010203040506070809101112131415161718192021222324252627282930313233"
	"34353637383940414243444546474849505152535455565758596061626364656667"
	"6869707172737475767778798081828384858687888990919293949596979899";

/* The digits of v ending just before end; returns where they start. */
static char *digits(char *end, uint64_t v)
{
	while (v >= 100) {
		unsigned r = (unsigned)(v % 100);

		v /= 100;
		end -= 2;
		memcpy(end, pairs + 2 * r, 2);
	}
	if (v >= 10) {
		end -= 2;
		memcpy(end, pairs + 2 * v, 2);
	} else {
		*--end = (char)('0' + v);
	}
	return end;
}

/* The text from start to end into buf with its NUL. */
static size_t put(char *buf, const char *start, const char *end)
{
	size_t n = (size_t)(end - start);

	memcpy(buf, start, n);
	buf[n] = '\0';
	return n;
}

size_t numfmt_u64(char *buf, uint64_t v)
{
	char tmp[NUMFMT_INT_SIZE];
	char *end = tmp + sizeof(tmp);

	return put(buf, digits(end, v), end);
}

size_t numfmt_i64(char *buf, int64_t v)
{
	char tmp[NUMFMT_INT_SIZE];
	char *end = tmp + sizeof(tmp), *s;

	/* 0 - (uint64_t)v is |v| even for INT64_MIN */
	s = digits(end, v < 0 ? 0 - (uint64_t)v : (uint64_t)v);
	if (v < 0)
		*--s = '-';
	return put(buf, s, end);
}

/* What fits of the text from start to end into buf (size > 0), and a NUL. */
static size_t put_cut(char *buf, size_t size, const char *start,
		      const char *end)
{
	size_t n = (size_t)(end - start);

	if (n > size - 1)
		n = size - 1;
	memcpy(buf, start, n);
	buf[n] = '\0';
	return n;
}

size_t numfmt_fixed_len(char *buf, size_t size, double v, int decimals)
{
	static const uint64_t scale[] = {
		1, 10, 100, 1000, 10000, 100000, 1000000,
	};
	char tmp[32];
	char *end = tmp + sizeof(tmp), *s;
	uint64_t a, p;
	long long i;
	double x;

	if (!size)
		return 0;
	buf[0] = '\0';
	if (!isfinite(v))
		return 0;
	if (decimals < 0)
		decimals = 0;
	if (decimals > 6)
		decimals = 6;
	if (v == 0) {
		/* the most common number of all (-0 too): no rounding to do */
		static const char zero[] = "0.000000";

		return put_cut(buf, size, zero,
			       zero + (decimals ? 2 + decimals : 1));
	}
	p = scale[decimals];
	x = v * (double)p;
	if (fabs(x) >= EXACT_LIMIT) {
		/* rare: the whole of a huge number, which needs printf's digits */
		int n = snprintf(buf, size, "%.0f", v);

		return n < 0 ? 0 : (size_t)n < size ? (size_t)n : size - 1;
	}
	i = llround(x);
	a = i < 0 ? 0 - (uint64_t)i : (uint64_t)i;
	s = end;
	if (decimals) {
		/* the fraction, zero-padded to its width, then the point */
		uint64_t frac = a % p;

		for (int k = 0; k < decimals; k++) {
			*--s = (char)('0' + frac % 10);
			frac /= 10;
		}
		*--s = '.';
		a /= p;
	}
	s = digits(s, a);
	if (i < 0)
		*--s = '-';
	return put_cut(buf, size, s, end);
}

bool numfmt_fixed(char *buf, size_t size, double v, int decimals)
{
	if (!isfinite(v)) {
		if (size)
			buf[0] = '\0';
		return false;
	}
	numfmt_fixed_len(buf, size, v, decimals);
	return true;
}
