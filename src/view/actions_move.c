/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Keys that move around: the selection, the pages, Enter into the
 * threads of a process (or the processes of a cgroup) and back out,
 * and the one-row-per-thread mode.
 */
#include <config.h>

#include "lib/nls.h"
#include "model/producer.h"
#include "view/actions.h"
#include "view/screen_int.h"

void actions_move_select(struct screen *s, size_t i)
{
	if (!s->nview)
		return;
	if (i >= s->nview)
		i = s->nview - 1;
	s->cur = i;
	s->cur_pid = s->view[i].pid;
	s->follow = true;
}

static void move_rows(struct screen *s, long d)
{
	if (!s->nview)
		return;
	long i = (long)s->cur + d;
	if (i < 0)
		i = 0;
	actions_move_select(s, (size_t)i);
}

/* Up, Down, the pages and the wheel move in the view on screen. */
void actions_move_by(struct screen *s, long d)
{
	if (s->cgview)
		screen_cgroup_move_by(s, d);
	else
		move_rows(s, d);
}

static long page(const struct screen *s)
{
	return s->rows_h > 1 ? s->rows_h - 1 : 1;
}

void actions_move_up(struct screen *s, int arg)
{
	(void)arg;
	actions_move_by(s, -1);
}

void actions_move_down(struct screen *s, int arg)
{
	(void)arg;
	actions_move_by(s, 1);
}

void actions_move_page_up(struct screen *s, int arg)
{
	(void)arg;
	actions_move_by(s, -page(s));
}

void actions_move_page_down(struct screen *s, int arg)
{
	(void)arg;
	actions_move_by(s, page(s));
}

void actions_move_home(struct screen *s, int arg)
{
	(void)arg;
	if (s->cgview) {
		screen_cgroup_select(s, 0);
		s->cg_top = 0;
		return;
	}
	s->cur = 0;
	s->top = 0;
	s->follow = false;
	screen_rebuild_view(s);
}

void actions_move_end(struct screen *s, int arg)
{
	(void)arg;
	if (s->cgview && s->ncgv)
		screen_cgroup_select(s, s->ncgv - 1);
	else if (!s->cgview && s->nview)
		actions_move_select(s, s->nview - 1);
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

void actions_move_drill(struct screen *s, int arg)
{
	(void)arg;
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
	if (s->m && !producer_makes_threads(s->m) && !s->snap.s.thread_rows &&
	    !s->snap.s.threads && !s->threads_all) {
		screen_message(s, true, "%s",
			       producer_refusal(s->m, PRODUCER_WORDS_NO_THREADS));
		return;
	}
	pid_t tgid = r->tgid ? r->tgid : r->pid;
	s->drill_back_pid = r->pid;
	screen_set_threads(s, s->threads_all, tgid, r->comm);
	s->cur_pid = tgid;
	s->follow = true;
}

void actions_move_back(struct screen *s, int arg)
{
	(void)arg;
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

void actions_move_threads(struct screen *s, int arg)
{
	(void)arg;
	screen_set_threads(s, !s->threads_all, 0, NULL);
	actions_control_sync_settings(s);
	screen_message(s, false, s->threads_all ? _("one row per thread")
			: _("one row per process"));
}

void actions_move_tree(struct screen *s, int arg)
{
	(void)arg;
	s->tree = !s->tree;
	actions_control_sync_settings(s);
	screen_rebuild_view(s);
	if (s->tree && s->snap.s.threads)
		screen_message(s, false, _("the tree shows processes: it "
					   "appears when the rows are processes "
					   "again"));
	else
		screen_message(s, false, s->tree ? _("processes under their "
						     "parents")
				 : _("processes as a list"));
}

/*
 * Left and Right: in the task table, the command lines scroll by this
 * many cells (the end of a long one comes into view); in the cgroup
 * view they fold and unfold, as - and + do.
 */
#define HSCROLL_STEP 16

void actions_move_left(struct screen *s, int arg)
{
	(void)arg;
	if (s->cgview) {
		actions_cgroup_fold(s, 0);
		return;
	}
	s->hscroll = s->hscroll > HSCROLL_STEP ? s->hscroll - HSCROLL_STEP : 0;
}

void actions_move_right(struct screen *s, int arg)
{
	(void)arg;
	if (s->cgview) {
		actions_cgroup_unfold(s, 0);
		return;
	}
	/* it stops where the longest line in view ends at the right edge */
	int rest = screen_table_command_width(s);

	if (s->hscroll < rest)
		s->hscroll = s->hscroll + HSCROLL_STEP < rest ?
			     s->hscroll + HSCROLL_STEP : rest;
}

const struct key_def actions_move_keys[] = {
	{ { KEY_UP }, actions_move_up, 0, N_("move the selection up") },
	{ { KEY_DOWN }, actions_move_down, 0, N_("move the selection down") },
	{ { KEY_PPAGE }, actions_move_page_up, 0, N_("one page up") },
	{ { KEY_NPAGE }, actions_move_page_down, 0, N_("one page down") },
	{ { KEY_HOME }, actions_move_home, 0,
	  N_("first row (the selection then stays at the top)") },
	{ { KEY_END }, actions_move_end, 0, N_("last row") },
	{ { '\n', '\r', KEY_ENTER }, actions_move_drill, 0,
	  N_("show the threads of the selected process (in the cgroup view: "
	     "the processes of the selected cgroup)") },
	{ { KEYS_ESC, KEY_BACKSPACE, KEYS_DEL, KEYS_CTRL('h') }, actions_move_back,
	  0, N_("back: from the threads to the processes, from a cgroup's "
		"processes to the cgroups") },
	{ { 'H' }, actions_move_threads, 0,
	  N_("one row per thread, for all processes (on/off)") },
	{ { KEY_F(5) }, actions_move_tree, 0,
	  N_("processes under their parents, siblings in the sort order "
	     "(on/off)") },
	{ { KEY_LEFT }, actions_move_left, 0,
	  N_("scroll the command lines left (in the cgroup view: fold)") },
	{ { KEY_RIGHT }, actions_move_right, 0,
	  N_("scroll the command lines right, to see the end of a long one "
	     "(in the cgroup view: unfold)") },
	{ { 0 }, NULL, 0, NULL },
};
