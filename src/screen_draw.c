/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Drawing helpers of the screen: width-aware text, the help page and the
 * message for a terminal that is too small.
 */
#include <config.h>

#include <stdio.h>
#include <string.h>

#include "escape.h"
#include "nls.h"
#include "screen_int.h"
#include "textwidth.h"

void draw_text(struct screen *s, const char *text, bool raw, int cols,
	       bool right, attr_t attr)
{
	char buf[1024];
	if (cols <= 0)
		return;
	if (!text)
		text = "";
	if (raw)
		escape_text(text, buf, sizeof(buf));
	else
		snprintf(buf, sizeof(buf), "%s", text);
	if (!s->utf8) {
		/* the terminal cannot show them: keep the columns straight */
		for (char *p = buf; *p; p++)
			if ((unsigned char)*p >= 0x80)
				*p = '?';
	}
	int w;
	size_t bytes = text_fit(buf, cols, &w);
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

void draw_fill(int y, int x, int cols, attr_t attr)
{
	if (cols <= 0)
		return;
	move(y, x);
	attrset(attr);
	printw("%*s", cols, "");
	attrset(A_NORMAL);
}

void draw_help(struct screen *s)
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
	draw_text(s, title, false, COLS, false, s->attr[R_TITLE]);
	for (int i = 0; i < body && s->help_top + i < (int)h->n; i++) {
		size_t line = (size_t)(s->help_top + i);
		move(1 + i, 0);
		draw_text(s, h->lines[line], false, COLS, false,
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
	draw_text(s, foot, false, COLS, false, s->attr[R_TITLE]);
}

static void centred(struct screen *s, int y, const char *text, attr_t attr)
{
	int w = text_width(text);
	int x = w < COLS ? (COLS - w) / 2 : 0;
	if (y < 0 || y >= LINES)
		return;
	move(y, x);
	draw_text(s, text, false, COLS - x, false, attr);
}

void draw_too_small(struct screen *s)
{
	char line[256];
	snprintf(line, sizeof(line), _("terminal too small: %dx%d"), COLS, LINES);
	centred(s, LINES / 2 - 1, line, A_BOLD);
	snprintf(line, sizeof(line), _("need at least %dx%d"), SCREEN_MIN_COLS,
		 SCREEN_MIN_LINES);
	centred(s, LINES / 2, line, A_NORMAL);
	centred(s, LINES / 2 + 1, _("q quits"), A_NORMAL);
}
