/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Batch CSV (RFC 4180 quoting, LF line ends): one header line per run,
 * then one line per row, live rows first, then the rows that exited in
 * the interval (exited = 1). The columns are the fields table's CSV
 * layout after "time", each under its key. Absent figures are empty
 * fields. command is comm, or with -c the command line ([comm] when it is
 * empty), in the text form of escape_text so a record never spans lines.
 *
 * The delay columns are named delay_<key>_<figure>, the JSON path
 * delay.<key>.<figure> flattened: "cpu_pct" is already the CPU use of the
 * task, as in JSON, and must not be taken by the cpu delay.
 */
#include <config.h>

#include <stdbool.h>
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

/* The figures of a category, in the order of the JSON object. */
static const char *const figure_key[] = {
	JSON_KEY_PCT, JSON_KEY_COUNT, JSON_KEY_AVG_MS, JSON_KEY_MAX_MS,
};

static void header(FILE *f)
{
	const int *ids;
	int n;

	fputs(JSON_KEY_TIME, f);
	ids = layouts_fields(FIELD_LAYOUT_CSV, &n);
	for (int i = 0; i < n; i++) {
		const struct field *fd = fields_get(ids[i]);

		if (fd->type != FIELD_FIGURES) {
			fprintf(f, ",%s", fd->key);
			continue;
		}
		for (int c = 0; c < NCAT; c++)
			for (size_t k = 0; k < sizeof(figure_key) / sizeof(figure_key[0]); k++)
				fprintf(f, ",%s_%s_%s", fd->key, categories[c].key,
					figure_key[k]);
	}
	putc('\n', f);
}

/* ",value" or "," when absent: numfmt, not fprintf, on every row. */
static void num(FILE *f, bool have, double v, int decimals)
{
	char buf[64];

	putc(',', f);
	if (have)
		fwrite(buf, 1, numfmt_fixed_len(buf, sizeof(buf), v, decimals), f);
}

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

static void figures(FILE *f, const struct cat_figure *d)
{
	for (int c = 0; c < NCAT; c++, d++) {
		num(f, d->avail, d->pct, 3);
		putc(',', f);
		if (d->avail && d->have_count)
			u64(f, d->count);
		num(f, d->avail && d->have_avg, d->avg_ms, 3);
		num(f, d->avail && d->have_max, d->max_ms, 3);
	}
}

/* The categories dropped as impossible: their keys, space-separated. */
static void dropped(FILE *f, const struct cat_figure *d)
{
	putc(',', f);
	for (int c = 0, n = 0; c < NCAT; c++) {
		if (!d[c].dropped)
			continue;
		if (n++)
			putc(' ', f);
		fputs(categories[c].key, f);
	}
}

static void str(FILE *f, const struct field_value *v)
{
	char buf[64];
	size_t n = 0;

	putc(',', f);
	if (!v->brackets) {
		escape_csv(f, v->str);
		return;
	}
	while (v->str[n] && n < sizeof(buf) - 3)
		n++;
	buf[0] = '[';
	memcpy(buf + 1, v->str, n);
	memcpy(buf + 1 + n, "]", 2);
	escape_csv(f, buf);
}

static void value(FILE *f, const struct field *fd, const struct field_value *v)
{
	switch (fd->type) {
	case FIELD_INT:
		putc(',', f);
		if (v->have)
			i64(f, v->i);
		break;
	case FIELD_NUM:
		num(f, v->have, v->num, 3);
		break;
	case FIELD_STR:
		if (v->have)
			str(f, v);
		else
			putc(',', f);
		break;
	case FIELD_FIGURES:
		figures(f, v->d);
		break;
	case FIELD_SET:
		dropped(f, v->d);
		break;
	case FIELD_EVIDENCE:
		/* the binding cause's stable key; JSON carries the evidence */
		putc(',', f);
		if (v->why && v->why->nranked)
			fputs(why_rules[v->why->ranked[0].r.cause].key, f);
		break;
	}
}

static void row(FILE *f, const struct out_opts *o, const char *time,
		const struct row *r, bool exited)
{
	struct field_ctx ctx = {
		.fmt = FIELD_FMT_CSV, .cmdline = o->cmdline, .exited = exited,
	};
	const int *ids;
	int n;

	fputs(time, f);
	ids = layouts_fields(FIELD_LAYOUT_CSV, &n);
	for (int i = 0; i < n; i++) {
		struct field_value v;

		fields_row_value(ids[i], r, &ctx, &v);
		value(f, fields_get(ids[i]), &v);
	}
	putc('\n', f);
}

void out_csv(FILE *f, struct out_opts *o, const struct sample *s)
{
	char time[64];

	if (!o->header_done) {
		header(f);
		o->header_done = true;
	}
	numfmt_fixed(time, sizeof(time), s->time, 3);
	for (size_t i = 0; i < s->nrows; i++)
		row(f, o, time, &s->rows[i], false);
	for (size_t i = 0; i < s->nexited; i++)
		row(f, o, time, &s->exited[i], true);
}
