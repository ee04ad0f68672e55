/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Points in time as a user types them: a date and time, a time of today,
 * or @EPOCH. Each field is read as a fixed number of digits and checked
 * for its range, and mktime's answer is checked against what was asked,
 * so that "02-30" or a time a daylight saving change skipped is an error
 * rather than a silently moved moment.
 */
#include <config.h>

#include <ctype.h>
#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "lib/timeparse.h"

/* Exactly n digits at *p, as a number; advances *p. */
static bool digits(const char **p, int n, int *out)
{
	int v = 0;

	for (int i = 0; i < n; i++) {
		if (!isdigit((unsigned char)(*p)[i]))
			return false;
		v = v * 10 + ((*p)[i] - '0');
	}
	*p += n;
	*out = v;
	return true;
}

/* HH:MM[:SS] and nothing after it. */
static bool clock_time(const char *p, struct tm *tm)
{
	int h, m, sec = 0;

	if (!digits(&p, 2, &h) || *p++ != ':' || !digits(&p, 2, &m))
		return false;
	if (*p == ':' && (p++, !digits(&p, 2, &sec)))
		return false;
	if (*p || h > 23 || m > 59 || sec > 59)
		return false;
	tm->tm_hour = h;
	tm->tm_min = m;
	tm->tm_sec = sec;
	return true;
}

/* YYYY-MM-DD, advancing *p. */
static bool date(const char **p, struct tm *tm)
{
	int y, mo, d;

	if (!digits(p, 4, &y) || *(*p)++ != '-' || !digits(p, 2, &mo) ||
	    *(*p)++ != '-' || !digits(p, 2, &d))
		return false;
	if (mo < 1 || mo > 12 || d < 1 || d > 31)
		return false;
	tm->tm_year = y - 1900;
	tm->tm_mon = mo - 1;
	tm->tm_mday = d;
	return true;
}

/* mktime, refusing a date or time it had to move (Feb 30, a DST gap). */
static int make(struct tm *want, double *out)
{
	struct tm tm = *want;
	time_t t;

	if (want->tm_year < 70 || want->tm_year > 9999 - 1900) {
		errno = ERANGE;
		return -1;
	}
	tm.tm_isdst = -1;
	t = mktime(&tm);
	if (t == (time_t)-1 && errno == EOVERFLOW)
		return -1;
	if (tm.tm_mday != want->tm_mday || tm.tm_mon != want->tm_mon ||
	    tm.tm_year != want->tm_year) {
		errno = EINVAL; /* a day the month does not have */
		return -1;
	}
	if (tm.tm_hour != want->tm_hour || tm.tm_min != want->tm_min ||
	    tm.tm_sec != want->tm_sec) {
		errno = ERANGE; /* skipped by a daylight saving change */
		return -1;
	}
	*out = (double)t;
	return 0;
}

/* @EPOCH: digits with at most one '.', at least one digit before it. */
static int epoch(const char *s, double *out)
{
	static locale_t c;
	int dots = 0;
	char *end;
	double v;

	if (!isdigit((unsigned char)*s))
		goto bad;
	for (const char *p = s; *p; p++) {
		if (*p == '.' && !dots++ && isdigit((unsigned char)p[1]))
			continue;
		if (!isdigit((unsigned char)*p))
			goto bad;
	}
	if (!c)
		c = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
	if (!c)
		return -1;
	v = strtod_l(s, &end, c);
	if (*end || !isfinite(v) || v > 253402300799.0) { /* 9999-12-31 */
		errno = ERANGE;
		return -1;
	}
	*out = v;
	return 0;
bad:
	errno = EINVAL;
	return -1;
}

int timeparse_point(const char *s, time_t now, double *out)
{
	struct tm tm;
	const char *p = s;

	if (*s == '@')
		return epoch(s + 1, out);
	memset(&tm, 0, sizeof(tm));
	if (strlen(s) >= 5 && s[2] == ':') {
		/* a time of today */
		if (!localtime_r(&now, &tm) || !clock_time(s, &tm)) {
			errno = EINVAL;
			return -1;
		}
		return make(&tm, out);
	}
	if (!date(&p, &tm) || (*p && ((*p != ' ' && *p != 'T') ||
				      !clock_time(p + 1, &tm)))) {
		errno = EINVAL;
		return -1;
	}
	return make(&tm, out);
}
