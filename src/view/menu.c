/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A list to choose one entry from, drawn over the left of the table as
 * htop's side panel: the signals of the kill key, the IO classes and
 * levels of ionice. Up/Down (or a number typed) move, Enter chooses,
 * Esc cancels; what the choice is for comes with its callback.
 */
#include <config.h>

#include <stdio.h>
#include <string.h>

#include "lib/nls.h"
#include "lib/textwidth.h"
#include "view/screen_int.h"

void menu_open(struct screen *s, const char *title,
	       void (*chosen)(struct screen *s, int value))
{
	struct menu *m = &s->menu;
	memset(m, 0, sizeof(*m));
	snprintf(m->title, sizeof(m->title), "%s", title);
	m->chosen = chosen;
	m->open = true;
}

void menu_add(struct screen *s, const char *text, int value)
{
	struct menu *m = &s->menu;
	if (m->n == MENU_MAX)
		return;
	snprintf(m->item[m->n], sizeof(m->item[0]), "%s", text);
	m->value[m->n++] = value;
}

void menu_select_value(struct screen *s, int value)
{
	struct menu *m = &s->menu;
	for (size_t i = 0; i < m->n; i++)
		if (m->value[i] == value)
			m->cur = i;
}

void menu_key(struct screen *s, int key)
{
	struct menu *m = &s->menu;
	if (key >= '0' && key <= '9') {
		/* a number typed picks the entry of that value (two digits) */
		m->typed = m->typed * 10 + (key - '0');
		if (m->typed > 99)
			m->typed = key - '0';
		size_t before = m->cur;
		menu_select_value(s, m->typed);
		if (m->cur == before && m->value[m->cur] != m->typed) {
			m->typed = key - '0';
			menu_select_value(s, m->typed);
		}
		return;
	}
	m->typed = 0;
	switch (key) {
	case KEY_UP:
		if (m->cur > 0)
			m->cur--;
		break;
	case KEY_DOWN:
		if (m->cur + 1 < m->n)
			m->cur++;
		break;
	case KEY_HOME:
	case KEY_PPAGE:
		m->cur = 0;
		break;
	case KEY_END:
	case KEY_NPAGE:
		m->cur = m->n ? m->n - 1 : 0;
		break;
	case '\n':
	case '\r':
	case KEY_ENTER:
		m->open = false;
		if (m->n)
			m->chosen(s, m->value[m->cur]);
		break;
	case KEYS_ESC:
	case 'q':
	case KEY_F(10):
		m->open = false;
		screen_message(s, false, _("cancelled: nothing was done"));
		break;
	}
}

void menu_draw(struct screen *s, int y, int h)
{
	struct menu *m = &s->menu;
	int w = textwidth_width(m->title);
	for (size_t i = 0; i < m->n; i++)
		if (textwidth_width(m->item[i]) + 2 > w)
			w = textwidth_width(m->item[i]) + 2;
	w += 2;
	if (w > COLS)
		w = COLS;
	if (h < 2)
		return;
	move(y, 0);
	screen_draw_text(s, m->title, false, w, false, s->attr[R_TITLE]);
	int rows = h - 1;
	if (m->cur < m->top)
		m->top = m->cur;
	if (m->cur >= m->top + (size_t)rows)
		m->top = m->cur - (size_t)rows + 1;
	for (int i = 0; i < rows; i++) {
		size_t k = m->top + (size_t)i;
		move(y + 1 + i, 0);
		if (k >= m->n) {
			screen_draw_fill(y + 1 + i, 0, w, A_NORMAL);
			continue;
		}
		char text[64];
		snprintf(text, sizeof(text), " %s", m->item[k]);
		screen_draw_text(s, text, false, w, false,
				 k == m->cur ? s->attr[R_SELECTED] : A_REVERSE);
	}
}
