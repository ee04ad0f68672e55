/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Strict number parsing for user input. */
#include <config.h>

#include <ctype.h>
#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/numparse.h"

/* The kernel's PID_MAX_LIMIT on 64-bit (4 Mi). */
#define PID_MAX_LIMIT 4194304UL

static int all_digits(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return 0;
	return 1;
}

/* The C locale, for reading numbers the same under every locale. */
static locale_t c_locale(void)
{
	static locale_t c;
	if (!c)
		c = newlocale(LC_ALL_MASK, "C", (locale_t)0);
	return c;
}

int numparse_positive_double(const char *s, double max, double *out)
{
	/*
	 * Digits with at most one '.', at least one digit: no signs, spaces,
	 * exponents, hex or the locale's decimal comma, so that "0.5" means
	 * the same under every locale.
	 */
	int digits = 0, dots = 0;
	for (const char *p = s; *p; p++) {
		if (isdigit((unsigned char)*p))
			digits++;
		else if (*p == '.' && !dots)
			dots++;
		else
			return -1;
	}
	locale_t c = c_locale();
	if (!digits || !c)
		return -1;
	errno = 0;
	char *end;
	double v = strtod_l(s, &end, c);
	if (errno || *end || !isfinite(v) || v <= 0 || v > max)
		return -1;
	*out = v;
	return 0;
}

double numparse_half_unit(const char *s)
{
	const char *dot = strchr(s, '.');
	double half = 0.5;

	for (const char *p = dot ? dot + 1 : s + strlen(s); *p; p++)
		half /= 10;
	return half;
}

int numparse_delay(const char *s, double *out)
{
	double v;
	if (numparse_positive_double(s, DELAY_MAX, &v) < 0 || v < DELAY_MIN)
		return -1;
	*out = v;
	return 0;
}

int numparse_ulong(const char *s, unsigned long min, unsigned long max,
		unsigned long *out)
{
	if (!all_digits(s))
		return -1;
	errno = 0;
	char *end;
	unsigned long v = strtoul(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int numparse_pid(const char *s, pid_t *out)
{
	unsigned long v;
	if (numparse_ulong(s, 1, PID_MAX_LIMIT, &v) < 0)
		return -1;
	*out = (pid_t)v;
	return 0;
}

int numparse_size(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	static const char units[] = "KMGT";
	const char *p = s;
	uint64_t v = 0, mul = 1;

	if (!isdigit((unsigned char)*p))
		return -1;
	for (; isdigit((unsigned char)*p); p++) {
		unsigned d = (unsigned)(*p - '0');

		if (v > (UINT64_MAX - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	if (*p) {
		const char *u = strchr(units, toupper((unsigned char)*p));

		if (!u)
			return -1;
		for (int i = 0; i <= u - units; i++)
			mul *= 1024;
		p++;
		/* 256M, 256MB, 256MiB all mean 256 * 1024 * 1024 */
		if (*p == 'i' && p[1] == 'B')
			p += 2;
		else if (*p == 'B')
			p++;
		if (*p)
			return -1;
	}
	if (v > UINT64_MAX / mul)
		return -1;
	v *= mul;
	if (v < min || v > max)
		return -1;
	*out = v;
	return 0;
}
