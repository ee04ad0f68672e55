/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The screen's header: time, interval, counts and modes; the delay
 * accounting state (a banner when off); monitor notices; PSI per resource
 * with a sparkline of its history, or one compact line when narrow.
 */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "lib/escape.h"
#include "lib/nls.h"
#include "lib/textwidth.h"
#include "model/fields.h"
#include "model/producer.h"
#include "view/actions.h"
#include "view/screen_int.h"

/* Room the wide PSI block needs (else one compact line). */
#define PSI_WIDE_COLS 80
#define PSI_WIDE_LINES 24
#define PSI_NAME_W 8
#define PSI_NUM_W 7
#define SPARK_MIN 8
#define MAX_NOTICES 2

void screen_header_history_push(struct screen *s, const struct psi_sample *psi)
{
	for (int r = 0; r < NPSI; r++) {
		const struct psi_stat *st = &psi->s[r][PSI_SOME];
		if (!st->present)
			st = &psi->s[r][PSI_FULL];
		s->hist[r][s->hist_head] =
			st->present && st->have_pct ? st->pct : NAN;
	}
	s->hist_head = (s->hist_head + 1) % PSI_HISTORY;
	if (s->hist_len < PSI_HISTORY)
		s->hist_len++;
}

/*
 * Draw text at (y, *x) and move *x past it plus a gap. What does not fit
 * before the right edge is cut. Returns false once the line is full.
 */
static bool piece(struct screen *s, int y, int *x, const char *text,
		  attr_t attr)
{
	int room = COLS - *x;
	if (room <= 0)
		return false;
	int w = textwidth_width(text);
	move(y, *x);
	screen_draw_text(s, text, false, w < room ? w : room, false, attr);
	*x += w + 2;
	return *x < COLS;
}

static attr_t pct_role(const struct screen *s, double pct)
{
	if (pct >= 40)
		return s->attr[R_SEVERE];
	if (pct >= 10)
		return s->attr[R_WARN];
	return A_NORMAL;
}

/*
 * Where samples move in time: what the producer plays, the position in
 * its stream, the sample's date, playback.
 */
static void replay_pieces(struct screen *s, int y, int *x)
{
	const struct sample *smp = &s->snap.s;
	const char *title = producer_words(s->m, PRODUCER_WORDS_TITLE);
	char buf[128];
	char esc[64];
	escape_text(title ? title : "", esc, sizeof(esc));
	if (s->rp_have)
		snprintf(buf, sizeof(buf), "%s %zu/%zu", esc, s->rp_index + 1,
			 s->rp_count);
	else
		snprintf(buf, sizeof(buf), "%s", esc);
	piece(s, y, x, buf, s->attr[R_TITLE] | A_BOLD);
	if (s->have_sample) {
		time_t t = (time_t)smp->time;
		struct tm tm;
		if (localtime_r(&t, &tm)) {
			strftime(buf, sizeof(buf), "%Y-%m-%d", &tm);
			piece(s, y, x, buf, s->attr[R_TITLE]);
		}
	}
	if (s->rp_paused)
		piece(s, y, x, _("[paused]"), s->attr[R_TITLE] | A_BOLD);
	else if (s->rp_done)
		piece(s, y, x, _("[end]"), s->attr[R_TITLE] | A_BOLD);
}

static void title_line(struct screen *s, int y)
{
	const struct sample *smp = &s->snap.s;
	char clock[32] = "--:--:--", buf[256];
	bool narrow = COLS < 100;
	int x = 0;

	screen_draw_fill(y, 0, COLS, s->attr[R_TITLE]);
	if (s->have_sample) {
		time_t t = (time_t)smp->time;
		struct tm tm;
		if (localtime_r(&t, &tm))
			strftime(clock, sizeof(clock), "%H:%M:%S", &tm);
	}
	snprintf(buf, sizeof(buf), " %s %s", PACKAGE, clock);
	piece(s, y, &x, buf, s->attr[R_TITLE] | A_BOLD);
	if (s->have_sample && smp->trigger) {
		char label[128];
		escape_text(smp->trigger, label, sizeof(label));
		snprintf(buf, sizeof(buf), _("TRIGGER %s"), label);
		piece(s, y, &x, buf, s->attr[R_TRIGGER]);
	}
	if (s->m && producer_seekable(s->m))
		replay_pieces(s, y, &x);

	if (s->have_sample && !isfinite(smp->interval))
		snprintf(buf, sizeof(buf), "%s", narrow ? "-" : _("interval -"));
	else if (s->have_sample)
		snprintf(buf, sizeof(buf), narrow ? _("%.3gs") : _("interval %.3gs"),
			 smp->interval);
	else
		snprintf(buf, sizeof(buf), narrow ? _("every %.3gs") :
			 _("refresh every %.3gs"), s->delay);
	piece(s, y, &x, buf, s->attr[R_TITLE]);

	if (s->have_sample) {
		unsigned long np = (unsigned long)smp->nprocs;
		unsigned long nt = (unsigned long)smp->nthreads;
		int n = 0;

		if (narrow)
			n = snprintf(buf, sizeof(buf), _("%lu proc"), np);
		else
			n = snprintf(buf, sizeof(buf),
				     ngettext("%lu process", "%lu processes", np),
				     np);
		if (nt && n >= 0 && (size_t)n < sizeof(buf))
			snprintf(buf + n, sizeof(buf) - (size_t)n,
				 narrow ? _(" %lu thr") :
				 ngettext(", %lu thread", ", %lu threads", nt), nt);
		piece(s, y, &x, buf, s->attr[R_TITLE]);
	}
	if (s->cgview) {
		snprintf(buf, sizeof(buf), _("[cgroups: %zu]"),
			 s->have_sample ? s->snap.s.ncgroups : (size_t)0);
		piece(s, y, &x, buf, s->attr[R_TITLE] | A_BOLD);
	} else if (s->zoom) {
		char path[256];
		escape_text(s->zoom, path, sizeof(path));
		snprintf(buf, sizeof(buf), _("cgroup %s"), path);
		piece(s, y, &x, buf, s->attr[R_TITLE] | A_BOLD);
	}
	if (s->cgview) {
		/* the process view's modes are not what is shown */
	} else if (s->drill_tgid) {
		char name[64];
		escape_text(s->drill_name, name, sizeof(name));
		snprintf(buf, sizeof(buf), _("threads of %d (%s)"),
			 (int)s->drill_tgid, name);
		piece(s, y, &x, buf, s->attr[R_TITLE] | A_BOLD);
	} else if (s->threads_all ||
		   (s->have_sample && !s->collecting && smp->threads)) {
		/* samples that hold only threads show threads in either view */
		piece(s, y, &x, _("[threads]"), s->attr[R_TITLE] | A_BOLD);
	}
	/* figures as produced: what the sample says, not what was asked */
	if (!s->m || producer_can_accumulate(s->m) ? s->accumulate
	    : s->have_sample && smp->accumulated)
		piece(s, y, &x, _("[since start]"), s->attr[R_TITLE] | A_BOLD);
	if (s->frozen)
		piece(s, y, &x, _("[FROZEN]"), s->attr[R_TITLE] | A_BOLD);
	if (!s->have_sample || s->collecting)
		piece(s, y, &x, _("collecting..."), s->attr[R_TITLE]);
}

static const char *sort_label(const struct screen *s, char *buf, size_t size)
{
	if (s->cgview) {
		const struct field *c = fields_get(s->cg_sort);
		bool up = fields_ascending(s->cg_sort) != s->cg_reverse;
		const char *arrow = s->utf8 ? (up ? "\u25b2" : "\u25bc")
					    : (up ? "^" : "v");
		snprintf(buf, size, _("sort %s%s"), c ? c->header : "?", arrow);
		return buf;
	}
	const struct field *c = fields_get(s->sel.sort);
	const char *arrow = s->utf8 ? (s->sel.reverse ? "\u25b2" : "\u25bc")
				    : (s->sel.reverse ? "^" : "v");
	/* pid and comm sort ascending by default */
	if (fields_ascending(s->sel.sort))
		arrow = s->utf8 ? (s->sel.reverse ? "\u25bc" : "\u25b2")
				: (s->sel.reverse ? "v" : "^");
	snprintf(buf, size, _("sort %s%s"), c ? c->header : "?", arrow);
	return buf;
}

/* Delay accounting off: a line nobody can miss. */
static bool delayacct_banner(struct screen *s, int y)
{
	const struct sample *smp = &s->snap.s;
	if (!s->have_sample || !smp->delayacct_known || smp->delayacct)
		return false;
	char key[32];
	keys_name(keys_for_action(actions_control_delayacct, 0), key, sizeof(key));
	char buf[256];
	if (COLS >= 100)
		snprintf(buf, sizeof(buf),
			 _(" Delay accounting is OFF (kernel.task_delayacct=0): only "
			   "CPU delay is measured; %s turns it on."), key);
	else
		snprintf(buf, sizeof(buf),
			 _(" Delay accounting OFF: CPU only. %s turns it on."), key);
	screen_draw_fill(y, 0, COLS, s->attr[R_BANNER]);
	move(y, 0);
	screen_draw_text(s, buf, false, COLS, false, s->attr[R_BANNER]);
	return true;
}

static void status_line(struct screen *s, int y)
{
	const struct sample *smp = &s->snap.s;
	char buf[256];
	int x = 1;

	bool narrow = COLS < 100;

	if (s->have_sample) {
		if (!smp->delayacct_known)
			piece(s, y, &x, _("delayacct unknown"), s->attr[R_WARN]);
		else if (smp->delayacct && smp->ts_version && !narrow)
			snprintf(buf, sizeof(buf), _("delayacct on (taskstats v%u)"),
				 smp->ts_version),
			piece(s, y, &x, buf, A_NORMAL);
		else if (smp->delayacct)
			piece(s, y, &x, _("delayacct on"), A_NORMAL);
		if (smp->events_lost) {
			snprintf(buf, sizeof(buf), _("%llu events lost"),
				 (unsigned long long)smp->events_lost);
			piece(s, y, &x, buf, s->attr[R_SEVERE]);
		}
		if (smp->dropped) {
			snprintf(buf, sizeof(buf),
				 ngettext("%lu impossible figure dropped (!)",
					  "%lu impossible figures dropped (!)",
					  smp->dropped),
				 (unsigned long)smp->dropped);
			piece(s, y, &x, buf, s->attr[R_WARN]);
		}
	}
	piece(s, y, &x, sort_label(s, buf, sizeof(buf)), A_BOLD);
	bool since_start = s->have_sample ? smp->accumulated : s->accumulate;
	const char *shown = s->sel.metric == METRIC_PCT && since_start
			    /* xgettext:no-c-format */
			    ? _("% of the time since start")
			    : screen_table_metric_label(s->sel.metric);

	if (narrow)
		snprintf(buf, sizeof(buf), "%s", shown);
	else if (s->sel.metric == METRIC_PCT)
		snprintf(buf, sizeof(buf), _("showing %s"), shown);
	else
		/* TOTAL stays a share of the time: say so beside the unit */
		snprintf(buf, sizeof(buf), since_start
			 ? _("showing %s, TOTAL%% of the time since start")
			 : _("showing %s, TOTAL%% of interval"), shown);
	piece(s, y, &x, buf, A_NORMAL);
	if (s->sel.metric == METRIC_MAX && s->have_sample &&
	    smp->ts_version > 0 && smp->ts_version < 17) {
		/*
		 * why the max column is mostly - (delta.c): known only
		 * where one wait ended or a thread's lifetime max rose
		 */
		snprintf(buf, sizeof(buf),
			 _("max mostly -: taskstats v%u dates no wait "
			   "(v17 does)"), smp->ts_version);
		piece(s, y, &x, buf, s->attr[R_WARN]);
	}
	if (s->sel.only_stalled)
		piece(s, y, &x, _("only stalled"), s->attr[R_WARN]);
	const char *filter = s->cgview ? s->cg_filter : s->name;
	if (filter && *filter) {
		char esc[128];
		escape_text(filter, esc, sizeof(esc));
		snprintf(buf, sizeof(buf), _("filter \"%s\""), esc);
		piece(s, y, &x, buf, s->attr[R_WARN]);
	}
	if (s->sel.have_uid) {
		snprintf(buf, sizeof(buf), _("user %s"), s->user_label);
		piece(s, y, &x, buf, s->attr[R_WARN]);
	}
	if (s->npids) {
		int n = snprintf(buf, sizeof(buf), "%s", _("pids"));
		for (size_t i = 0; i < s->npids && n < (int)sizeof(buf) - 16; i++)
			n += snprintf(buf + n, sizeof(buf) - (size_t)n, "%s%d",
				      i ? "," : " ", (int)s->pids[i]);
		piece(s, y, &x, buf, s->attr[R_WARN]);
	}
	const struct cg_line *l = s->cgview ? screen_cgroup_current(s) : NULL;
	if (l) {
		char path[200];
		escape_text(l->cg->path, path, sizeof(path));
		snprintf(buf, sizeof(buf), _("at %s"), path);
		piece(s, y, &x, buf, A_BOLD);
	}
}

static int notices(struct screen *s, int y, int max)
{
	const char *const *n = s->m ? producer_notices(s->m) : NULL;
	int total = 0, used = 0;
	while (n && n[total])
		total++;
	for (; used < total && used < max; used++) {
		int cols = COLS - 1;
		move(y + used, 1);
		if (used == max - 1 && total > max) {
			/* the notices that do not fit are counted, not lost */
			char more[32];
			snprintf(more, sizeof(more), _("(+%d more) "), total - max);
			int w = textwidth_width(more);
			w = w < cols ? w : cols;
			screen_draw_text(s, more, false, w, false,
					 s->attr[R_NOTICE] | A_BOLD);
			cols -= w;
		}
		/* raw: a recording's notes name its files, outside text */
		screen_draw_text(s, n[used], true, cols, false, s->attr[R_NOTICE]);
	}
	return used;
}

static void num_cell(struct screen *s, bool ok, double v, const char *fmt,
		     attr_t attr)
{
	char buf[32];
	if (ok)
		snprintf(buf, sizeof(buf), fmt, v);
	else
		snprintf(buf, sizeof(buf), "-");
	screen_draw_text(s, buf, false, PSI_NUM_W, true, ok ? attr : s->attr[R_LOW]);
}

static void psi_kind_cells(struct screen *s, const struct psi_stat *st)
{
	num_cell(s, st->present && st->have_pct, st->pct, "%.1f",
		 pct_role(s, st->pct));
	num_cell(s, st->present, st->avg10, "%.2f", A_NORMAL);
	num_cell(s, st->present, st->avg60, "%.2f", A_NORMAL);
	num_cell(s, st->present, st->avg300, "%.2f", A_NORMAL);
}

static void sparkline(struct screen *s, int r, int cols)
{
	static const char *const blocks[] = {
		"\u2581", "\u2582", "\u2583", "\u2584",
		"\u2585", "\u2586", "\u2587", "\u2588",
	};
	static const char ascii[] = "_.-:=+*#";
	int n = (int)s->hist_len < cols ? (int)s->hist_len : cols;
	double max = 5.0;
	for (int i = 0; i < n; i++) {
		size_t at = (s->hist_head + PSI_HISTORY - (size_t)n + (size_t)i) %
			    PSI_HISTORY;
		if (!isnan(s->hist[r][at]) && s->hist[r][at] > max)
			max = s->hist[r][at];
	}
	for (int i = 0; i < n; i++) {
		size_t at = (s->hist_head + PSI_HISTORY - (size_t)n + (size_t)i) %
			    PSI_HISTORY;
		double v = s->hist[r][at];
		if (isnan(v)) {
			addch(' ');
			continue;
		}
		int level = v <= 0 ? 0 : 1 + (int)(v / max * 6.999);
		if (level > 7)
			level = 7;
		attrset(v <= 0 ? s->attr[R_LOW] : s->attr[R_SPARK]);
		if (s->utf8)
			addstr(blocks[level]);
		else
			addch((chtype)ascii[level]);
		attrset(A_NORMAL);
	}
}

static bool psi_any(const struct screen *s)
{
	for (int r = 0; r < NPSI; r++)
		for (int k = 0; k < NPSI_KIND; k++)
			if (s->snap.s.psi.s[r][k].present)
				return true;
	return false;
}

/*
 * A row of PSI the kernel fills: the irq row goes where the kernel has
 * no IRQ time accounting (no /proc/pressure/irq beside the others), as
 * the IRQ column does (screen_setup.c).
 */
static bool psi_row_shown(const struct screen *s, int r)
{
	const struct psi_stat *st = s->snap.s.psi.s[r];

	return r != PSI_IRQ || !s->have_sample ||
	       st[PSI_SOME].present || st[PSI_FULL].present;
}

static int psi_wide(struct screen *s, int y)
{
	static const char *const heads[] = {
		"some%", "avg10", "avg60", "avg300",
		"full%", "avg10", "avg60", "avg300",
	};
	move(y, 0);
	screen_draw_text(s, "PSI", false, PSI_NAME_W, false, A_BOLD);
	for (int i = 0; i < 8; i++) {
		if (i == 4)
			addstr("  ");
		screen_draw_text(s, heads[i], false, PSI_NUM_W, true, A_BOLD);
	}
	int spark_x = PSI_NAME_W + 8 * PSI_NUM_W + 4;
	int spark_w = COLS - spark_x;
	if (spark_w >= SPARK_MIN) {
		move(y, spark_x);
		screen_draw_text(s, _("history"), false, spark_w, false, A_BOLD);
	}
	int k = 0;

	for (int r = 0; r < NPSI; r++) {
		if (!psi_row_shown(s, r))
			continue;
		k++;
		move(y + k, 0);
		screen_draw_text(s, psi_res_name[r], false, PSI_NAME_W, false, A_NORMAL);
		psi_kind_cells(s, &s->snap.s.psi.s[r][PSI_SOME]);
		addstr("  ");
		psi_kind_cells(s, &s->snap.s.psi.s[r][PSI_FULL]);
		if (spark_w >= SPARK_MIN) {
			move(y + k, spark_x);
			sparkline(s, r, spark_w - 1);
		}
	}
	return 1 + k;
}

static void psi_compact(struct screen *s, int y)
{
	static const char *const short_name[NPSI] = { "cpu", "mem", "io", "irq" };
	int x = 0;
	piece(s, y, &x, _("PSI some/full%"), A_BOLD);
	for (int r = 0; r < NPSI; r++) {
		char some[16] = "-", full[16] = "-", buf[64];

		if (!psi_row_shown(s, r))
			continue;
		const struct psi_stat *a = &s->snap.s.psi.s[r][PSI_SOME];
		const struct psi_stat *b = &s->snap.s.psi.s[r][PSI_FULL];
		if (a->present && a->have_pct)
			snprintf(some, sizeof(some), "%.1f", a->pct);
		if (b->present && b->have_pct)
			snprintf(full, sizeof(full), "%.1f", b->pct);
		snprintf(buf, sizeof(buf), "%s %s/%s", short_name[r], some, full);
		double worst = a->present && a->have_pct ? a->pct : 0;
		if (b->present && b->have_pct && b->pct > worst)
			worst = b->pct;
		if (!piece(s, y, &x, buf, pct_role(s, worst)))
			break;
	}
}

/* Bytes as the meters show them: 1.2G, 512M (binary units). */
static void bytes_text(char *buf, size_t size, uint64_t v)
{
	static const char units[] = "KMGTPE";
	double x = (double)v / 1024.0;
	int u = 0;
	while (x >= 1024.0 && units[u + 1]) {
		x /= 1024.0;
		u++;
	}
	snprintf(buf, size, x < 10 ? "%.1f%c" : "%.0f%c", x, units[u]);
}

/* A piece of the meters line only when it fits whole. */
static bool meter(struct screen *s, int y, int *x, const char *text,
		  attr_t attr)
{
	if (*x + textwidth_width(text) > COLS)
		return false;
	return piece(s, y, x, text, attr);
}

/*
 * The machine at a glance, as top shows it: load averages, CPU busy,
 * memory and swap used of total. Pieces that do not fit whole are left
 * out from the right (swap first).
 */
static void machine_line(struct screen *s, int y)
{
	const struct sample_machine *mc = &s->snap.s.machine;
	char buf[128], a[32], b[32];
	int x = 0;
	const char *none = s->m ? producer_words(s->m, PRODUCER_WORDS_NO_MACHINE)
				: NULL;
	if (none && !mc->have_load && !mc->have_cpu && !mc->have_mem &&
	    !mc->have_swap) {
		/* the producer says why it has none of them */
		move(y, 0);
		screen_draw_text(s, none, false, COLS, false, s->attr[R_NOTICE]);
		return;
	}
	if (mc->have_load)
		snprintf(buf, sizeof(buf), _("load %.2f %.2f %.2f"), mc->load[0],
			 mc->load[1], mc->load[2]);
	else
		snprintf(buf, sizeof(buf), "%s", _("load -"));
	if (!meter(s, y, &x, buf, A_NORMAL))
		return;
	if (mc->have_cpu)
		snprintf(buf, sizeof(buf), _("CPU %.1f%% busy"), mc->cpu_busy);
	else
		snprintf(buf, sizeof(buf), "%s", _("CPU -"));
	if (!meter(s, y, &x, buf, mc->have_cpu ? pct_role(s, mc->cpu_busy)
					       : A_NORMAL))
		return;
	if (mc->have_mem) {
		bytes_text(a, sizeof(a), mc->mem_used);
		bytes_text(b, sizeof(b), mc->mem_total);
		snprintf(buf, sizeof(buf), _("mem %s/%s"), a, b);
	} else {
		snprintf(buf, sizeof(buf), "%s", _("mem -"));
	}
	if (!meter(s, y, &x, buf, A_NORMAL))
		return;
	if (mc->have_swap && mc->swap_total) {
		bytes_text(a, sizeof(a), mc->swap_used);
		bytes_text(b, sizeof(b), mc->swap_total);
		snprintf(buf, sizeof(buf), _("swap %s/%s"), a, b);
	} else if (mc->have_swap) {
		snprintf(buf, sizeof(buf), "%s", _("no swap"));
	} else {
		snprintf(buf, sizeof(buf), "%s", _("swap -"));
	}
	meter(s, y, &x, buf, A_NORMAL);
}

int screen_header_draw(struct screen *s, int y)
{
	bool wide = COLS >= PSI_WIDE_COLS && LINES >= PSI_WIDE_LINES;

	title_line(s, y++);
	if (delayacct_banner(s, y))
		y++;
	status_line(s, y++);
	if (s->have_sample)
		machine_line(s, y++);
	y += notices(s, y, LINES >= PSI_WIDE_LINES ? MAX_NOTICES :
			   LINES >= 15 ? 1 : 0);
	if (s->have_sample && !psi_any(s)) {
		move(y++, 0);
		screen_draw_text(s, _("PSI not available (/proc/pressure missing)"), false,
			  COLS, false, s->attr[R_NOTICE]);
	} else if (wide) {
		y += psi_wide(s, y);
	} else {
		psi_compact(s, y++);
	}
	return y;
}
