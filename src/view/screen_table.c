/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The screen's task table: which columns fit, their headers (the sorted
 * one marked, clickable), and one line per row with severity colours,
 * dimmed exited tasks, highlighted new ones and the selection bar.
 */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lib/escape.h"
#include "lib/nls.h"
#include "lib/textwidth.h"
#include "model/producer.h"
#include "model/rowwhy.h"
#include "view/screen_int.h"

/* COMMAND keeps at least this many cells before columns are dropped. */
#define COMMAND_MIN 12

const char *screen_table_metric_label(enum metric m)
{
	switch (m) {
	case METRIC_AVG:
		return _("avg ms/event");
	case METRIC_RATE:
		return _("events/s");
	case METRIC_MAX:
		return _("max ms in interval");
	default:
		/* xgettext:no-c-format */
		return _("% of interval");
	}
}

void screen_table_fmt_num(char *buf, size_t size, double v, int width, bool ms)
{
	int decimals = ms && v < 10 ? 2 : 1;
	if (v >= 1000)
		decimals = 0;
	snprintf(buf, size, "%.*f", decimals, v);
	if ((int)strlen(buf) <= width)
		return;
	static const char suffix[] = "kMGT";
	for (int i = 0; i < 4; i++) {
		v /= 1000;
		snprintf(buf, size, "%.0f%c", v, suffix[i]);
		if ((int)strlen(buf) <= width)
			return;
	}
}

struct field_ctx screen_table_ctx(const struct screen *s)
{
	return (struct field_ctx){
		.fmt = FIELD_FMT_SCREEN, .cmdline = s->cmdline,
		.metric = s->sel.metric, .interval = s->snap.s.interval,
	};
}

/* A figure, or NAN when the value is absent or no number. */
static double figure(const struct field *f, const struct field_value *v)
{
	if (f->type != FIELD_NUM && f->type != FIELD_INT)
		return NAN;
	return v->have ? v->num : NAN;
}

static double cell_value(const struct screen *s, const struct row *r, int col)
{
	struct field_ctx ctx = screen_table_ctx(s);
	struct field_value v;
	fields_row_value(col, r, &ctx, &v);
	return figure(fields_get(col), &v);
}

void screen_table_format(const struct field *f, const struct field_value *v,
			 bool ms, char *buf, size_t size)
{
	double x = figure(f, v);
	if (!v->have || (f->type == FIELD_NUM && isnan(x)))
		snprintf(buf, size, "-");
	else if (f->type == FIELD_NUM)
		screen_table_fmt_num(buf, size, x, f->width, ms);
	else if (f->type == FIELD_INT)
		snprintf(buf, size, "%lld", v->i);
	else if (v->brackets)
		snprintf(buf, size, "[%s]", v->str);
	else
		snprintf(buf, size, "%s", v->str);
}

/* A delay column in ms (avg, max) shows more decimals. */
static bool in_ms(const struct screen *s, int col)
{
	return fields_cat(col) >= 0 &&
	       (s->sel.metric == METRIC_AVG || s->sel.metric == METRIC_MAX);
}

void screen_table_cell(const struct screen *s, const struct row *r, int col,
		char *buf, size_t size)
{
	struct field_ctx ctx = screen_table_ctx(s);
	struct field_value v;
	int cat = fields_cat(col);

	if (cat >= 0 && r->d[cat].dropped) {
		/* the kernel's figure cannot be true (see the help) */
		snprintf(buf, size, "!");
		return;
	}
	fields_row_value(col, r, &ctx, &v);
	screen_table_format(fields_get(col), &v, in_ms(s, col), buf, size);
}

attr_t screen_table_value_role(const struct screen *s, int id,
			       const struct field_value *v)
{
	const struct field *f = fields_get(id);
	if (f->type != FIELD_NUM)
		return A_NORMAL;
	double x = figure(f, v);
	if (isnan(x) || x <= 0)
		return s->attr[R_LOW];
	if (!(f->flags & FIELD_STALL))
		return A_NORMAL;
	return screen_table_figure_role(s, x, fields_cat(id) >= 0 ? s->sel.metric
								 : METRIC_PCT);
}

/* How a figure looks: the size of a stall decides. */
static attr_t cell_role(const struct screen *s, const struct row *r, int col)
{
	int cat = fields_cat(col);
	if (cat >= 0 && r->d[cat].dropped)
		return s->attr[R_WARN];
	struct field_ctx ctx = screen_table_ctx(s);
	struct field_value v;
	fields_row_value(col, r, &ctx, &v);
	return screen_table_value_role(s, col, &v);
}

attr_t screen_table_figure_role(const struct screen *s, double v, enum metric m)
{
	if (isnan(v) || v <= 0)
		return s->attr[R_LOW];
	double warn = 10, severe = 50;
	if (m == METRIC_RATE)
		return A_NORMAL;
	if (m == METRIC_AVG || m == METRIC_MAX)
		warn = 10, severe = 100;
	if (v >= severe)
		return s->attr[R_SEVERE];
	if (v >= warn)
		return s->attr[R_WARN];
	return A_NORMAL;
}

/* The largest figure of a column in the view (0 when none). */
static double column_max(const struct screen *s, int col)
{
	double max = 0;
	for (size_t i = 0; i < s->nview; i++) {
		double v = cell_value(s, &s->view[i], col);
		if (!isnan(v) && v > max)
			max = v;
	}
	return max;
}

/* The header of a column; COMMAND tells how many columns did not fit. */
static void title(const struct screen *s, int col, char *text, size_t size)
{
	const char *h = fields_get(col)->header;
	bool flex = !fields_get(col)->width;   /* the command */
	/* beside ms or events, TOTAL carries its unit */
	if (col == FIELD_TOTAL && s->sel.metric != METRIC_PCT)
		h = "TOTAL%";
	if (flex && s->cmdline)
		h = _("COMMAND LINE");
	if (flex && s->hscroll > 0) {
		/* scrolled: say from which cell the lines are shown */
		snprintf(text, size, _("%s from cell %d"), h, s->hscroll + 1);
		return;
	}
	if (!flex || !s->cols_hidden) {
		snprintf(text, size, "%s", h);
		return;
	}
	/*
	 * One form of the marker, as in the cgroup view; a narrow column
	 * cuts the name before it rather than the count.
	 */
	char mark[64];
	int room;

	snprintf(mark, sizeof(mark), _("(+%d hidden)"), s->cols_hidden);
	room = s->col_w[col] - textwidth_width(mark) - 1;
	if (room > 0)
		snprintf(text, size, "%.*s %s",
			 (int)textwidth_fit(h, room, NULL), h, mark);
	else
		snprintf(text, size, "%s", mark);
}

/*
 * WHY is there where a shown row has a cause to tell (and room for it),
 * so that a table without stalls looks as it always did.
 */
static bool want(const struct screen *s, int col)
{
	size_t end;

	if (col != FIELD_WHY)
		return true;
	end = s->top + (s->rows_h > 0 ? (size_t)s->rows_h : (size_t)LINES);
	for (size_t i = s->top; i < s->nview && i < end; i++)
		if (*rowwhy_main(&s->view[i]))
			return true;
	return false;
}

/*
 * The table's columns: when they do not fit, WHY goes first, then the
 * category with the smallest figures (the sorted one stays), then USER,
 * S and CPU%.
 */
static struct col_layout columns(struct screen *s)
{
	static const int last_resort[] = { FIELD_USER, FIELD_STATE, FIELD_CPU_PCT };
	static const int first[] = { FIELD_WHY };
	struct col_layout l = {
		.first = first, .nfirst = 1, .want = want,
		.flex_min = COMMAND_MIN, .sorted = s->sel.sort,
		.last = last_resort,
		.nlast = sizeof(last_resort) / sizeof(last_resort[0]),
		.max = column_max, .title = title,
		.shown = s->col_shown, .x = s->col_x, .w = s->col_w,
		.hidden = &s->cols_hidden,
	};
	l.ids = screen_setup_columns(s, &l.n);
	return l;
}

/* The COMMAND cell as shown: escaped, hscroll cells scrolled off. */
static const char *command_text(const struct screen *s, const char *text,
				bool raw, char *buf, size_t size)
{
	size_t off;

	if (raw)
		escape_text(text, buf, size);
	else
		snprintf(buf, size, "%s", text);
	if (s->hscroll <= 0)
		return buf;
	off = textwidth_fit(buf, s->hscroll, NULL);
	return buf + off;
}

int screen_table_command_width(const struct screen *s)
{
	size_t h = s->rows_h > 0 ? (size_t)s->rows_h : (size_t)LINES;
	int widest = 0;

	for (size_t i = s->top; i < s->nview && i < s->top + h; i++) {
		char raw[4096], buf[4096 * 4];
		int w;

		screen_table_cell(s, &s->view[i], FIELD_COMM, raw, sizeof(raw));
		escape_text(raw, buf, sizeof(buf));
		w = textwidth_width(buf);
		if (w > widest)
			widest = w;
	}
	/* what does not fit in the column is what scrolling brings in */
	return s->col_shown[FIELD_COMM] ? widest - s->col_w[FIELD_COMM] : 0;
}

static void row_line(struct screen *s, const struct col_layout *l, int y,
		     const struct row *r, bool selected)
{
	attr_t base = A_NORMAL;
	bool exited = r->flags & ROW_EXITED, fresh = r->flags & ROW_NEW;
	/* as htop: a new task's row green, an ended one's red, for the one
	   refresh of the interval it started or ended in */
	if (selected)
		base = s->attr[R_SELECTED];
	else if (exited)
		base = s->attr[R_EXITED];
	else if (fresh)
		base = s->attr[R_NEW];
	screen_draw_fill(y, 0, COLS, base);
	for (int k = 0; k < l->n; k++) {
		int i = l->ids[k];
		unsigned flags = fields_get(i)->flags;
		if (!s->col_shown[i])
			continue;
		char buf[4096];
		screen_table_cell(s, r, i, buf, sizeof(buf));
		bool raw = flags & FIELD_RAW;
		if (i == FIELD_COMM && s->tree_on && r >= s->view &&
		    r < s->view + s->nview) {
			/* the connectors, then the name escaped here */
			char pre[3 * 3 * (TREE_MAX_DRAWN + 1)], esc[sizeof(buf)];
			tree_prefix(&s->tree_lines[r - s->view], s->utf8, pre,
				    sizeof(pre));
			size_t pl = strlen(pre);
			memcpy(esc, pre, pl + 1);
			escape_text(buf, esc + pl, sizeof(esc) - pl);
			memcpy(buf, esc, sizeof(buf));
			raw = false;
		}
		attr_t a = base;
		if (!selected && !exited && !fresh)
			a = cell_role(s, r, i);
		if (i == FIELD_COMM) {
			/* scrolled by Left and Right: escaped here, then cut */
			char esc[sizeof(buf) * 4];

			screen_draw_table_cell(s, l, y, i,
					       command_text(s, buf, raw, esc,
							    sizeof(esc)),
					       false, a);
			continue;
		}
		screen_draw_table_cell(s, l, y, i, buf, raw, a);
	}
}

/* Why the table is empty. */
static void empty_text(const struct screen *s, char *buf, size_t size)
{
	const struct sample *smp = &s->snap.s;
	bool thread_rows = s->drill_tgid || s->threads_all;
	/* thread rows only as the samples hold them (not made when asked) */
	bool stored = s->m && !producer_makes_threads(s->m);
	if (!s->have_sample || s->collecting)
		snprintf(buf, size, "%s", _("waiting for the first sample..."));
	else if (stored && thread_rows && !smp->threads)
		snprintf(buf, size, "%s",
			 producer_refusal(s->m, PRODUCER_WORDS_NO_THREADS));
	else if (stored && s->drill_tgid && !smp->nrows && !smp->nexited)
		snprintf(buf, size, _("no thread of process %d is recorded in "
				      "this sample"), (int)s->drill_tgid);
	else if (s->zoom && !s->drill_tgid && !smp->nrows && !smp->nexited)
		snprintf(buf, size, "%s", _("no task in this sample"));
	else if (s->zoom && !s->drill_tgid)
		snprintf(buf, size, "%s",
			 _("no task of this cgroup matches (Esc goes back to "
			   "the cgroups)"));
	else
		snprintf(buf, size, "%s",
			 _("no task matches (keys \\ u p o change the filters)"));
}

void screen_table_draw(struct screen *s, int y, int h)
{
	struct col_layout l = columns(s);
	if (!screen_draw_table_begin(s, &l, y, h))
		return;
	if (!s->nview) {
		char text[256];
		empty_text(s, text, sizeof(text));
		screen_draw_table_empty(s, text);
		return;
	}
	size_t rows = (size_t)s->rows_h;
	s->top = screen_draw_table_top(s->top, s->cur, s->nview, rows);
	for (size_t i = 0; i < rows && s->top + i < s->nview; i++) {
		size_t k = s->top + i;
		row_line(s, &l, s->rows_y + (int)i, &s->view[k], k == s->cur);
	}
}

int screen_table_sort_at(const struct screen *s, int x)
{
	int i = screen_draw_column_at(NFIELD, s->col_shown, s->col_x, s->col_w, x);
	return i >= 0 && (fields_get(i)->flags & FIELD_SORT) ? i : -1;
}
