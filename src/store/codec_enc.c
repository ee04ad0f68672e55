/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Samples into key and delta frames: the format is in codec.h. */
#include <config.h>

#include "store/codec.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "store/codec_arena.h"
#include "store/codec_block.h"
#include "store/codec_impl.h"
#include "store/frame.h"
#include "store/varint.h"

struct buf {
	unsigned char *p;
	size_t len, cap;
	size_t high;    /* the most it held since buf_trim */
};

struct codec_enc {
	const struct codec_schema *s;
	struct codec_tab *tabs;
	struct codec_rows *prev;        /* the last sample, in key order */
	struct codec_rows *cur;
	struct codec_arena strs[2];           /* prev's strings and cur's */
	unsigned cur_strs;
	struct buf out, body, lists[3];
	struct buf wires;               /* put_columns' */
	const void **chg;               /* changed entities: before, now */
	size_t chg_cap;
	uint64_t *vals;                 /* a numeric column's (chg_cap / 2) */
	void *zero;                     /* a row of the largest table, all
					   zero: it knows nothing */
	unsigned key_every, since_key;
	double key_seconds, key_time;
	uint64_t seq;
	bool need_key;
};

static int buf_room(struct buf *b, size_t n)
{
	if (b->len + n > b->high)
		b->high = b->len + n;
	if (b->len + n <= b->cap)
		return 0;
	size_t cap = b->cap ? b->cap : 1024;
	while (cap < b->len + n)
		cap *= 2;
	unsigned char *p = realloc(b->p, cap);
	if (!p)
		return -1;
	b->p = p;
	b->cap = cap;
	return 0;
}

/*
 * What stays of a buffer whatever it held; beyond that, one with room
 * for more than four times the most the last sample put in it (a large
 * process ended) is given back.
 */
#define BUF_KEEP (64u << 10)

static void buf_trim(struct buf *b)
{
	if (b->cap > BUF_KEEP && b->cap / 4 > b->high) {
		free(b->p);
		b->p = NULL;
		b->cap = 0;
	}
	b->high = 0;
}

/* The buffers and the changed entities' arrays sized for this sample. */
static void trim(struct codec_enc *e, const struct codec_sample *in)
{
	size_t most = 0;

	buf_trim(&e->out);
	buf_trim(&e->body);
	buf_trim(&e->wires);
	for (int i = 0; i < 3; i++)
		buf_trim(&e->lists[i]);
	for (size_t i = 0; i < e->s->ntables; i++)
		if (in->tables[i].n > most)
			most = in->tables[i].n;
	if (e->chg_cap > 4096 && e->chg_cap / 8 > most) {
		free(e->chg);
		free(e->vals);
		e->chg = NULL;
		e->vals = NULL;
		e->chg_cap = 0;
	}
}

static int put_varint(struct buf *b, uint64_t v)
{
	if (buf_room(b, VARINT_MAX) < 0)
		return -1;
	b->len += varint_put(b->p + b->len, v);
	return 0;
}

static int put_bytes(struct buf *b, const void *p, size_t n)
{
	if (buf_room(b, n) < 0)
		return -1;
	if (n)
		memcpy(b->p + b->len, p, n);
	b->len += n;
	return 0;
}

/* A field's tag: its id as the step from the field before (*last). */
static int put_tag(struct buf *b, const struct codec_field *f, unsigned wire,
		   unsigned *last)
{
	uint64_t step = f->id - *last;

	*last = f->id;
	return put_varint(b, step << 2 | wire);
}

/* Field f of row as a whole entity's (codec.h: wires 0 to 2). */
static int put_value(struct buf *b, const struct codec_field *f,
		     const void *row)
{
	unsigned char le[8];
	uint64_t u;
	size_t n;

	switch (f->type) {
	case CODEC_U64:
		return put_varint(b, *CAT(row, f, uint64_t));
	case CODEC_S64:
		return put_varint(b, varint_zigzag(*CAT(row, f, int64_t)));
	case CODEC_DOUBLE:
		memcpy(&u, CAT(row, f, double), 8);
		for (int i = 0; i < 8; i++)
			le[i] = (unsigned char)(u >> (8 * i));
		return put_bytes(b, le, 8);
	case CODEC_STRING:
		n = strlen(*CAT(row, f, const char *));
		if (put_varint(b, n) < 0)
			return -1;
		return put_bytes(b, *CAT(row, f, const char *), n);
	}
	return 0;
}

static int put_entity(struct buf *b, const struct codec_table *t,
		      const void *row)
{
	unsigned last = 0;

	for (size_t i = 0; i < t->nfields; i++)
		if (codec_known(t, row, t->fields[i].id) &&
		    (put_tag(b, &t->fields[i], codec_wire(&t->fields[i]),
			     &last) < 0 ||
		     put_value(b, &t->fields[i], row) < 0))
			return -1;
	return put_varint(b, 0);
}

/*
 * The 64 bits a numeric column holds of field f of row (old: the entity
 * in the sample before): a counter's difference from its value then
 * (mod 2^64) where old knew it, else the value's own bits (a u64 as it
 * is, an s64 in two's complement, a double's IEEE 754 bits).
 */
static uint64_t column_bits(const struct codec_table *t,
			    const struct codec_field *f, const void *row,
			    const void *old)
{
	uint64_t u, was;

	memcpy(&u, (const unsigned char *)row + f->offset, 8);
	if (!(f->flags & CODEC_COUNTER) || !codec_known(t, old, f->id))
		return u;
	memcpy(&was, (const unsigned char *)old + f->offset, 8);
	return u - was;
}

static bool field_changed(const struct codec_table *t,
			  const struct codec_field *f, const void *row,
			  const void *old)
{
	bool k = codec_known(t, row, f->id), ko = codec_known(t, old, f->id);

	return k != ko || (k && codec_field_cmp(f, row, old) != 0);
}

/*
 * The wire of field f of a changed entity row (old before it): 3 when
 * it became unknown, 0 for a counter's difference, else its own.
 */
static unsigned change_wire(const struct codec_table *t,
			    const struct codec_field *f, const void *row,
			    const void *old)
{
	if (!codec_known(t, row, f->id))
		return 3;
	return (f->flags & CODEC_COUNTER) && codec_known(t, old, f->id) ?
	       0 : codec_wire(f);
}

/*
 * The changed entities' fields as columns (codec.h): for each field in
 * the order of ids and each wire, those of the n entities (chg: the
 * sample before's row and the row, of each) whose field changed with
 * that wire, and the end. wv: room for the wire of each entity.
 */
static int put_columns(struct buf *b, struct buf *wv, uint64_t *vals,
		       const struct codec_table *t, const void **chg, size_t n)
{
	unsigned last = 0;

	wv->len = 0;
	if (buf_room(wv, n) < 0)
		return -1;
	for (size_t i = 0; i < t->nfields; i++) {
		const struct codec_field *f = &t->fields[i];
		size_t np[4] = { 0, 0, 0, 0 };

		for (size_t q = 0; q < n; q++) {
			const void *o = chg[2 * q], *r = chg[2 * q + 1];

			wv->p[q] = field_changed(t, f, r, o) ?
				   (unsigned char)change_wire(t, f, r, o) : 4;
			if (wv->p[q] < 4)
				np[wv->p[q]]++;
		}
		for (unsigned w = 0; w < 4; w++) {
			if (!np[w])
				continue;
			if (put_tag(b, f, w, &last) < 0 ||
			    put_varint(b, np[w] == n ? 0 : 1) < 0)
				return -1;
			if (np[w] < n) {
				size_t nb = (n + 7) / 8;

				if (buf_room(b, nb) < 0)
					return -1;
				memset(b->p + b->len, 0, nb);
				for (size_t q = 0; q < n; q++)
					if (wv->p[q] == w)
						b->p[b->len + q / 8] |=
							(unsigned char)(1u << (q % 8));
				b->len += nb;
			}
			if (w < 2) {
				size_t m = 0;

				for (size_t q = 0; q < n; q++)
					if (wv->p[q] == w)
						vals[m++] = column_bits(t, f, chg[2 * q + 1],
									chg[2 * q]);
				if (buf_room(b, codec_block_bound(m)) < 0)
					return -1;
				b->len += codec_block_put(b->p + b->len, vals, m);
				continue;
			}
			for (size_t q = 0; w == 2 && q < n; q++)
				if (wv->p[q] == w &&
				    put_value(b, f, chg[2 * q + 1]) < 0)
					return -1;
		}
	}
	return put_varint(b, 0);
}

/* Whether a field of row differs from old. */
static bool changed(const struct codec_table *t, const void *row,
		    const void *old)
{
	for (size_t i = 0; i < t->nfields; i++)
		if (field_changed(t, &t->fields[i], row, old))
			return true;
	return false;
}

static int chg_grow(struct codec_enc *e)
{
	size_t cap = e->chg_cap ? 2 * e->chg_cap : 256;
	const void **p = realloc(e->chg, cap * sizeof(*p));

	if (!p)
		return -1;
	e->chg = p;
	uint64_t *v = realloc(e->vals, cap / 2 * sizeof(*v));

	if (!v)
		return -1;
	e->vals = v;
	e->chg_cap = cap;
	return 0;
}

struct codec_enc *codec_enc_new(const struct codec_schema *s,
				unsigned key_every, double key_seconds)
{
	struct codec_enc *e = calloc(1, sizeof(*e));
	size_t n = s->ntables ? s->ntables : 1;

	if (!e)
		return NULL;
	size_t most = 1;

	for (size_t i = 0; i < s->ntables; i++)
		if (s->tables[i].size > most)
			most = s->tables[i].size;
	e->s = s;
	e->tabs = codec_tabs_new(s);
	e->prev = calloc(n, sizeof(*e->prev));
	e->cur = calloc(n, sizeof(*e->cur));
	e->zero = calloc(1, most);
	if (!e->tabs || !e->prev || !e->cur || !e->zero) {
		codec_enc_free(e);
		errno = ENOMEM;
		return NULL;
	}
	e->key_every = key_every;
	e->key_seconds = key_seconds;
	e->need_key = true;
	return e;
}

void codec_enc_restart(struct codec_enc *e)
{
	e->need_key = true;
}

static bool sorted(const struct codec_table *t, const struct codec_rows *r)
{
	for (size_t i = 1; i < r->n; i++)
		if (codec_key_cmp(codec_row_at(t, r, i - 1), codec_row_at(t, r, i),
			    (void *)t) > 0)
			return false;
	return true;
}

/*
 * The table's rows of in, copied into cur in key order with their
 * strings in a, and checked.
 */
static int sorted_copy(const struct codec_table *t, const struct codec_rows *in,
		       struct codec_rows *cur, struct codec_arena *a)
{
	if (in->n > t->max_rows) {
		errno = EINVAL;
		return -1;
	}
	cur->rows = malloc(in->n ? in->n * t->size : 1);
	if (!cur->rows)
		return -1;
	cur->n = in->n;
	if (in->n)
		memcpy(cur->rows, in->rows, in->n * t->size);
	for (size_t i = 0; i < cur->n; i++) {
		void *r = codec_row_at(t, cur, i);

		for (size_t j = 0; j < t->nfields; j++)
			if ((t->fields[j].flags & CODEC_KEY) &&
			    !(t->fields[j].flags & CODEC_KEY_ZERO) &&
			    !codec_known(t, r, t->fields[j].id))
				goto bad;
		if (codec_arena_own_row(t, r, a) < 0)
			return -1;
	}
	if (!sorted(t, cur))
		qsort_r(cur->rows, cur->n, t->size, codec_key_cmp, (void *)t);
	for (size_t i = 1; i < cur->n; i++)
		if (codec_key_cmp(codec_row_at(t, cur, i - 1), codec_row_at(t, cur, i),
			    (void *)t) == 0)
			goto bad;
	return 0;
bad:
	errno = EINVAL;
	return -1;
}

/*
 * A key body into b: the count, then every entity's fields as columns,
 * each entity as changed from one that knew nothing (e->zero).
 */
static int key_body(struct codec_enc *e, struct buf *b,
		    const struct codec_table *t, const struct codec_rows *cur)
{
	if (put_varint(b, cur->n) < 0)
		return -1;
	while (e->chg_cap < 2 * cur->n)
		if (chg_grow(e) < 0)
			return -1;
	for (size_t i = 0; i < cur->n; i++) {
		e->chg[2 * i] = e->zero;
		e->chg[2 * i + 1] = codec_row_at(t, cur, i);
	}
	return put_columns(b, &e->wires, e->vals, t, e->chg, cur->n);
}

/* A delta body into b: left empty when nothing changed. */
static int delta_body(struct codec_enc *e, struct buf *b,
		      const struct codec_table *t, const struct codec_rows *prev,
		      const struct codec_rows *cur)
{
	struct buf *rm = &e->lists[0], *ch = &e->lists[1], *add = &e->lists[2];
	size_t i = 0, j = 0, nrm = 0, nch = 0, nadd = 0;
	size_t last_rm = SIZE_MAX, last_ch = SIZE_MAX;
	int rc = 0;

	rm->len = ch->len = add->len = 0;
	while (rc == 0 && (i < prev->n || j < cur->n)) {
		const void *o = i < prev->n ? codec_row_at(t, prev, i) : NULL;
		const void *r = j < cur->n ? codec_row_at(t, cur, j) : NULL;
		int c = !o ? 1 : !r ? -1 : codec_key_cmp(o, r, (void *)t);

		if (c < 0) {
			rc = put_varint(rm, i - last_rm - 1);
			last_rm = i++;
			nrm++;
		} else if (c > 0) {
			rc = put_entity(add, t, r);
			j++;
			nadd++;
		} else {
			/* its gap, its fields in the columns after */
			if (changed(t, r, o)) {
				rc = put_varint(ch, i - last_ch - 1);
				if (rc == 0 && nch == e->chg_cap / 2)
					rc = chg_grow(e);
				if (rc == 0) {
					e->chg[2 * nch] = o;
					e->chg[2 * nch + 1] = r;
					last_ch = i;
					nch++;
				}
			}
			i++;
			j++;
		}
	}
	if (rc == 0 && nch)
		rc = put_columns(ch, &e->wires, e->vals, t, e->chg, nch);
	if (rc < 0 || nrm + nch + nadd == 0)
		return rc;
	if (put_varint(b, nrm) < 0 || put_bytes(b, rm->p, rm->len) < 0 ||
	    put_varint(b, nch) < 0 || put_bytes(b, ch->p, ch->len) < 0 ||
	    put_varint(b, nadd) < 0 || put_bytes(b, add->p, add->len) < 0)
		return -1;
	return 0;
}

static bool key_due(struct codec_enc *e, double time)
{
	return e->need_key || (e->key_every && e->since_key >= e->key_every) ||
	       (e->key_seconds > 0 && time - e->key_time >= e->key_seconds);
}

int codec_enc_sample(struct codec_enc *e, const struct codec_sample *in,
		     const unsigned char **out, size_t *len, int *type)
{
	bool key = key_due(e, in->time);
	size_t nt = e->s->ntables;

	struct codec_arena *strs = &e->strs[e->cur_strs];

	trim(e, in);
	e->out.len = 0;
	codec_arena_clear(strs);
	if (put_varint(&e->out, e->seq + 1) < 0)
		return -1;
	for (size_t i = 0; i < nt; i++) {
		const struct codec_table *t = e->tabs[i].t;

		e->body.len = 0;
		if (sorted_copy(t, &in->tables[i], &e->cur[i], strs) < 0 ||
		    (key ? key_body(e, &e->body, t, &e->cur[i]) :
		     delta_body(e, &e->body, t, &e->prev[i], &e->cur[i])) < 0)
			goto fail;
		if (!key && e->body.len == 0)
			continue;
		if (put_varint(&e->out, t->id) < 0 ||
		    put_varint(&e->out, e->body.len) < 0 ||
		    put_bytes(&e->out, e->body.p, e->body.len) < 0)
			goto fail;
	}
	if (e->out.len > FRAME_MAX_PAYLOAD) {
		errno = EFBIG;
		goto fail;
	}
	codec_rows_free(e->prev, nt);
	struct codec_rows *swap = e->prev;
	e->prev = e->cur;
	e->cur = swap;
	e->cur_strs = !e->cur_strs;
	e->seq++;
	if (key) {
		e->need_key = false;
		e->since_key = 0;
		e->key_time = in->time;
	}
	e->since_key++;
	*out = e->out.p;
	*len = e->out.len;
	*type = key ? FRAME_KEY : FRAME_DELTA;
	return 0;
fail:;
	int err = errno;
	codec_rows_free(e->cur, nt);
	codec_arena_clear(strs);
	errno = err;
	return -1;
}

void codec_enc_free(struct codec_enc *e)
{
	if (!e)
		return;
	if (e->prev)
		codec_rows_free(e->prev, e->s->ntables);
	if (e->cur)
		codec_rows_free(e->cur, e->s->ntables);
	free(e->prev);
	free(e->cur);
	codec_arena_free(&e->strs[0]);
	codec_arena_free(&e->strs[1]);
	free(e->tabs);
	free(e->out.p);
	free(e->body.p);
	for (int i = 0; i < 3; i++)
		free(e->lists[i].p);
	free(e->chg);
	free(e->vals);
	free(e->wires.p);
	free(e->zero);
	free(e);
}

