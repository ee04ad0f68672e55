/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Numbers as text the same way in every locale, without printf in the
 * common case: the batch writers print tens of numbers per row.
 */
#ifndef STALLTOP_NUMFMT_H
#define STALLTOP_NUMFMT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Room for any 64-bit integer: 20 digits or a sign and 19, and the NUL. */
#define NUMFMT_INT_SIZE 21

/*
 * v in decimal, as printf's "%" PRIu64 and "%" PRId64 give it, into buf,
 * which holds at least NUMFMT_INT_SIZE bytes. The text is NUL-terminated;
 * returns its length (without the NUL).
 */
size_t numfmt_u64(char *buf, uint64_t v);
size_t numfmt_i64(char *buf, int64_t v);

/*
 * v with a fixed number of decimals (0-6) and a '.' whatever LC_NUMERIC
 * says: llround(v * 10^decimals) with the point put in, "-" only when that
 * is negative (-0.0004 with 3 decimals is "0.000"). Beyond 2^53 after
 * scaling, v with no decimals ("%.0f"). Returns false, leaving "", when v
 * is not finite. Like snprintf, writes at most size bytes, the NUL
 * included.
 */
bool numfmt_fixed(char *buf, size_t size, double v, int decimals);

/*
 * The same, returning the length written (without the NUL): 0 when v is
 * not finite, at most size - 1 when the text was cut. 32 bytes hold every
 * value below 2^53 after scaling.
 */
size_t numfmt_fixed_len(char *buf, size_t size, double v, int decimals);

#endif
