/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The schema of the codec (codec.h): known fields, the schema's rules,
 * and rows compared by their keys. The encoder is codec_enc.c, the
 * decoder codec_dec.c.
 */
#include <config.h>

#include "store/codec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/nls.h"
#include "store/codec_impl.h"

size_t codec_type_size(const struct codec_field *f)
{
	return f->type == CODEC_STRING ? sizeof(const char *) : 8;
}

unsigned codec_wire(const struct codec_field *f)
{
	return f->type == CODEC_DOUBLE ? 1 : f->type == CODEC_STRING ? 2 : 0;
}

static int table_check(const struct codec_table *t, char *err, size_t errsize)
{
	bool seen[CODEC_MAX_ID + 1] = { false };

	if (t->known_offset + t->known_size > t->size || !t->max_rows) {
		snprintf(err, errsize, _("table %s of the schema: its bitmap of "
			 "known fields or its row limit is wrong"), t->name);
		return -1;
	}
	for (size_t i = 0; i < t->nfields; i++) {
		const struct codec_field *f = &t->fields[i];

		if (f->id == 0 || f->id > CODEC_MAX_ID || seen[f->id] ||
		    f->id / 8 >= t->known_size ||
		    f->offset + codec_type_size(f) > t->size ||
		    ((f->flags & CODEC_KEY) && (f->flags & CODEC_COUNTER)) ||
		    ((f->flags & CODEC_COUNTER) && f->type == CODEC_STRING)) {
			snprintf(err, errsize, _("table %s of the schema: field %s "
				 "(id %u) is wrong"),
				 t->name, f->name, f->id);
			return -1;
		}
		if (i && f->id <= t->fields[i - 1].id) {
			snprintf(err, errsize, _("table %s of the schema: field %s "
				 "(id %u) is not after the one before"),
				 t->name, f->name, f->id);
			return -1;
		}
		seen[f->id] = true;
	}
	return 0;
}

int codec_schema_check(const struct codec_schema *s, char *err,
		       size_t errsize)
{
	for (size_t i = 0; i < s->ntables; i++) {
		for (size_t j = 0; j < i; j++)
			if (s->tables[j].id == s->tables[i].id) {
				snprintf(err, errsize, _("the schema has table id %u twice"),
					 s->tables[i].id);
				return -1;
			}
		if (table_check(&s->tables[i], err, errsize) < 0)
			return -1;
	}
	return 0;
}

struct codec_tab *codec_tabs_new(const struct codec_schema *s)
{
	struct codec_tab *tabs = calloc(s->ntables ? s->ntables : 1, sizeof(*tabs));

	if (!tabs)
		return NULL;
	for (size_t i = 0; i < s->ntables; i++) {
		tabs[i].t = &s->tables[i];
		for (size_t id = 0; id <= CODEC_MAX_ID; id++)
			tabs[i].byid[id] = -1;
		for (size_t j = 0; j < s->tables[i].nfields; j++)
			tabs[i].byid[s->tables[i].fields[j].id] = (short)j;
	}
	return tabs;
}

int codec_field_cmp(const struct codec_field *f, const void *a, const void *b)
{
	switch (f->type) {
	case CODEC_U64: {
		uint64_t x = *CAT(a, f, uint64_t), y = *CAT(b, f, uint64_t);
		return (x > y) - (x < y);
	}
	case CODEC_S64: {
		int64_t x = *CAT(a, f, int64_t), y = *CAT(b, f, int64_t);
		return (x > y) - (x < y);
	}
	case CODEC_DOUBLE:
		return memcmp(CAT(a, f, double), CAT(b, f, double), 8);
	case CODEC_STRING:
		return strcmp(*CAT(a, f, const char *), *CAT(b, f, const char *));
	}
	return 0;
}

int codec_key_cmp(const void *a, const void *b, void *arg)
{
	const struct codec_table *t = arg;

	for (size_t i = 0; i < t->nfields; i++)
		if (t->fields[i].flags & CODEC_KEY) {
			int c = codec_field_cmp(&t->fields[i], a, b);
			if (c)
				return c;
		}
	return 0;
}

void *codec_row_at(const struct codec_table *t, const struct codec_rows *r,
		   size_t i)
{
	return (unsigned char *)r->rows + i * t->size;
}

void codec_rows_free(struct codec_rows *r, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(r[i].rows);
		r[i].rows = NULL;
		r[i].n = 0;
	}
}
