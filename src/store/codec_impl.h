/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the codec's files (codec.c, codec_enc.c, codec_dec.c) share: a
 * table of the schema with its fields by id, and rows compared and
 * reached by their fields. Not for use outside the codec.
 */
#ifndef STALLTOP_CODEC_IMPL_H
#define STALLTOP_CODEC_IMPL_H

#include <stddef.h>

#include "store/codec.h"

/* A table of the schema with its fields by id. */
struct codec_tab {
	const struct codec_table *t;
	short byid[CODEC_MAX_ID + 1];   /* index in t->fields, or -1 */
};

#define AT(row, f, type) \
	((type *)(void *)((unsigned char *)(row) + (f)->offset))
#define CAT(row, f, type) \
	((const type *)(const void *)((const unsigned char *)(row) + (f)->offset))


/* The bytes of a field's member: 8, or a pointer's. */
size_t codec_type_size(const struct codec_field *f);
/* The wire type of a field's values (codec.h): 0, 1 or 2. */
unsigned codec_wire(const struct codec_field *f);
/* The schema's tables with their fields by id, or NULL (ENOMEM). */
struct codec_tab *codec_tabs_new(const struct codec_schema *s);
/* Fields and keys of two rows in key order: <0, 0, >0 (qsort_r's). */
int codec_field_cmp(const struct codec_field *f, const void *a, const void *b);
int codec_key_cmp(const void *a, const void *b, void *arg);
void *codec_row_at(const struct codec_table *t, const struct codec_rows *r,
		   size_t i);
/* The rows of n tables freed, each left empty. */
void codec_rows_free(struct codec_rows *r, size_t n);

#endif
