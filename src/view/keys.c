/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The screen's key map: the areas' rows (actions_*.c) joined into one
 * table, one binding per key, that dispatch and help both read.
 */
#include <config.h>

#include <err.h>
#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>

#include "lib/nls.h"
#include "model/categories.h"
#include "model/fields.h"
#include "view/actions.h"
#include "view/keys.h"

/* More bindings than this is a mistake in a table: raise it. */
#define KEYS_MAX 128

/* The areas in the help's order. */
static const struct {
	enum key_section section;
	const struct key_def *rows;
} parts[] = {
	{ KS_MOVE, actions_move_keys },
	{ KS_SORT, actions_sort_keys },
	{ KS_FILTER, actions_filter_keys },
	{ KS_CGROUP, actions_cgroup_keys },
	{ KS_REPLAY, actions_replay_keys },
	{ KS_TASK, actions_task_keys },
	{ KS_CONTROL, actions_control_keys },
};

static struct key_binding table[KEYS_MAX];
static size_t ntable;

static void bind(int key, const struct key_def *d, int arg,
		 enum key_section section)
{
	if (ntable == KEYS_MAX) {
		/* a mistake in the tables, not in the input */
		warnx("more than %d key bindings", KEYS_MAX);
		abort();
	}
	table[ntable++] = (struct key_binding){
		.key = key, .action = d->action, .arg = arg,
		.section = section, .help = d->help,
	};
}

static void bind_row(const struct key_def *d, enum key_section section)
{
	for (size_t k = 0; k < KEYS_PER_ACTION && d->keys[k]; k++) {
		if (d->keys[k] != KEYS_CATEGORY_SHORTCUTS) {
			bind(d->keys[k], d, d->arg, section);
			continue;
		}
		for (int c = 0; c < NCAT; c++)
			bind(categories[c].sort_shortcut, d, FIELD_CAT + c,
			     section);
	}
}

const struct key_binding *keys_table(size_t *n)
{
	if (!ntable)
		for (size_t p = 0; p < sizeof(parts) / sizeof(parts[0]); p++)
			for (const struct key_def *d = parts[p].rows; d->action; d++)
				bind_row(d, parts[p].section);
	*n = ntable;
	return table;
}

const struct key_binding *keys_lookup(int key)
{
	size_t n;
	const struct key_binding *t = keys_table(&n);
	for (size_t i = 0; i < n; i++)
		if (t[i].key == key)
			return &t[i];
	return NULL;
}

int keys_for_action(key_action_fn *a, int arg)
{
	size_t n;
	const struct key_binding *t = keys_table(&n);
	for (size_t i = 0; i < n; i++)
		if (t[i].action == a && t[i].arg == arg)
			return t[i].key;
	return -1;
}

const char *keys_name(int key, char *buf, size_t size)
{
	static const struct {
		int key;
		const char *name;
	} names[] = {
		{ KEY_UP, N_("Up") }, { KEY_DOWN, N_("Down") },
		{ KEY_LEFT, N_("Left") }, { KEY_RIGHT, N_("Right") },
		{ KEY_PPAGE, N_("PgUp") }, { KEY_NPAGE, N_("PgDn") },
		{ KEY_HOME, N_("Home") }, { KEY_END, N_("End") },
		{ '\n', N_("Enter") }, { '\r', N_("Enter") },
		{ KEY_ENTER, N_("Enter") }, { KEYS_ESC, N_("Esc") },
		{ KEY_BACKSPACE, N_("Backspace") }, { KEYS_DEL, N_("Backspace") },
		{ KEYS_CTRL('h'), N_("Backspace") }, { ' ', N_("Space") },
	};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].key == key) {
			snprintf(buf, size, "%s", _(names[i].name));
			return buf;
		}
	if (key >= KEY_F(1) && key <= KEY_F(63))
		snprintf(buf, size, "F%d", key - KEY_F0);
	else if (key > ' ' && key < KEYS_DEL)
		snprintf(buf, size, "%c", key);
	else if (key >= 0 && key < ' ')
		snprintf(buf, size, "Ctrl-%c", key + '@');
	else
		snprintf(buf, size, "#%d", key);
	return buf;
}
