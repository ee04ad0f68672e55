/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A column's block of numbers both ways: the format is in codec.h. */
#include <config.h>

#include "store/codec_block.h"

#include <stdbool.h>
#include <string.h>

#include "lib/nls.h"
#include "store/varint.h"

/* Bits read as a two's complement number, for an order of them. */
static uint64_t signed_order(uint64_t x)
{
	return x ^ (UINT64_C(1) << 63);
}

/* Bits of x up to its highest set one (0 for 0). */
static unsigned bit_length(uint64_t x)
{
	unsigned n = 0;

	while (n < 64 && x >> n)
		n++;
	return n;
}

/* Bytes of v as a varint. */
static size_t varint_len(uint64_t v)
{
	size_t n = 1;

	while (v >>= 7)
		n++;
	return n;
}

size_t codec_block_bound(size_t m)
{
	/* the header, the exceptions' count, index and high bits, 8 bytes
	 * of planes and packed bits a number at most */
	return 4 * VARINT_MAX + m * (2 * VARINT_MAX + 8);
}

/*
 * The low bits of a block that cost the fewest bytes, with the numbers
 * of more bits as exceptions: len[b] counts the numbers of b bits, u (m
 * of them) are the numbers. An estimate of the bytes before deflate:
 * the low bits packed, an exception a byte for its index and its high
 * bits as a varint.
 */
static unsigned low_bits(const unsigned *len, unsigned most,
			 const uint64_t *u, size_t m)
{
	unsigned best = most;
	size_t best_cost = (m * most + 7) / 8;

	for (unsigned b = 0; b < most; b++) {
		size_t cost = (m * b + 7) / 8 + 1, over = 0;

		for (unsigned l = b + 1; l <= most; l++)
			over += len[l];
		/* an exception costs two bytes at least */
		if (cost + 2 * over >= best_cost)
			continue;
		for (size_t i = 0; i < m && cost < best_cost; i++)
			if (u[i] >> b)
				cost += 1 + varint_len(u[i] >> b);
		if (cost < best_cost) {
			best_cost = cost;
			best = b;
		}
	}
	return best;
}

/*
 * The smallest (as signed) as the base, the others as their distance
 * from it, shifted right by the trailing zero bits they all share; their
 * low bits in byte planes and packed bits, the few that need more bits
 * than the others as exceptions.
 */
size_t codec_block_put(unsigned char *out, uint64_t *x, size_t m)
{
	uint64_t base = x[0], any = 0, most = 0;
	unsigned shift = 0, len[65] = { 0 };
	unsigned char *p = out;

	for (size_t i = 1; i < m; i++)
		if (signed_order(x[i]) < signed_order(base))
			base = x[i];
	for (size_t i = 0; i < m; i++)
		any |= x[i] - base;
	if (any)
		while (!(any >> shift & 1))
			shift++;
	for (size_t i = 0; i < m; i++) {
		x[i] = (x[i] - base) >> shift;
		most |= x[i];
		len[bit_length(x[i])]++;
	}
	unsigned bits = low_bits(len, bit_length(most), x, m);
	size_t nexc = 0;

	for (unsigned l = bits + 1; l <= 64; l++)
		nexc += len[l];
	/* the base zigzagged: a small negative one stays short */
	p += varint_put(p, varint_zigzag((int64_t)base));
	p += varint_put(p, shift);
	p += varint_put(p, (uint64_t)bits << 1 | (nexc != 0));
	if (nexc) {
		size_t last = SIZE_MAX;

		p += varint_put(p, nexc);
		for (size_t i = 0; i < m; i++)
			if (bits < 64 && x[i] >> bits) {
				p += varint_put(p, last == SIZE_MAX ? i :
						   i - last - 1);
				last = i;
			}
		for (size_t i = 0; i < m; i++)
			if (bits < 64 && x[i] >> bits)
				p += varint_put(p, x[i] >> bits);
	}
	unsigned planes = bits / 8, part = bits % 8;
	size_t packed = (m * part + 7) / 8;

	for (unsigned k = 0; k < planes; k++)
		for (size_t i = 0; i < m; i++)
			*p++ = (unsigned char)(x[i] >> (8 * k));
	memset(p, 0, packed);
	for (size_t i = 0, at = 0; part && i < m; i++, at += part) {
		/* part bits after the planes' from bit at of the packed bytes */
		uint64_t v = x[i] >> (8 * planes) & ((1u << part) - 1);

		for (unsigned q = 0; q < part; q++)
			p[(at + q) / 8] |=
				(unsigned char)((v >> q & 1) << ((at + q) % 8));
	}
	return (size_t)(p + packed - out);
}

/* A varint at *p before end into *v, *p past it; false: it runs past. */
static bool get(const unsigned char **p, const unsigned char *end,
		uint64_t *v)
{
	size_t n = varint_get(*p, end, v);

	*p += n;
	return n != 0;
}

/* Index of the next exception from its gap, after the one at last. */
static size_t gap_index(size_t last, uint64_t gap)
{
	return last == SIZE_MAX ? (size_t)gap : last + 1 + (size_t)gap;
}

/*
 * The exceptions of k (its m and bits set) at *p: checked, so that
 * codec_block_next reads them without a check.
 */
static const char *get_exceptions(const unsigned char **p,
				  const unsigned char *end,
				  struct codec_block_in *k)
{
	size_t last = SIZE_MAX;
	uint64_t n, v;

	if (!get(p, end, &n))
		return N_("a number runs past its end");
	if (!n || n > k->m || k->bits >= 64)
		return N_("a column of the wrong kind");
	k->nexc = (size_t)n;
	k->gaps = *p;
	for (size_t i = 0; i < k->nexc; i++) {
		if (!get(p, end, &v))
			return N_("a number runs past its end");
		if (v >= k->m || (last = gap_index(last, v)) >= k->m)
			return N_("a column of the wrong kind");
	}
	k->highs = *p;
	for (size_t i = 0; i < k->nexc; i++)
		if (!get(p, end, &v))
			return N_("a number runs past its end");
	varint_get(k->gaps, end, &v);
	k->next = (size_t)v;
	k->end = end;
	return NULL;
}

const char *codec_block_get(const unsigned char **p, const unsigned char *end,
			    size_t m, struct codec_block_in *k)
{
	uint64_t z, shift, head;
	const char *why;

	memset(k, 0, sizeof(*k));
	k->m = m;
	if (!get(p, end, &z) || !get(p, end, &shift) || !get(p, end, &head))
		return N_("a number runs past its end");
	if (shift > 63 || head > 129)
		return N_("a column of the wrong kind");
	k->base = (uint64_t)varint_unzigzag(z);
	k->shift = (unsigned)shift;
	k->bits = (unsigned)(head >> 1);
	if ((head & 1) && (why = get_exceptions(p, end, k)))
		return why;
	if (m > SIZE_MAX / 8)
		return N_("a column runs past its end");
	size_t bytes = k->bits / 8 * m + (m * (k->bits % 8) + 7) / 8;

	if ((size_t)(end - *p) < bytes)
		return N_("a column runs past its end");
	k->planes = *p;
	*p += bytes;
	return NULL;
}

uint64_t codec_block_next(struct codec_block_in *k)
{
	unsigned planes = k->bits / 8, part = k->bits % 8;
	const unsigned char *packed = k->planes + planes * k->m;
	size_t j = k->j++, at = j * part;
	uint64_t u = 0, v = 0;

	for (unsigned b = 0; b < planes; b++)
		u |= (uint64_t)k->planes[b * k->m + j] << (8 * b);
	for (unsigned q = 0; q < part; q++)
		u |= (uint64_t)(packed[(at + q) / 8] >> ((at + q) % 8) & 1)
		     << (8 * planes + q);
	if (k->nexc && j == k->next) {
		/* checked by get_exceptions */
		k->gaps += varint_get(k->gaps, k->end, &v);
		k->highs += varint_get(k->highs, k->end, &v);
		u |= v << k->bits;
		if (--k->nexc) {
			varint_get(k->gaps, k->end, &v);
			k->next = j + 1 + (size_t)v;
		}
	}
	return k->base + (u << k->shift);
}
