/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The key table and the help screen: no key has two meanings, reserved
 * keys stay free, every category has its sort shortcut, and the help
 * lists every bound key, every column and every category.
 */
#include <config.h>

#include <stdbool.h>
#include <string.h>

#define NCURSES_WIDECHAR 1
#include <curses.h>

#include "model/categories.h"
#include "model/fields.h"
#include "model/layouts.h"
#include "model/select.h"
#include "unit.h"
#include "view/actions.h"
#include "view/help.h"
#include "view/keys.h"

/* Is name one of the space-separated key names at the start of line? */
static bool line_lists_key(const char *line, const char *name)
{
	/* entries are "  NAMES<two or more spaces>TEXT" */
	if (strncmp(line, "  ", 2) != 0 || line[2] == ' ')
		return false;
	const char *p = line + 2;
	const char *end = strstr(p, "  ");
	if (!end)
		return false;
	size_t n = strlen(name);
	while (p < end) {
		const char *sp = memchr(p, ' ', (size_t)(end - p));
		size_t len = sp ? (size_t)(sp - p) : (size_t)(end - p);
		if (len == n && strncmp(p, name, n) == 0)
			return true;
		p += len + 1;
	}
	return false;
}

static bool help_lists_key(const struct help_text *h, const char *name)
{
	for (size_t i = 0; i < h->n; i++)
		if (line_lists_key(h->lines[i], name))
			return true;
	return false;
}

static bool help_has_line_with(const struct help_text *h, const char *a,
			       const char *b)
{
	for (size_t i = 0; i < h->n; i++)
		if (strstr(h->lines[i], a) && (!b || strstr(h->lines[i], b)))
			return true;
	return false;
}

static void test_table(void)
{
	size_t n;
	const struct key_binding *t = keys_table(&n);
	CHECK(n > 30);
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			CHECK(t[i].key != t[j].key);

	/* the keys that were kept free for them: replay stepping, cgroups */
	static const struct {
		int key;
		key_action_fn *a;
	} reserved[] = {
		{ 't', actions_replay_step_forward }, { 'T', actions_replay_step_back },
		{ 'j', actions_replay_jump }, { 'g', actions_cgroup_view },
		{ '-', actions_cgroup_fold }, { '+', actions_cgroup_unfold },
		/* Left and Right scroll the command lines (fold in the cgroup view) */
		{ KEY_LEFT, actions_move_left }, { KEY_RIGHT, actions_move_right },
		{ KEY_F(2), actions_control_setup },
	};
	for (size_t i = 0; i < sizeof(reserved) / sizeof(reserved[0]); i++) {
		const struct key_binding *b = keys_lookup(reserved[i].key);
		CHECK(b && b->action == reserved[i].a);
	}

	for (int c = 0; c < NCAT; c++) {
		const struct key_binding *b = keys_lookup(categories[c].sort_shortcut);
		CHECK(b && b->action == actions_sort_by && b->arg == c);
	}
	for (size_t i = 0; i < n; i++) {
		CHECK(t[i].help && *t[i].help);
		CHECK(keys_lookup(t[i].key) == &t[i]);
	}

	/* what the issue asks for */
	static const struct {
		int key;
		key_action_fn *a;
	} want[] = {
		{ '<', actions_sort_left }, { '>', actions_sort_right }, { 'r', actions_sort_reverse },
		{ KEY_UP, actions_move_up }, { KEY_DOWN, actions_move_down }, { KEY_PPAGE, actions_move_page_up },
		{ KEY_NPAGE, actions_move_page_down }, { KEY_HOME, actions_move_home },
		{ KEY_END, actions_move_end }, { '\r', actions_move_drill }, { '\n', actions_move_drill },
		{ 27, actions_move_back }, { KEY_BACKSPACE, actions_move_back }, { 'H', actions_move_threads },
		{ '/', actions_filter_search }, { '\\', actions_filter_name }, { 'u', actions_filter_user },
		{ 'o', actions_filter_only_stalled }, { 'p', actions_filter_pids }, { 'd', actions_control_delay },
		{ ' ', actions_control_freeze }, { 'a', actions_control_accumulate }, { 'c', actions_control_cmdline },
		{ 'h', actions_control_help }, { '?', actions_control_help }, { KEY_F(1), actions_control_help },
		{ 'q', actions_control_quit }, { KEY_F(10), actions_control_quit }, { 'W', actions_control_save },
		{ 'm', actions_sort_metric },
	};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const struct key_binding *b = keys_lookup(want[i].key);
		CHECK(b && b->action == want[i].a);
	}
	const struct key_binding *b = keys_lookup('P');
	CHECK(b && b->action == actions_sort_by && b->arg == FIELD_CPU_PCT);
	b = keys_lookup('N');
	CHECK(b && b->action == actions_sort_by && b->arg == FIELD_PID);
}

static void test_names(void)
{
	char buf[32];
	CHECK_STR(keys_name('q', buf, sizeof(buf)), "q");
	CHECK_STR(keys_name(KEY_F(10), buf, sizeof(buf)), "F10");
	CHECK_STR(keys_name(' ', buf, sizeof(buf)), "Space");
	CHECK_STR(keys_name('\r', buf, sizeof(buf)), "Enter");
	CHECK_STR(keys_name(27, buf, sizeof(buf)), "Esc");
	CHECK_STR(keys_name(12, buf, sizeof(buf)), "Ctrl-L");
	CHECK_STR(keys_name(KEY_PPAGE, buf, sizeof(buf)), "PgUp");
}

static void test_help(void)
{
	struct help_text h;
	CHECK(help_build(&h, "/some/where/stalltoprc") == 0);
	CHECK(h.n > 40);

	size_t n;
	const struct key_binding *t = keys_table(&n);
	for (size_t i = 0; i < n; i++) {
		char name[32];
		keys_name(t[i].key, name, sizeof(name));
		if (!help_lists_key(&h, name)) {
			fprintf(stderr, "help does not list key %s\n", name);
			CHECK(!"every bound key is in the help");
		}
	}
	/* a key that is not bound is not in the help */
	CHECK(!help_lists_key(&h, "z"));

	int nf;
	const int *ids = layouts_fields(FIELD_LAYOUT_SCREEN, &nf);
	for (int c = 0; c < nf; c++) {
		const struct field *col = fields_get(ids[c]);
		CHECK(help_has_line_with(&h, col->header, col->help));
	}
	for (int c = 0; c < NCAT; c++) {
		char shortcut[2] = { categories[c].sort_shortcut, '\0' };
		CHECK(help_has_line_with(&h, categories[c].header,
					 categories[c].help));
		/* the shortcut's line names its column */
		bool found = false;
		for (size_t i = 0; i < h.n && !found; i++)
			found = line_lists_key(h.lines[i], shortcut) &&
				strstr(h.lines[i], categories[c].header);
		CHECK(found);
	}
	ids = layouts_fields(FIELD_LAYOUT_CGROUPS_SCREEN, &nf);
	for (int c = 0; c < nf; c++) {
		const struct field *col = fields_get(ids[c]);
		if (fields_cat(ids[c]) >= 0)
			continue; /* the delay columns, listed above */
		CHECK(help_has_line_with(&h, col->header,
					 col->cg_help ? col->cg_help : col->help));
	}
	CHECK(help_has_line_with(&h, "CPU..IRQ", NULL));
	CHECK(help_has_line_with(&h, "The cgroup view", NULL));
	CHECK(help_has_line_with(&h, "Replaying a recording", NULL));
	CHECK(help_has_line_with(&h, "/some/where/stalltoprc", NULL));
	help_free(&h);
	CHECK(h.n == 0 && h.lines == NULL);
}

static void test_columns(void)
{
	/* < and > walk the sortable columns in screen order */
	enum field_layout t = FIELD_LAYOUT_TASKS;
	CHECK(layouts_step(t, FIELD_PID, 1, FIELD_SORT) == FIELD_STATE);
	CHECK(layouts_step(t, FIELD_STATE, 1, FIELD_SORT) == FIELD_CPU_PCT);
	CHECK(layouts_step(t, FIELD_CPU_PCT, -1, FIELD_SORT) == FIELD_STATE);
	CHECK(layouts_step(t, FIELD_CPU_PCT, 1, FIELD_SORT) == FIELD_CAT + CAT_CPU);
	CHECK(layouts_step(t, FIELD_CAT + CAT_IRQ, 1, FIELD_SORT) == FIELD_TOTAL);
	CHECK(layouts_step(t, FIELD_TOTAL, 1, FIELD_SORT) == FIELD_COMM);
	CHECK(layouts_step(t, FIELD_COMM, 1, FIELD_SORT) == FIELD_COMM);
	CHECK(layouts_step(t, FIELD_PID, -1, FIELD_SORT) == FIELD_PID);
	CHECK(layouts_step(t, FIELD_CAT + CAT_CPU, -1, FIELD_SORT) == FIELD_CPU_PCT);
	/* every sort key is a column of the screen (some shown when chosen) */
	for (int k = 0; k < NFIELD; k++)
		if (fields_get(k)->flags & FIELD_SORT)
			CHECK(layouts_has(t, k) ||
			      (layouts_has(FIELD_LAYOUT_SCREEN, k) &&
			       (fields_get(k)->flags & FIELD_OFF)));
	CHECK(fields_get(FIELD_CAT + CAT_IO)->header == categories[CAT_IO].header);

	/* the cgroup view: every column has a header and help, one of each */
	int n;
	const int *cg = layouts_fields(FIELD_LAYOUT_CGROUPS, &n);
	for (int c = 0; c < n; c++) {
		const struct field *col = fields_get(cg[c]);
		CHECK(col && col->header && *col->header && col->help);
		for (int d = c + 1; d < n; d++)
			CHECK(strcmp(col->header, fields_get(cg[d])->header) != 0);
	}
	CHECK(fields_get(FIELD_CAT + CAT_IO)->header == categories[CAT_IO].header);
	CHECK(layouts_has(FIELD_LAYOUT_CGROUPS, FIELD_CAT + CAT_IO));
	CHECK(layouts_has(FIELD_LAYOUT_CGROUPS, FIELD_TOTAL));
	CHECK(!layouts_has(FIELD_LAYOUT_CGROUPS, FIELD_PID));
	CHECK(fields_get(NFIELD) == NULL && fields_get(-1) == NULL);
}

int main(void)
{
	test_table();
	test_names();
	test_help();
	test_columns();
	return unit_done();
}
