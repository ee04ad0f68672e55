/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Strict number parsing for user input. */
#include <config.h>

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "numparse.h"

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

int parse_positive_double(const char *s, double max, double *out)
{
	/*
	 * Digits with at most one '.', at least one digit; no signs, spaces,
	 * exponents or the locale's decimal comma. Worked out by hand so that
	 * "0.5" means the same under every locale.
	 */
	double whole = 0, frac = 0, scale = 1;
	int digits = 0, dots = 0;
	for (const char *p = s; *p; p++) {
		if (isdigit((unsigned char)*p)) {
			digits++;
			if (dots) {
				scale /= 10;
				frac += (*p - '0') * scale;
			} else {
				whole = whole * 10 + (*p - '0');
			}
		} else if (*p == '.' && !dots) {
			dots++;
		} else {
			return -1;
		}
	}
	double v = whole + frac;
	if (!digits || !isfinite(v) || v <= 0 || v > max)
		return -1;
	*out = v;
	return 0;
}

int parse_ulong(const char *s, unsigned long min, unsigned long max,
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

int parse_pid(const char *s, pid_t *out)
{
	unsigned long v;
	if (parse_ulong(s, 1, PID_MAX_LIMIT, &v) < 0)
		return -1;
	*out = (pid_t)v;
	return 0;
}
