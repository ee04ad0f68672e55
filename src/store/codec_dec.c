/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Key and delta frames back into samples: the format is in codec.h. */
#include <config.h>

#include "store/codec.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/nls.h"
#include "store/codec_arena.h"
#include "store/codec_block.h"
#include "store/codec_impl.h"
#include "store/frame.h"
#include "store/varint.h"

struct codec_dec {
	const struct codec_schema *s;
	struct codec_tab *tabs;
	struct codec_sample sample;
	struct codec_rows *next;
	/* the sample's strings, the next one's, a payload's */
	struct codec_arena strs, next_strs, payload_strs;
	bool have;                      /* sample is a base for a delta */
	uint64_t seq, skipped;
};

/* Where decoding is, and why it stopped. */
struct in {
	const unsigned char *p, *start, *end;
	const char *why;
	struct codec_arena *strs;     /* where its strings go */
};

static int bad(struct in *in, const char *why)
{
	if (!in->why)
		in->why = why;
	return -1;
}

static int get_varint(struct in *in, uint64_t *v)
{
	size_t n = varint_get(in->p, in->end, v);

	if (!n)
		return bad(in, N_("a number runs past its end"));
	in->p += n;
	return 0;
}

static int get_count(struct in *in, size_t max, size_t *n)
{
	uint64_t v;

	if (get_varint(in, &v) < 0)
		return -1;
	/* every item takes a byte at least */
	if (v > max || v > (uint64_t)(in->end - in->p))
		return bad(in, N_("more entities than a table holds"));
	*n = (size_t)v;
	return 0;
}

static int skip_value(struct in *in, unsigned wire)
{
	uint64_t v;

	switch (wire) {
	case 0:
		return get_varint(in, &v);
	case 1:
		if (in->end - in->p < 8)
			return bad(in, N_("a number runs past its end"));
		in->p += 8;
		return 0;
	case 2:
		if (get_varint(in, &v) < 0)
			return -1;
		if (v > (uint64_t)(in->end - in->p))
			return bad(in, N_("a string runs past its end"));
		in->p += v;
		return 0;
	}
	return 0;
}

static int get_value(struct in *in, const struct codec_field *f, void *row)
{
	uint64_t v;

	switch (f->type) {
	case CODEC_U64:
		if (get_varint(in, &v) < 0)
			return -1;
		*AT(row, f, uint64_t) = v;
		return 0;
	case CODEC_S64:
		if (get_varint(in, &v) < 0)
			return -1;
		v = (uint64_t)varint_unzigzag(v);
		/* two's complement back: the value written */
		*AT(row, f, int64_t) = v > INT64_MAX ?
			-(int64_t)(UINT64_MAX - v) - 1 : (int64_t)v;
		return 0;
	case CODEC_DOUBLE:
		if (in->end - in->p < 8)
			return bad(in, N_("a number runs past its end"));
		v = 0;
		for (int i = 0; i < 8; i++)
			v |= (uint64_t)in->p[i] << (8 * i);
		memcpy(AT(row, f, double), &v, 8);
		in->p += 8;
		return 0;
	case CODEC_STRING:
		if (get_varint(in, &v) < 0)
			return -1;
		if (v > (uint64_t)(in->end - in->p))
			return bad(in, N_("a string runs past its end"));
		if (memchr(in->p, '\0', (size_t)v))
			return bad(in, N_("a string with a NUL"));
		if (!(*AT(row, f, const char *) =
		      codec_arena_put(in->strs, (const char *)in->p, (size_t)v)))
			return errno == EFBIG ?
			       bad(in, N_("more strings than a sample holds")) : -1;
		in->p += v;
		return 0;
	}
	return 0;
}

/* The fields of one whole entity into row, up to its 0. */
static int get_fields(struct in *in, const struct codec_tab *tb, void *row)
{
	const struct codec_table *t = tb->t;
	uint64_t id = 0;

	for (;;) {
		uint64_t tag;

		if (get_varint(in, &tag) < 0)
			return -1;
		if (tag == 0)
			return 0;
		unsigned wire = (unsigned)(tag & 3);
		/* ids go up: a step of 0 (or past 64 bits) is damage */
		if (tag >> 2 == 0 || tag >> 2 > UINT64_MAX - id)
			return bad(in, N_("fields out of order"));
		id += tag >> 2;
		if (id > CODEC_MAX_ID || tb->byid[id] < 0) {
			if (skip_value(in, wire) < 0)
				return -1;
			continue;
		}
		const struct codec_field *f = &t->fields[tb->byid[id]];
		if (wire != codec_wire(f))
			return bad(in, N_("a field of the wrong type"));
		if (get_value(in, f, row) < 0)
			return -1;
		codec_set_known(t, row, f->id, true);
	}
}

/* Whether row knows every key field. */
static bool key_known(const struct codec_table *t, const void *row)
{
	for (size_t i = 0; i < t->nfields; i++)
		if ((t->fields[i].flags & CODEC_KEY) &&
		    !(t->fields[i].flags & CODEC_KEY_ZERO) &&
		    !codec_known(t, row, t->fields[i].id))
			return false;
	return true;
}

static int get_entity(struct in *in, const struct codec_tab *tb, void *row)
{
	const struct codec_table *t = tb->t;

	memset(row, 0, t->size);
	if (get_fields(in, tb, row) < 0)
		return -1;
	if (!key_known(t, row))
		return bad(in, N_("an entity without its key"));
	return 0;
}

/* Sort rows into key order; two of one key are damage. */
static int sort_rows(struct in *in, const struct codec_table *t,
		     struct codec_rows *r)
{
	qsort_r(r->rows, r->n, t->size, codec_key_cmp, (void *)t);
	for (size_t i = 1; i < r->n; i++)
		if (codec_key_cmp(codec_row_at(t, r, i - 1), codec_row_at(t, r, i),
			    (void *)t) == 0)
			return bad(in, N_("two entities with one key"));
	return 0;
}

static int rows_alloc(struct codec_rows *r, const struct codec_table *t,
		      size_t n)
{
	r->rows = calloc(n ? n : 1, t->size);
	r->n = 0;
	return r->rows ? 0 : -1;
}

/*
 * The next entity of a list into r, which has room for *cap: memory
 * grows with the entities a payload holds, not with the count it claims.
 */
static int add_entity(struct in *in, const struct codec_tab *tb,
		      struct codec_rows *r, size_t *cap)
{
	const struct codec_table *t = tb->t;

	if (r->n == *cap) {
		size_t n = *cap < 64 ? 64 : 2 * *cap;
		void *p = realloc(r->rows, n * t->size);
		if (!p)
			return -1;
		r->rows = p;
		*cap = n;
	}
	if (get_entity(in, tb, codec_row_at(t, r, r->n)) < 0)
		return -1;
	r->n++;
	return 0;
}

/* The next index of a list in the previous sample's order, after *last. */
static int get_index(struct in *in, size_t n, size_t *last)
{
	uint64_t gap;

	if (get_varint(in, &gap) < 0)
		return -1;
	uint64_t i = *last == SIZE_MAX ? gap : *last + 1 + gap;
	if (gap >= n || i >= n)
		return bad(in, N_("an entity that is not there"));
	*last = (size_t)i;
	return 0;
}

/*
 * Field f of row from a block's number x (a numeric column's, codec.h):
 * x added to base's value, or x as the value's bits.
 */
static void set_bits(const struct codec_field *f, void *row, const void *base,
		     uint64_t x)
{
	if (base) {
		uint64_t was;

		memcpy(&was, (const unsigned char *)base + f->offset, 8);
		x += was;
	}
	memcpy((unsigned char *)row + f->offset, &x, 8);
}

/* The entities a column has: all nch, or those of its bitmap. */
static size_t column_count(const unsigned char *bm, size_t nch)
{
	size_t m = 0;

	if (!bm)
		return nch;
	for (size_t q = 0; q < nch; q++)
		m += bm[q / 8] >> (q % 8) & 1;
	return m;
}

/*
 * The columns of the nch changed entities (codec.h), at idx in the
 * sample before (prev) and in r, its copy, up to their end; numeric
 * values in blocks. A key frame's (prev and idx NULL): those of the nch
 * entities of r, whole, their keys among them.
 */
static int get_columns(struct in *in, const struct codec_tab *tb,
		       const struct codec_rows *prev, struct codec_rows *r,
		       const size_t *idx, size_t nch)
{
	const struct codec_table *t = tb->t;
	uint64_t id = 0;
	unsigned lastw = 0;

	for (;;) {
		uint64_t tag, mode;
		const unsigned char *bm = NULL;
		struct codec_block_in k;
		const char *why;

		if (get_varint(in, &tag) < 0)
			return -1;
		if (tag == 0)
			return 0;
		unsigned wire = (unsigned)(tag & 3);
		/* ids go up; a field's columns by wire, each once */
		if (tag >> 2 == 0 ? id == 0 || wire <= lastw :
		    tag >> 2 > UINT64_MAX - id)
			return bad(in, N_("fields out of order"));
		id += tag >> 2;
		lastw = wire;
		if (get_varint(in, &mode) < 0)
			return -1;
		if (mode > 1)
			return bad(in, N_("a column of the wrong kind"));
		if (mode == 1) {
			size_t nb = (nch + 7) / 8;

			if ((size_t)(in->end - in->p) < nb)
				return bad(in, N_("a column runs past its end"));
			bm = in->p;
			in->p += nb;
		}
		const struct codec_field *f = id <= CODEC_MAX_ID &&
			tb->byid[id] >= 0 ? &t->fields[tb->byid[id]] : NULL;
		if (prev && f && (f->flags & CODEC_KEY))
			return bad(in, N_("a key that changed"));
		bool numbers = wire < 2;
		if (numbers && (why = codec_block_get(&in->p, in->end,
						       column_count(bm, nch),
						       &k)))
			return bad(in, why);
		for (size_t q = 0; q < nch; q++) {
			if (bm && !(bm[q / 8] >> (q % 8) & 1))
				continue;
			if (!f) {
				if (!numbers && skip_value(in, wire) < 0)
					return -1;
				continue;
			}
			void *row = codec_row_at(t, r, idx ? idx[q] : q);
			const void *base = prev ? codec_row_at(t, prev, idx[q]) :
					   NULL;
			if (wire == 3 && !prev)
				return bad(in, N_("a field of the wrong type"));
			if (wire == 3) {
				codec_set_known(t, row, f->id, false);
				memset((unsigned char *)row + f->offset, 0,
				       codec_type_size(f));
				continue;
			}
			bool diff = base && (f->flags & CODEC_COUNTER) &&
				    codec_known(t, base, f->id);
			if (wire != (diff ? 0 : codec_wire(f)))
				return bad(in, N_("a field of the wrong type"));
			if (numbers)
				set_bits(f, row, diff ? base : NULL, codec_block_next(&k));
			else if (get_value(in, f, row) < 0)
				return -1;
			codec_set_known(t, row, f->id, true);
		}
	}
}

/*
 * A key frame's table: its entities in columns. Columns hold distinct
 * keys in a bit each at least (packed, or an exception's bytes), so a
 * count of more than 8 entities a byte is damage; memory goes with the
 * count then (8 entities a byte at most).
 */
static int key_table(struct in *in, const struct codec_tab *tb,
		     struct codec_rows *r)
{
	const struct codec_table *t = tb->t;
	size_t n;
	uint64_t v;

	if (get_varint(in, &v) < 0)
		return -1;
	if (v > t->max_rows || (v && (v - 1) / 8 > (uint64_t)(in->end - in->p)))
		return bad(in, N_("more entities than a table holds"));
	n = (size_t)v;
	if (rows_alloc(r, t, n) < 0)
		return -1;
	r->n = n;
	if (get_columns(in, tb, NULL, r, NULL, n) < 0)
		return -1;
	for (size_t q = 0; q < n; q++)
		if (!key_known(t, codec_row_at(t, r, q)))
			return bad(in, N_("an entity without its key"));
	return sort_rows(in, t, r);
}

static int delta_table(struct in *in, const struct codec_tab *tb,
		       const struct codec_rows *prev, struct codec_rows *r)
{
	const struct codec_table *t = tb->t;
	size_t nrm, nch, nadd, last = SIZE_MAX;
	unsigned char *gone = NULL;
	size_t *idx = NULL;
	int rc = -1;

	if (get_count(in, prev->n, &nrm) < 0)
		return -1;
	gone = calloc(prev->n ? prev->n : 1, 1);
	if (!gone || rows_alloc(r, t, prev->n) < 0)
		goto out;
	if (prev->n)
		memcpy(r->rows, prev->rows, prev->n * t->size);
	r->n = prev->n;
	for (size_t k = 0; k < nrm; k++) {
		if (get_index(in, prev->n, &last) < 0)
			goto out;
		gone[last] = 1;
	}
	if (get_count(in, prev->n, &nch) < 0)
		goto out;
	last = SIZE_MAX;
	if (!(idx = malloc((nch ? nch : 1) * sizeof(*idx))))
		goto out;
	for (size_t k = 0; k < nch; k++) {
		if (get_index(in, prev->n, &last) < 0)
			goto out;
		if (gone[last]) {
			bad(in, N_("an entity that is not there"));
			goto out;
		}
		idx[k] = last;
	}
	if (nch && get_columns(in, tb, prev, r, idx, nch) < 0)
		goto out;
	size_t kept = 0;
	for (size_t k = 0; k < r->n; k++)
		if (!gone[k]) {
			if (kept != k)
				memcpy(codec_row_at(t, r, kept), codec_row_at(t, r, k),
				       t->size);
			kept++;
		}
	r->n = kept;
	if (get_count(in, t->max_rows - kept, &nadd) < 0)
		goto out;
	size_t cap = prev->n ? prev->n : 1;
	for (; nadd; nadd--)
		if (add_entity(in, tb, r, &cap) < 0)
			goto out;
	rc = sort_rows(in, t, r);
out:
	free(gone);
	free(idx);
	return rc;
}

struct codec_dec *codec_dec_new(const struct codec_schema *s)
{
	struct codec_dec *d = calloc(1, sizeof(*d));
	size_t n = s->ntables ? s->ntables : 1;

	if (!d)
		return NULL;
	d->s = s;
	d->tabs = codec_tabs_new(s);
	d->sample.tables = calloc(n, sizeof(struct codec_rows));
	d->next = calloc(n, sizeof(struct codec_rows));
	if (!d->tabs || !d->sample.tables || !d->next) {
		codec_dec_free(d);
		errno = ENOMEM;
		return NULL;
	}
	return d;
}

static const struct codec_tab *tab_of(const struct codec_dec *d, uint64_t id,
				size_t *index)
{
	for (size_t i = 0; i < d->s->ntables; i++)
		if (d->tabs[i].t->id == id) {
			*index = i;
			return &d->tabs[i];
		}
	return NULL;
}

/* The tables of a payload into d->next (NULL rows: not in it). */
static int get_tables(struct codec_dec *d, struct in *in, bool key)
{
	while (in->p < in->end) {
		uint64_t id, len;
		size_t i;

		if (get_varint(in, &id) < 0 || get_varint(in, &len) < 0)
			return -1;
		if (len > (uint64_t)(in->end - in->p))
			return bad(in, N_("a table runs past its end"));
		const struct codec_tab *tb = tab_of(d, id, &i);
		struct in body = { in->p, in->start, in->p + len, NULL,
				   in->strs };
		in->p += len;
		if (!tb)
			continue;
		if (d->next[i].rows)
			return bad(in, N_("a table given twice"));
		if ((key ? key_table(&body, tb, &d->next[i]) :
		     delta_table(&body, tb, &d->sample.tables[i],
				 &d->next[i])) < 0 ||
		    (body.p != body.end &&
		     bad(&body, N_("bytes after a table")) < 0)) {
			in->why = body.why;
			in->p = body.p;
			return -1;
		}
	}
	return 0;
}

/*
 * Every string of the sample decoded into the arena of the next one, the
 * sample's from then on: it holds strings of the sample before (entities
 * a delta did not change) and of the payload.
 */
static int rehome(struct codec_dec *d, struct in *in)
{
	for (size_t i = 0; i < d->s->ntables; i++) {
		const struct codec_table *t = d->tabs[i].t;
		struct codec_rows *r = &d->sample.tables[i];

		for (size_t k = 0; k < r->n; k++)
			if (codec_arena_own_row(t, codec_row_at(t, r, k), &d->next_strs) < 0)
				return errno == EFBIG ?
				       bad(in, N_("more strings than a sample "
						  "holds")) : -1;
	}
	struct codec_arena a = d->strs;

	d->strs = d->next_strs;
	d->next_strs = a;
	codec_arena_clear(&d->next_strs);
	codec_arena_clear(&d->payload_strs);
	return 0;
}

int codec_dec_frame(struct codec_dec *d, int type, double time,
		    const unsigned char *p, size_t len, char *err,
		    size_t errsize)
{
	struct in in = { p, p, p + len, NULL, &d->payload_strs };
	size_t nt = d->s->ntables;
	bool key = type == FRAME_KEY;
	uint64_t seq;

	if (type != FRAME_KEY && type != FRAME_DELTA) {
		errno = EINVAL;
		return -1;
	}
	if (get_varint(&in, &seq) < 0)
		goto bad;
	if (!key && d->have && seq == d->seq)
		return 0; /* the sample decoded last again: its base stays */
	if (!key && (!d->have || seq != d->seq + 1)) {
		d->have = false;
		d->skipped++;
		return 0;
	}
	codec_arena_clear(&d->payload_strs);
	codec_arena_clear(&d->next_strs);
	if (get_tables(d, &in, key) < 0)
		goto bad;
	for (size_t i = 0; i < nt; i++) {
		if (d->next[i].rows) {
			free(d->sample.tables[i].rows);
			d->sample.tables[i] = d->next[i];
		} else if (key) {
			d->sample.tables[i].n = 0;
		}
		d->next[i].rows = NULL;
		d->next[i].n = 0;
	}
	if (rehome(d, &in) < 0) {
		/* part of it moved: no sample, no base */
		codec_rows_free(d->sample.tables, nt);
		goto bad;
	}
	d->sample.time = time;
	d->seq = seq;
	d->have = true;
	return 1;
bad:
	codec_rows_free(d->next, nt);
	d->have = false;
	if (!in.why) {
		errno = ENOMEM;
		snprintf(err, errsize, "%s", strerror(ENOMEM));
		return -1;
	}
	snprintf(err, errsize, _("a damaged sample record (%s at byte %zu of "
		 "its %zu)"), _(in.why), (size_t)(in.p - in.start), len);
	errno = EBADMSG;
	return -1;
}

const struct codec_sample *codec_dec_sample(const struct codec_dec *d)
{
	return &d->sample;
}

uint64_t codec_dec_skipped(const struct codec_dec *d)
{
	return d->skipped;
}

void codec_dec_free(struct codec_dec *d)
{
	if (!d)
		return;
	if (d->sample.tables)
		codec_rows_free(d->sample.tables, d->s->ntables);
	if (d->next)
		codec_rows_free(d->next, d->s->ntables);
	free(d->sample.tables);
	free(d->next);
	codec_arena_free(&d->strs);
	codec_arena_free(&d->next_strs);
	codec_arena_free(&d->payload_strs);
	free(d->tabs);
	free(d);
}
