/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The player: a recording as a producer of samples. Samples come from the
 * file instead of the kernel, shaped as the view asks (process or thread
 * rows, one process's threads, a cgroup subtree), so views cannot tell
 * the two apart; moving in time (step, jump, pause) lives here. The
 * samples come from a set of recordings (replay_set.h): one file, several,
 * or directories of them, as one timeline.
 *
 * A recording of readings (storefile.h) is played through the model
 * (model/engine.h), as the live monitor's readings are: each sample shown is
 * made from its store sample and its base, the sample before it (with
 * -d, the one shown before it, and coarse.h carries what the samples
 * between said). The model is brought to the base by reading from the
 * key frame at or before it (with -a, at or before the window's start)
 * and giving it each sample on to the base, so a step, a jump or a
 * paused sample shows what a play from the start would have. The first
 * sample of a file, or of a recording session in it, has no base: it is
 * the base of the next one only.
 */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/nls.h"
#include "model/cgname.h"
#include "model/producer.h"
#include "record/coarse.h"
#include "record/player.h"
#include "record/player_int.h"
#include "model/engine.h"
#include "record/replay_set.h"
#include "record/storeindex.h"

static struct player *of(struct producer *p)
{
	return (struct player *)p;
}

static const struct player *of_const(const struct producer *p)
{
	return (const struct player *)p;
}

static size_t clamp_index(const struct player *pl, long i)
{
	size_t n = replay_set_count(pl->rp);
	if (i < 0 || n == 0)
		return 0;
	return (size_t)i >= n ? n - 1 : (size_t)i;
}

/* The time of position i (NAN: none). */
static double pos_time(const struct player *pl, size_t i)
{
	size_t f, e;

	if (!replay_set_store_pos(pl->rp, i, &f, &e))
		return NAN;
	return replay_set_store_index(pl->rp, f)->e[e].time;
}

/*
 * The position shown after i: the next one, or with -d over readings the
 * first at least the interval later (n: none).
 */
static size_t after(const struct player *pl, size_t i)
{
	size_t n = replay_set_count(pl->rp);
	double t = pos_time(pl, i);

	if (!(pl->every > 0) || isnan(t))
		return i + 1 < n ? i + 1 : n;
	for (size_t j = i + 1; j < n; j++) {
		double u = pos_time(pl, j);

		if (isnan(u) || u - t >= pl->every * EVERY_SLACK)
			return j;
	}
	return n;
}

/* The position shown before i, likewise (SIZE_MAX: none). */
static size_t before(const struct player *pl, size_t i)
{
	double t = pos_time(pl, i);

	if (i == 0)
		return SIZE_MAX;
	if (!(pl->every > 0) || isnan(t))
		return i - 1;
	for (size_t j = i; j-- > 0;) {
		double u = pos_time(pl, j);

		if (isnan(u) || t - u >= pl->every * EVERY_SLACK)
			return j;
	}
	return 0;
}

static void step(struct producer *p, long delta)
{
	struct player *pl = of(p);
	size_t n = replay_set_count(pl->rp), i = pl->shown;

	if (!(pl->every > 0)) {
		pl->next = clamp_index(pl, (long)pl->shown + delta);
	} else {
		for (; delta > 0 && after(pl, i) < n; delta--)
			i = after(pl, i);
		for (; delta < 0 && before(pl, i) != SIZE_MAX; delta++)
			i = before(pl, i);
		pl->next = i;
	}
	pl->done = false;
}

static void jump(struct producer *p, double epoch)
{
	struct player *pl = of(p);
	pl->next = replay_set_find_time(pl->rp, epoch);
	pl->done = false;
}

static void pause_play(struct producer *p, bool pause)
{
	struct player *pl = of(p);
	pl->paused = pause;
	if (pause)
		pl->next = pl->shown;
}

static bool paused(const struct producer *p)
{
	return of_const(p)->paused;
}

/*
 * The first sample of each file or session of readings is only the base
 * of the next: it is not counted among the samples shown.
 */
static bool is_base(const struct player *pl, size_t i)
{
	size_t f, e;

	if (!replay_set_store_pos(pl->rp, i, &f, &e))
		return false;
	return e == storeindex_session_at(replay_set_store_index(pl->rp, f), e);
}

/* The bases at positions before i (pl->bases is sorted). */
static size_t bases_before(const struct player *pl, size_t i)
{
	size_t lo = 0, hi = pl->nbases;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (pl->bases[mid] < i)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Where the bases are, once at the start: 0, or -1 with errno ENOMEM. */
static int find_bases(struct player *pl)
{
	size_t n = replay_set_count(pl->rp), cap = 0;

	for (size_t i = 0; i < n; i++) {
		if (!is_base(pl, i))
			continue;
		if (pl->nbases == cap) {
			size_t nc = cap ? cap * 2 : 16;
			size_t *b = realloc(pl->bases, nc * sizeof(*b));

			if (!b)
				return -1;
			pl->bases = b;
			cap = nc;
		}
		pl->bases[pl->nbases++] = i;
	}
	return 0;
}

static bool position(const struct producer *p, size_t *index, size_t *count)
{
	const struct player *pl = of_const(p);
	size_t n = replay_set_count(pl->rp);

	*index = pl->shown - bases_before(pl, pl->shown);
	*count = n > pl->nbases ? n - pl->nbases : 0;
	return true;
}

static bool done(const struct producer *p)
{
	return of_const(p)->done;
}

static bool damaged(const struct producer *p)
{
	return replay_set_damaged(of_const(p)->rp);
}

static void set_threads(struct producer *p, bool threads, pid_t only_tgid)
{
	struct player *pl = of(p);
	pl->threads = threads;
	pl->only_tgid = threads ? only_tgid : 0;
}

/* A recording has the cgroups it was taken with: nothing to start. */
static int set_cgroups(struct producer *p, bool on)
{
	(void)p;
	(void)on;
	return 0;
}

/* Does a recorded row belong in the view? */
static bool wanted(const struct player *pl, const struct row *r)
{
	if (pl->only_tgid && r->tgid != pl->only_tgid)
		return false;
	return !pl->cgroup_within ||
	       (r->cgroup && cgname_within(r->cgroup, pl->cgroup_within));
}

/* Append the rows of src the view wants to *v. */
static void keep_wanted(const struct player *pl, const struct row *src,
			size_t n, struct row **v, size_t *nv, size_t *cap)
{
	for (size_t i = 0; i < n; i++) {
		if (!wanted(pl, &src[i]))
			continue;
		struct row *r = producer_push_row(v, nv, cap);
		if (r)
			*r = src[i];
	}
}

/*
 * Keep the recorded rows a view of this kind shows. The sample says
 * whether its rows are threads (-H): then they serve a view of threads
 * and, there being no process rows, a view of processes too. Else a view
 * of threads takes the recorded thread rows, if any.
 */
static void shape_rows(struct player *pl, struct sample *out)
{
	const struct row *src = out->rows, *gone = out->exited;
	size_t n = out->nrows, ngone = out->nexited;
	bool threads = out->threads;
	if (pl->threads && !threads) {
		src = out->thread_rows;
		n = src ? out->nthread_rows : 0;
		gone = out->thread_exited;
		ngone = gone ? out->nthread_exited : 0;
		threads = src != NULL;
	}
	pl->nrows = pl->nexited = 0;
	keep_wanted(pl, src, n, &pl->rows, &pl->nrows, &pl->caprows);
	keep_wanted(pl, gone, ngone, &pl->exited, &pl->nexited, &pl->capexited);
	out->rows = pl->rows;
	out->nrows = pl->nrows;
	out->exited = pl->exited;
	out->nexited = pl->nexited;
	out->threads = threads;
}

/* The damage notice follows the counts (one notice, replaced). */
static void update_problem(struct player *pl)
{
	const char *now = replay_set_problem(pl->rp);
	char *copy;

	if (!now || (pl->problem && strcmp(now, pl->problem) == 0))
		return;
	copy = strdup(now);
	if (!copy)
		return;
	producer_notice_replace(&pl->p, pl->problem, now);
	free(pl->problem);
	pl->problem = copy;
}

/*
 * The note of sample i skipped for damage: it did not decode, or (lost)
 * samples its interval would span were lost (it is a base only).
 */
static void skipped_note(struct player *pl, size_t i, bool lost)
{
	time_t t = (time_t)pos_time(pl, i);
	char when[64] = "?";
	struct tm tm;

	if (localtime_r(&t, &tm))
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm);
	if (lost)
		snprintf(pl->why, sizeof(pl->why), _("the sample of %s was "
			 "skipped: samples within its interval were lost to "
			 "damage"), when);
	else
		snprintf(pl->why, sizeof(pl->why), _("the sample of %s was "
			 "skipped: it, or a sample it is made from, did not "
			 "decode"), when);
}

/*
 * Sample i into out: of an NDJSON recording as it was recorded, of
 * readings through the model. 0; -1 with errno: EBADMSG skip it (a note
 * said why), ENOENT skip it silently (a file's first sample), else fail.
 */
static int get(struct player *pl, size_t i, struct sample *out)
{
	size_t f, e;
	int got;

	if (!replay_set_store_pos(pl->rp, i, &f, &e))
		return replay_set_get(pl->rp, i, out);
	if (pl->have_last && pl->last_pos == i) {
		*out = pl->last;
		return 0;
	}
	pl->have_last = false;
	got = player_store_show(pl, i, f, e, out);
	if (got == 0 || got == 3)
		skipped_note(pl, i, got == 3);
	if (got >= 0 && got != 1) {
		memset(out, 0, sizeof(*out));
		errno = got == 2 ? ENOENT : EBADMSG;
		return -1;
	}
	if (got < 0)
		return -1;
	pl->last = *out;
	pl->last_pos = i;
	pl->have_last = true;
	return 0;
}

/*
 * Nothing was shown because no two samples lie the interval apart (-d
 * longer than the recording): said, with how long the recording is.
 */
static void too_coarse(struct player *pl)
{
	size_t n = replay_set_count(pl->rp);
	double first = pos_time(pl, 0), last = pos_time(pl, n ? n - 1 : 0);
	char note[256];

	if (isnan(first) || isnan(last))
		return;
	snprintf(note, sizeof(note), _("no two samples of the recording lie "
		 "%g s apart (-d): it spans %.3g s; give a shorter interval"),
		 pl->every, last - first);
	producer_notice(&pl->p, note);
}

static int sample(struct producer *p, struct sample *out)
{
	struct player *pl = of(p);
	size_t n = replay_set_count(pl->rp);
	if (n == 0) {
		errno = ENODATA;
		return -1;
	}
	size_t i = pl->next < n ? pl->next : n - 1;
	/* a damaged line is skipped (in the direction we were going) */
	int dir = i < pl->shown && pl->started ? -1 : 1;
	while (get(pl, i, out) < 0) {
		if (errno != EBADMSG && errno != ENOENT)
			return -1;
		if (errno == EBADMSG && pl->why[0])
			producer_note(p, pl->why);
		else if (errno == EBADMSG && replay_set_skipped(pl->rp))
			producer_note(p, replay_set_skipped(pl->rp));
		pl->why[0] = '\0';
		update_problem(pl);
		if (dir < 0 && i == 0)
			/* back before the first sample that can be shown
			   (bases are not): the first one after */
			dir = 1;
		if (dir > 0 && i + 1 >= n) {
			if (!pl->started && pl->every > 0)
				too_coarse(pl);
			pl->done = true;
			errno = ENODATA;
			return -1;
		}
		i = (size_t)((long)i + dir);
	}
	update_problem(pl); /* rows and values dropped */
	pl->shown = i;
	pl->started = true;
	if (!pl->paused) {
		size_t next = after(pl, i);

		if (next < n)
			pl->next = next;
		else
			pl->done = true;
	}
	shape_rows(pl, out);
	return 0;
}

/* What a recording says of itself and of what it cannot do. */
static const char *words(const struct producer *p, enum producer_words w)
{
	(void)p;
	switch (w) {
	case PRODUCER_WORDS_TITLE:
		return _("REPLAY");
	case PRODUCER_WORDS_NO_ACCUMULATE:
		return _("a recording of format 1 (NDJSON) holds its intervals "
			 "as they were recorded: -a and a coarser -d need a "
			 "recording of readings");
	case PRODUCER_WORDS_NO_MEASURE:
		return _("a replay does not measure: delay accounting is the "
			 "recorded system's");
	case PRODUCER_WORDS_NO_ACT:
		return _("a replay shows recorded tasks: no action on them is "
			 "possible");
	case PRODUCER_WORDS_NO_THREADS:
		return _("this recording holds no thread rows: only its "
			 "processes can be shown");
	case PRODUCER_WORDS_NO_MACHINE:
		return _("load, CPU, memory and swap: not in the recording");
	}
	return NULL;
}

/* The model's samples are of other settings now: make them again. */
static void remake(struct player *pl)
{
	pl->have_last = false;
	pl->model_at = false;
}

static void set_accumulate(struct producer *p, bool accumulate)
{
	struct player *pl = of(p);

	pl->accumulate = accumulate;
	/* the window starts at the base of the sample shown (or the next) */
	pl->acc_pos = pl->started ? pl->shown : SIZE_MAX;
	remake(pl);
}

/* The interval of the recording at the sample shown (NAN: unknown). */
static double recorded_interval(const struct player *pl)
{
	size_t f, e;

	if (!replay_set_store_pos(pl->rp, pl->started ? pl->shown : pl->next,
				  &f, &e))
		return NAN;
	const struct storeindex *ix = replay_set_store_index(pl->rp, f);
	if (e + 1 < ix->n)
		return ix->e[e + 1].time - ix->e[e].time;
	return e ? ix->e[e].time - ix->e[e - 1].time : NAN;
}

static void set_interval(struct producer *p, double seconds)
{
	struct player *pl = of(p);
	double own = recorded_interval(pl);

	pl->every = seconds > 0 ? seconds : 0;
	if (pl->every > 0 && !(own < pl->every * EVERY_SLACK) &&
	    !pl->told_every) {
		char note[256];

		/* said once: each sample of the recording is shown */
		snprintf(note, sizeof(note), _("the recording's interval is "
			 "%.3g s: an interval of %g s shows each of its "
			 "samples"), own, seconds);
		producer_notice(p, note);
		pl->told_every = true;
	}
	remake(pl);
}

static void player_free(struct producer *p)
{
	struct player *pl = of(p);
	replay_set_close(pl->rp);
	engine_free(pl->en);
	coarse_free(pl->co);
	free(pl->problem);
	free(pl->bases);
	free(pl->rows);
	free(pl->exited);
	free(pl);
}

/* What the player does with a recording of either format. */
#define PLAYER_OPS \
	.sample = sample, \
	.set_threads = set_threads, \
	.set_cgroups = set_cgroups, \
	.step = step, \
	.jump = jump, \
	.pause = pause_play, \
	.paused = paused, \
	.position = position, \
	.done = done, \
	.damaged = damaged, \
	.words = words, \
	.free = player_free

static const struct producer_ops player_ops = { PLAYER_OPS };

/* Recordings of readings: the model runs here, so -a and -d work. */
static const struct producer_ops player_store_ops = {
	PLAYER_OPS,
	.set_accumulate = set_accumulate,
	.set_interval = set_interval,
};

struct producer *player_open_set(const char *const *paths, size_t npaths,
				 double begin, double end, bool threads,
				 const char *cgroup_within, int cancel_fd,
				 char *err, size_t errsize)
{
	struct player *pl = calloc(1, sizeof(*pl));
	if (!pl) {
		snprintf(err, errsize, "%s", strerror(ENOMEM));
		return NULL;
	}
	pl->p.ops = &player_ops;
	pl->threads = threads;
	pl->cgroup_within = cgroup_within;
	pl->acc_pos = SIZE_MAX;
	if (!(pl->en = engine_new(cgroup_within)) ||
	    !(pl->co = coarse_new())) {
		producer_free(&pl->p);
		snprintf(err, errsize, "%s", strerror(ENOMEM));
		errno = ENOMEM;
		return NULL;
	}
	pl->rp = replay_set_open_cancel(paths, npaths, begin, end, cancel_fd,
					err, errsize);
	if (!pl->rp) {
		int e = errno;

		producer_free(&pl->p);
		errno = e;
		return NULL;
	}
	if (!replay_set_count(pl->rp)) {
		/* nothing to show is a failure, and says why */
		const char *why = replay_set_problem(pl->rp);

		if (!isnan(begin) || !isnan(end))
			snprintf(err, errsize, "%s", _("no recorded sample lies "
				 "between the --begin and --end times"));
		else if (why)
			snprintf(err, errsize, _("the recording holds no usable "
						 "sample: %s"), why);
		else
			snprintf(err, errsize, "%s", _("the recording holds no "
						       "sample"));
		producer_free(&pl->p);
		errno = ENODATA;
		return NULL;
	}
	if (replay_set_all_store(pl->rp))
		pl->p.ops = &player_store_ops;
	if (find_bases(pl) < 0) {
		snprintf(err, errsize, "%s", strerror(errno));
		producer_free(&pl->p);
		return NULL;
	}
	update_problem(pl);
	return &pl->p;
}
