/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The strings of a sample that the codec keeps (codec.h): copied into
 * blocks that never move, so a string stays where it was put until its
 * arena is emptied; all of an arena's strings together at most
 * CODEC_STRINGS_MAX bytes.
 */
#ifndef STALLTOP_CODEC_ARENA_H
#define STALLTOP_CODEC_ARENA_H

#include <stddef.h>

#include "store/codec.h"

struct codec_block {
	struct codec_block *next;
	size_t len, cap;
	char data[];
};

struct codec_arena {
	struct codec_block *head;
	size_t bytes;           /* put since it was emptied */
};

/* Empty a, keeping its newest block for the next sample. */
void codec_arena_clear(struct codec_arena *a);
void codec_arena_free(struct codec_arena *a);
/*
 * s (n bytes, no NUL) as a string of a, or NULL with errno ENOMEM, or
 * EFBIG past CODEC_STRINGS_MAX.
 */
const char *codec_arena_put(struct codec_arena *a, const char *s, size_t n);
/*
 * The known strings of row (of table t) copied into a, its pointers
 * moved there. 0, or -1 with errno EINVAL for a known string that is
 * NULL, EFBIG past CODEC_STRINGS_MAX, ENOMEM.
 */
int codec_arena_own_row(const struct codec_table *t, void *row,
			struct codec_arena *a);

#endif
