/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Keys that move through a recording (--replay): the next or previous
 * sample, and a jump to the sample at a time typed at the prompt.
 */
#include <config.h>

#include <math.h>
#include <string.h>
#include <time.h>

#include "lib/escape.h"
#include "lib/nls.h"
#include "lib/numparse.h"
#include "model/producer.h"
#include "view/actions.h"
#include "view/screen_int.h"

/* The keys here where samples cannot move in time: say what they are for. */
static bool not_replay(struct screen *s)
{
	if (s->m && producer_seekable(s->m))
		return false;
	screen_message(s, true, _("t, T and j move through a recording "
				  "(stalltop --replay FILE)"));
	return true;
}

void actions_replay_step_forward(struct screen *s, int arg)
{
	(void)arg;
	if (not_replay(s))
		return;
	producer_step(s->m, 1);
	screen_sample_now(s);
}

void actions_replay_step_back(struct screen *s, int arg)
{
	(void)arg;
	if (not_replay(s))
		return;
	producer_step(s->m, -1);
	screen_sample_now(s);
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
 * span midnight) up to the end of that second, or seconds since the
 * epoch as printed (up to half its last digit more). The player goes to
 * the last sample at or before it. Returns 0 or -1.
 */
static int parse_jump(const struct screen *s, const char *text, double *out)
{
	if (!strchr(text, ':')) {
		if (numparse_positive_double(text, 1e11, out) < 0)
			return -1;
		/*
		 * A number names the time as printed at its places (JSON
		 * rounds to the millisecond): the sample printed as it is at
		 * or before it.
		 */
		*out += numparse_half_unit(text);
		return 0;
	}
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
	/*
	 * The header shows a sample's time cut to the second: the clock
	 * typed names that whole second, so the sample shown as 19:38:15
	 * (taken at 19:38:15.8, say) is the one at or before it.
	 */
	*out = best + 1 - 1e-6;
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
		producer_jump(s->m, when);
	screen_sample_now(s);
	char clock[32] = "?";
	time_t t = (time_t)s->snap.s.time;
	struct tm tm;
	if (localtime_r(&t, &tm))
		strftime(clock, sizeof(clock), "%H:%M:%S", &tm);
	screen_message(s, false, _("at the sample of %s (%zu of %zu)"), clock,
		       s->rp_index + 1, s->rp_count);
}

static const struct prompt_ops jump_prompt = {
	.kind = PROMPT_JUMP,
	.label = N_("Jump to (HH:MM[:SS] or seconds since the epoch): "),
	.accept = jump,
};

void actions_replay_jump(struct screen *s, int arg)
{
	(void)arg;
	if (not_replay(s))
		return;
	char buf[32] = "";
	time_t t = (time_t)s->snap.s.time;
	struct tm tm;
	if (s->have_sample && localtime_r(&t, &tm))
		strftime(buf, sizeof(buf), "%H:%M:%S", &tm);
	prompt_start(s, &jump_prompt, buf);
}

const struct key_def actions_replay_keys[] = {
	{ { 't' }, actions_replay_step_forward, 0, N_("the next sample") },
	{ { 'T' }, actions_replay_step_back, 0, N_("the previous sample") },
	{ { 'j' }, actions_replay_jump, 0,
	  N_("jump to a time (HH:MM[:SS] or seconds since the epoch)") },
	{ { 0 }, NULL, 0, NULL },
};
