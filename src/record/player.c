/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The player: a recording as a producer of samples. Samples come from the
 * file instead of the kernel, shaped as the view asks (process or thread
 * rows, one process's threads, a cgroup subtree), so views cannot tell
 * the two apart; moving in time (step, jump, pause) lives here. The
 * samples come from a set of recordings (replay_set.h): one file, several,
 * or directories of them, as one timeline.
 */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/nls.h"
#include "model/cgname.h"
#include "model/producer.h"
#include "record/player.h"
#include "record/replay_set.h"

struct player {
	struct producer p;          /* first: the producer is the player */
	struct replay_set *rp;
	bool threads;               /* the view asks for thread rows */
	pid_t only_tgid;            /* ... of this process only (0: all) */
	const char *cgroup_within;  /* only tasks in this v2 subtree */
	size_t next;                /* sample sample() hands out next */
	size_t shown;               /* the one handed out last */
	bool started, paused, done;

	struct row *rows;
	size_t nrows, caprows;
	struct row *exited;
	size_t nexited, capexited;
	char *problem;              /* the damage notice shown, or NULL */
};

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

static void step(struct producer *p, long delta)
{
	struct player *pl = of(p);
	pl->next = clamp_index(pl, (long)pl->shown + delta);
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

static bool position(const struct producer *p, size_t *index, size_t *count)
{
	const struct player *pl = of_const(p);
	*index = pl->shown;
	*count = replay_set_count(pl->rp);
	return true;
}

static bool done(const struct producer *p)
{
	return of_const(p)->done;
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
	while (replay_set_get(pl->rp, i, out) < 0) {
		if (errno != EBADMSG)
			return -1;
		if (replay_set_skipped(pl->rp))
			producer_note(p, replay_set_skipped(pl->rp));
		update_problem(pl);
		if ((dir > 0 && i + 1 >= n) || (dir < 0 && i == 0)) {
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
		if (i + 1 < n)
			pl->next = i + 1;
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
		return _("a recording holds its intervals as they were "
			 "recorded");
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

static void player_free(struct producer *p)
{
	struct player *pl = of(p);
	replay_set_close(pl->rp);
	free(pl->problem);
	free(pl->rows);
	free(pl->exited);
	free(pl);
}

static const struct producer_ops player_ops = {
	.sample = sample,
	.set_threads = set_threads,
	.set_cgroups = set_cgroups,
	.step = step,
	.jump = jump,
	.pause = pause_play,
	.paused = paused,
	.position = position,
	.done = done,
	.words = words,
	.free = player_free,
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
	update_problem(pl);
	return &pl->p;
}

struct producer *player_open(const char *path, bool threads,
			     const char *cgroup_within, char *err,
			     size_t errsize)
{
	return player_open_set(&path, 1, NAN, NAN, threads, cgroup_within, -1,
			       err, errsize);
}
