/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The task table's columns: which the screen shows and in which order,
 * and their setup (F2, as htop's): a list of every column, Space shows
 * or hides one, F7/F8 (or - and +) move it; closing saves the settings
 * (the file's "columns"). Until columns are chosen the screen shows the
 * default ones: not those marked FIELD_OFF (fields.h), nor IRQ where
 * the kernel collects no IRQ time.
 */
#include <config.h>

#include <stdio.h>
#include <string.h>

#include "lib/nls.h"
#include "model/layouts.h"
#include "view/actions.h"
#include "view/screen_int.h"

/*
 * The kernel collects no IRQ time (CONFIG_IRQ_TIME_ACCOUNTING): where
 * PSI is on, the irq pressure file comes with it (monitor.c tells the
 * same way), so a sample with cpu pressure and none for irq says so.
 */
static bool no_irq_time(const struct screen *s)
{
	const struct psi_stat *irq = s->snap.s.psi.s[PSI_IRQ];

	return s->have_sample && s->snap.s.psi.s[PSI_CPU][PSI_SOME].present &&
	       !irq[PSI_SOME].present && !irq[PSI_FULL].present;
}

const char *screen_setup_off_reason(const struct screen *s, int id)
{
	if (id == FIELD_CAT + CAT_IRQ && no_irq_time(s))
		return _("the kernel collects no IRQ time here");
	if (fields_get(id)->flags & FIELD_OFF)
		return _("shown when chosen");
	return NULL;
}

void screen_setup_init(struct screen *s)
{
	int n;
	const int *ids = layouts_fields(FIELD_LAYOUT_SCREEN, &n);
	const struct screen_settings *set = &s->set;

	s->ncols = 0;
	/* the chosen ones first, in their order; then the others, hidden */
	for (int i = 0; i < set->ncolumns; i++) {
		s->cols[s->ncols++] = set->columns[i];
		s->col_on[set->columns[i]] = true;
	}
	for (int i = 0; i < n; i++) {
		bool listed = false;

		for (int k = 0; k < s->ncols && !listed; k++)
			listed = s->cols[k] == ids[i];
		if (!listed)
			s->cols[s->ncols++] = ids[i];
	}
	s->cols_custom = set->ncolumns > 0;
}

/* Whether a column is shown (before the width decides). */
static bool is_on(const struct screen *s, int id)
{
	if (id == FIELD_COMM)
		return true;
	if (s->cols_custom)
		return s->col_on[id];
	return !screen_setup_off_reason(s, id);
}

const int *screen_setup_columns(struct screen *s, int *n)
{
	int k = 0;

	if (!s->ncols)
		screen_setup_init(s);

	for (int i = 0; i < s->ncols; i++)
		if (is_on(s, s->cols[i]))
			s->eff_cols[k++] = s->cols[i];
	*n = k;
	return s->eff_cols;
}

int screen_setup_step(struct screen *s, int id, int dir)
{
	int n;
	const int *ids = screen_setup_columns(s, &n);

	return layouts_step_in(ids, n, id, dir, FIELD_SORT);
}

void screen_setup_open(struct screen *s)
{
	if (!s->ncols)
		screen_setup_init(s);
	s->setup = true;
	s->setup_cur = 0;
	s->setup_changed = false;
}

/* The choice becomes the settings': the columns shown, in order. */
static void keep_choice(struct screen *s)
{
	int n = 0;

	for (int i = 0; i < s->ncols; i++) {
		s->col_on[s->cols[i]] = is_on(s, s->cols[i]);
		if (s->col_on[s->cols[i]])
			s->set.columns[n++] = s->cols[i];
	}
	s->set.ncolumns = n;
	s->cols_custom = true;
	s->setup_changed = true;
}

static void toggle(struct screen *s)
{
	int id = s->cols[s->setup_cur];

	if (id == FIELD_COMM) {
		screen_message(s, true, "%s", _("COMMAND takes the rest of the "
						"line: it stays, and last"));
		return;
	}
	keep_choice(s);
	s->col_on[id] = !s->col_on[id];
	keep_choice(s);
}

static void move_col(struct screen *s, int dir)
{
	int at = s->setup_cur, to = at + dir;

	if (to < 0 || to >= s->ncols || s->cols[at] == FIELD_COMM ||
	    s->cols[to] == FIELD_COMM)
		return;
	keep_choice(s);
	int id = s->cols[at];

	s->cols[at] = s->cols[to];
	s->cols[to] = id;
	s->setup_cur = to;
	keep_choice(s);
}

static void close_setup(struct screen *s)
{
	s->setup = false;
	if (s->setup_changed)
		actions_control_save(s, 0);
	screen_rebuild_view(s);
	screen_fill_current(s);
}

void screen_setup_key(struct screen *s, int key)
{
	switch (key) {
	case KEY_UP:
		if (s->setup_cur > 0)
			s->setup_cur--;
		break;
	case KEY_DOWN:
		if (s->setup_cur + 1 < s->ncols)
			s->setup_cur++;
		break;
	case KEY_HOME:
		s->setup_cur = 0;
		break;
	case KEY_END:
		s->setup_cur = s->ncols - 1;
		break;
	case ' ':
	case '\n':
	case '\r':
	case KEY_ENTER:
		toggle(s);
		break;
	case KEY_F(7):
	case '-':
		move_col(s, -1);
		break;
	case KEY_F(8):
	case '+':
		move_col(s, 1);
		break;
	case KEY_F(10):
		close_setup(s);
		screen_quit(s, 0);
		break;
	case KEY_F(2):
	case KEYS_ESC:
	case 'q':
		close_setup(s);
		break;
	}
}

void screen_setup_draw(struct screen *s)
{
	int body = LINES - 3, top = 0;
	char line[512];

	move(0, 0);
	screen_draw_text(s, _(" Columns (F2): Space shows or hides the selected "
			      "one, F7/F8 or - + move it, Esc or F2 closes and "
			      "saves"), false, COLS, false, s->attr[R_TITLE]);
	if (body < 1)
		return;
	if (s->setup_cur >= body)
		top = s->setup_cur - body + 1;
	for (int i = 0; i < body && top + i < s->ncols; i++) {
		int k = top + i, id = s->cols[k];
		const struct field *f = fields_get(id);
		const char *off = is_on(s, id) ? NULL :
				  screen_setup_off_reason(s, id);
		char why[128] = "";

		/* why it is hidden first: a long help is cut at the edge */
		if (off)
			snprintf(why, sizeof(why), "(%s) ", off);
		snprintf(line, sizeof(line), "%s %-10s %s%s",
			 is_on(s, id) ? "[x]" : "[ ]", f->header, why,
			 _(f->help));
		move(1 + i, 0);
		screen_draw_text(s, line, false, COLS, false,
				 k == s->setup_cur ? s->attr[R_SELECTED]
						   : A_NORMAL);
	}
	screen_input_draw_bottom(s, LINES - 1);
}
