/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The screen's input: the key table's actions, the one-line prompts
 * (search, filters, interval, the delay accounting question), mouse
 * clicks and the bottom line that shows a prompt, a message or hints.
 */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "config_file.h"
#include "kernel/delayacct.h"
#include "lib/escape.h"
#include "lib/nls.h"
#include "lib/numparse.h"
#include "lib/textwidth.h"
#include "live/monitor.h"
#include "options.h"
#include "view/screen_int.h"

#define ESC 27
#define WHEEL_STEP 3

bool row_matches(const struct screen *s, const struct row *r, const char *text)
{
	(void)s;
	if (!text || !*text)
		return false;
	return (r->comm && strcasestr(r->comm, text)) ||
	       (r->cmdline && strcasestr(r->cmdline, text));
}

static void select_row(struct screen *s, size_t i)
{
	if (!s->nview)
		return;
	if (i >= s->nview)
		i = s->nview - 1;
	s->cur = i;
	s->cur_pid = s->view[i].pid;
	s->follow = true;
}

static void move_by(struct screen *s, long d)
{
	if (!s->nview)
		return;
	long i = (long)s->cur + d;
	if (i < 0)
		i = 0;
	select_row(s, (size_t)i);
}

/* The first match at or after from (wrapping); false when none. */
static bool find(struct screen *s, const char *text, size_t from)
{
	for (size_t k = 0; k < s->nview; k++) {
		size_t i = (from + k) % s->nview;
		if (row_matches(s, &s->view[i], text)) {
			select_row(s, i);
			return true;
		}
	}
	return false;
}

/* Search the view on screen: tasks by name, cgroups by path. */
static bool search(struct screen *s, const char *text, size_t from)
{
	return s->cgview ? screen_cgroup_find(s, text, from) : find(s, text, from);
}

/* Two decimal digits at *p (one allowed when first), advancing *p. */
static int clock_part(const char **p, bool first, unsigned max)
{
	unsigned v = 0;
	int digits = 0;
	while (**p >= '0' && **p <= '9' && digits < 2) {
		v = v * 10 + (unsigned)(**p - '0');
		(*p)++;
		digits++;
	}
	if (digits == 0 || (digits == 1 && !first) || v > max)
		return -1;
	return (int)v;
}

/*
 * A time to jump to: HH:MM[:SS] on the day of the sample shown (or the
 * day before or after, whichever comes nearest to it: a recording may
 * span midnight), or seconds since the epoch. Returns 0 or -1.
 */
static int parse_jump(const struct screen *s, const char *text, double *out)
{
	if (!strchr(text, ':'))
		return numparse_positive_double(text, 1e11, out);
	const char *p = text;
	int h = clock_part(&p, true, 23), m = -1, sec = 0;
	if (h >= 0 && *p == ':') {
		p++;
		m = clock_part(&p, false, 59);
	}
	if (m >= 0 && *p == ':') {
		p++;
		sec = clock_part(&p, false, 59);
	}
	if (h < 0 || m < 0 || sec < 0 || *p)
		return -1;
	time_t shown = (time_t)s->snap.s.time;
	struct tm tm;
	if (!localtime_r(&shown, &tm))
		return -1;
	double best = NAN;
	for (int day = -1; day <= 1; day++) {
		struct tm t = tm;
		t.tm_mday += day;
		t.tm_hour = h;
		t.tm_min = m;
		t.tm_sec = sec;
		t.tm_isdst = -1;
		time_t when = mktime(&t);
		if (when == (time_t)-1)
			continue;
		if (isnan(best) || fabs((double)when - s->snap.s.time) <
				   fabs(best - s->snap.s.time))
			best = (double)when;
	}
	if (isnan(best))
		return -1;
	*out = best;
	return 0;
}

static void jump(struct screen *s, const char *text)
{
	double when;
	if (parse_jump(s, text, &when) < 0) {
		char esc[64];
		escape_text(text, esc, sizeof(esc));
		screen_message(s, true, _("invalid time '%s': give HH:MM, HH:MM:SS "
					  "or seconds since the epoch"), esc);
		return;
	}
	if (s->m)
		monitor_replay_jump(s->m, when);
	screen_sample_now(s);
	char clock[32] = "?";
	time_t t = (time_t)s->snap.s.time;
	struct tm tm;
	if (localtime_r(&t, &tm))
		strftime(clock, sizeof(clock), "%H:%M:%S", &tm);
	screen_message(s, false, _("at the sample of %s (%zu of %zu)"), clock,
		       s->rp_index + 1, s->rp_count);
}

/* Keep o in step with the screen: W saves o. */
static void sync_options(struct screen *s)
{
	struct options *o = s->o;
	o->delay = s->delay;
	o->sel.sort = s->sel.sort;
	o->sel.reverse = s->sel.reverse;
	o->sel.metric = s->sel.metric;
	o->sel.only_stalled = s->sel.only_stalled;
	o->cmdline = s->cmdline;
	o->threads = s->threads_all;
	o->accumulate = s->accumulate;
}

static void set_sort(struct screen *s, int key, bool toggle)
{
	if (key == s->sel.sort)
		s->sel.reverse = toggle ? !s->sel.reverse : s->sel.reverse;
	else
		s->sel.reverse = false;
	s->sel.sort = key;
	sync_options(s);
	screen_rebuild_view(s);
}

static void start_prompt(struct screen *s, enum prompt_kind kind,
			 const char *initial)
{
	s->prompt = kind;
	snprintf(s->input, sizeof(s->input), "%s", initial ? initial : "");
	s->input_len = strlen(s->input);
	s->prompt_back_pid = s->cur_pid;
	s->prompt_back_follow = s->follow;
	free(s->prompt_back_name);
	s->prompt_back_name = s->name ? strdup(s->name) : NULL;
	free(s->prompt_back_cg);
	s->prompt_back_cg = s->cg_cur_path ? strdup(s->cg_cur_path) : NULL;
}

static void set_name_filter(struct screen *s, const char *text)
{
	free(s->name);
	s->name = text && *text ? strdup(text) : NULL;
	s->sel.name = s->name;
	screen_rebuild_view(s);
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

static void set_delay(struct screen *s, const char *text)
{
	double d;
	if (numparse_delay(text, &d) < 0) {
		char esc[64];
		escape_text(text, esc, sizeof(esc));
		screen_message(s, true,
			       _("invalid interval '%s': give seconds from 0.01 "
				 "to 86400, e.g. 0.5"), esc);
		return;
	}
	screen_set_delay(s, d);
	sync_options(s);
	screen_message(s, false, _("refresh every %g s"), d);
}

static void enable_delayacct(struct screen *s)
{
	if (delayacct_enable() < 0) {
		int e = errno;
		if (e == EACCES || e == EPERM)
			screen_message(s, true, _("cannot turn on delay accounting: "
						  "%s (run as root)"), strerror(e));
		else
			screen_message(s, true, _("cannot turn on delay accounting: %s"),
				       strerror(e));
		return;
	}
	screen_message(s, false, _("delay accounting is on; tasks started before "
				   "only have CPU figures"));
	screen_resample_soon(s);
}

static void accept_prompt(struct screen *s)
{
	enum prompt_kind kind = s->prompt;
	s->prompt = PROMPT_NONE;
	switch (kind) {
	case PROMPT_SEARCH:
		if (s->input_len) {
			free(s->search);
			s->search = strdup(s->input);
			if (!search(s, s->input, 0))
				screen_message(s, true, _("no match"));
		}
		break;
	case PROMPT_JUMP:
		jump(s, s->input);
		break;
	case PROMPT_FILTER:
		set_name_filter(s, s->input);
		break;
	case PROMPT_USER:
		set_user(s, s->input);
		break;
	case PROMPT_PIDS:
		set_pids(s, s->input);
		break;
	case PROMPT_DELAY:
		set_delay(s, s->input);
		break;
	case PROMPT_CONFIRM:
	case PROMPT_NONE:
		break;
	}
}

static void cancel_prompt(struct screen *s)
{
	enum prompt_kind kind = s->prompt;
	s->prompt = PROMPT_NONE;
	if (kind == PROMPT_SEARCH && s->cgview) {
		free(s->cg_cur_path);
		s->cg_cur_path = s->prompt_back_cg;
		s->prompt_back_cg = NULL;
		screen_rebuild_view(s);
	} else if (kind == PROMPT_SEARCH) {
		s->cur_pid = s->prompt_back_pid;
		s->follow = s->prompt_back_follow;
		screen_rebuild_view(s);
	} else if (kind == PROMPT_FILTER) {
		char *back = s->prompt_back_name;
		s->prompt_back_name = NULL;
		set_name_filter(s, back);
		free(back);
	}
}

/* The input changed: search and filter follow each keystroke. */
static void prompt_changed(struct screen *s)
{
	if (s->prompt == PROMPT_SEARCH && s->input_len)
		search(s, s->input, 0);
	else if (s->prompt == PROMPT_FILTER)
		set_name_filter(s, s->input);
}

static void prompt_key(struct screen *s, int key)
{
	if (s->prompt == PROMPT_CONFIRM) {
		s->prompt = PROMPT_NONE;
		if (key == 'y' || key == 'Y')
			enable_delayacct(s);
		else
			screen_message(s, false, _("delay accounting left off"));
		return;
	}
	switch (key) {
	case '\n':
	case '\r':
	case KEY_ENTER:
		accept_prompt(s);
		return;
	case ESC:
		cancel_prompt(s);
		return;
	case KEY_BACKSPACE:
	case 127:
	case 8:
		/* drop one whole UTF-8 character */
		while (s->input_len &&
		       ((unsigned char)s->input[--s->input_len] & 0xc0) == 0x80)
			;
		s->input[s->input_len] = '\0';
		prompt_changed(s);
		return;
	case 21: /* Ctrl-U */
		s->input_len = 0;
		s->input[0] = '\0';
		prompt_changed(s);
		return;
	}
	if (key < ' ' || key > 255 || key == 127)
		return;
	if (s->input_len + 1 < sizeof(s->input)) {
		s->input[s->input_len++] = (char)key;
		s->input[s->input_len] = '\0';
		prompt_changed(s);
	}
}

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
	case ESC:
	case 'h':
	case '?':
	case KEY_F(1):
	case KEY_BACKSPACE:
	case 127:
		s->help = false;
		break;
	}
	if (s->help_top < 0)
		s->help_top = 0;
	/* the upper bound depends on the height; screen_draw_help clamps it */
}

/* Enter in the cgroup view: the processes of the selected cgroup. */
static void zoom_in(struct screen *s)
{
	const struct cg_line *l = screen_cgroup_current(s);
	if (!l) {
		screen_message(s, true, _("no cgroup selected"));
		return;
	}
	s->cgview = false;
	screen_set_zoom(s, l->cg->path);
}

static void drill(struct screen *s)
{
	const struct row *r = screen_current(s);
	if (s->cgview) {
		zoom_in(s);
		return;
	}
	if (!r) {
		screen_message(s, true, _("no process selected"));
		return;
	}
	if (s->drill_tgid) {
		screen_message(s, false, _("already showing threads; Esc goes back"));
		return;
	}
	if (r->flags & ROW_EXITED) {
		screen_message(s, true, _("this task has ended"));
		return;
	}
	if (s->replay && !s->snap.s.thread_rows && !s->snap.s.threads &&
	    !s->threads_all) {
		screen_message(s, true, _("this recording holds no thread rows: "
					  "only its processes can be shown"));
		return;
	}
	pid_t tgid = r->tgid ? r->tgid : r->pid;
	s->drill_back_pid = r->pid;
	screen_set_threads(s, s->threads_all, tgid, r->comm);
	s->cur_pid = tgid;
	s->follow = true;
}

static void back(struct screen *s)
{
	if (!s->drill_tgid && s->zoom) {
		screen_set_cgview(s, true);
		return;
	}
	if (!s->drill_tgid)
		return;
	screen_set_threads(s, s->threads_all, 0, NULL);
	s->cur_pid = s->drill_back_pid;
	s->follow = true;
}

/* Up, Down and the pages move in the view on screen. */
static void move_sel(struct screen *s, long d)
{
	if (s->cgview)
		screen_cgroup_move_by(s, d);
	else
		move_by(s, d);
}

/* Folding keys outside the cgroup view: say where they work. */
static void not_cgview(struct screen *s)
{
	char a[32], b[32], key[32];
	keys_name(keys_for_action(ACT_FOLD, 0), a, sizeof(a));
	keys_name(keys_for_action(ACT_UNFOLD, 0), b, sizeof(b));
	keys_name(keys_for_action(ACT_CGROUPS, 0), key, sizeof(key));
	screen_message(s, true, _("%s and %s fold and unfold cgroups in the "
				  "cgroup view (%s)"), a, b, key);
}

static void not_replay(struct screen *s)
{
	screen_message(s, true, _("t, T and j move through a recording "
				  "(stalltop --replay FILE)"));
}

static void do_action(struct screen *s, const struct key_binding *b)
{
	switch (b->action) {
	case ACT_NONE:
		break;
	case ACT_QUIT:
		screen_quit(s, 0);
		break;
	case ACT_HELP:
		s->help = true;
		s->help_top = 0;
		break;
	case ACT_UP:
		move_sel(s, -1);
		break;
	case ACT_DOWN:
		move_sel(s, 1);
		break;
	case ACT_PAGE_UP:
		move_sel(s, -(s->rows_h > 1 ? s->rows_h - 1 : 1));
		break;
	case ACT_PAGE_DOWN:
		move_sel(s, s->rows_h > 1 ? s->rows_h - 1 : 1);
		break;
	case ACT_HOME:
		if (s->cgview) {
			screen_cgroup_select(s, 0);
			s->cg_top = 0;
			break;
		}
		s->cur = 0;
		s->top = 0;
		s->follow = false;
		screen_rebuild_view(s);
		break;
	case ACT_END:
		if (s->cgview && s->ncgv)
			screen_cgroup_select(s, s->ncgv - 1);
		else if (!s->cgview && s->nview)
			select_row(s, s->nview - 1);
		break;
	case ACT_DRILL:
		drill(s);
		break;
	case ACT_BACK:
		back(s);
		break;
	case ACT_THREADS:
		screen_set_threads(s, !s->threads_all, 0, NULL);
		sync_options(s);
		screen_message(s, false, s->threads_all ? _("one row per thread")
				: _("one row per process"));
		break;
	case ACT_SORT_LEFT:
	case ACT_SORT_RIGHT: {
		int dir = b->action == ACT_SORT_LEFT ? -1 : 1;
		int next = s->cgview
			? fields_step(FIELD_LAYOUT_CGROUPS, s->cg_sort, dir, 0)
			: fields_step(FIELD_LAYOUT_TASKS, s->sel.sort, dir,
				      FIELD_SORT);
		if (s->cgview && next != s->cg_sort)
			screen_cgroup_set_sort(s, next, false);
		else if (!s->cgview)
			set_sort(s, next, false);
		break;
	}
	case ACT_REVERSE:
		if (s->cgview) {
			screen_cgroup_set_sort(s, s->cg_sort, true);
			break;
		}
		s->sel.reverse = !s->sel.reverse;
		sync_options(s);
		screen_rebuild_view(s);
		break;
	case ACT_SORT:
		if (!s->cgview)
			set_sort(s, b->arg, false);
		else if (fields_in_layout(FIELD_LAYOUT_CGROUPS, b->arg))
			screen_cgroup_set_sort(s, b->arg, false);
		else
			screen_message(s, true, _("the cgroup view has no %s column; "
						  "< and > walk its columns"),
				       fields_get(b->arg)->header);
		break;
	case ACT_METRIC:
		s->sel.metric = (enum metric)((s->sel.metric + 1) % NMETRIC);
		sync_options(s);
		screen_rebuild_view(s);
		screen_message(s, false, _("delay columns show %s"),
			       screen_table_metric_label(s->sel.metric));
		break;
	case ACT_SEARCH:
		start_prompt(s, PROMPT_SEARCH, NULL);
		break;
	case ACT_SEARCH_NEXT:
		if (!s->search)
			screen_message(s, true, _("no search yet: / starts one"));
		else if (!search(s, s->search, (s->cgview ? s->cg_cur : s->cur) + 1))
			screen_message(s, true, _("no match"));
		break;
	case ACT_FILTER:
		start_prompt(s, PROMPT_FILTER, s->name);
		break;
	case ACT_USER:
		start_prompt(s, PROMPT_USER, s->sel.have_uid ? s->user_label : NULL);
		break;
	case ACT_PIDS: {
		char buf[256] = "";
		size_t n = 0;
		for (size_t i = 0; i < s->npids && n + 16 < sizeof(buf); i++)
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%d",
					      i ? "," : "", (int)s->pids[i]);
		start_prompt(s, PROMPT_PIDS, buf);
		break;
	}
	case ACT_ONLY_STALLED:
		s->sel.only_stalled = !s->sel.only_stalled;
		sync_options(s);
		screen_rebuild_view(s);
		break;
	case ACT_CMDLINE:
		s->cmdline = !s->cmdline;
		sync_options(s);
		break;
	case ACT_ACCUMULATE:
		if (s->replay) {
			screen_message(s, true, _("a recording holds its intervals "
						  "as they were recorded"));
			break;
		}
		s->accumulate = !s->accumulate;
		monitor_set_accumulate(s->m, s->accumulate);
		sync_options(s);
		s->frozen = false;
		screen_resample_soon(s);
		screen_message(s, false, s->accumulate
			       ? _("figures since start") : _("figures per interval"));
		break;
	case ACT_FREEZE:
		if (!s->replay) {
			s->frozen = !s->frozen;
			break;
		}
		s->rp_paused = !s->rp_paused;
		if (s->m)
			monitor_replay_pause(s->m, s->rp_paused);
		screen_message(s, false, s->rp_paused ? _("playback paused")
						      : _("playback goes on"));
		break;
	case ACT_DELAY: {
		char buf[32];
		snprintf(buf, sizeof(buf), "%g", s->delay);
		start_prompt(s, PROMPT_DELAY, buf);
		break;
	}
	case ACT_DELAYACCT:
		if (s->replay)
			screen_message(s, true, _("a replay does not measure: "
						  "delay accounting is the "
						  "recorded system's"));
		else if (s->have_sample && s->snap.s.delayacct)
			screen_message(s, false, _("delay accounting is already on"));
		else
			start_prompt(s, PROMPT_CONFIRM, NULL);
		break;
	case ACT_SAVE: {
		char *path = config_file_path();
		sync_options(s);
		if (config_file_save(s->o, path) < 0)
			screen_message(s, true, _("cannot save the settings to %s: %s"),
				       path ? path : "?", strerror(errno));
		else
			screen_message(s, false, _("settings saved to %s"), path);
		free(path);
		break;
	}
	case ACT_REDRAW:
		clearok(curscr, TRUE);
		break;
	case ACT_CGROUPS:
		screen_set_cgview(s, !s->cgview);
		break;
	case ACT_FOLD:
	case ACT_UNFOLD:
		if (s->cgview)
			screen_cgroup_fold(s, b->action == ACT_FOLD);
		else
			not_cgview(s);
		break;
	case ACT_STEP_FORWARD:
	case ACT_STEP_BACK:
		if (!s->replay) {
			not_replay(s);
			break;
		}
		if (s->m)
			monitor_replay_step(s->m,
					    b->action == ACT_STEP_FORWARD ? 1 : -1);
		screen_sample_now(s);
		break;
	case ACT_JUMP: {
		if (!s->replay) {
			not_replay(s);
			break;
		}
		char buf[32] = "";
		time_t t = (time_t)s->snap.s.time;
		struct tm tm;
		if (s->have_sample && localtime_r(&t, &tm))
			strftime(buf, sizeof(buf), "%H:%M:%S", &tm);
		start_prompt(s, PROMPT_JUMP, buf);
		break;
	}
	}
}

void input_key(struct screen *s, int key)
{
	if (s->help) {
		help_key(s, key);
		return;
	}
	if (s->prompt) {
		prompt_key(s, key);
		return;
	}
	s->msg[0] = '\0';
	s->msg_error = false;
	const struct key_binding *b = keys_lookup(key);
	if (!b) {
		char name[32], help[32];
		keys_name(keys_for_action(ACT_HELP, 0), help, sizeof(help));
		screen_message(s, true, _("key %s does nothing; %s shows the keys"),
			       keys_name(key, name, sizeof(name)), help);
		return;
	}
	do_action(s, b);
}

void input_mouse(struct screen *s)
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
	if (ev.bstate & BUTTON4_PRESSED) {
		move_sel(s, -WHEEL_STEP);
	} else if (ev.bstate & BUTTON5_PRESSED) {
		move_sel(s, WHEEL_STEP);
	} else if (s->cgview && (ev.bstate & BUTTON1_PRESSED)) {
		if (s->table_y >= 0 && ev.y == s->table_y) {
			int col = screen_cgroup_column_at(s, ev.x);
			if (col >= 0)
				screen_cgroup_set_sort(s, col, true);
		} else if (ev.y >= s->rows_y && ev.y < s->rows_y + s->rows_h) {
			size_t i = s->cg_top + (size_t)(ev.y - s->rows_y);
			if (i < s->ncgv)
				screen_cgroup_select(s, i);
		}
	} else if (ev.bstate & BUTTON1_PRESSED) {
		if (s->table_y >= 0 && ev.y == s->table_y) {
			int k = screen_table_sort_at(s, ev.x);
			if (k >= 0)
				set_sort(s, k, true);
		} else if (ev.y >= s->rows_y && ev.y < s->rows_y + s->rows_h) {
			size_t i = s->top + (size_t)(ev.y - s->rows_y);
			if (i < s->nview)
				select_row(s, i);
		}
	}
}

/* Does the selection match the search being typed? */
static bool search_hit(const struct screen *s)
{
	if (s->cgview) {
		const struct cg_line *l = screen_cgroup_current(s);
		return !l || strcasestr(l->cg->path, s->input);
	}
	return !s->nview || row_matches(s, &s->view[s->cur], s->input);
}

static const char *prompt_label(enum prompt_kind k)
{
	switch (k) {
	case PROMPT_SEARCH:
		return _("Search: ");
	case PROMPT_FILTER:
		return _("Filter (name or command line): ");
	case PROMPT_USER:
		return _("User (name or uid, empty for all): ");
	case PROMPT_PIDS:
		return _("Process ids (comma-separated, empty for all): ");
	case PROMPT_DELAY:
		return _("Refresh interval in seconds: ");
	case PROMPT_CONFIRM:
		return _("Turn on delay accounting (sysctl kernel.task_delayacct=1)? "
			 "[y/N] ");
	case PROMPT_JUMP:
		return _("Jump to (HH:MM[:SS] or seconds since the epoch): ");
	default:
		return "";
	}
}

struct hint {
	enum action a;
	const char *label;
};

static const struct hint live_hints[] = {
	{ ACT_HELP, N_("help") }, { ACT_QUIT, N_("quit") },
	{ ACT_SORT_LEFT, N_("sort") }, { ACT_METRIC, N_("metric") },
	{ ACT_DRILL, N_("threads") }, { ACT_SEARCH, N_("search") },
	{ ACT_FILTER, N_("filter") }, { ACT_CGROUPS, N_("cgroups") },
	{ ACT_FREEZE, N_("freeze") }, { ACT_DELAY, N_("interval") },
	{ ACT_SAVE, N_("save") }, { ACT_NONE, NULL },
};

static const struct hint replay_hints[] = {
	{ ACT_HELP, N_("help") }, { ACT_QUIT, N_("quit") },
	{ ACT_FREEZE, N_("pause") }, { ACT_STEP_FORWARD, N_("next") },
	{ ACT_STEP_BACK, N_("previous") }, { ACT_JUMP, N_("jump") },
	{ ACT_SORT_LEFT, N_("sort") }, { ACT_DRILL, N_("threads") },
	{ ACT_SEARCH, N_("search") }, { ACT_CGROUPS, N_("cgroups") },
	{ ACT_DELAY, N_("speed") }, { ACT_NONE, NULL },
};

static const struct hint cgroup_hints[] = {
	{ ACT_HELP, N_("help") }, { ACT_QUIT, N_("quit") },
	{ ACT_DRILL, N_("processes") }, { ACT_FOLD, N_("fold") },
	{ ACT_UNFOLD, N_("unfold") }, { ACT_SORT_LEFT, N_("sort") },
	{ ACT_METRIC, N_("metric") }, { ACT_SEARCH, N_("search") },
	{ ACT_CGROUPS, N_("tasks") }, { ACT_NONE, NULL },
};

static void hints(struct screen *s, int y)
{
	const struct hint *h = s->cgview ? cgroup_hints
			     : s->replay ? replay_hints : live_hints;
	if (s->cgview && s->replay) {
		/* stepping matters more than folding there */
		static const struct hint both[] = {
			{ ACT_HELP, N_("help") }, { ACT_QUIT, N_("quit") },
			{ ACT_DRILL, N_("processes") }, { ACT_FOLD, N_("fold") },
			{ ACT_UNFOLD, N_("unfold") }, { ACT_FREEZE, N_("pause") },
			{ ACT_STEP_FORWARD, N_("next") },
			{ ACT_STEP_BACK, N_("previous") }, { ACT_JUMP, N_("jump") },
			{ ACT_CGROUPS, N_("tasks") }, { ACT_NONE, NULL },
		};
		h = both;
	}
	int x = 0;
	for (size_t i = 0; h[i].label; i++) {
		char name[32];
		keys_name(keys_for_action(h[i].a, 0), name, sizeof(name));
		if (h[i].a == ACT_SORT_LEFT)
			snprintf(name, sizeof(name), "< >");
		int w = textwidth_width(name) + 1 + textwidth_width(_(h[i].label));
		if (x + w >= COLS)
			break;
		move(y, x);
		screen_draw_text(s, name, false, textwidth_width(name), false, A_BOLD);
		addch(' ');
		screen_draw_text(s, _(h[i].label), false, textwidth_width(_(h[i].label)), false,
			  s->attr[R_NOTICE]);
		x += w + 2;
	}
}

void input_draw_bottom(struct screen *s, int y)
{
	if (s->prompt) {
		const char *label = prompt_label(s->prompt);
		char shown[sizeof(s->input) * 4];
		escape_text(s->input, shown, sizeof(shown));
		move(y, 0);
		screen_draw_text(s, label, false, textwidth_width(label), false, A_BOLD);
		int x = textwidth_width(label);
		/* keep the end of a long input in view */
		const char *tail = shown;
		while (textwidth_width(tail) > COLS - x - 1 && *tail)
			do
				tail++;
			while (((unsigned char)*tail & 0xc0) == 0x80);
		screen_draw_text(s, tail, false, COLS - x, false, A_NORMAL);
		int cx = x + textwidth_width(tail);
		if (s->prompt == PROMPT_SEARCH && s->input_len && !search_hit(s)) {
			move(y, cx + 1);
			screen_draw_text(s, _("(no match)"), false, COLS - cx - 1, false,
				  s->attr[R_WARN]);
		}
		move(y, cx < COLS ? cx : COLS - 1);
		curs_set(1);
		return;
	}
	curs_set(0);
	if (s->msg[0]) {
		move(y, 0);
		screen_draw_text(s, s->msg, false, COLS, false,
			  s->msg_error ? s->attr[R_BANNER] : s->attr[R_NOTICE]);
		return;
	}
	hints(s, y);
}
