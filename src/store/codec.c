/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Samples of readings as key and delta frames: the format is in codec.h. */
#include <config.h>

#include "store/codec.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/nls.h"
#include "store/frame.h"
#include "store/varint.h"

/* A table of the schema with its fields by id. */
struct tab {
	const struct codec_table *t;
	short byid[CODEC_MAX_ID + 1];   /* index in t->fields, or -1 */
};

struct buf {
	unsigned char *p;
	size_t len, cap;
};

/*
 * The strings of one sample: blocks that never move, so a string stays
 * where it was put until the arena is emptied.
 */
struct block {
	struct block *next;
	size_t len, cap;
	char data[];
};

struct arena {
	struct block *head;
	size_t bytes;           /* put since it was emptied */
};

struct codec_enc {
	const struct codec_schema *s;
	struct tab *tabs;
	struct codec_rows *prev;        /* the last sample, in key order */
	struct codec_rows *cur;
	struct arena strs[2];           /* prev's strings and cur's */
	unsigned cur_strs;
	struct buf out, body, lists[3];
	unsigned key_every, since_key;
	double key_seconds, key_time;
	uint64_t seq;
	bool need_key;
};

struct codec_dec {
	const struct codec_schema *s;
	struct tab *tabs;
	struct codec_sample sample;
	struct codec_rows *next;
	/* the sample's strings, the next one's, a payload's */
	struct arena strs, next_strs, payload_strs;
	bool have;                      /* sample is a base for a delta */
	uint64_t seq, skipped;
};

/* ---- the schema ---- */

bool codec_known(const struct codec_table *t, const void *row, unsigned id)
{
	const unsigned char *k = (const unsigned char *)row + t->known_offset;

	return id / 8 < t->known_size && (k[id / 8] >> (id % 8) & 1);
}

void codec_set_known(const struct codec_table *t, void *row, unsigned id,
		     bool known)
{
	unsigned char *k = (unsigned char *)row + t->known_offset;

	if (id / 8 >= t->known_size)
		return;
	if (known)
		k[id / 8] |= (unsigned char)(1u << (id % 8));
	else
		k[id / 8] &= (unsigned char)~(1u << (id % 8));
}

static size_t type_size(const struct codec_field *f)
{
	return f->type == CODEC_STRING ? sizeof(const char *) : 8;
}

/* ---- the strings of a sample ---- */

#define BLOCK_MIN (64u << 10)

/* Empty a, keeping its newest block for the next sample. */
static void arena_clear(struct arena *a)
{
	struct block *b = a->head;

	if (b) {
		struct block *next = b->next;

		while (next) {
			struct block *n = next->next;

			free(next);
			next = n;
		}
		b->next = NULL;
		b->len = 0;
	}
	a->bytes = 0;
}

static void arena_free(struct arena *a)
{
	arena_clear(a);
	free(a->head);
	a->head = NULL;
}

/* s (n bytes, no NUL) as a string of a, or NULL: ENOMEM, or EFBIG past
 * CODEC_STRINGS_MAX. */
static const char *arena_put(struct arena *a, const char *s, size_t n)
{
	struct block *b = a->head;

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
		    f->offset + type_size(f) > t->size ||
		    ((f->flags & CODEC_KEY) && (f->flags & CODEC_COUNTER)) ||
		    ((f->flags & CODEC_COUNTER) && f->type != CODEC_U64 &&
		     f->type != CODEC_S64)) {
			snprintf(err, errsize, _("table %s of the schema: field %s "
				 "(id %u) is wrong"),
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

static struct tab *tabs_new(const struct codec_schema *s)
{
	struct tab *tabs = calloc(s->ntables ? s->ntables : 1, sizeof(*tabs));

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

#define AT(row, f, type) ((type *)(void *)((unsigned char *)(row) + (f)->offset))
#define CAT(row, f, type) \
	((const type *)(const void *)((const unsigned char *)(row) + (f)->offset))

static int field_cmp(const struct codec_field *f, const void *a, const void *b)
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

static int key_cmp(const void *a, const void *b, void *arg)
{
	const struct codec_table *t = arg;

	for (size_t i = 0; i < t->nfields; i++)
		if (t->fields[i].flags & CODEC_KEY) {
			int c = field_cmp(&t->fields[i], a, b);
			if (c)
				return c;
		}
	return 0;
}

static void *row_at(const struct codec_table *t, const struct codec_rows *r,
		    size_t i)
{
	return (unsigned char *)r->rows + i * t->size;
}

/* ---- writing ---- */

static int buf_room(struct buf *b, size_t n)
{
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

/* Field f of row; against base (a delta's previous value) when not NULL. */
static int put_field(struct buf *b, const struct codec_field *f,
		     const void *row, const void *base)
{
	unsigned char le[8];
	uint64_t u;
	size_t n;
	int wire = f->type == CODEC_DOUBLE ? 1 : f->type == CODEC_STRING ? 2 : 0;
	bool diff = base && (f->flags & CODEC_COUNTER);

	if (put_varint(b, (uint64_t)f->id << 2 | (unsigned)wire) < 0)
		return -1;
	switch (f->type) {
	case CODEC_U64:
		u = *CAT(row, f, uint64_t);
		if (diff)
			return put_varint(b, varint_zigzag((int64_t)
					  (u - *CAT(base, f, uint64_t))));
		return put_varint(b, u);
	case CODEC_S64:
		u = (uint64_t)*CAT(row, f, int64_t);
		if (diff)
			u -= (uint64_t)*CAT(base, f, int64_t);
		return put_varint(b, varint_zigzag((int64_t)u));
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
	for (size_t i = 0; i < t->nfields; i++)
		if (codec_known(t, row, t->fields[i].id) &&
		    put_field(b, &t->fields[i], row, NULL) < 0)
			return -1;
	return put_varint(b, 0);
}

static bool field_changed(const struct codec_table *t,
			  const struct codec_field *f, const void *row,
			  const void *old)
{
	bool k = codec_known(t, row, f->id), ko = codec_known(t, old, f->id);

	return k != ko || (k && field_cmp(f, row, old) != 0);
}

static bool entity_changed(const struct codec_table *t, const void *row,
			   const void *old)
{
	for (size_t i = 0; i < t->nfields; i++)
		if (field_changed(t, &t->fields[i], row, old))
			return true;
	return false;
}

static int put_changes(struct buf *b, const struct codec_table *t,
		       const void *row, const void *old)
{
	for (size_t i = 0; i < t->nfields; i++) {
		const struct codec_field *f = &t->fields[i];

		if (!field_changed(t, f, row, old))
			continue;
		if (!codec_known(t, row, f->id)) {
			if (put_varint(b, (uint64_t)f->id << 2 | 3) < 0)
				return -1;
		} else if (put_field(b, f, row,
				     codec_known(t, old, f->id) ? old : NULL) < 0) {
			return -1;
		}
	}
	return put_varint(b, 0);
}

struct codec_enc *codec_enc_new(const struct codec_schema *s,
				unsigned key_every, double key_seconds)
{
	struct codec_enc *e = calloc(1, sizeof(*e));
	size_t n = s->ntables ? s->ntables : 1;

	if (!e)
		return NULL;
	e->s = s;
	e->tabs = tabs_new(s);
	e->prev = calloc(n, sizeof(*e->prev));
	e->cur = calloc(n, sizeof(*e->cur));
	if (!e->tabs || !e->prev || !e->cur) {
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

/*
 * The known strings of row copied into a (the caller's may be gone by
 * the next sample). -1 with errno EINVAL for a known string that is
 * NULL, EFBIG past CODEC_STRINGS_MAX, ENOMEM.
 */
static int own_strings(const struct codec_table *t, void *row,
		       struct arena *a)
{
	for (size_t j = 0; j < t->nfields; j++) {
		const struct codec_field *f = &t->fields[j];
		const char **s = AT(row, f, const char *);

		if (f->type != CODEC_STRING || !codec_known(t, row, f->id))
			continue;
		if (!*s) {
			errno = EINVAL;
			return -1;
		}
		if (!(*s = arena_put(a, *s, strlen(*s))))
			return -1;
	}
	return 0;
}

static bool sorted(const struct codec_table *t, const struct codec_rows *r)
{
	for (size_t i = 1; i < r->n; i++)
		if (key_cmp(row_at(t, r, i - 1), row_at(t, r, i),
			    (void *)t) > 0)
			return false;
	return true;
}

/*
 * The table's rows of in, copied into cur in key order with their
 * strings in a, and checked.
 */
static int sorted_copy(const struct codec_table *t, const struct codec_rows *in,
		       struct codec_rows *cur, struct arena *a)
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
		void *r = row_at(t, cur, i);

		for (size_t j = 0; j < t->nfields; j++)
			if ((t->fields[j].flags & CODEC_KEY) &&
			    !codec_known(t, r, t->fields[j].id))
				goto bad;
		if (own_strings(t, r, a) < 0)
			return -1;
	}
	if (!sorted(t, cur))
		qsort_r(cur->rows, cur->n, t->size, key_cmp, (void *)t);
	for (size_t i = 1; i < cur->n; i++)
		if (key_cmp(row_at(t, cur, i - 1), row_at(t, cur, i),
			    (void *)t) == 0)
			goto bad;
	return 0;
bad:
	errno = EINVAL;
	return -1;
}

static int key_body(struct buf *b, const struct codec_table *t,
		    const struct codec_rows *cur)
{
	if (put_varint(b, cur->n) < 0)
		return -1;
	for (size_t i = 0; i < cur->n; i++)
		if (put_entity(b, t, row_at(t, cur, i)) < 0)
			return -1;
	return 0;
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
		const void *o = i < prev->n ? row_at(t, prev, i) : NULL;
		const void *r = j < cur->n ? row_at(t, cur, j) : NULL;
		int c = !o ? 1 : !r ? -1 : key_cmp(o, r, (void *)t);

		if (c < 0) {
			rc = put_varint(rm, i - last_rm - 1);
			last_rm = i++;
			nrm++;
		} else if (c > 0) {
			rc = put_entity(add, t, r);
			j++;
			nadd++;
		} else {
			if (entity_changed(t, r, o)) {
				rc = put_varint(ch, i - last_ch - 1);
				if (rc == 0)
					rc = put_changes(ch, t, r, o);
				last_ch = i;
				nch++;
			}
			i++;
			j++;
		}
	}
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

static void rows_free(struct codec_rows *r, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(r[i].rows);
		r[i].rows = NULL;
		r[i].n = 0;
	}
}

int codec_enc_sample(struct codec_enc *e, const struct codec_sample *in,
		     const unsigned char **out, size_t *len, int *type)
{
	bool key = key_due(e, in->time);
	size_t nt = e->s->ntables;

	struct arena *strs = &e->strs[e->cur_strs];

	e->out.len = 0;
	arena_clear(strs);
	if (put_varint(&e->out, e->seq + 1) < 0)
		return -1;
	for (size_t i = 0; i < nt; i++) {
		const struct codec_table *t = e->tabs[i].t;

		e->body.len = 0;
		if (sorted_copy(t, &in->tables[i], &e->cur[i], strs) < 0 ||
		    (key ? key_body(&e->body, t, &e->cur[i]) :
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
	rows_free(e->prev, nt);
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
	rows_free(e->cur, nt);
	arena_clear(strs);
	errno = err;
	return -1;
}

void codec_enc_free(struct codec_enc *e)
{
	if (!e)
		return;
	if (e->prev)
		rows_free(e->prev, e->s->ntables);
	if (e->cur)
		rows_free(e->cur, e->s->ntables);
	free(e->prev);
	free(e->cur);
	arena_free(&e->strs[0]);
	arena_free(&e->strs[1]);
	free(e->tabs);
	free(e->out.p);
	free(e->body.p);
	for (int i = 0; i < 3; i++)
		free(e->lists[i].p);
	free(e);
}

/* ---- reading ---- */

/* Where decoding is, and why it stopped. */
struct in {
	const unsigned char *p, *start, *end;
	const char *why;
	struct arena *strs;     /* where its strings go */
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

static int get_value(struct in *in, const struct codec_field *f, void *row,
		     const void *base)
{
	uint64_t v;

	switch (f->type) {
	case CODEC_U64:
		if (get_varint(in, &v) < 0)
			return -1;
		if (base)
			v = *CAT(base, f, uint64_t) +
			    (uint64_t)varint_unzigzag(v);
		*AT(row, f, uint64_t) = v;
		return 0;
	case CODEC_S64:
		if (get_varint(in, &v) < 0)
			return -1;
		v = (uint64_t)varint_unzigzag(v);
		if (base)
			v += (uint64_t)*CAT(base, f, int64_t);
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
		      arena_put(in->strs, (const char *)in->p, (size_t)v)))
			return errno == EFBIG ?
			       bad(in, N_("more strings than a sample holds")) : -1;
		in->p += v;
		return 0;
	}
	return 0;
}

/*
 * The fields of one entity into row, up to its 0. base: the entity in
 * the sample before (a delta's changed entity), or NULL (a whole one).
 */
static int get_fields(struct in *in, const struct tab *tb, void *row,
		      const void *base)
{
	const struct codec_table *t = tb->t;

	for (;;) {
		uint64_t tag;

		if (get_varint(in, &tag) < 0)
			return -1;
		if (tag == 0)
			return 0;
		uint64_t id = tag >> 2;
		unsigned wire = (unsigned)(tag & 3);
		if (id > CODEC_MAX_ID || tb->byid[id] < 0) {
			if (skip_value(in, wire) < 0)
				return -1;
			continue;
		}
		const struct codec_field *f = &t->fields[tb->byid[id]];
		unsigned want = f->type == CODEC_DOUBLE ? 1 :
				f->type == CODEC_STRING ? 2 : 0;
		if (base && (f->flags & CODEC_KEY))
			return bad(in, N_("a key that changed"));
		if (wire == 3 && base) {
			codec_set_known(t, row, f->id, false);
			memset((unsigned char *)row + f->offset, 0,
			       type_size(f));
			continue;
		}
		if (wire != want)
			return bad(in, N_("a field of the wrong type"));
		bool diff = base && (f->flags & CODEC_COUNTER) &&
			    codec_known(t, base, f->id);
		if (get_value(in, f, row, diff ? base : NULL) < 0)
			return -1;
		codec_set_known(t, row, f->id, true);
	}
}

static int get_entity(struct in *in, const struct tab *tb, void *row)
{
	const struct codec_table *t = tb->t;

	memset(row, 0, t->size);
	if (get_fields(in, tb, row, NULL) < 0)
		return -1;
	for (size_t i = 0; i < t->nfields; i++)
		if ((t->fields[i].flags & CODEC_KEY) &&
		    !codec_known(t, row, t->fields[i].id))
			return bad(in, N_("an entity without its key"));
	return 0;
}

/* Sort rows into key order; two of one key are damage. */
static int sort_rows(struct in *in, const struct codec_table *t,
		     struct codec_rows *r)
{
	qsort_r(r->rows, r->n, t->size, key_cmp, (void *)t);
	for (size_t i = 1; i < r->n; i++)
		if (key_cmp(row_at(t, r, i - 1), row_at(t, r, i),
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
static int add_entity(struct in *in, const struct tab *tb,
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
	if (get_entity(in, tb, row_at(t, r, r->n)) < 0)
		return -1;
	r->n++;
	return 0;
}

static int key_table(struct in *in, const struct tab *tb, struct codec_rows *r)
{
	const struct codec_table *t = tb->t;
	size_t n, cap = 1;

	if (get_count(in, t->max_rows, &n) < 0)
		return -1;
	if (rows_alloc(r, t, 0) < 0)
		return -1;
	while (r->n < n)
		if (add_entity(in, tb, r, &cap) < 0)
			return -1;
	return sort_rows(in, t, r);
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

static int delta_table(struct in *in, const struct tab *tb,
		       const struct codec_rows *prev, struct codec_rows *r)
{
	const struct codec_table *t = tb->t;
	size_t nrm, nch, nadd, last = SIZE_MAX;
	unsigned char *gone = NULL;
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
	for (size_t k = 0; k < nch; k++) {
		if (get_index(in, prev->n, &last) < 0)
			goto out;
		if (gone[last]) {
			bad(in, N_("an entity that is not there"));
			goto out;
		}
		if (get_fields(in, tb, row_at(t, r, last),
			       row_at(t, prev, last)) < 0)
			goto out;
	}
	size_t kept = 0;
	for (size_t k = 0; k < r->n; k++)
		if (!gone[k]) {
			if (kept != k)
				memcpy(row_at(t, r, kept), row_at(t, r, k),
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
	return rc;
}

struct codec_dec *codec_dec_new(const struct codec_schema *s)
{
	struct codec_dec *d = calloc(1, sizeof(*d));
	size_t n = s->ntables ? s->ntables : 1;

	if (!d)
		return NULL;
	d->s = s;
	d->tabs = tabs_new(s);
	d->sample.tables = calloc(n, sizeof(struct codec_rows));
	d->next = calloc(n, sizeof(struct codec_rows));
	if (!d->tabs || !d->sample.tables || !d->next) {
		codec_dec_free(d);
		errno = ENOMEM;
		return NULL;
	}
	return d;
}

static const struct tab *tab_of(const struct codec_dec *d, uint64_t id,
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
		const struct tab *tb = tab_of(d, id, &i);
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
			if (own_strings(t, row_at(t, r, k), &d->next_strs) < 0)
				return errno == EFBIG ?
				       bad(in, N_("more strings than a sample "
						  "holds")) : -1;
	}
	struct arena a = d->strs;

	d->strs = d->next_strs;
	d->next_strs = a;
	arena_clear(&d->next_strs);
	arena_clear(&d->payload_strs);
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
	if (!key && (!d->have || seq != d->seq + 1)) {
		d->have = false;
		d->skipped++;
		return 0;
	}
	arena_clear(&d->payload_strs);
	arena_clear(&d->next_strs);
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
		rows_free(d->sample.tables, nt);
		goto bad;
	}
	d->sample.time = time;
	d->seq = seq;
	d->have = true;
	return 1;
bad:
	rows_free(d->next, nt);
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
		rows_free(d->sample.tables, d->s->ntables);
	if (d->next)
		rows_free(d->next, d->s->ntables);
	free(d->sample.tables);
	free(d->next);
	arena_free(&d->strs);
	arena_free(&d->next_strs);
	arena_free(&d->payload_strs);
	free(d->tabs);
	free(d);
}
