/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Batch text: one top-like block per sample, ending with a blank line.
 *
 *   stalltop - 12:34:56  interval 1.002s  2 processes  5 threads  delayacct on  taskstats v16  events lost 2
 *   PSI       some%  avg10  avg60 avg300   full%  avg10  avg60 avg300
 *   cpu         2.1   1.20   0.80   0.30       -      -      -      -
 *   irq           -      -      -      -     0.3   0.10   0.05   0.01
 *
 *       PID USER     S   CPU%    CPU     IO ... TOTAL COMMAND
 *      1234 postgres S   37.5   12.5    3.0 ...  15.5 postgres
 *   Exited during this interval:
 *      4321 root     X      -    0.0      - ...   0.0 make
 *
 * With cgroups collected, a block follows the PSI block:
 *
 *   Cgroups (PSI some%, avg10):
 *      cpu  avg10 memory  avg10     io  avg10    CPU ...  TOTAL     NR PATH
 *      4.0   3.10    0.0   0.00    0.0   0.25    2.5 ...    2.5     12 /
 *     97.2  92.50    0.0   0.00      -      -  129.8 ...  129.8      3   /load
 *
 * (the "some" share of the interval and avg10 of the cgroup's own
 * pressure files, then its processes' delays summed as in the task table,
 * and how many processes it holds; paths indented by depth)
 *
 * and a sample taken because a PSI trigger fired ends its status line with
 * "trigger memory some 150ms/1s".
 *
 * The PSI block has one line per resource the kernel has; some% and full%
 * are the share of the interval, '-' where a line or the share is absent.
 * Delay columns are % of the interval with one decimal, '-' where the
 * kernel gives no figure. Rows that ended during the interval follow the
 * live rows under their own sub-header, with state X. Everything a process
 * controls goes through escape_text. Widths are counted in characters, so
 * a wide character in a user name can push the rest of its row right.
 */
#include <config.h>

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/escape.h"
#include "lib/nls.h"
#include "lib/numfmt.h"
#include "model/categories.h"
#include "model/fields.h"
#include "model/layouts.h"
#include "model/rowwhy.h"
#include "view/output.h"

enum { W_PCT = 6, W_PSI_NAME = 8 };

/* Characters (code points) in escaped, hence valid UTF-8, text. */
static int cells(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

static void pad(FILE *f, int n)
{
	for (; n > 0; n--)
		putc(' ', f);
}

static void right(FILE *f, const char *s, int width)
{
	pad(f, width - cells(s));
	fputs(s, f);
}

static void left(FILE *f, const char *s, int width)
{
	fputs(s, f);
	pad(f, width - cells(s));
}

/* v with `decimals` decimals right-aligned in width, or '-'. */
static void fig(FILE *f, bool have, double v, int decimals, int width)
{
	char buf[64];

	if (have && isfinite(v))
		snprintf(buf, sizeof(buf), "%.*f", decimals, v);
	else
		strcpy(buf, "-");
	putc(' ', f);
	right(f, buf, width);
}

static void status_line(FILE *f, const struct sample *s)
{
	char clock[16] = "--:--:--";
	time_t t = (time_t)s->time;
	struct tm tm;

	if (localtime_r(&t, &tm))
		strftime(clock, sizeof(clock), "%H:%M:%S", &tm);
	fprintf(f, "stalltop - %s  ", clock);
	if (isfinite(s->interval))
		fprintf(f, s->accumulated ? _("accumulated %.3fs") :
			_("interval %.3fs"), s->interval);
	else /* unknown, or dropped as impossible */
		fputs(s->accumulated ? _("accumulated -") : _("interval -"), f);
	fputs("  ", f);
	fprintf(f, ngettext("%lu process", "%lu processes", s->nprocs),
		(unsigned long)s->nprocs);
	if (s->nthreads) {
		fputs("  ", f);
		fprintf(f, ngettext("%lu thread", "%lu threads", s->nthreads),
			(unsigned long)s->nthreads);
	}
	fputs("  ", f);
	fputs(!s->delayacct_known ? _("delayacct unknown") :
	      s->delayacct ? _("delayacct on") : _("delayacct OFF"), f);
	fputs("  ", f);
	if (s->ts_version)
		fprintf(f, _("taskstats v%u"), s->ts_version);
	else
		fputs(_("no taskstats"), f);
	if (s->events_lost) {
		fputs("  ", f);
		fprintf(f, _("events lost %llu"),
			(unsigned long long)s->events_lost);
	}
	if (s->dropped) {
		fputs("  ", f);
		fprintf(f, ngettext("%lu impossible figure dropped (!)",
				    "%lu impossible figures dropped (!)",
				    s->dropped),
			(unsigned long)s->dropped);
	}
	if (s->trigger) {
		char buf[256];

		escape_text(s->trigger, buf, sizeof(buf));
		fputs("  ", f);
		fprintf(f, _("trigger %s"), buf);
	}
	putc('\n', f);
}

/* The field names are the kernel's (some, full, avg10...): not translated. */
static void psi_block(FILE *f, const struct psi_sample *p)
{
	bool any = false;

	for (int r = 0; r < NPSI; r++)
		any |= p->s[r][PSI_SOME].present || p->s[r][PSI_FULL].present;
	if (!any) {
		fprintf(f, "%s\n", _("PSI not available"));
		return;
	}
	left(f, "PSI", W_PSI_NAME);
	for (int k = 0; k < NPSI_KIND; k++) {
		char h[16];

		snprintf(h, sizeof(h), "%s%%", psi_kind_name[k]);
		fputs(k ? "  " : " ", f);
		right(f, h, W_PCT);
		fputs("  avg10  avg60 avg300", f);
	}
	putc('\n', f);
	for (int r = 0; r < NPSI; r++) {
		const struct psi_stat *st = p->s[r];

		if (!st[PSI_SOME].present && !st[PSI_FULL].present)
			continue;
		left(f, psi_res_name[r], W_PSI_NAME);
		for (int k = 0; k < NPSI_KIND; k++) {
			bool have = st[k].present;

			if (k)
				putc(' ', f);
			fig(f, have && st[k].have_pct, st[k].pct, 1, W_PCT);
			fig(f, have, st[k].avg10, 2, W_PCT);
			fig(f, have, st[k].avg60, 2, W_PCT);
			fig(f, have, st[k].avg300, 2, W_PCT);
		}
		putc('\n', f);
	}
}

/* A growable scratch buffer for escaped text. */
struct scratch {
	char *p;
	size_t cap;
};

static char *scratch_get(struct scratch *b, size_t need)
{
	static char empty[1];

	if (need > b->cap) {
		char *p = realloc(b->p, need);

		if (!p)
			return NULL;
		b->p = p;
		b->cap = need;
	}
	return b->p ? b->p : empty;
}

/*
 * The WHY column is there, as on the screen, when a row of the block has
 * a cause to tell.
 */
static bool rows_why(const struct row *r, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (*rowwhy_main(&r[i]))
			return true;
	return false;
}

static bool cgroups_why(const struct sample *s)
{
	for (size_t i = 0; i < s->ncgroups; i++)
		if (*rowwhy_main_cg(&s->cgroups[i]))
			return true;
	return false;
}

/* The header line of a layout: each field's batch header in its width. */
static void header_line(FILE *f, enum field_layout l, bool threads, bool why)
{
	const int *ids;
	int n;

	ids = layouts_fields(l, &n);
	for (int i = 0; i < n; i++) {
		const struct field *fd = fields_get(ids[i]);
		const char *h = fd->bheader;

		if (ids[i] == FIELD_WHY && !why)
			continue;
		if (i)
			putc(' ', f);
		/* thread rows show thread ids */
		if (threads && ids[i] == FIELD_PID)
			h = N_("TID");
		if (!(fd->flags & FIELD_KERNEL))
			h = _(h);
		if (fd->flags & FIELD_LEFT)
			left(f, h, fd->bwidth);
		else
			right(f, h, fd->bwidth);
	}
	putc('\n', f);
}

/*
 * Text a process controls, escaped; cut at a character or escape and
 * marked when wider than the field, as top does.
 */
static void raw_text(FILE *f, const struct field *fd, const struct field_value *v,
		     struct scratch *b)
{
	/* Every byte escapes to at most four; brackets and NUL on top. */
	size_t need = strlen(v->str) * 4 + 3;
	char *buf = scratch_get(b, need);

	if (!buf) {
		fputs("?", f);
		return;
	}
	pad(f, v->indent);
	escape_text(v->str, buf, need);
	if (fd->bwidth && cells(buf) > fd->bwidth) {
		size_t n = escape_text(v->str, buf, (size_t)fd->bwidth);
		buf[n] = '+';
		buf[n + 1] = '\0';
	}
	if (v->brackets)
		putc('[', f);
	fputs(buf, f);
	if (v->brackets)
		putc(']', f);
	if (fd->flags & FIELD_LEFT)
		pad(f, fd->bwidth - cells(buf));
}

/* What fits of s into buf, as snprintf("%s") would cut it. */
static void copy_cut(char *buf, size_t size, const char *s)
{
	size_t n = strnlen(s, size - 1);

	memcpy(buf, s, n);
	buf[n] = '\0';
}

/* One field of a row in its width, after a space unless it is the first. */
static void cell(FILE *f, const struct field *fd, const struct field_value *v,
		 const struct cat_figure *d, bool first, struct scratch *b)
{
	char buf[64];
	bool have = v->have;
	double num = v->num;

	if (!first)
		putc(' ', f);
	if (d) {
		/* a delay column: its percentage, ! when the kernel's is false */
		const struct cat_figure *cf = &d[fd->arg];

		if (cf->dropped) {
			right(f, "!", fd->bwidth);
			return;
		}
		have = cf->avail;
		num = cf->pct;
	}
	if (have && fd->type == FIELD_STR && (fd->flags & FIELD_RAW)) {
		raw_text(f, fd, v, b);
		return;
	}
	if (!have || (fd->type == FIELD_NUM && !isfinite(num)))
		strcpy(buf, "-");
	else if (fd->type == FIELD_NUM)
		/* text is for people: the locale's decimal point, printf's rounding */
		snprintf(buf, sizeof(buf), "%.*f", fd->decimals, num);
	else if (fd->type == FIELD_INT)
		numfmt_i64(buf, v->i);
	else
		copy_cut(buf, sizeof(buf), v->str);
	if (fd->flags & FIELD_LEFT)
		left(f, buf, fd->bwidth);
	else
		right(f, buf, fd->bwidth);
}

static void cgroup_text(FILE *f, const struct cgroup_row *g, bool why,
			struct scratch *b)
{
	static const struct field_ctx ctx = { .fmt = FIELD_FMT_TEXT };
	const int *ids;
	int n;

	ids = layouts_fields(FIELD_LAYOUT_CGROUPS_TEXT, &n);
	for (int i = 0; i < n; i++) {
		const struct field *fd = fields_get(ids[i]);
		struct field_value v;

		if (ids[i] == FIELD_WHY && !why)
			continue;
		fields_cg_value(ids[i], g, &ctx, &v);
		cell(f, fd, &v, fields_cat(ids[i]) >= 0 ? g->d : NULL, i == 0, b);
	}
	putc('\n', f);
}

static void cgroup_block(FILE *f, const struct sample *s, struct scratch *b)
{
	/* xgettext:no-c-format */
	fprintf(f, "%s\n", _("Cgroups (PSI some%, avg10):"));
	bool why = cgroups_why(s);

	header_line(f, FIELD_LAYOUT_CGROUPS_TEXT, false, why);
	for (size_t i = 0; i < s->ncgroups; i++)
		cgroup_text(f, &s->cgroups[i], why, b);
	putc('\n', f);
}

static void row_text(FILE *f, const struct out_opts *o, const struct row *r,
		     bool exited, bool why, struct scratch *b)
{
	struct field_ctx ctx = {
		.fmt = FIELD_FMT_TEXT, .cmdline = o && o->cmdline,
		.exited = exited,
	};
	const int *ids;
	int n;

	ids = layouts_fields(FIELD_LAYOUT_SCREEN, &n);
	for (int i = 0; i < n; i++) {
		const struct field *fd = fields_get(ids[i]);
		struct field_value v;

		if (ids[i] == FIELD_WHY && !why)
			continue;
		fields_row_value(ids[i], r, &ctx, &v);
		cell(f, fd, &v, fields_cat(ids[i]) >= 0 ? r->d : NULL, i == 0, b);
	}
	putc('\n', f);
}

void out_text(FILE *f, const struct out_opts *o, const struct sample *s)
{
	struct scratch b = { NULL, 0 };

	status_line(f, s);
	psi_block(f, &s->psi);
	putc('\n', f);
	if (s->cgroups)
		cgroup_block(f, s, &b);
	bool why = rows_why(s->rows, s->nrows) ||
		   rows_why(s->exited, s->nexited);

	header_line(f, FIELD_LAYOUT_SCREEN, s->threads, why);
	for (size_t i = 0; i < s->nrows; i++)
		row_text(f, o, &s->rows[i], (s->rows[i].flags & ROW_EXITED) != 0,
			 why, &b);
	if (s->nexited) {
		fprintf(f, "%s\n", _("Exited during this interval:"));
		for (size_t i = 0; i < s->nexited; i++)
			row_text(f, o, &s->exited[i], true, why, &b);
	}
	putc('\n', f);
	free(b.p);
}
