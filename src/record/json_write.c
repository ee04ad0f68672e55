/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Batch JSON: one object per sample on one line (NDJSON), as the manual
 * page's OUTPUT section shows it. Key names and order are an interface;
 * the delay keys come from the categories table. Absent figures are null,
 * never a made-up 0; numbers never print as nan or inf.
 */
#include <config.h>

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>

#include "lib/escape.h"
#include "lib/numfmt.h"
#include "model/categories.h"
#include "record/json_write.h"

/* A number with fixed decimals, or null when it is not finite. */
static void num(FILE *f, double v, int decimals)
{
	char buf[64];

	fputs(numfmt_fixed(buf, sizeof(buf), v, decimals) ? buf : "null", f);
}

static void num_or_null(FILE *f, bool have, double v, int decimals)
{
	if (have)
		num(f, v, decimals);
	else
		fputs("null", f);
}

static void psi_stat_json(FILE *f, const struct psi_stat *st)
{
	if (!st->present) {
		fputs("null", f);
		return;
	}
	fputs("{\"avg10\":", f);
	num(f, st->avg10, 2);
	fputs(",\"avg60\":", f);
	num(f, st->avg60, 2);
	fputs(",\"avg300\":", f);
	num(f, st->avg300, 2);
	fprintf(f, ",\"total_us\":%" PRIu64 ",\"pct\":", st->total_us);
	num_or_null(f, st->have_pct, st->pct, 3);
	putc('}', f);
}

static void psi_json(FILE *f, const struct psi_sample *p)
{
	putc('{', f);
	for (int r = 0; r < NPSI; r++) {
		const struct psi_stat *st = p->s[r];

		fprintf(f, "%s\"%s\":", r ? "," : "", psi_res_name[r]);
		if (!st[PSI_SOME].present && !st[PSI_FULL].present) {
			fputs("null", f);
			continue;
		}
		putc('{', f);
		for (int k = 0; k < NPSI_KIND; k++) {
			fprintf(f, "%s\"%s\":", k ? "," : "", psi_kind_name[k]);
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
	fputs("{\"pct\":", f);
	num(f, d->pct, 3);
	if (d->have_count)
		fprintf(f, ",\"count\":%" PRIu64 ",\"avg_ms\":", d->count);
	else
		fputs(",\"count\":null,\"avg_ms\":", f);
	num_or_null(f, d->have_avg, d->avg_ms, 3);
	fputs(",\"max_ms\":", f);
	num_or_null(f, d->have_max, d->max_ms, 3);
	putc('}', f);
}

static void delay_json(FILE *f, const struct cat_figure *d);

/* The keys of the categories whose figures were dropped as impossible. */
static void dropped_json(FILE *f, const struct cat_figure *d)
{
	bool first = true;

	putc('[', f);
	for (int c = 0; c < NCAT; c++) {
		if (!d[c].dropped)
			continue;
		fprintf(f, "%s\"%s\"", first ? "" : ",", categories[c].key);
		first = false;
	}
	putc(']', f);
}

static void row_json(FILE *f, const struct row *r)
{
	char state[2] = { r->state, '\0' };

	fprintf(f, "{\"pid\":%ld,\"tgid\":%ld,\"ppid\":%ld,\"comm\":",
		(long)r->pid, (long)r->tgid, (long)r->ppid);
	escape_json(f, r->comm);
	fputs(",\"cmdline\":", f);
	escape_json(f, r->cmdline);
	fputs(",\"user\":", f);
	escape_json(f, r->user);
	fputs(",\"state\":", f);
	escape_json(f, r->state ? state : NULL);
	fputs(",\"threads\":", f);
	if (r->threads >= 0)
		fprintf(f, "%d", r->threads);
	else
		fputs("null", f);
	fputs(",\"cpu_pct\":", f);
	num_or_null(f, r->have_cpu_pct, r->cpu_pct, 3);
	fputs(",\"delay\":", f);
	delay_json(f, r->d);
	fputs(",\"dropped\":", f);
	dropped_json(f, r->d);
	fputs(",\"total_pct\":", f);
	num(f, r->total_pct, 3);
	if (r->cgroup) {
		fputs(",\"cgroup\":", f);
		escape_json(f, r->cgroup);
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

static void delay_json(FILE *f, const struct cat_figure *d)
{
	putc('{', f);
	for (int c = 0; c < NCAT; c++) {
		fprintf(f, "%s\"%s\":", c ? "," : "", categories[c].key);
		figure_json(f, &d[c]);
	}
	putc('}', f);
}

static void cgroups_json(FILE *f, const struct cgroup_row *g, size_t n)
{
	putc('[', f);
	for (size_t i = 0; i < n; i++) {
		if (i)
			putc(',', f);
		fputs("{\"path\":", f);
		escape_json(f, g[i].path);
		fputs(",\"psi\":", f);
		if (g[i].have_psi)
			psi_json(f, &g[i].psi);
		else
			fputs("null", f);
		fputs(",\"delay\":", f);
		delay_json(f, g[i].d);
		fputs(",\"total_pct\":", f);
		num(f, g[i].total_pct, 3);
		fprintf(f, ",\"nr_tasks\":%zu}", g[i].nr_tasks);
	}
	putc(']', f);
}

void json_write_sample(FILE *f, const struct sample *s)
{
	fputs("{\"time\":", f);
	num(f, s->time, 3);
	fputs(",\"interval\":", f);
	num(f, s->interval, 3);
	fprintf(f, ",\"accumulated\":%s,\"threads\":%s",
		s->accumulated ? "true" : "false", s->threads ? "true" : "false");
	fputs(",\"delayacct\":", f);
	fputs(!s->delayacct_known ? "null" : s->delayacct ? "true" : "false", f);
	fputs(",\"taskstats_version\":", f);
	if (s->ts_version)
		fprintf(f, "%u", s->ts_version);
	else
		fputs("null", f);
	fprintf(f, ",\"events_lost\":%" PRIu64 ",\"exit_records_lost\":%" PRIu64
		",\"figures_dropped\":%zu,\"psi\":", s->events_lost,
		s->exit_records_lost, s->dropped);
	psi_json(f, &s->psi);
	fputs(",\"tasks\":", f);
	rows_json(f, s->rows, s->nrows);
	fputs(",\"exited\":", f);
	rows_json(f, s->exited, s->nexited);
	if (s->trigger) {
		fputs(",\"trigger\":", f);
		escape_json(f, s->trigger);
	}
	if (s->cgroups) {
		fputs(",\"cgroups\":", f);
		cgroups_json(f, s->cgroups, s->ncgroups);
	}
	if (s->thread_rows) {
		fputs(",\"thread_tasks\":", f);
		rows_json(f, s->thread_rows, s->nthread_rows);
	}
	if (s->thread_exited) {
		fputs(",\"thread_exited\":", f);
		rows_json(f, s->thread_exited, s->nthread_exited);
	}
	fputs("}\n", f);
}
