/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The screen's input: a key goes to the help screen, the open prompt
 * (prompt.c) or its action in the key table (keys.c, actions_*.c); the
 * mouse scrolls, selects and sorts. And the bottom line, which shows
 * the prompt, a message or hints of the main keys.
 */
#include <config.h>

#include <stdio.h>

#include "lib/nls.h"
#include "lib/textwidth.h"
#include "model/producer.h"
#include "view/actions.h"
#include "view/screen_int.h"

#define WHEEL_STEP 3

/* The help screen has its own keys: it scrolls, and most keys leave it. */
static void help_key(struct screen *s, int key)
{
	int page = LINES - 3 > 1 ? LINES - 3 : 1;
	switch (key) {
	case KEY_UP:
		s->help_top--;
		break;
	case KEY_DOWN:
		s->help_top++;
		break;
	case KEY_PPAGE:
		s->help_top -= page;
		break;
	case KEY_NPAGE:
	case ' ':
		s->help_top += page;
		break;
	case KEY_HOME:
		s->help_top = 0;
		break;
	case KEY_END:
		s->help_top = (int)s->help_text.n;
		break;
	case KEY_F(10):
		screen_quit(s, 0);
		break;
	case 'q':
	case KEYS_ESC:
	case 'h':
	case '?':
	case KEY_F(1):
	case KEY_BACKSPACE:
	case KEYS_DEL:
		s->help = false;
		break;
	}
	if (s->help_top < 0)
		s->help_top = 0;
	/* the upper bound depends on the height; screen_draw_help clamps it */
}

void screen_input_key(struct screen *s, int key)
{
	if (s->help) {
		help_key(s, key);
		return;
	}
	if (s->prompt) {
		prompt_key(s, key);
		return;
	}
	if (s->menu.open) {
		menu_key(s, key);
		return;
	}
	if (s->setup) {
		s->msg[0] = '\0';
		screen_setup_key(s, key);
		return;
	}
	s->msg[0] = '\0';
	s->msg_error = false;
	const struct key_binding *b = keys_lookup(key);
	if (!b) {
		char name[32], help[32];
		keys_name(keys_for_action(actions_control_help, 0), help,
			  sizeof(help));
		screen_message(s, true, _("key %s does nothing; %s shows the keys"),
			       keys_name(key, name, sizeof(name)), help);
		return;
	}
	b->action(s, b->arg);
}

/* A click: on the column headers it sorts, on a row it selects. */
static void click(struct screen *s, const MEVENT *ev)
{
	bool header = s->table_y >= 0 && ev->y == s->table_y;
	bool row = ev->y >= s->rows_y && ev->y < s->rows_y + s->rows_h;
	if (s->cgview && header) {
		int col = screen_cgroup_column_at(s, ev->x);
		if (col >= 0)
			screen_cgroup_set_sort(s, col, true);
	} else if (s->cgview && row) {
		size_t i = s->cg_top + (size_t)(ev->y - s->rows_y);
		if (i < s->ncgv)
			screen_cgroup_select(s, i);
	} else if (header) {
		int k = screen_table_sort_at(s, ev->x);
		if (k >= 0)
			actions_sort_set(s, k, true);
	} else if (row) {
		size_t i = s->top + (size_t)(ev->y - s->rows_y);
		if (i < s->nview)
			actions_move_select(s, i);
	}
}

void screen_input_mouse(struct screen *s)
{
	MEVENT ev;
	if (getmouse(&ev) != OK)
		return;
	if (s->help) {
		if (ev.bstate & BUTTON4_PRESSED)
			s->help_top -= WHEEL_STEP;
		else if (ev.bstate & BUTTON5_PRESSED)
			s->help_top += WHEEL_STEP;
		if (s->help_top < 0)
			s->help_top = 0;
		return;
	}
	if (ev.bstate & BUTTON4_PRESSED)
		actions_move_by(s, -WHEEL_STEP);
	else if (ev.bstate & BUTTON5_PRESSED)
		actions_move_by(s, WHEEL_STEP);
	else if (ev.bstate & BUTTON1_PRESSED)
		click(s, &ev);
}

struct hint {
	key_action_fn *action;
	const char *label;
};

static const struct hint live_hints[] = {
	{ actions_control_help, N_("help") }, { actions_control_quit, N_("quit") },
	{ actions_sort_left, N_("sort") }, { actions_sort_metric, N_("metric") },
	{ actions_move_drill, N_("threads") },
	{ actions_filter_search, N_("search") },
	{ actions_filter_name, N_("filter") },
	{ actions_cgroup_view, N_("cgroups") },
	{ actions_control_freeze, N_("freeze") },
	{ actions_control_delay, N_("interval") },
	{ actions_control_save, N_("save") }, { NULL, NULL },
};

static const struct hint replay_hints[] = {
	{ actions_control_help, N_("help") }, { actions_control_quit, N_("quit") },
	{ actions_control_freeze, N_("pause") },
	{ actions_replay_step_forward, N_("next") },
	{ actions_replay_step_back, N_("previous") },
	{ actions_replay_jump, N_("jump") }, { actions_sort_left, N_("sort") },
	{ actions_move_drill, N_("threads") },
	{ actions_filter_search, N_("search") },
	{ actions_cgroup_view, N_("cgroups") },
	{ actions_control_delay, N_("speed") }, { NULL, NULL },
};

static const struct hint cgroup_hints[] = {
	{ actions_control_help, N_("help") }, { actions_control_quit, N_("quit") },
	{ actions_move_drill, N_("processes") },
	{ actions_cgroup_fold, N_("fold") }, { actions_cgroup_unfold, N_("unfold") },
	{ actions_sort_left, N_("sort") }, { actions_sort_metric, N_("metric") },
	{ actions_filter_search, N_("search") },
	{ actions_cgroup_view, N_("tasks") }, { NULL, NULL },
};

/* The cgroup view of a replay: stepping matters more than folding there. */
static const struct hint cgroup_replay_hints[] = {
	{ actions_control_help, N_("help") }, { actions_control_quit, N_("quit") },
	{ actions_move_drill, N_("processes") },
	{ actions_cgroup_fold, N_("fold") }, { actions_cgroup_unfold, N_("unfold") },
	{ actions_control_freeze, N_("pause") },
	{ actions_replay_step_forward, N_("next") },
	{ actions_replay_step_back, N_("previous") },
	{ actions_replay_jump, N_("jump") },
	{ actions_cgroup_view, N_("tasks") }, { NULL, NULL },
};

static void hints(struct screen *s, int y)
{
	bool seek = s->m && producer_seekable(s->m);
	const struct hint *h = s->cgview && seek ? cgroup_replay_hints
			     : s->cgview ? cgroup_hints
			     : seek ? replay_hints : live_hints;
	int x = 0;
	for (size_t i = 0; h[i].label; i++) {
		char name[32];
		const char *label = _(h[i].label);
		keys_name(keys_for_action(h[i].action, 0), name, sizeof(name));
		if (h[i].action == actions_sort_left)
			snprintf(name, sizeof(name), "< >");
		/* a replay of readings: d sets the interval, not the speed */
		if (h[i].action == actions_control_delay && seek &&
		    producer_sets_interval(s->m))
			label = _("interval");
		int w = textwidth_width(name) + 1 + textwidth_width(label);
		if (x + w >= COLS)
			break;
		move(y, x);
		screen_draw_text(s, name, false, textwidth_width(name), false, A_BOLD);
		addch(' ');
		screen_draw_text(s, label, false, textwidth_width(label), false,
				 s->attr[R_NOTICE]);
		x += w + 2;
	}
}

void screen_input_draw_bottom(struct screen *s, int y)
{
	if (s->prompt) {
		prompt_draw(s, y);
		return;
	}
	curs_set(0);
	if (s->menu.open) {
		move(y, 0);
		screen_draw_text(s, _("Up/Down or a number choose, Enter takes it, "
				      "Esc cancels"), false, COLS, false,
				 s->attr[R_NOTICE]);
		return;
	}
	if (s->msg[0]) {
		move(y, 0);
		screen_draw_text(s, s->msg, false, COLS, false,
				 s->msg_error ? s->attr[R_BANNER]
					      : s->attr[R_NOTICE]);
		return;
	}
	hints(s, y);
}
