/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Varints of the store's records: an unsigned number in groups of 7 bits,
 * the lowest first, each byte's top bit set when another follows (at most
 * 10 bytes for 64 bits). A signed number is zigzagged first (0, -1, 1,
 * -2 ... as 0, 1, 2, 3 ...) so that small magnitudes stay short.
 */
#ifndef STALLTOP_VARINT_H
#define STALLTOP_VARINT_H

#include <stddef.h>
#include <stdint.h>

#define VARINT_MAX 10

/* v into p (room for VARINT_MAX bytes); the bytes written. */
static inline size_t varint_put(unsigned char *p, uint64_t v)
{
	size_t n = 0;

	while (v >= 0x80) {
		p[n++] = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	p[n++] = (unsigned char)v;
	return n;
}

/*
 * A varint from p (at most end): the bytes read, 0 when it runs past end
 * or past 64 bits.
 */
static inline size_t varint_get(const unsigned char *p,
				const unsigned char *end, uint64_t *v)
{
	uint64_t x = 0;

	for (size_t n = 0; n < VARINT_MAX && p + n < end; n++) {
		uint64_t b = p[n] & 0x7f;

		if (n == VARINT_MAX - 1 && b > 1)
			return 0;
		x |= b << (7 * n);
		if (!(p[n] & 0x80)) {
			*v = x;
			return n + 1;
		}
	}
	return 0;
}

static inline uint64_t varint_zigzag(int64_t v)
{
	return ((uint64_t)v << 1) ^ (v < 0 ? UINT64_MAX : 0);
}

static inline int64_t varint_unzigzag(uint64_t v)
{
	return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

#endif
