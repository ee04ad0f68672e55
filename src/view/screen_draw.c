/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Drawing helpers of the screen: width-aware text, the columns, header
 * and scrolling of the table views, the help page and the message for a
 * terminal that is too small.
 */
#include <config.h>

#include <stdio.h>
#include <string.h>

#include "lib/escape.h"
#include "lib/nls.h"
#include "lib/textwidth.h"
#include "view/screen_int.h"

/*
 * Where to cut escaped text at or before n so that no escape (\\, \n,
 * \t, \e, \xHH) is split: a backslash there always starts one.
 */
static size_t escapes_whole(const char *buf, size_t n)
{
	size_t i = 0, last = 0;
	while (i < n) {
		last = i;
		if (buf[i] == '\\' && buf[i + 1])
			i += buf[i + 1] == 'x' ? 4 : 2;
		else
			i++;
	}
	return i == n ? n : last;
}

void screen_draw_text(struct screen *s, const char *text, bool raw, int cols,
	       bool right, attr_t attr)
{
	char text_buf[1024], buf[1024];
	if (cols <= 0)
		return;
	if (!text)
		text = "";
	if (raw)
		escape_text(text, text_buf, sizeof(text_buf));
	else
		snprintf(text_buf, sizeof(text_buf), "%s", text);
	if (!s->utf8) {
		/* the terminal cannot show them: keep the columns straight */
		for (char *p = text_buf; *p; p++)
			if ((unsigned char)*p >= 0x80)
				*p = '?';
		memcpy(buf, text_buf, sizeof(buf));
	} else {
		/* what curses draws takes the cells textwidth counts */
		textwidth_settle(text_buf, buf, sizeof(buf));
	}
	int w;
	size_t bytes = textwidth_fit(buf, cols, &w);
	size_t whole = escapes_whole(buf, bytes);
	w -= (int)(bytes - whole); /* an escape is ASCII: a cell a byte */
	bytes = whole;
	attr_t old_attr;
	short old_pair;
	attr_get(&old_attr, &old_pair, NULL);
	attrset(attr);
	if (right)
		printw("%*s", cols - w, "");
	addnstr(buf, (int)bytes);
	if (!right)
		printw("%*s", cols - w, "");
	attr_set(old_attr, old_pair, NULL);
}

void screen_draw_fill(int y, int x, int cols, attr_t attr)
{
	if (cols <= 0)
		return;
	move(y, x);
	attrset(attr);
	printw("%*s", cols, "");
	attrset(A_NORMAL);
}

/* Cells the shown columns take, the flexible one at its least. */
static int needed_width(const struct col_layout *l)
{
	int w = l->flex_min;
	for (int i = 0; i < l->n; i++) {
		int width = fields_get(l->ids[i])->width;
		if (l->shown[l->ids[i]] && width)
			w += width + 1;
	}
	return w;
}

static void drop(const struct col_layout *l, int col)
{
	if (!l->shown[col] || col == l->sorted)
		return;
	l->shown[col] = false;
	(*l->hidden)++;
}

static void fit(const struct screen *s, const struct col_layout *l)
{
	double max[NCAT];
	for (int id = 0; id < NFIELD; id++)
		l->shown[id] = false;
	for (int i = 0; i < l->n; i++)
		l->shown[l->ids[i]] = !l->want || l->want(s, l->ids[i]);
	*l->hidden = 0;
	for (size_t i = 0; i < l->nfirst && needed_width(l) > COLS; i++)
		drop(l, l->first[i]);
	if (needed_width(l) > COLS)
		for (int c = 0; c < NCAT; c++)
			max[c] = l->max(s, FIELD_CAT + c);
	while (needed_width(l) > COLS) {
		int least = -1;
		for (int c = NCAT - 1; c >= 0; c--)
			if (l->shown[FIELD_CAT + c] && FIELD_CAT + c != l->sorted &&
			    (least < 0 || max[c] < max[least]))
				least = c;
		if (least < 0)
			break;
		drop(l, FIELD_CAT + least);
	}
	for (size_t i = 0; i < l->nlast && needed_width(l) > COLS; i++)
		drop(l, l->last[i]);

	int x = 0;
	for (int i = 0; i < l->n; i++) {
		int id = l->ids[i], width = fields_get(id)->width;
		if (!l->shown[id])
			continue;
		l->x[id] = x;
		l->w[id] = width ? width : COLS - x;
		x += l->w[id] + 1;
	}
}

static void header_row(struct screen *s, const struct col_layout *l, int y)
{
	screen_draw_fill(y, 0, COLS, s->attr[R_TITLE]);
	for (int i = 0; i < l->n; i++) {
		int id = l->ids[i];
		const struct field *f = fields_get(id);
		if (!l->shown[id])
			continue;
		char text[64];
		l->title(s, id, text, sizeof(text));
		int w = l->w[id];
		if (!f->width && textwidth_width(text) < w)
			w = textwidth_width(text);
		move(y, l->x[id]);
		screen_draw_text(s, text, false, w, !(f->flags & FIELD_LEFT),
			  id == l->sorted ? s->attr[R_SORTED]
					  : s->attr[R_TITLE] | A_BOLD);
	}
}

bool screen_draw_table_begin(struct screen *s, const struct col_layout *l, int y,
		      int h)
{
	s->table_y = -1;
	s->rows_h = 0;
	if (h < 2)
		return false;
	fit(s, l);
	s->table_y = y;
	header_row(s, l, y);
	s->rows_y = y + 1;
	s->rows_h = h - 1;
	return true;
}

void screen_draw_table_cell(struct screen *s, const struct col_layout *l, int y,
		     int col, const char *text, bool raw, attr_t attr)
{
	move(y, l->x[col]);
	screen_draw_text(s, text, raw, l->w[col],
			 !(fields_get(col)->flags & FIELD_LEFT), attr);
}

void screen_draw_table_empty(struct screen *s, const char *text)
{
	move(s->rows_y, 1);
	screen_draw_text(s, text, false, COLS - 1, false, s->attr[R_NOTICE]);
}

size_t screen_draw_table_top(size_t top, size_t cur, size_t n, size_t rows)
{
	if (cur < top)
		top = cur;
	if (cur >= top + rows)
		top = cur - rows + 1;
	if (n > rows && top > n - rows)
		top = n - rows;
	if (n <= rows)
		top = 0;
	return top;
}

int screen_draw_column_at(int n, const bool *shown, const int *cx, const int *cw,
		   int x)
{
	for (int i = 0; i < n; i++)
		if (shown[i] && x >= cx[i] && x < cx[i] + cw[i] + 1)
			return i;
	return -1;
}

void screen_draw_help(struct screen *s)
{
	const struct help_text *h = &s->help_text;
	int body = LINES - 2;
	int max_top = (int)h->n > body ? (int)h->n - body : 0;
	if (s->help_top > max_top)
		s->help_top = max_top;
	if (s->help_top < 0)
		s->help_top = 0;

	char title[256];
	snprintf(title, sizeof(title), _(" Help: %s"), PACKAGE);
	move(0, 0);
	screen_draw_text(s, title, false, COLS, false, s->attr[R_TITLE]);
	for (int i = 0; i < body && s->help_top + i < (int)h->n; i++) {
		size_t line = (size_t)(s->help_top + i);
		move(1 + i, 0);
		screen_draw_text(s, h->lines[line], false, COLS, false,
			  h->title[line] ? A_BOLD : A_NORMAL);
	}
	char foot[256];
	snprintf(foot, sizeof(foot),
		 _(" lines %d-%d of %zu   Up/Down PgUp/PgDn Home/End scroll, "
		   "q Esc h close"),
		 h->n ? s->help_top + 1 : 0,
		 s->help_top + body < (int)h->n ? s->help_top + body : (int)h->n,
		 h->n);
	move(LINES - 1, 0);
	screen_draw_text(s, foot, false, COLS, false, s->attr[R_TITLE]);
}

static void centred(struct screen *s, int y, const char *text, attr_t attr)
{
	int w = textwidth_width(text);
	int x = w < COLS ? (COLS - w) / 2 : 0;
	if (y < 0 || y >= LINES)
		return;
	move(y, x);
	screen_draw_text(s, text, false, COLS - x, false, attr);
}

void screen_draw_too_small(struct screen *s)
{
	char line[256];
	snprintf(line, sizeof(line), _("terminal too small: %dx%d"), COLS, LINES);
	centred(s, LINES / 2 - 1, line, A_BOLD);
	snprintf(line, sizeof(line), _("need at least %dx%d"), SCREEN_MIN_COLS,
		 SCREEN_MIN_LINES);
	centred(s, LINES / 2, line, A_NORMAL);
	centred(s, LINES / 2 + 1, _("q quits"), A_NORMAL);
}
