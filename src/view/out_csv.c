/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Batch CSV (RFC 4180 quoting, LF line ends): one header line per run,
 * then one line per row, live rows first, then the rows that exited in
 * the interval (exited = 1). Absent figures are empty fields. command is
 * comm, or with -c the command line ([comm] when it is empty), in the
 * text form of escape_text so a record never spans lines.
 *
 * The delay columns are named delay_<key>_<figure>, the JSON path
 * delay.<key>.<figure> flattened: "cpu_pct" is already the CPU use of the
 * task, as in JSON, and must not be taken by the cpu delay.
 */
#include <config.h>

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>

#include "lib/escape.h"
#include "lib/numfmt.h"
#include "model/categories.h"
#include "view/output.h"

static void header(FILE *f)
{
	static const char *const fig[] = { "pct", "count", "avg_ms", "max_ms" };

	fputs("time,pid,tgid,ppid,user,state,threads,cpu_pct", f);
	for (int c = 0; c < NCAT; c++)
		for (size_t i = 0; i < sizeof(fig) / sizeof(fig[0]); i++)
			fprintf(f, ",delay_%s_%s", categories[c].key, fig[i]);
	fputs(",total_pct,dropped,exited,command\n", f);
}

/* ",value" or "," when absent. */
static void num(FILE *f, bool have, double v, int decimals)
{
	char buf[64];

	putc(',', f);
	if (have && numfmt_fixed(buf, sizeof(buf), v, decimals))
		fputs(buf, f);
}

static void command(FILE *f, const struct out_opts *o, const struct row *r)
{
	const char *comm = r->comm ? r->comm : "";

	if (!o->cmdline) {
		escape_csv(f, comm);
	} else if (r->cmdline && r->cmdline[0]) {
		escape_csv(f, r->cmdline);
	} else {
		/* No command line (kernel thread, zombie): [comm], as ps does. */
		size_t n = 0;
		char buf[64];

		while (comm[n] && n < sizeof(buf) - 3)
			n++;
		snprintf(buf, sizeof(buf), "[%.*s]", (int)n, comm);
		escape_csv(f, buf);
	}
}

static void row(FILE *f, const struct out_opts *o, const char *time,
		const struct row *r, bool exited)
{
	char state[2] = { r->state, '\0' };

	fprintf(f, "%s,%ld,%ld,%ld,", time, (long)r->pid, (long)r->tgid,
		(long)r->ppid);
	if (r->user)
		escape_csv(f, r->user);
	else if (r->uid != (uid_t)-1)
		fprintf(f, "%lu", (unsigned long)r->uid);
	putc(',', f);
	escape_csv(f, state);
	putc(',', f);
	if (r->threads >= 0)
		fprintf(f, "%d", r->threads);
	num(f, r->have_cpu_pct, r->cpu_pct, 3);
	for (int c = 0; c < NCAT; c++) {
		const struct cat_figure *d = &r->d[c];

		num(f, d->avail, d->pct, 3);
		putc(',', f);
		if (d->avail && d->have_count)
			fprintf(f, "%" PRIu64, d->count);
		num(f, d->avail && d->have_avg, d->avg_ms, 3);
		num(f, d->avail && d->have_max, d->max_ms, 3);
	}
	num(f, true, r->total_pct, 3);
	/* the categories dropped as impossible, space-separated keys */
	putc(',', f);
	for (int c = 0, n = 0; c < NCAT; c++)
		if (r->d[c].dropped)
			fprintf(f, "%s%s", n++ ? " " : "", categories[c].key);
	fprintf(f, ",%d,", exited || (r->flags & ROW_EXITED) ? 1 : 0);
	command(f, o, r);
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
