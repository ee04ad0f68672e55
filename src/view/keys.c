/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The screen's key map: dispatch and help both read this one table. */
#include <config.h>

#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "lib/nls.h"
#include "model/categories.h"
#include "model/fields.h"
#include "view/keys.h"

#define CTRL(c) ((c) & 0x1f)
#define ESC 27
#define DEL 127

/* The placeholder row that expands into one binding per category. */
#define CATEGORY_SHORTCUTS -2

#define DRILL_HELP N_("show the threads of the selected process (in the " \
			   "cgroup view: the processes of the selected cgroup)")
#define BACK_HELP N_("back: from the threads to the processes, from a " \
			  "cgroup's processes to the cgroups")
#define FOLD_HELP N_("fold the selected cgroup (on a folded one: go to " \
			  "its parent)")

static const struct key_binding fixed[] = {
	{ KEY_UP, ACT_UP, 0, KS_MOVE, N_("move the selection up") },
	{ KEY_DOWN, ACT_DOWN, 0, KS_MOVE, N_("move the selection down") },
	{ KEY_PPAGE, ACT_PAGE_UP, 0, KS_MOVE, N_("one page up") },
	{ KEY_NPAGE, ACT_PAGE_DOWN, 0, KS_MOVE, N_("one page down") },
	{ KEY_HOME, ACT_HOME, 0, KS_MOVE,
	  N_("first row (the selection then stays at the top)") },
	{ KEY_END, ACT_END, 0, KS_MOVE, N_("last row") },
	{ '\n', ACT_DRILL, 0, KS_MOVE, DRILL_HELP },
	{ '\r', ACT_DRILL, 0, KS_MOVE, DRILL_HELP },
	{ KEY_ENTER, ACT_DRILL, 0, KS_MOVE, DRILL_HELP },
	{ ESC, ACT_BACK, 0, KS_MOVE, BACK_HELP },
	{ KEY_BACKSPACE, ACT_BACK, 0, KS_MOVE, BACK_HELP },
	{ DEL, ACT_BACK, 0, KS_MOVE, BACK_HELP },
	{ CTRL('h'), ACT_BACK, 0, KS_MOVE, BACK_HELP },
	{ 'H', ACT_THREADS, 0, KS_MOVE, N_("one row per thread, for all processes (on/off)") },

	{ '<', ACT_SORT_LEFT, 0, KS_SORT, N_("sort by the column to the left") },
	{ '>', ACT_SORT_RIGHT, 0, KS_SORT, N_("sort by the column to the right") },
	{ 'r', ACT_REVERSE, 0, KS_SORT, N_("reverse the sort order") },
	{ CATEGORY_SHORTCUTS, ACT_SORT, 0, KS_SORT, N_("sort by %s") },
	{ 'D', ACT_SORT, FIELD_TOTAL, KS_SORT, N_("sort by %s") },
	{ 'P', ACT_SORT, FIELD_CPU_PCT, KS_SORT, N_("sort by %s") },
	{ 'N', ACT_SORT, FIELD_PID, KS_SORT, N_("sort by %s") },
	{ 'm', ACT_METRIC, 0, KS_SORT,
	/* xgettext:no-c-format */
	  N_("delay columns: % of interval, avg ms per event, events/s, max ms") },

	{ '/', ACT_SEARCH, 0, KS_FILTER,
	  N_("search by name, in the cgroup view by path (selects the first "
	     "match)") },
	{ 'n', ACT_SEARCH_NEXT, 0, KS_FILTER, N_("next match of the search") },
	{ '\\', ACT_FILTER, 0, KS_FILTER,
	  N_("show only names or command lines containing a text") },
	{ 'u', ACT_USER, 0, KS_FILTER, N_("show only one user's tasks") },
	{ 'p', ACT_PIDS, 0, KS_FILTER, N_("show only some process ids") },
	{ 'o', ACT_ONLY_STALLED, 0, KS_FILTER,
	  N_("show only tasks (and cgroups) that stalled (on/off)") },

	{ 'g', ACT_CGROUPS, 0, KS_CGROUP,
	  N_("the cgroup view: a tree of cgroups with their pressure (on/off)") },
	{ KEY_LEFT, ACT_FOLD, 0, KS_CGROUP, FOLD_HELP },
	{ '-', ACT_FOLD, 0, KS_CGROUP, FOLD_HELP },
	{ KEY_RIGHT, ACT_UNFOLD, 0, KS_CGROUP, N_("unfold the selected cgroup") },
	{ '+', ACT_UNFOLD, 0, KS_CGROUP, N_("unfold the selected cgroup") },

	{ 't', ACT_STEP_FORWARD, 0, KS_REPLAY, N_("the next sample") },
	{ 'T', ACT_STEP_BACK, 0, KS_REPLAY, N_("the previous sample") },
	{ 'j', ACT_JUMP, 0, KS_REPLAY,
	  N_("jump to a time (HH:MM[:SS] or seconds since the epoch)") },

	{ 'c', ACT_CMDLINE, 0, KS_CONTROL, N_("show the command line or the name") },
	{ 'a', ACT_ACCUMULATE, 0, KS_CONTROL,
	  N_("figures since start instead of per interval (on/off)") },
	{ ' ', ACT_FREEZE, 0, KS_CONTROL,
	  N_("freeze the display (collection goes on); replaying: pause or "
	     "resume playback") },
	{ 'd', ACT_DELAY, 0, KS_CONTROL,
	  N_("change the refresh interval (seconds; replaying: the time each "
	     "sample stays)") },
	{ 'E', ACT_DELAYACCT, 0, KS_CONTROL,
	  N_("turn on kernel delay accounting (asks first)") },
	{ 'W', ACT_SAVE, 0, KS_CONTROL, N_("save the current settings") },
	{ CTRL('l'), ACT_REDRAW, 0, KS_CONTROL, N_("redraw the screen") },
	{ 'h', ACT_HELP, 0, KS_CONTROL, N_("this help") },
	{ '?', ACT_HELP, 0, KS_CONTROL, N_("this help") },
	{ KEY_F(1), ACT_HELP, 0, KS_CONTROL, N_("this help") },
	{ 'q', ACT_QUIT, 0, KS_CONTROL, N_("quit") },
	{ KEY_F(10), ACT_QUIT, 0, KS_CONTROL, N_("quit") },
};

#define NFIXED (sizeof(fixed) / sizeof(fixed[0]))

static struct key_binding table[NFIXED - 1 + NCAT];
static size_t ntable;

const struct key_binding *keys_table(size_t *n)
{
	if (!ntable) {
		for (size_t i = 0; i < NFIXED; i++) {
			if (fixed[i].key != CATEGORY_SHORTCUTS) {
				table[ntable++] = fixed[i];
				continue;
			}
			for (int c = 0; c < NCAT; c++) {
				table[ntable] = fixed[i];
				table[ntable].key = categories[c].sort_shortcut;
				table[ntable].arg = FIELD_CAT + c;
				ntable++;
			}
		}
	}
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

int keys_for_action(enum action a, int arg)
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
		{ KEY_ENTER, N_("Enter") }, { ESC, N_("Esc") },
		{ KEY_BACKSPACE, N_("Backspace") }, { DEL, N_("Backspace") },
		{ CTRL('h'), N_("Backspace") }, { ' ', N_("Space") },
	};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].key == key) {
			snprintf(buf, size, "%s", _(names[i].name));
			return buf;
		}
	if (key >= KEY_F(1) && key <= KEY_F(63))
		snprintf(buf, size, "F%d", key - KEY_F0);
	else if (key > ' ' && key < DEL)
		snprintf(buf, size, "%c", key);
	else if (key >= 0 && key < ' ')
		snprintf(buf, size, "Ctrl-%c", key + '@');
	else
		snprintf(buf, size, "#%d", key);
	return buf;
}

bool keys_unique(void)
{
	size_t n;
	const struct key_binding *t = keys_table(&n);
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			if (t[i].key == t[j].key)
				return false;
	return true;
}
