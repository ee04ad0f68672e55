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
#include "model/categories.h"
#include "view/output.h"

enum { W_PID = 7, W_USER = 8, W_PCT = 6, W_PSI_NAME = 8, W_NR = 6 };

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

static int cat_width(int c)
{
	int w = (int)strlen(categories[c].header);

	return w > W_PCT ? w : W_PCT;
}

static void status_line(FILE *f, const struct sample *s)
{
	char clock[16] = "--:--:--";
	time_t t = (time_t)s->time;
	struct tm tm;

	if (localtime_r(&t, &tm))
		strftime(clock, sizeof(clock), "%H:%M:%S", &tm);
	fprintf(f, "stalltop - %s  ", clock);
	fprintf(f, s->accumulated ? _("accumulated %.3fs") : _("interval %.3fs"),
		s->interval);
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

/* The cgroup block's pressure columns: the "some" lines of these files. */
static const enum psi_res cg_res[] = { PSI_CPU, PSI_MEMORY, PSI_IO };
enum { NCG_RES = sizeof(cg_res) / sizeof(cg_res[0]) };

static int cg_res_width(int i)
{
	int w = (int)strlen(psi_res_name[cg_res[i]]);

	return w > W_PCT ? w : W_PCT;
}

/* The headers of the delay categories and TOTAL, each after a space. */
static void delay_headers(FILE *f)
{
	for (int c = 0; c < NCAT; c++) {
		putc(' ', f);
		right(f, categories[c].header, cat_width(c));
	}
	putc(' ', f);
	right(f, _("TOTAL"), W_PCT);
}

static void cgroup_header(FILE *f)
{
	/* xgettext:no-c-format */
	fprintf(f, "%s\n", _("Cgroups (PSI some%, avg10):"));
	for (int i = 0; i < NCG_RES; i++) {
		if (i)
			putc(' ', f);
		right(f, psi_res_name[cg_res[i]], cg_res_width(i));
		putc(' ', f);
		right(f, "avg10", W_PCT);
	}
	delay_headers(f);
	putc(' ', f);
	right(f, _("NR"), W_NR);
	putc(' ', f);
	fputs(_("PATH"), f);
	putc('\n', f);
}

static void cgroup_text(FILE *f, const struct cgroup_row *g, char **buf,
			size_t *cap)
{
	const char *path = g->path ? g->path : "";
	size_t need = strlen(path) * 4 + 1;

	for (int i = 0; i < NCG_RES; i++) {
		const struct psi_stat *st = &g->psi.s[cg_res[i]][PSI_SOME];
		bool have = g->have_psi && st->present;

		if (i)
			putc(' ', f);
		/* fig() writes a space of its own before the figure. */
		fig(f, have && st->have_pct, st->pct, 1, cg_res_width(i) - 1);
		fig(f, have, st->avg10, 2, W_PCT);
	}
	for (int c = 0; c < NCAT; c++)
		fig(f, g->d[c].avail, g->d[c].pct, 1, cat_width(c));
	fig(f, true, g->total_pct, 1, W_PCT);
	fprintf(f, " %*zu ", W_NR, g->nr_tasks);
	pad(f, 2 * (g->depth > 0 ? g->depth : 0));
	if (need > *cap) {
		char *p = realloc(*buf, need);

		if (!p) {
			fputs("?\n", f);
			return;
		}
		*buf = p;
		*cap = need;
	}
	escape_text(path, *buf, need);
	fputs(*buf, f);
	putc('\n', f);
}

static void cgroup_block(FILE *f, const struct sample *s)
{
	char *buf = NULL;
	size_t cap = 0;

	cgroup_header(f);
	for (size_t i = 0; i < s->ncgroups; i++)
		cgroup_text(f, &s->cgroups[i], &buf, &cap);
	putc('\n', f);
	free(buf);
}

static void table_header(FILE *f, const struct sample *s)
{
	right(f, s->threads ? _("TID") : _("PID"), W_PID);
	putc(' ', f);
	left(f, _("USER"), W_USER);
	putc(' ', f);
	fputs(_("S"), f);
	putc(' ', f);
	right(f, _("CPU%"), W_PCT);
	delay_headers(f);
	putc(' ', f);
	fputs(_("COMMAND"), f);
	putc('\n', f);
}

/* A growable scratch buffer for escaped command lines. */
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

static void command(FILE *f, const struct out_opts *o, const struct row *r,
		    struct scratch *b)
{
	const char *comm = r->comm ? r->comm : "";
	bool brackets = o && o->cmdline && !(r->cmdline && r->cmdline[0]);
	const char *cmd = o && o->cmdline && !brackets ? r->cmdline : comm;
	/* Every byte escapes to at most four; brackets and NUL on top. */
	size_t need = strlen(cmd) * 4 + 3;
	char *buf = scratch_get(b, need);

	if (!buf) {
		fputs("?", f);
		return;
	}
	/* No command line (kernel thread, zombie): [comm], as ps does. */
	if (brackets)
		putc('[', f);
	escape_text(cmd, buf, need);
	fputs(buf, f);
	if (brackets)
		putc(']', f);
}

static void user(FILE *f, const struct row *r)
{
	char buf[64];

	if (r->user) {
		escape_text(r->user, buf, sizeof(buf));
		if (cells(buf) > W_USER) {
			/* Cut at a character or escape and mark it, as top does. */
			size_t n = escape_text(r->user, buf, W_USER);
			buf[n] = '+';
			buf[n + 1] = '\0';
		}
	} else if (r->uid != (uid_t)-1) {
		snprintf(buf, sizeof(buf), "%lu", (unsigned long)r->uid);
	} else {
		strcpy(buf, "-");
	}
	left(f, buf, W_USER);
}

static char state(const struct row *r, bool exited)
{
	if (exited)
		return 'X';
	if (!r->state)
		return '-';
	return r->state > ' ' && r->state < 0x7f ? r->state : '?';
}

static void row_text(FILE *f, const struct out_opts *o, const struct row *r,
		     bool exited, struct scratch *b)
{
	fprintf(f, "%*ld ", W_PID, (long)r->pid);
	user(f, r);
	fprintf(f, " %c", state(r, exited));
	fig(f, r->have_cpu_pct, r->cpu_pct, 1, W_PCT);
	for (int c = 0; c < NCAT; c++) {
		if (r->d[c].dropped) {
			/* the kernel's figure cannot be true */
			putc(' ', f);
			right(f, "!", cat_width(c));
		} else {
			fig(f, r->d[c].avail, r->d[c].pct, 1, cat_width(c));
		}
	}
	fig(f, true, r->total_pct, 1, W_PCT);
	putc(' ', f);
	command(f, o, r, b);
	putc('\n', f);
}

void out_text(FILE *f, const struct out_opts *o, const struct sample *s)
{
	struct scratch b = { NULL, 0 };

	status_line(f, s);
	psi_block(f, &s->psi);
	putc('\n', f);
	if (s->cgroups)
		cgroup_block(f, s);
	table_header(f, s);
	for (size_t i = 0; i < s->nrows; i++)
		row_text(f, o, &s->rows[i], (s->rows[i].flags & ROW_EXITED) != 0, &b);
	if (s->nexited) {
		fprintf(f, "%s\n", _("Exited during this interval:"));
		for (size_t i = 0; i < s->nexited; i++)
			row_text(f, o, &s->exited[i], true, &b);
	}
	putc('\n', f);
	free(b.p);
}
