/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Batch JSON: one object per sample on one line (NDJSON), as the manual
 * page's OUTPUT section shows it. Key names and order are an interface:
 * a task row's keys and their order come from the fields table, the delay
 * keys from the categories table, the others from json_keys.h. Absent
 * figures are null, never a made-up 0; numbers never print as nan or inf.
 */
#include <config.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "lib/escape.h"
#include "lib/numfmt.h"
#include "model/categories.h"
#include "model/fields.h"
#include "model/layouts.h"
#include "model/rowwhy.h"
#include "record/json_keys.h"
#include "view/output.h"

/*
 * The writer gathers a row's text in a buffer of its own and hands it to
 * stdio in one fwrite: a thread-mode sample is hundreds of thousands of
 * small pieces, each a call through stdio's locking and dispatch.
 */
/* Room for the longest piece written at once without a check: a number. */
#define OUT_SLACK 64

/* ,"key": of a key written often (n 0: too long for it) */
struct key_text {
	size_t n;
	char t[OUT_SLACK];
};

struct out {
	FILE *f;
	size_t n;
	unsigned flushes;       /* to tell that b was emptied since */
	/*
	 * The text of the delay figure written last, for the next one that
	 * is the same (most are: a task that did not wait in a category)
	 */
	struct cat_figure fig;
	size_t fig_len;         /* 0: none */
	char fig_text[128];
	/* and of the whole delay object written last (most rows' are alike) */
	struct cat_figure delay[NCAT];
	size_t delay_len;       /* 0: none */
	char delay_text[1024];
	/* a task row's fields, looked up once a sample, and their keys */
	const struct field *fields[NFIELD];
	struct key_text fkeys[NFIELD];
	size_t nfields;
	struct key_text catkeys[NCAT];
	char b[65536];
};

static void flush(struct out *o)
{
	fwrite(o->b, 1, o->n, o->f);
	o->n = 0;
	o->flushes++;
}

static void put_n(struct out *o, const char *s, size_t n)
{
	if (o->n + n > sizeof(o->b)) {
		flush(o);
		if (n > sizeof(o->b)) {
			fwrite(s, 1, n, o->f);
			return;
		}
	}
	memcpy(o->b + o->n, s, n);
	o->n += n;
}

static void put_s(struct out *o, const char *s)
{
	put_n(o, s, strlen(s));
}

/* A string literal: its length known when compiled. */
#define put_lit(o, s) put_n((o), "" s, sizeof(s) - 1)

static void put_c(struct out *o, char c)
{
	if (o->n == sizeof(o->b))
		flush(o);
	o->b[o->n++] = c;
}

/* A space of OUT_SLACK bytes at the end of the buffer. */
static char *room(struct out *o)
{
	if (o->n + OUT_SLACK > sizeof(o->b))
		flush(o);
	return o->b + o->n;
}

/*
 * A process-controlled string, null for none: copied when plain, else
 * escaped by escape.c into the buffer, part by part.
 */
static void str(struct out *o, const char *s)
{
	size_t n;

	if (!s) {
		put_lit(o, "null");
		return;
	}
	put_c(o, '"');
	if (escape_json_plain(s, &n)) {
		put_n(o, s, n);
	} else {
		while (*s) {
			if (sizeof(o->b) - o->n < ESCAPE_JSON_UNIT_MAX)
				flush(o);
			o->n += escape_json_part(&s, o->b + o->n,
						 sizeof(o->b) - o->n);
		}
	}
	put_c(o, '"');
}

static void u64(struct out *o, uint64_t v)
{
	o->n += numfmt_u64(room(o), v);
}

static void i64(struct out *o, int64_t v)
{
	o->n += numfmt_i64(room(o), v);
}

/* A number with fixed decimals, or null when it is not finite. */
static void num(struct out *o, double v, int decimals)
{
	size_t n = numfmt_fixed_len(room(o), OUT_SLACK, v, decimals);

	if (n)
		o->n += n;
	else
		put_lit(o, "null");
}

static void num_or_null(struct out *o, bool have, double v, int decimals)
{
	if (have)
		num(o, v, decimals);
	else
		put_lit(o, "null");
}

/* "key": after a comma unless it is the object's first. */
static void key(struct out *o, bool first, const char *k)
{
	size_t n = strlen(k);
	char *p;

	if (n > OUT_SLACK - 4) {
		if (!first)
			put_c(o, ',');
		put_c(o, '"');
		put_n(o, k, n);
		put_lit(o, "\":");
		return;
	}
	p = room(o);
	if (!first)
		*p++ = ',';
	*p++ = '"';
	memcpy(p, k, n);
	p += n;
	*p++ = '"';
	*p++ = ':';
	o->n = (size_t)(p - o->b);
}

static void key_text_make(struct key_text *kt, const char *k)
{
	int n = snprintf(kt->t, sizeof(kt->t), ",\"%s\":", k);

	kt->n = n > 0 && (size_t)n < sizeof(kt->t) ? (size_t)n : 0;
}

/* "key": of a key_text, after a comma unless it is the object's first. */
static void key_of(struct out *o, bool first, const struct key_text *kt,
		   const char *k)
{
	if (!kt->n) {
		key(o, first, k);
		return;
	}
	memcpy(room(o), kt->t + first, kt->n - first);
	o->n += kt->n - first;
}

static void psi_stat_json(struct out *o, const struct psi_stat *st)
{
	if (!st->present) {
		put_lit(o, "null");
		return;
	}
	put_lit(o, "{\"" JSON_KEY_AVG10 "\":");
	num(o, st->avg10, 2);
	put_lit(o, ",\"" JSON_KEY_AVG60 "\":");
	num(o, st->avg60, 2);
	put_lit(o, ",\"" JSON_KEY_AVG300 "\":");
	num(o, st->avg300, 2);
	put_lit(o, ",\"" JSON_KEY_TOTAL_US "\":");
	u64(o, st->total_us);
	put_lit(o, ",\"" JSON_KEY_PCT "\":");
	num_or_null(o, st->have_pct, st->pct, 3);
	put_c(o, '}');
}

static void psi_json(struct out *o, const struct psi_sample *p)
{
	put_c(o, '{');
	for (int r = 0; r < NPSI; r++) {
		const struct psi_stat *st = p->s[r];

		key(o, r == 0, psi_res_name[r]);
		if (!st[PSI_SOME].present && !st[PSI_FULL].present) {
			put_lit(o, "null");
			continue;
		}
		put_c(o, '{');
		for (int k = 0; k < NPSI_KIND; k++) {
			key(o, k == 0, psi_kind_name[k]);
			psi_stat_json(o, &st[k]);
		}
		put_c(o, '}');
	}
	put_c(o, '}');
}

/* Whether figure_json writes the same text for a and b. */
static bool figure_same(const struct cat_figure *a, const struct cat_figure *b)
{
	if (a->avail != b->avail)
		return false;
	if (!a->avail)
		return true;
	return a->pct == b->pct && a->have_count == b->have_count &&
	       (!a->have_count || a->count == b->count) &&
	       a->have_avg == b->have_avg &&
	       (!a->have_avg || a->avg_ms == b->avg_ms) &&
	       a->have_max == b->have_max &&
	       (!a->have_max || a->max_ms == b->max_ms);
}

static void figure_text(struct out *o, const struct cat_figure *d)
{
	if (!d->avail) {
		put_lit(o, "null");
		return;
	}
	put_lit(o, "{\"" JSON_KEY_PCT "\":");
	num(o, d->pct, 3);
	put_lit(o, ",\"" JSON_KEY_COUNT "\":");
	if (d->have_count)
		u64(o, d->count);
	else
		put_lit(o, "null");
	put_lit(o, ",\"" JSON_KEY_AVG_MS "\":");
	num_or_null(o, d->have_avg, d->avg_ms, 3);
	put_lit(o, ",\"" JSON_KEY_MAX_MS "\":");
	num_or_null(o, d->have_max, d->max_ms, 3);
	put_c(o, '}');
}

/*
 * Keep the text written since start (flushes: o->flushes then) in text
 * of size bytes; its length, 0 where it is no longer in the buffer or
 * does not fit.
 */
static size_t keep_text(const struct out *o, size_t start, unsigned flushes,
			char *text, size_t size)
{
	size_t len = o->n - start;

	if (o->flushes != flushes || len > size)
		return 0;
	memcpy(text, o->b + start, len);
	return len;
}

/* A category's figures: the text of the one before again when the same. */
static void figure_json(struct out *o, const struct cat_figure *d)
{
	size_t start = o->n;
	unsigned flushes = o->flushes;

	if (o->fig_len && figure_same(d, &o->fig)) {
		put_n(o, o->fig_text, o->fig_len);
		return;
	}
	figure_text(o, d);
	o->fig_len = keep_text(o, start, flushes, o->fig_text,
			       sizeof(o->fig_text));
	o->fig = *d;
}

static void delay_text(struct out *o, const struct cat_figure *d)
{
	put_c(o, '{');
	for (int c = 0; c < NCAT; c++) {
		key_of(o, c == 0, &o->catkeys[c], categories[c].key);
		figure_json(o, &d[c]);
	}
	put_c(o, '}');
}

/* A row's delay object: the text of the one before again when the same. */
static void delay_json(struct out *o, const struct cat_figure *d)
{
	size_t start = o->n;
	unsigned flushes = o->flushes;
	bool same = o->delay_len > 0;

	for (int c = 0; same && c < NCAT; c++)
		same = figure_same(&d[c], &o->delay[c]);
	if (same) {
		put_n(o, o->delay_text, o->delay_len);
		return;
	}
	delay_text(o, d);
	o->delay_len = keep_text(o, start, flushes, o->delay_text,
				 sizeof(o->delay_text));
	memcpy(o->delay, d, sizeof(o->delay));
}

/* The keys of the categories whose figures were dropped as impossible. */
static void dropped_json(struct out *o, const struct cat_figure *d)
{
	bool first = true;

	put_c(o, '[');
	for (int c = 0; c < NCAT; c++) {
		if (!d[c].dropped)
			continue;
		if (!first)
			put_c(o, ',');
		put_c(o, '"');
		put_s(o, categories[c].key);
		put_c(o, '"');
		first = false;
	}
	put_c(o, ']');
}

/* An evidence value: a number, "max" for no limit, null when absent. */
static void kval_json(struct out *o, const struct kval *k)
{
	if (!k->have)
		put_lit(o, "null");
	else if (k->max)
		put_lit(o, "\"max\"");
	else
		u64(o, k->v);
}

static void kvals_json(struct out *o, const void *base,
		       const struct evidence_field *f, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		key(o, false, f[i].name);
		kval_json(o, evidence_value(base, &f[i]));
	}
}

static void device_json(struct out *o, unsigned major, unsigned minor,
			const char *name)
{
	key(o, true, JSON_KEY_DEVICE);
	put_c(o, '"');
	u64(o, major);
	put_c(o, ':');
	u64(o, minor);
	put_c(o, '"');
	key(o, false, JSON_KEY_NAME);
	if (name[0])
		str(o, name);
	else
		put_lit(o, "null");
}

static void io_devices_json(struct out *o, const struct evidence *ev)
{
	put_c(o, '[');
	for (size_t i = 0; i < ev->n_io_devs; i++) {
		const struct evidence_io_dev *d = &ev->io_devs[i];

		if (i)
			put_c(o, ',');
		put_c(o, '{');
		device_json(o, d->major, d->minor, d->name);
		kvals_json(o, d, evidence_io_dev_fields, evidence_io_dev_nfields);
		put_c(o, '}');
	}
	put_c(o, ']');
}

/* The keys after "device" and "name" are evidence_disk_fields[2..]. */
static void disks_json(struct out *o, const struct evidence *ev)
{
	put_c(o, '[');
	for (size_t i = 0; i < ev->n_disks; i++) {
		const struct diskstats_busy *d = &ev->disks[i];

		if (i)
			put_c(o, ',');
		put_c(o, '{');
		device_json(o, d->major, d->minor, d->name);
		key(o, false, evidence_disk_fields[2]);
		num(o, d->util_pct, 1);
		key(o, false, evidence_disk_fields[3]);
		num(o, d->queue, 2);
		key(o, false, evidence_disk_fields[4]);
		u64(o, d->read_bytes);
		key(o, false, evidence_disk_fields[5]);
		u64(o, d->write_bytes);
		put_c(o, '}');
	}
	put_c(o, ']');
}

static void version_json(struct out *o, const char *k, int version)
{
	key(o, false, k);
	if (version > 0)
		i64(o, version);
	else
		put_lit(o, "null");
}

/* Per stalled category: the rule's stable key and the short line. */
static void causes_json(struct out *o, const struct row_why *w)
{
	bool first = true;

	put_c(o, '{');
	for (int c = 0; c < NCAT; c++) {
		const struct row_why_cat *wc = &w->c[c];

		if (!wc->stalled)
			continue;
		key(o, first, categories[c].key);
		first = false;
		if (wc->r.cause <= WHY_NONE || wc->r.cause >= NWHY) {
			put_lit(o, "{\"" JSON_KEY_CAUSE "\":null,\"" JSON_KEY_TEXT
			      "\":null}");
			continue;
		}
		put_lit(o, "{\"" JSON_KEY_CAUSE "\":\"");
		put_s(o, why_rules[wc->r.cause].key);
		put_lit(o, "\",\"" JSON_KEY_TEXT "\":");
		str(o, wc->text);
		put_c(o, '}');
	}
	put_c(o, '}');
}

/* Every cause that holds, the binding one first, with its share. */
static void ranked_json(struct out *o, const struct row_why *w)
{
	put_c(o, '[');
	for (size_t i = 0; i < w->nranked; i++) {
		const struct row_why_rank *k = &w->ranked[i];

		if (i)
			put_c(o, ',');
		put_lit(o, "{\"" JSON_KEY_CAUSE "\":\"");
		put_s(o, why_rules[k->r.cause].key);
		put_lit(o, "\",\"" JSON_KEY_TEXT "\":");
		str(o, k->text);
		put_lit(o, ",\"" JSON_KEY_SHARE_PCT "\":");
		num(o, k->share_pct, 3);
		put_c(o, '}');
	}
	put_c(o, ']');
}

/* Where a group's cgroup figures were read (model/evorigin.h): null unknown. */
static void origin_json(struct out *o, const char *k, const char *where)
{
	key(o, false, k);
	if (where[0])
		str(o, where);
	else
		put_lit(o, "null");
}

/* A row's "why": the causes, then every evidence field by its name. */
static void why_json(struct out *o, const struct row_why *w)
{
	const struct evidence *ev = &w->ev;

	put_lit(o, "{\"" JSON_KEY_INTERVAL_S "\":");
	num_or_null(o, ev->interval_s > 0, ev->interval_s, 3);
	key(o, false, JSON_KEY_CAUSES);
	causes_json(o, w);
	key(o, false, JSON_KEY_RANKED);
	ranked_json(o, w);
	version_json(o, JSON_KEY_CPU_CGROUP_VERSION, ev->cpu_cgroup_version);
	version_json(o, JSON_KEY_MEM_CGROUP_VERSION, ev->mem_cgroup_version);
	version_json(o, JSON_KEY_IO_CGROUP_VERSION, ev->io_cgroup_version);
	origin_json(o, JSON_KEY_CPU_CGROUP, ev->cpu_cgroup);
	origin_json(o, JSON_KEY_MEM_CGROUP, ev->mem_cgroup);
	origin_json(o, JSON_KEY_IO_CGROUP, ev->io_cgroup);
	origin_json(o, JSON_KEY_STATES_CGROUP, ev->states_cgroup);
	kvals_json(o, ev, evidence_fields, evidence_nfields);
	key(o, false, JSON_KEY_IO_DEVICES);
	io_devices_json(o, ev);
	key(o, false, JSON_KEY_DISKS);
	disks_json(o, ev);
	key(o, false, JSON_KEY_STATES_SOURCE);
	put_s(o, ev->states_source == CGSTATS_KERNEL ?
		 "\"" JSON_KEY_STATES_KERNEL "\"" :
		 ev->states_source == CGSTATS_PROC ?
		 "\"" JSON_KEY_STATES_PROC "\"" : "null");
	put_c(o, '}');
}

/* A field's value: null when absent. */
static void value_json(struct out *o, const struct field *fd,
		       const struct field_value *v)
{
	if (!v->have) {
		put_lit(o, "null");
		return;
	}
	switch (fd->type) {
	case FIELD_INT:
		i64(o, v->i);
		break;
	case FIELD_NUM:
		num(o, v->num, 3);
		break;
	case FIELD_STR:
		str(o, v->str);
		break;
	case FIELD_FIGURES:
		delay_json(o, v->d);
		break;
	case FIELD_SET:
		dropped_json(o, v->d);
		break;
	case FIELD_EVIDENCE:
		why_json(o, v->why);
		break;
	}
}

/*
 * A task row: the fields of the JSON layout, in its order, every one in
 * every row (null when not known), so that all rows have one key set.
 */
static void row_json(struct out *o, const struct row *r)
{
	static const struct field_ctx ctx = { .fmt = FIELD_FMT_JSON };
	bool first = true;

	put_c(o, '{');
	for (size_t i = 0; i < o->nfields; i++) {
		const struct field *fd = o->fields[i];
		struct field_value v;

		fields_value(fd, r, &ctx, &v);
		key_of(o, first, &o->fkeys[i], fd->key);
		value_json(o, fd, &v);
		first = false;
	}
	put_c(o, '}');
}

static void rows_json(struct out *o, const struct row *rows, size_t n)
{
	put_c(o, '[');
	for (size_t i = 0; i < n; i++) {
		if (i)
			put_c(o, ',');
		row_json(o, &rows[i]);
	}
	put_c(o, ']');
}

static void cgroups_json(struct out *o, const struct cgroup_row *g, size_t n)
{
	put_c(o, '[');
	for (size_t i = 0; i < n; i++) {
		if (i)
			put_c(o, ',');
		put_c(o, '{');
		key(o, true, JSON_KEY_PATH);
		str(o, g[i].path);
		if (g[i].name) {
			key(o, false, JSON_KEY_NAME);
			str(o, g[i].name);
		}
		key(o, false, JSON_KEY_PSI);
		if (g[i].have_psi)
			psi_json(o, &g[i].psi);
		else
			put_lit(o, "null");
		key(o, false, fields_get(FIELD_DELAY)->key);
		delay_json(o, g[i].d);
		key(o, false, fields_get(FIELD_TOTAL)->key);
		num(o, g[i].total_pct, 3);
		key(o, false, JSON_KEY_NR_TASKS);
		u64(o, g[i].nr_tasks);
		/* as on a task row: there when gathered */
		if (g[i].why) {
			key(o, false, fields_get(FIELD_WHY)->key);
			why_json(o, g[i].why);
		}
		put_c(o, '}');
	}
	put_c(o, ']');
}

static void bool_json(struct out *o, bool known, bool b)
{
	put_s(o, !known ? "null" : b ? "true" : "false");
}

/* A list of rows under its key, when there is one. */
static void rows_key(struct out *o, const char *k, const struct row *rows, size_t n)
{
	if (!rows)
		return;
	key(o, false, k);
	rows_json(o, rows, n);
}

static void sample_json(struct out *o, const struct sample *s)
{
	put_lit(o, "{\"" JSON_KEY_TIME "\":");
	num(o, s->time, 3);
	key(o, false, JSON_KEY_INTERVAL);
	num(o, s->interval, 3);
	key(o, false, JSON_KEY_ACCUMULATED);
	bool_json(o, true, s->accumulated);
	key(o, false, JSON_KEY_THREADS);
	bool_json(o, true, s->threads);
	key(o, false, JSON_KEY_DELAYACCT);
	bool_json(o, s->delayacct_known, s->delayacct);
	key(o, false, JSON_KEY_TASKSTATS_VERSION);
	if (s->ts_version)
		u64(o, s->ts_version);
	else
		put_lit(o, "null");
	key(o, false, JSON_KEY_EVENTS_LOST);
	u64(o, s->events_lost);
	key(o, false, JSON_KEY_EXIT_RECORDS_LOST);
	u64(o, s->exit_records_lost);
	key(o, false, JSON_KEY_FIGURES_DROPPED);
	u64(o, s->dropped);
	key(o, false, JSON_KEY_PSI);
	psi_json(o, &s->psi);
	key(o, false, JSON_KEY_TASKS);
	rows_json(o, s->rows, s->nrows);
	key(o, false, JSON_KEY_EXITED);
	rows_json(o, s->exited, s->nexited);
	if (s->trigger) {
		key(o, false, JSON_KEY_TRIGGER);
		str(o, s->trigger);
	}
	if (s->cgroups) {
		key(o, false, JSON_KEY_CGROUPS);
		cgroups_json(o, s->cgroups, s->ncgroups);
	}
	rows_key(o, JSON_KEY_THREAD_TASKS, s->thread_rows, s->nthread_rows);
	rows_key(o, JSON_KEY_THREAD_EXITED, s->thread_exited, s->nthread_exited);
	put_lit(o, "}\n");
}

void out_json(FILE *f, const struct sample *s)
{
	static struct out o; /* its buffer is large for a stack */
	const int *ids;
	int n;

	memset(&o, 0, offsetof(struct out, b));
	o.f = f;
	ids = layouts_fields(FIELD_LAYOUT_JSON, &n);
	for (int i = 0; i < n && i < NFIELD; i++) {
		o.fields[o.nfields] = fields_get(ids[i]);
		key_text_make(&o.fkeys[o.nfields++], o.fields[i]->key);
	}
	for (int c = 0; c < NCAT; c++)
		key_text_make(&o.catkeys[c], categories[c].key);
	sample_json(&o, s);
	flush(&o);
}
