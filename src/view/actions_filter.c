/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Keys that search and filter: the incremental search (/ and n: tasks
 * by name, cgroups by name or path), the name filter (\: of the tasks,
 * in the cgroup view of the cgroups), the user and process id filters
 * and the stalled-only switch. Their prompts follow each keystroke where
 * that helps and Esc puts back what was there.
 */
#include <config.h>

#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/escape.h"
#include "lib/nls.h"
#include "lib/numparse.h"
#include "view/actions.h"
#include "view/screen_int.h"

static bool row_matches(const struct row *r, const char *text)
{
	if (!text || !*text)
		return false;
	return (r->comm && strcasestr(r->comm, text)) ||
	       (r->cmdline && strcasestr(r->cmdline, text));
}

/* The first match at or after from (wrapping); false when none. */
static bool find(struct screen *s, const char *text, size_t from)
{
	for (size_t k = 0; k < s->nview; k++) {
		size_t i = (from + k) % s->nview;
		if (row_matches(&s->view[i], text)) {
			actions_move_select(s, i);
			return true;
		}
	}
	return false;
}

/* Search the view on screen: tasks by name, cgroups by name or path. */
static bool search(struct screen *s, const char *text, size_t from)
{
	return s->cgview ? screen_cgroup_find(s, text, from) : find(s, text, from);
}

/* The selection follows each keystroke. */
static void search_changed(struct screen *s, const char *text)
{
	if (*text)
		search(s, text, 0);
}

static void search_accept(struct screen *s, const char *text)
{
	if (!*text)
		return;
	free(s->search);
	s->search = strdup(text);
	if (!search(s, text, 0))
		screen_message(s, true, _("no match"));
}

/* Esc: the selection from before the search. */
static void search_cancel(struct screen *s)
{
	if (s->cgview) {
		free(s->cg_cur_path);
		s->cg_cur_path = s->prompt_back_cg;
		s->prompt_back_cg = NULL;
	} else {
		s->cur_pid = s->prompt_back_pid;
		s->follow = s->prompt_back_follow;
	}
	screen_rebuild_view(s);
}

/* Does the selection match the search being typed? */
static bool search_hit(const struct screen *s, const char *text)
{
	if (s->cgview) {
		const struct cg_line *l = screen_cgroup_current(s);
		return !l || screen_cgroup_matches(l->cg, text);
	}
	return !s->nview || row_matches(&s->view[s->cur], text);
}

static const struct prompt_ops search_prompt = {
	.kind = PROMPT_SEARCH,
	.label = N_("Search: "),
	.changed = search_changed,
	.accept = search_accept,
	.cancel = search_cancel,
	.hit = search_hit,
};

void actions_filter_search(struct screen *s, int arg)
{
	(void)arg;
	s->prompt_back_pid = s->cur_pid;
	s->prompt_back_follow = s->follow;
	free(s->prompt_back_cg);
	s->prompt_back_cg = s->cg_cur_path ? strdup(s->cg_cur_path) : NULL;
	prompt_start(s, &search_prompt, NULL);
}

void actions_filter_search_next(struct screen *s, int arg)
{
	(void)arg;
	if (!s->search)
		screen_message(s, true, _("no search yet: / starts one"));
	else if (!search(s, s->search, (s->cgview ? s->cg_cur : s->cur) + 1))
		screen_message(s, true, _("no match"));
}

static void set_name_filter(struct screen *s, const char *text)
{
	free(s->name);
	s->name = text && *text ? strdup(text) : NULL;
	s->sel.name = s->name;
	screen_rebuild_view(s);
}

/* Esc: the filter from before. */
static void name_cancel(struct screen *s)
{
	char *back = s->prompt_back_name;
	s->prompt_back_name = NULL;
	set_name_filter(s, back);
	free(back);
}

static const struct prompt_ops name_prompt = {
	.kind = PROMPT_FILTER,
	.label = N_("Filter (name or command line): "),
	.changed = set_name_filter,
	.accept = set_name_filter,
	.cancel = name_cancel,
};

static void set_cg_filter(struct screen *s, const char *text)
{
	free(s->cg_filter);
	s->cg_filter = text && *text ? strdup(text) : NULL;
	screen_rebuild_view(s);
}

/* Esc: the cgroup filter from before. */
static void cg_filter_cancel(struct screen *s)
{
	char *back = s->prompt_back_name;
	s->prompt_back_name = NULL;
	set_cg_filter(s, back);
	free(back);
}

static const struct prompt_ops cg_filter_prompt = {
	.kind = PROMPT_FILTER,
	.label = N_("Filter cgroups (name or path): "),
	.changed = set_cg_filter,
	.accept = set_cg_filter,
	.cancel = cg_filter_cancel,
};

void actions_filter_name(struct screen *s, int arg)
{
	const char *now = s->cgview ? s->cg_filter : s->name;

	(void)arg;
	free(s->prompt_back_name);
	s->prompt_back_name = now ? strdup(now) : NULL;
	prompt_start(s, s->cgview ? &cg_filter_prompt : &name_prompt, now);
}

static void set_user(struct screen *s, const char *text)
{
	unsigned long uid;
	if (!*text) {
		s->sel.have_uid = false;
		screen_rebuild_view(s);
		return;
	}
	struct passwd *pw = getpwnam(text);
	if (pw) {
		s->sel.uid = pw->pw_uid;
		snprintf(s->user_label, sizeof(s->user_label), "%s", pw->pw_name);
	} else if (numparse_ulong(text, 0, (uid_t)-2, &uid) == 0) {
		s->sel.uid = (uid_t)uid;
		pw = getpwuid((uid_t)uid);
		snprintf(s->user_label, sizeof(s->user_label), "%s",
			 pw ? pw->pw_name : text);
	} else {
		char esc[128];
		escape_text(text, esc, sizeof(esc));
		screen_message(s, true, _("unknown user '%s'"), esc);
		return;
	}
	s->sel.have_uid = true;
	screen_rebuild_view(s);
}

static const struct prompt_ops user_prompt = {
	.kind = PROMPT_USER,
	.label = N_("User (name or uid, empty for all): "),
	.accept = set_user,
};

void actions_filter_user(struct screen *s, int arg)
{
	(void)arg;
	prompt_start(s, &user_prompt, s->sel.have_uid ? s->user_label : NULL);
}

static void set_pids(struct screen *s, const char *text)
{
	pid_t *pids = NULL;
	size_t n = 0;
	char *copy = strdup(text), *save = NULL;
	if (!copy)
		return;
	for (char *tok = strtok_r(copy, ", ", &save); tok;
	     tok = strtok_r(NULL, ", ", &save)) {
		pid_t pid;
		pid_t *more = realloc(pids, (n + 1) * sizeof(*pids));
		if (numparse_pid(tok, &pid) < 0 || !more) {
			char esc[64];
			escape_text(tok, esc, sizeof(esc));
			screen_message(s, true, _("invalid process id '%s'"), esc);
			free(more ? more : pids);
			free(copy);
			return;
		}
		pids = more;
		pids[n++] = pid;
	}
	free(copy);
	free(s->pids);
	s->pids = pids;
	s->npids = n;
	s->sel.pids = pids;
	s->sel.npids = n;
	screen_rebuild_view(s);
}

static const struct prompt_ops pids_prompt = {
	.kind = PROMPT_PIDS,
	.label = N_("Process ids (comma-separated, empty for all): "),
	.accept = set_pids,
};

void actions_filter_pids(struct screen *s, int arg)
{
	(void)arg;
	char buf[256] = "";
	size_t n = 0;
	for (size_t i = 0; i < s->npids && n + 16 < sizeof(buf); i++)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%d",
				      i ? "," : "", (int)s->pids[i]);
	prompt_start(s, &pids_prompt, buf);
}

void actions_filter_only_stalled(struct screen *s, int arg)
{
	(void)arg;
	s->sel.only_stalled = !s->sel.only_stalled;
	actions_control_sync_settings(s);
	screen_rebuild_view(s);
}

const struct key_def actions_filter_keys[] = {
	{ { '/' }, actions_filter_search, 0,
	  N_("search by name, in the cgroup view by name or path (selects "
	     "the first match)") },
	{ { 'n' }, actions_filter_search_next, 0, N_("next match of the search") },
	{ { '\\' }, actions_filter_name, 0,
	  N_("show only names or command lines containing a text; in the "
	     "cgroup view, cgroups whose name or path contains it") },
	{ { 'u' }, actions_filter_user, 0, N_("show only one user's tasks") },
	{ { 'p' }, actions_filter_pids, 0, N_("show only some process ids") },
	{ { 'o' }, actions_filter_only_stalled, 0,
	  N_("show only tasks (and cgroups) that stalled (on/off)") },
	{ { 0 }, NULL, 0, NULL },
};
