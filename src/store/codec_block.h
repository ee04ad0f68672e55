/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A column's block of numbers (codec.h: block, exceptions), both ways:
 * the encoder's layout of m numbers and the decoder's reading of them,
 * in order.
 */
#ifndef STALLTOP_CODEC_BLOCK_H
#define STALLTOP_CODEC_BLOCK_H

#include <stddef.h>
#include <stdint.h>

/* The most bytes codec_block_put writes for m numbers. */
size_t codec_block_bound(size_t m);
/*
 * m (>= 1) numbers as a block into out (codec_block_bound(m) bytes of
 * room): the bytes written. x is overwritten.
 */
size_t codec_block_put(unsigned char *out, uint64_t *x, size_t m);

/* A block being read: codec_block_get's, for codec_block_next. */
struct codec_block_in {
	uint64_t base;
	unsigned shift, bits;
	const unsigned char *planes;
	size_t m, j;
	size_t nexc, next;              /* exceptions left; the next's index */
	const unsigned char *gaps, *highs, *end;
};

/*
 * The block of m numbers at *p (before end) into k, checked, *p moved
 * past it: NULL, or why it is damage (untranslated).
 */
const char *codec_block_get(const unsigned char **p, const unsigned char *end,
			    size_t m, struct codec_block_in *k);
/* The next of its numbers (at most m calls). */
uint64_t codec_block_next(struct codec_block_in *k);

#endif
