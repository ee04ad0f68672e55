/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The screen's key map: one table of (key, action, help text) that drives
 * both the dispatch and the help screen, so the help lists every bound key.
 */
#ifndef STALLTOP_KEYS_H
#define STALLTOP_KEYS_H

#include <stdbool.h>
#include <stddef.h>

enum action {
	ACT_NONE,
	ACT_QUIT,
	ACT_HELP,
	ACT_UP,
	ACT_DOWN,
	ACT_PAGE_UP,
	ACT_PAGE_DOWN,
	ACT_HOME,
	ACT_END,
	ACT_DRILL,          /* Enter: threads of the selected process */
	ACT_BACK,           /* leave the thread view */
	ACT_THREADS,        /* all-threads mode */
	ACT_SORT_LEFT,
	ACT_SORT_RIGHT,
	ACT_REVERSE,
	ACT_SORT,           /* arg: the field to sort by */
	ACT_METRIC,
	ACT_SEARCH,
	ACT_SEARCH_NEXT,
	ACT_FILTER,
	ACT_USER,
	ACT_ONLY_STALLED,
	ACT_PIDS,
	ACT_CMDLINE,
	ACT_ACCUMULATE,
	ACT_FREEZE,
	ACT_DELAY,
	ACT_DELAYACCT,      /* turn kernel.task_delayacct on (asks first) */
	ACT_SAVE,
	ACT_REDRAW,
	ACT_CGROUPS,        /* the cgroup view (on/off) */
	ACT_FOLD,           /* cgroup view: hide the selected cgroup's children */
	ACT_UNFOLD,         /* cgroup view: show them again */
	ACT_STEP_FORWARD,   /* replay: the next sample */
	ACT_STEP_BACK,      /* replay: the previous sample */
	ACT_JUMP,           /* replay: the sample at a time (asks for it) */
};

enum key_section {
	KS_MOVE,
	KS_SORT,
	KS_FILTER,
	KS_CGROUP,
	KS_REPLAY,
	KS_CONTROL,
	NKS
};

struct key_binding {
	int key;            /* curses key code or character */
	enum action action;
	int arg;            /* ACT_SORT: the sort key */
	enum key_section section;
	/*
	 * N_() text; consecutive bindings with the same text share one help
	 * line. For ACT_SORT it is a format taking the column's name.
	 */
	const char *help;
};

/* The whole table (category shortcuts come from categories[]). */
const struct key_binding *keys_table(size_t *n);

/* The binding for a key, or NULL. */
const struct key_binding *keys_lookup(int key);

/* The key's name as the help shows it: "q", "F10", "Up", "Space", "Enter". */
const char *keys_name(int key, char *buf, size_t size);

/* The first key bound to an action (with that arg), or -1. */
int keys_for_action(enum action a, int arg);

/* true when no key is bound twice (a unit test guards this). */
bool keys_unique(void);

#endif
