/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The screen's key map. Each area of the screen (actions_*.c) lists its
 * actions as rows of (keys, function, help); this file joins them into
 * one table that drives both the dispatch and the help screen, so the
 * help lists every bound key. Adding a key is a row and a function in
 * the area's file.
 */
#ifndef STALLTOP_KEYS_H
#define STALLTOP_KEYS_H

#include <stdbool.h>
#include <stddef.h>

struct screen;

/*
 * What a key does. arg is the row's (the sort key of a sort shortcut).
 * The whole screen is drawn again after every key, so an action returns
 * nothing.
 */
typedef void key_action_fn(struct screen *s, int arg);

/* The help screen's sections, in their order; each has its area's rows. */
enum key_section {
	KS_MOVE,
	KS_SORT,
	KS_FILTER,
	KS_CGROUP,
	KS_REPLAY,
	KS_TASK,
	KS_CONTROL,
	NKS
};

/* Key codes the curses KEY_ names leave out. */
#define KEYS_CTRL(c) ((c) & 0x1f)
#define KEYS_ESC 27
#define KEYS_DEL 127

/* Keys of one row; 0 ends the list. */
#define KEYS_PER_ACTION 4

/* In a row's keys: one binding per category, its sort shortcut. */
#define KEYS_CATEGORY_SHORTCUTS -2

/* One row of an area's table; a row with no action ends the table. */
struct key_def {
	int keys[KEYS_PER_ACTION];
	key_action_fn *action;
	int arg;
	/*
	 * N_() text, one help line for all the row's keys. For
	 * KEYS_CATEGORY_SHORTCUTS (and the other sort keys) it is a format
	 * taking the column's name.
	 */
	const char *help;
};

/* One bound key: the rows spelled out, one per key. */
struct key_binding {
	int key;            /* curses key code or character */
	key_action_fn *action;
	int arg;
	enum key_section section;
	/* consecutive bindings with the same text share one help line */
	const char *help;
};

/* The whole table, the sections in order. */
const struct key_binding *keys_table(size_t *n);

/* The binding for a key, or NULL. */
const struct key_binding *keys_lookup(int key);

/* The key's name as the help shows it: "q", "F10", "Up", "Space", "Enter". */
const char *keys_name(int key, char *buf, size_t size);

/* The first key bound to an action (with that arg), or -1. */
int keys_for_action(key_action_fn *a, int arg);

#endif
