/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The strings a sample of the codec keeps (codec_arena.h). */
#include <config.h>

#include "store/codec_arena.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define BLOCK_MIN (64u << 10)

void codec_arena_clear(struct codec_arena *a)
{
	struct codec_block *b = a->head;

	if (b) {
		struct codec_block *next = b->next;

		while (next) {
			struct codec_block *n = next->next;

			free(next);
			next = n;
		}
		b->next = NULL;
		b->len = 0;
	}
	a->bytes = 0;
}

void codec_arena_free(struct codec_arena *a)
{
	codec_arena_clear(a);
	free(a->head);
	a->head = NULL;
}

const char *codec_arena_put(struct codec_arena *a, const char *s, size_t n)
{
	struct codec_block *b = a->head;

	if (n >= CODEC_STRINGS_MAX - a->bytes) {
		errno = EFBIG;
		return NULL;
	}
	if (!b || b->cap - b->len < n + 1) {
		size_t cap = n + 1 > BLOCK_MIN ? n + 1 : BLOCK_MIN;

		if (!(b = malloc(sizeof(*b) + cap)))
			return NULL;
		b->next = a->head;
		b->len = 0;
		b->cap = cap;
		a->head = b;
	}
	char *p = b->data + b->len;

	if (n)
		memcpy(p, s, n);
	p[n] = '\0';
	b->len += n + 1;
	a->bytes += n + 1;
	return p;
}

int codec_arena_own_row(const struct codec_table *t, void *row,
			struct codec_arena *a)
{
	for (size_t j = 0; j < t->nfields; j++) {
		const struct codec_field *f = &t->fields[j];
		const char **s = (const char **)(void *)((unsigned char *)row + f->offset);

		if (f->type != CODEC_STRING || !codec_known(t, row, f->id))
			continue;
		if (!*s) {
			errno = EINVAL;
			return -1;
		}
		if (!(*s = codec_arena_put(a, *s, strlen(*s))))
			return -1;
	}
	return 0;
}

