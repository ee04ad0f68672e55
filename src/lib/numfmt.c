/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Numbers as text the same way in every locale. */
#include <config.h>

#include <math.h>
#include <stdio.h>

#include "lib/numfmt.h"

/*
 * Integer arithmetic instead of printf("%.*f"), whose decimal point follows
 * LC_NUMERIC and would break JSON and CSV under a "1,5" locale.
 */
bool numfmt_fixed(char *buf, size_t size, double v, int decimals)
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
	if (decimals < 0)
		decimals = 0;
	if (decimals > 6)
		decimals = 6;
	p = scale[decimals];
	x = v * (double)p;
	if (fabs(x) >= 9007199254740992.0) {
		/* Beyond 2^53 there are no decimals left to show. */
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
