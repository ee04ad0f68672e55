/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Fuzz target: the points in time of --begin and --end (timeparse_point)
 * and the sizes of --record-max-size (numparse_size), on the input as a
 * string (cut at its first NUL, as argv would be), in a fixed time zone
 * with daylight saving. Checks: a rejected input leaves the output alone
 * and says EINVAL or ERANGE; an accepted date or time gives back exactly
 * the input when the result is printed in local time in the same form (so
 * nothing was moved or guessed); an accepted @EPOCH is that number; an
 * accepted size is digits with at most a unit, and its value.
 */
#include <config.h>

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fuzz.h"
#include "lib/numparse.h"
#include "lib/timeparse.h"

/* 2026-03-10 12:00:00 UTC */
#define NOW 1773144000

static void check_point(const char *s)
{
	double out = -1;
	char back[64];
	struct tm tm;
	time_t t;
	int ret;

	errno = 0;
	ret = timeparse_point(s, NOW, &out);
	FUZZ_CHECK(ret == 0 || ret == -1);
	if (ret < 0) {
		FUZZ_CHECK(out == -1);
		FUZZ_CHECK(errno == EINVAL || errno == ERANGE);
		return;
	}
	FUZZ_CHECK(isfinite(out) && out >= 0);
	if (s[0] == '@') {
		FUZZ_CHECK(isdigit((unsigned char)s[1]));
		FUZZ_CHECK(out == strtod(s + 1, NULL));
		return;
	}
	t = (time_t)out;
	FUZZ_CHECK((double)t == out);
	FUZZ_CHECK(localtime_r(&t, &tm) != NULL);
	if (strlen(s) == 5 || strlen(s) == 8) {
		time_t now = NOW;
		struct tm today;

		/* a time of today: today's date, that time */
		FUZZ_CHECK(localtime_r(&now, &today) != NULL);
		FUZZ_CHECK(tm.tm_mday == today.tm_mday &&
			   tm.tm_mon == today.tm_mon);
		strftime(back, sizeof(back), strlen(s) == 5 ? "%H:%M" : "%T", &tm);
	} else {
		static const char *const forms[] = { "%Y-%m-%d",
			"%Y-%m-%d %H:%M", "%Y-%m-%d %H:%M:%S" };
		size_t n = strlen(s);

		FUZZ_CHECK(n == 10 || n == 16 || n == 19);
		strftime(back, sizeof(back), forms[n == 10 ? 0 : n == 16 ? 1 : 2],
			 &tm);
		if (n > 10 && s[10] == 'T')
			back[10] = 'T';
	}
	FUZZ_CHECK(strcmp(back, s) == 0);
}

static void check_size(const char *s)
{
	uint64_t out = 7, v = 0, mul = 1;
	const char *p = s;
	int ret = numparse_size(s, 0, UINT64_MAX, &out);

	FUZZ_CHECK(ret == 0 || ret == -1);
	if (ret < 0) {
		FUZZ_CHECK(out == 7);
		return;
	}
	for (; isdigit((unsigned char)*p); p++)
		v = v * 10 + (uint64_t)(*p - '0');
	FUZZ_CHECK(p != s);
	if (*p) {
		const char *u = strchr("KMGT", toupper((unsigned char)*p));

		FUZZ_CHECK(u != NULL);
		for (int i = 0; i <= u - "KMGT"; i++)
			mul *= 1024;
		p++;
		FUZZ_CHECK(!strcmp(p, "") || !strcmp(p, "B") || !strcmp(p, "iB"));
	}
	FUZZ_CHECK(out == v * mul);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int tz;
	char *s = fuzz_strdup(data, size);

	if (!tz++) {
		setenv("TZ", "CET-1CEST,M3.5.0,M10.5.0/3", 1);
		tzset();
	}
	check_point(s);
	check_size(s);
	free(s);
	return 0;
}
