/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Strict number parsing for user input: the whole string must be a number
 * in range; "0.5x", "", " 1", "-3" and "1e999" are errors, never a silent
 * fallback.
 */
#ifndef STALLTOP_NUMPARSE_H
#define STALLTOP_NUMPARSE_H

#include <stdint.h>
#include <sys/types.h>

/* A finite decimal number > 0 and <= max (no hex, no inf/nan). */
int numparse_positive_double(const char *s, double max, double *out);

/*
 * Half the unit of the last digit of the decimal number s ("12.345":
 * 0.0005, "12": 0.5), as numparse_positive_double takes it: the values
 * that print as s at its number of places lie within that of it.
 */
double numparse_half_unit(const char *s);

/* A refresh interval: seconds from DELAY_MIN to DELAY_MAX, as above. */
#define DELAY_MIN 0.01
#define DELAY_MAX 86400.0
int numparse_delay(const char *s, double *out);

/* A decimal unsigned integer in [min, max] (no sign, no spaces). */
int numparse_ulong(const char *s, unsigned long min, unsigned long max,
		unsigned long *out);

/* A process id: 1 .. PID_MAX_LIMIT. */
int numparse_pid(const char *s, pid_t *out);

/*
 * A size in bytes: digits with an optional suffix K, M, G or T (powers of
 * 1024; also k, and KiB/KB style endings: 256M, 256MiB), in [min, max].
 */
int numparse_size(const char *s, uint64_t min, uint64_t max, uint64_t *out);

#endif
