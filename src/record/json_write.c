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
#include <stdint.h>
#include <stdio.h>

#include "lib/escape.h"
#include "lib/numfmt.h"
#include "model/categories.h"
#include "model/fields.h"
#include "record/json_keys.h"
#include "record/json_write.h"

/*
 * Numbers go through numfmt and fwrite, not fprintf: a thread-mode sample
 * has tens of thousands of them.
 */
static void u64(FILE *f, uint64_t v)
{
	char buf[NUMFMT_INT_SIZE];

	fwrite(buf, 1, numfmt_u64(buf, v), f);
}

static void i64(FILE *f, int64_t v)
{
	char buf[NUMFMT_INT_SIZE];

	fwrite(buf, 1, numfmt_i64(buf, v), f);
}

/* A number with fixed decimals, or null when it is not finite. */
static void num(FILE *f, double v, int decimals)
{
	char buf[64];
	size_t n = numfmt_fixed_len(buf, sizeof(buf), v, decimals);

	if (n)
		fwrite(buf, 1, n, f);
	else
		fputs("null", f);
}

static void num_or_null(FILE *f, bool have, double v, int decimals)
{
	if (have)
		num(f, v, decimals);
	else
		fputs("null", f);
}

/* "key": after a comma unless it is the object's first. */
static void key(FILE *f, bool first, const char *k)
{
	if (!first)
		putc(',', f);
	putc('"', f);
	fputs(k, f);
	fputs("\":", f);
}

static void psi_stat_json(FILE *f, const struct psi_stat *st)
{
	if (!st->present) {
		fputs("null", f);
		return;
	}
	fputs("{\"" JSON_KEY_AVG10 "\":", f);
	num(f, st->avg10, 2);
	fputs(",\"" JSON_KEY_AVG60 "\":", f);
	num(f, st->avg60, 2);
	fputs(",\"" JSON_KEY_AVG300 "\":", f);
	num(f, st->avg300, 2);
	fputs(",\"" JSON_KEY_TOTAL_US "\":", f);
	u64(f, st->total_us);
	fputs(",\"" JSON_KEY_PCT "\":", f);
	num_or_null(f, st->have_pct, st->pct, 3);
	putc('}', f);
}

static void psi_json(FILE *f, const struct psi_sample *p)
{
	putc('{', f);
	for (int r = 0; r < NPSI; r++) {
		const struct psi_stat *st = p->s[r];

		key(f, r == 0, psi_res_name[r]);
		if (!st[PSI_SOME].present && !st[PSI_FULL].present) {
			fputs("null", f);
			continue;
		}
		putc('{', f);
		for (int k = 0; k < NPSI_KIND; k++) {
			key(f, k == 0, psi_kind_name[k]);
			psi_stat_json(f, &st[k]);
		}
		putc('}', f);
	}
	putc('}', f);
}

static void figure_json(FILE *f, const struct cat_figure *d)
{
	if (!d->avail) {
		fputs("null", f);
		return;
	}
	fputs("{\"" JSON_KEY_PCT "\":", f);
	num(f, d->pct, 3);
	fputs(",\"" JSON_KEY_COUNT "\":", f);
	if (d->have_count)
		u64(f, d->count);
	else
		fputs("null", f);
	fputs(",\"" JSON_KEY_AVG_MS "\":", f);
	num_or_null(f, d->have_avg, d->avg_ms, 3);
	fputs(",\"" JSON_KEY_MAX_MS "\":", f);
	num_or_null(f, d->have_max, d->max_ms, 3);
	putc('}', f);
}

static void delay_json(FILE *f, const struct cat_figure *d)
{
	putc('{', f);
	for (int c = 0; c < NCAT; c++) {
		key(f, c == 0, categories[c].key);
		figure_json(f, &d[c]);
	}
	putc('}', f);
}

/* The keys of the categories whose figures were dropped as impossible. */
static void dropped_json(FILE *f, const struct cat_figure *d)
{
	bool first = true;

	putc('[', f);
	for (int c = 0; c < NCAT; c++) {
		if (!d[c].dropped)
			continue;
		if (!first)
			putc(',', f);
		putc('"', f);
		fputs(categories[c].key, f);
		putc('"', f);
		first = false;
	}
	putc(']', f);
}

/* A field's value: null when absent. */
static void value_json(FILE *f, const struct field *fd,
		       const struct field_value *v)
{
	if (!v->have) {
		fputs("null", f);
		return;
	}
	switch (fd->type) {
	case FIELD_INT:
		i64(f, v->i);
		break;
	case FIELD_NUM:
		num(f, v->num, 3);
		break;
	case FIELD_STR:
		escape_json(f, v->str);
		break;
	case FIELD_FIGURES:
		delay_json(f, v->d);
		break;
	case FIELD_SET:
		dropped_json(f, v->d);
		break;
	}
}

/* A task row: the fields of the JSON layout, in its order. */
static void row_json(FILE *f, const struct row *r)
{
	static const struct field_ctx ctx = { .fmt = FIELD_FMT_JSON };
	const int *ids;
	int n;
	bool first = true;

	ids = fields_layout(FIELD_LAYOUT_JSON, &n);
	putc('{', f);
	for (int i = 0; i < n; i++) {
		const struct field *fd = fields_get(ids[i]);
		struct field_value v;

		fields_row_value(ids[i], r, &ctx, &v);
		if (!v.have && (fd->flags & FIELD_OPTIONAL))
			continue;
		key(f, first, fd->key);
		value_json(f, fd, &v);
		first = false;
	}
	putc('}', f);
}

static void rows_json(FILE *f, const struct row *rows, size_t n)
{
	putc('[', f);
	for (size_t i = 0; i < n; i++) {
		if (i)
			putc(',', f);
		row_json(f, &rows[i]);
	}
	putc(']', f);
}

static void cgroups_json(FILE *f, const struct cgroup_row *g, size_t n)
{
	putc('[', f);
	for (size_t i = 0; i < n; i++) {
		if (i)
			putc(',', f);
		putc('{', f);
		key(f, true, JSON_KEY_PATH);
		escape_json(f, g[i].path);
		key(f, false, JSON_KEY_PSI);
		if (g[i].have_psi)
			psi_json(f, &g[i].psi);
		else
			fputs("null", f);
		key(f, false, fields_get(FIELD_DELAY)->key);
		delay_json(f, g[i].d);
		key(f, false, fields_get(FIELD_TOTAL)->key);
		num(f, g[i].total_pct, 3);
		key(f, false, JSON_KEY_NR_TASKS);
		u64(f, g[i].nr_tasks);
		putc('}', f);
	}
	putc(']', f);
}

static void bool_json(FILE *f, bool known, bool b)
{
	fputs(!known ? "null" : b ? "true" : "false", f);
}

/* A list of rows under its key, when there is one. */
static void rows_key(FILE *f, const char *k, const struct row *rows, size_t n)
{
	if (!rows)
		return;
	key(f, false, k);
	rows_json(f, rows, n);
}

void json_write_sample(FILE *f, const struct sample *s)
{
	fputs("{\"" JSON_KEY_TIME "\":", f);
	num(f, s->time, 3);
	key(f, false, JSON_KEY_INTERVAL);
	num(f, s->interval, 3);
	key(f, false, JSON_KEY_ACCUMULATED);
	bool_json(f, true, s->accumulated);
	key(f, false, JSON_KEY_THREADS);
	bool_json(f, true, s->threads);
	key(f, false, JSON_KEY_DELAYACCT);
	bool_json(f, s->delayacct_known, s->delayacct);
	key(f, false, JSON_KEY_TASKSTATS_VERSION);
	if (s->ts_version)
		u64(f, s->ts_version);
	else
		fputs("null", f);
	key(f, false, JSON_KEY_EVENTS_LOST);
	u64(f, s->events_lost);
	key(f, false, JSON_KEY_EXIT_RECORDS_LOST);
	u64(f, s->exit_records_lost);
	key(f, false, JSON_KEY_FIGURES_DROPPED);
	u64(f, s->dropped);
	key(f, false, JSON_KEY_PSI);
	psi_json(f, &s->psi);
	key(f, false, JSON_KEY_TASKS);
	rows_json(f, s->rows, s->nrows);
	key(f, false, JSON_KEY_EXITED);
	rows_json(f, s->exited, s->nexited);
	if (s->trigger) {
		key(f, false, JSON_KEY_TRIGGER);
		escape_json(f, s->trigger);
	}
	if (s->cgroups) {
		key(f, false, JSON_KEY_CGROUPS);
		cgroups_json(f, s->cgroups, s->ncgroups);
	}
	rows_key(f, JSON_KEY_THREAD_TASKS, s->thread_rows, s->nthread_rows);
	rows_key(f, JSON_KEY_THREAD_EXITED, s->thread_exited, s->nthread_exited);
	fputs("}\n", f);
}
