/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Keys that act on the selected task, as htop and iotop-c have them:
 * kill with a list of signals (k, F9), renice (F7/] for a higher
 * priority, F8/[ for a lower one), ionice (i: class, then level). Each
 * names the task and what will be done and asks first; the producer
 * acts (a recording cannot), checking that the id still names the task
 * chosen. In thread rows the thread is acted on, else the process.
 */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "lib/escape.h"
#include "lib/nls.h"
#include "model/producer.h"
#include "view/actions.h"
#include "view/screen_int.h"
#include "view/siglist.h"

/* Take the selected task as the one to act on; false (and why) if none. */
static bool choose(struct screen *s)
{
	if (!s->m || !producer_can_act(s->m)) {
		screen_message(s, true, "%s",
			       s->m ? producer_refusal(s->m, PRODUCER_WORDS_NO_ACT)
				    : strerror(ENOTSUP));
		return false;
	}
	if (s->cgview) {
		screen_message(s, true, _("choose a task first: Enter shows the "
					  "processes of the selected cgroup"));
		return false;
	}
	const struct row *r = screen_current(s);
	if (!r) {
		screen_message(s, true, _("no task is selected"));
		return false;
	}
	char name[96];
	escape_text(r->comm ? r->comm : "?", name, sizeof(name));
	bool thread = s->snap.s.threads;
	if (thread)
		snprintf(s->act_who, sizeof(s->act_who),
			 _("thread '%s' (tid %d of pid %d)"), name, (int)r->pid,
			 (int)r->tgid);
	else
		snprintf(s->act_who, sizeof(s->act_who), _("'%s' (pid %d)"), name,
			 (int)r->pid);
	if (r->flags & ROW_EXITED) {
		screen_message(s, true, _("%s has ended"), s->act_who);
		return false;
	}
	if (r->info.start <= 0) {
		screen_message(s, true, _("the start time of %s is unknown, so a "
					  "reuse of its id could not be told: "
					  "nothing done"), s->act_who);
		return false;
	}
	s->act = (struct producer_act){
		.pid = r->pid, .tgid = r->tgid ? r->tgid : r->pid,
		.thread = s->snap.s.threads, .start = r->info.start,
	};
	return true;
}

/* Why an action failed, with what would allow it. */
static void refused(struct screen *s, int e)
{
	switch (e) {
	case ESRCH:
		screen_message(s, true, _("%s has ended: nothing done"), s->act_who);
		break;
	case ESTALE:
		screen_message(s, true, _("pid %d now names another task than %s: "
					  "nothing done"), (int)s->act.pid,
			       s->act_who);
		break;
	case EPERM:
	case EACCES:
		if (s->act.kind == PRODUCER_ACT_SIGNAL)
			screen_message(s, true, _("not permitted to signal %s: "
						  "another user's task needs "
						  "CAP_KILL (run stalltop as "
						  "root)"), s->act_who);
		else if (s->act.kind == PRODUCER_ACT_NICE)
			screen_message(s, true, _("not permitted to renice %s: a "
						  "higher priority or another "
						  "user's task needs "
						  "CAP_SYS_NICE (run stalltop as "
						  "root)"), s->act_who);
		else
			screen_message(s, true, _("not permitted to ionice %s: "
						  "the realtime class or another "
						  "user's task needs "
						  "CAP_SYS_NICE (run stalltop as "
						  "root)"), s->act_who);
		break;
	default:
		screen_message(s, true, _("cannot act on %s: %s"), s->act_who,
			       strerror(e));
	}
}

static void io_text(char *buf, size_t size, int cls, int level)
{
	switch (cls) {
	case 1:
		snprintf(buf, size, _("realtime %d"), level);
		break;
	case 2:
		snprintf(buf, size, _("best-effort %d"), level);
		break;
	case 3:
		snprintf(buf, size, "%s", _("idle"));
		break;
	default:
		snprintf(buf, size, "%s", _("none (best-effort from nice)"));
	}
}

static void confirmed(struct screen *s, bool yes)
{
	if (!yes) {
		screen_message(s, false, _("cancelled: nothing was done"));
		return;
	}
	if (producer_act(s->m, &s->act) < 0) {
		refused(s, errno);
		return;
	}
	char io[64];
	switch (s->act.kind) {
	case PRODUCER_ACT_SIGNAL:
		screen_message(s, false, _("sent SIG%s (%d) to %s"),
			       siglist_name(s->act.value), s->act.value,
			       s->act_who);
		break;
	case PRODUCER_ACT_NICE:
		screen_message(s, false, _("nice of %s is now %d (threads: %d)"),
			       s->act_who, s->act.value, s->act.done);
		break;
	case PRODUCER_ACT_IOPRIO:
		io_text(io, sizeof(io), s->act.value, s->act.level);
		screen_message(s, false, _("IO priority of %s is now %s "
					   "(threads: %d)"), s->act_who, io,
			       s->act.done);
		break;
	}
	screen_sample_now(s);
}

static const struct prompt_ops confirm_prompt = {
	.kind = PROMPT_ACT,
	.label = NULL,
	.answer = confirmed,
};

static void ask(struct screen *s)
{
	prompt_start(s, &confirm_prompt, NULL);
}

static void signal_chosen(struct screen *s, int sig)
{
	s->act.kind = PRODUCER_ACT_SIGNAL;
	s->act.value = sig;
	snprintf(s->prompt_label, sizeof(s->prompt_label),
		 _("Send SIG%s (%d) to %s? [y/N] "), siglist_name(sig), sig,
		 s->act_who);
	ask(s);
}

void actions_task_kill(struct screen *s, int arg)
{
	(void)arg;
	if (!choose(s))
		return;
	char title[256];
	snprintf(title, sizeof(title), _("Send signal to %s:"), s->act_who);
	menu_open(s, title, signal_chosen);
	size_t n;
	const struct siglist_entry *l = siglist_all(&n);
	for (size_t i = 0; i < n; i++) {
		char text[48];
		snprintf(text, sizeof(text), "%2d SIG%s", l[i].sig, l[i].name);
		menu_add(s, text, l[i].sig);
	}
	s->menu.cur = siglist_default();
}

void actions_task_renice(struct screen *s, int step)
{
	if (!choose(s))
		return;
	struct producer_prio now;
	if (producer_prio(s->m, &s->act, &now) < 0) {
		s->act.kind = PRODUCER_ACT_NICE;
		refused(s, errno);
		return;
	}
	int to = now.nice + step;
	if (to < -20 || to > 19) {
		screen_message(s, true, _("the nice value of %s is %d already, "
					  "the limit"), s->act_who, now.nice);
		return;
	}
	s->act.kind = PRODUCER_ACT_NICE;
	s->act.value = to;
	snprintf(s->prompt_label, sizeof(s->prompt_label),
		 step < 0 ? _("Renice %s from %d to %d (higher priority)? [y/N] ")
			  : _("Renice %s from %d to %d (lower priority)? [y/N] "),
		 s->act_who, now.nice, to);
	ask(s);
}

static void level_chosen(struct screen *s, int level)
{
	char io[64];
	s->act.level = level;
	io_text(io, sizeof(io), s->act.value, level);
	snprintf(s->prompt_label, sizeof(s->prompt_label),
		 _("Set the IO priority of %s from %s to %s? [y/N] "),
		 s->act_who, s->act_now, io);
	ask(s);
}

static void class_chosen(struct screen *s, int cls)
{
	s->act.kind = PRODUCER_ACT_IOPRIO;
	s->act.value = cls;
	if (cls == 3) {
		level_chosen(s, 0);
		return;
	}
	char title[256];
	snprintf(title, sizeof(title), _("IO level for %s (0 highest):"),
		 s->act_who);
	menu_open(s, title, level_chosen);
	for (int l = 0; l <= 7; l++) {
		char text[48];
		snprintf(text, sizeof(text), "%d", l);
		menu_add(s, text, l);
	}
	menu_select_value(s, s->act.level);
}

void actions_task_ionice(struct screen *s, int arg)
{
	(void)arg;
	if (!choose(s))
		return;
	struct producer_prio now;
	s->act.kind = PRODUCER_ACT_IOPRIO;
	if (producer_prio(s->m, &s->act, &now) < 0 || !now.have_io) {
		refused(s, errno);
		return;
	}
	/* none set: the kernel's best-effort level from the nice value */
	int level = now.io_class == 1 || now.io_class == 2 ? now.io_level
		  : (now.nice + 20) / 5;
	io_text(s->act_now, sizeof(s->act_now), now.io_class, now.io_level);
	s->act.level = level;
	char title[256];
	snprintf(title, sizeof(title), _("IO class for %s (now %s):"),
		 s->act_who, s->act_now);
	menu_open(s, title, class_chosen);
	menu_add(s, _("realtime"), 1);
	menu_add(s, _("best-effort"), 2);
	menu_add(s, _("idle"), 3);
	menu_select_value(s, now.io_class ? now.io_class : 2);
}

const struct key_def actions_task_keys[] = {
	{ { 'k', KEY_F(9) }, actions_task_kill, 0,
	  N_("send a signal to the selected task (a list; asks first)") },
	{ { KEY_F(7), ']' }, actions_task_renice, -1,
	  N_("nice value one lower: higher priority (asks first)") },
	{ { KEY_F(8), '[' }, actions_task_renice, 1,
	  N_("nice value one higher: lower priority (asks first)") },
	{ { 'i' }, actions_task_ionice, 0,
	  N_("IO class and level of the selected task (asks first)") },
	{ { 0 }, NULL, 0, NULL },
};
