/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Keys of display and control: command lines, accumulated figures,
 * freeze (pause in a replay), the refresh interval, turning on delay
 * accounting, saving the settings, redraw, help and quit.
 */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/escape.h"
#include "lib/nls.h"
#include "lib/numparse.h"
#include "model/producer.h"
#include "view/actions.h"
#include "view/screen_int.h"

void actions_control_sync_settings(struct screen *s)
{
	struct screen_settings *o = &s->set;
	o->delay = s->delay;
	o->sel.sort = s->sel.sort;
	o->sel.reverse = s->sel.reverse;
	o->sel.metric = s->sel.metric;
	o->sel.only_stalled = s->sel.only_stalled;
	o->cmdline = s->cmdline;
	o->threads = s->threads_all;
	o->accumulate = s->accumulate;
	o->tree = s->tree;
}

void actions_control_cmdline(struct screen *s, int arg)
{
	(void)arg;
	s->cmdline = !s->cmdline;
	actions_control_sync_settings(s);
}

void actions_control_accumulate(struct screen *s, int arg)
{
	(void)arg;
	if (!s->m)
		return;
	if (producer_set_accumulate(s->m, !s->accumulate) < 0) {
		screen_message(s, true, "%s",
			       producer_refusal(s->m,
						PRODUCER_WORDS_NO_ACCUMULATE));
		return;
	}
	s->accumulate = !s->accumulate;
	actions_control_sync_settings(s);
	s->frozen = false;
	screen_resample_soon(s);
	screen_message(s, false, s->accumulate
		       ? _("figures since start") : _("figures per interval"));
}

void actions_control_freeze(struct screen *s, int arg)
{
	(void)arg;
	/* what can move in time pauses; what measures freezes the display */
	if (!s->m || !producer_seekable(s->m)) {
		s->frozen = !s->frozen;
		return;
	}
	s->rp_paused = !s->rp_paused;
	producer_pause(s->m, s->rp_paused);
	screen_message(s, false, s->rp_paused ? _("playback paused")
					      : _("playback goes on"));
}

/*
 * The interval of a producer that measures is what its figures cover; of
 * one that does not, only how fast its samples are shown.
 */
static bool paced(const struct screen *s)
{
	return s->m && !producer_measures(s->m);
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
	actions_control_sync_settings(s);
	if (paced(s))
		screen_message(s, false, _("speed: the next sample every %g s"),
			       d);
	else
		screen_message(s, false, _("refresh every %g s"), d);
}

static const struct prompt_ops delay_prompt = {
	.kind = PROMPT_DELAY,
	.label = N_("Refresh interval in seconds: "),
	.accept = set_delay,
};

/* d sets the speed where samples are not measured, as its hint says. */
static const struct prompt_ops speed_prompt = {
	.kind = PROMPT_DELAY,
	.label = N_("Speed, seconds from one sample to the next: "),
	.accept = set_delay,
};

/*
 * Where the producer makes its figures' interval from stored readings,
 * d sets that interval (0: the recording's own); the pace stays.
 */
static void set_interval(struct screen *s, const char *text)
{
	double d = 0;
	if (strcmp(text, "0") != 0 && numparse_delay(text, &d) < 0) {
		char esc[64];
		escape_text(text, esc, sizeof(esc));
		screen_message(s, true,
			       _("invalid interval '%s': give seconds from 0.01 "
				 "to 86400, or 0 for the recording's own"), esc);
		return;
	}
	s->interval = d;
	producer_set_interval(s->m, d);
	screen_refetch(s);
	if (d > 0)
		screen_message(s, false, _("figures over %g s: samples at least "
					   "that far apart"), d);
	else
		screen_message(s, false, "%s",
			       _("figures over the recording's interval"));
}

static const struct prompt_ops interval_prompt = {
	.kind = PROMPT_DELAY,
	.label = N_("Interval the figures cover, seconds (0: the recording's): "),
	.accept = set_interval,
};

void actions_control_delay(struct screen *s, int arg)
{
	(void)arg;
	char buf[32];
	if (s->m && producer_sets_interval(s->m)) {
		snprintf(buf, sizeof(buf), "%g", s->interval);
		prompt_start(s, &interval_prompt, buf);
		return;
	}
	snprintf(buf, sizeof(buf), "%g", s->delay);
	prompt_start(s, paced(s) ? &speed_prompt : &delay_prompt, buf);
}

static void enable_delayacct(struct screen *s, bool yes)
{
	if (!yes) {
		screen_message(s, false, _("delay accounting left off"));
		return;
	}
	errno = ENOTSUP;
	if (!s->m || producer_enable_delayacct(s->m) < 0) {
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

static const struct prompt_ops delayacct_prompt = {
	.kind = PROMPT_CONFIRM,
	.label = N_("Turn on delay accounting (sysctl kernel.task_delayacct=1)? "
		    "[y/N] "),
	.answer = enable_delayacct,
};

void actions_control_delayacct(struct screen *s, int arg)
{
	(void)arg;
	if (s->m && !producer_measures(s->m))
		screen_message(s, true, "%s",
			       producer_refusal(s->m, PRODUCER_WORDS_NO_MEASURE));
	else if (s->have_sample && s->snap.s.delayacct)
		screen_message(s, false, _("delay accounting is already on"));
	else
		prompt_start(s, &delayacct_prompt, NULL);
}

void actions_control_setup(struct screen *s, int arg)
{
	(void)arg;
	if (s->cgview) {
		screen_message(s, true, "%s", _("the column setup is the task "
						"table's: leave the cgroup view "
						"first (g)"));
		return;
	}
	screen_setup_open(s);
}

/* The evidence pane: on with the state of what is in sight now. */
void actions_control_why(struct screen *s, int arg)
{
	(void)arg;
	s->why = !s->why;
	if (s->why)
		screen_fill_current(s);
}

void actions_control_save(struct screen *s, int arg)
{
	(void)arg;
	const char *path = s->set.path;
	actions_control_sync_settings(s);
	errno = ENOENT; /* no way to save: no settings file */
	if (!s->set.save || s->set.save(&s->set, s->set.save_arg) < 0)
		screen_message(s, true, _("cannot save the settings to %s: %s"),
			       path ? path : "?", strerror(errno));
	else
		screen_message(s, false, _("settings saved to %s"),
			       path ? path : "?");
}

void actions_control_redraw(struct screen *s, int arg)
{
	(void)s;
	(void)arg;
	clearok(curscr, TRUE);
}

/* Ctrl-Z where the terminal gives it as a key (no suspend character) */
void actions_control_suspend(struct screen *s, int arg)
{
	(void)arg;
	screen_suspend(s);
}

void actions_control_help(struct screen *s, int arg)
{
	(void)arg;
	s->help = true;
	s->help_top = 0;
}

void actions_control_quit(struct screen *s, int arg)
{
	(void)arg;
	screen_quit(s, 0);
}

const struct key_def actions_control_keys[] = {
	{ { 'c' }, actions_control_cmdline, 0,
	  N_("show the command line or the name") },
	{ { 'a' }, actions_control_accumulate, 0,
	  N_("figures since start instead of per interval (on/off; replaying: "
	     "since the sample shown)") },
	{ { ' ' }, actions_control_freeze, 0,
	  N_("freeze the display (collection goes on); replaying: pause or "
	     "resume playback") },
	{ { KEY_F(2) }, actions_control_setup, 0,
	  N_("column setup: show, hide and order the columns (saved)") },
	{ { 'd' }, actions_control_delay, 0,
	  N_("change the refresh interval (seconds; replaying a recording of "
	     "readings: the interval the figures cover, else the time each "
	     "sample stays)") },
	{ { 'E' }, actions_control_delayacct, 0,
	  N_("turn on kernel delay accounting (asks first)") },
	{ { 'w' }, actions_control_why, 0,
	  N_("why: the evidence of the selected process's or cgroup's "
	     "stalls") },
	{ { 'W' }, actions_control_save, 0, N_("save the current settings") },
	{ { KEYS_CTRL('l') }, actions_control_redraw, 0,
	  N_("redraw the screen") },
	{ { KEYS_CTRL('z') }, actions_control_suspend, 0,
	  N_("suspend stalltop (the shell's fg brings it back)") },
	{ { 'h', '?', KEY_F(1) }, actions_control_help, 0, N_("this help") },
	{ { 'q', KEY_F(10) }, actions_control_quit, 0, N_("quit") },
	{ { 0 }, NULL, 0, NULL },
};
