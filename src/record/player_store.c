/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A sample of a recording of readings as the player shows it (player.c
 * says how): the model brought to the sample's base, from the key frame
 * at or before it or by going forward from where it is; with -d, what
 * the samples between said carried into it (coarse.h); with -a, the
 * window started where it starts.
 */
#include <config.h>

#include <errno.h>
#include <stdint.h>

#include "record/coarse.h"
#include "record/player_int.h"
#include "model/engine.h"
#include "record/replay_set.h"
#include "record/storeindex.h"

/* The model goes forward at most this many samples rather than seek. */
#define FORWARD_MAX 64

/*
 * The base of entry e of store file f to show it (SIZE_MAX: none). A
 * session's samples are counted from its own first one, and those after
 * damage from the first after it: no interval spans samples lost.
 */
static size_t base_of(const struct player *pl, size_t f, size_t e)
{
	const struct storeindex *ix = replay_set_store_index(pl->rp, f);
	size_t first = storeindex_run_at(ix, e);

	if (e == first)
		return SIZE_MAX;
	if (!(pl->every > 0) || pl->accumulate)
		return e - 1;
	for (size_t j = e; j-- > first;)
		if (ix->e[e].time - ix->e[j].time >= pl->every * EVERY_SLACK)
			return j;
	return SIZE_MAX;
}

/* Read entry e of file f into pl->ss: as replay_set_store_read. */
static int read_entry(struct player *pl, size_t f, size_t e)
{
	return replay_set_store_read(pl->rp, f, e, &pl->ss);
}

/*
 * Bring the model's base to entry b of store file f, with -a's window
 * started at entry wb (acc) : 1; 0 when a sample on the way did not
 * decode; -1 with errno set.
 */
static int model_to(struct player *pl, size_t f, size_t b, bool acc,
		    size_t wb)
{
	const struct storeindex *ix = replay_set_store_index(pl->rp, f);
	struct sample scratch;
	int got;

	if (!(pl->model_at && pl->mfile == f && pl->mentry <= b &&
	      b - pl->mentry <= FORWARD_MAX &&
	      (!acc || (pl->model_acc && pl->mentry >= wb)) &&
	      (acc || !pl->model_acc))) {
		size_t k = storeindex_key_at(ix, acc && wb < b ? wb : b);

		pl->model_at = pl->model_acc = false;
		if (k == SIZE_MAX)
			return 0;
		if ((got = read_entry(pl, f, k)) <= 0)
			return got;
		engine_reset(pl->en, false);
		if (engine_baseline(pl->en, &pl->ss,
				       k == storeindex_session_at(ix, k)) < 0)
			return -1;
		pl->model_at = true;
		pl->mfile = f;
		pl->mentry = k;
		if (acc && k == wb) {
			engine_window(pl->en, pl->ss.mono);
			pl->model_acc = true;
		}
	}
	while (pl->mentry < b) {
		size_t j = pl->mentry + 1;

		if ((got = read_entry(pl, f, j)) <= 0) {
			pl->model_at = false;
			return got;
		}
		if (engine_sample(pl->en, &pl->ss, &scratch) < 0) {
			pl->model_at = false;
			return -1;
		}
		pl->mentry = j;
		if (acc && j == wb) {
			engine_window(pl->en, pl->ss.mono);
			pl->model_acc = true;
		}
	}
	return 1;
}

/*
 * The samples between entries b and e (both excluded) of file f into the
 * coarse span (one that did not decode adds nothing): 0, or -1.
 */
static int span(struct player *pl, size_t f, size_t b, size_t e)
{
	coarse_begin(pl->co);
	for (size_t j = b + 1; j < e; j++) {
		int got = read_entry(pl, f, j);

		if (got < 0 || (got && coarse_add(pl->co, &pl->ss) < 0))
			return -1;
	}
	return 0;
}

int player_store_show(struct player *pl, size_t i, size_t f, size_t e,
		      struct sample *out)
{
	const struct storeindex *ix = replay_set_store_index(pl->rp, f);
	size_t b = base_of(pl, f, e), wb = 0;
	struct store_sample merged;
	int got;

	if (b == SIZE_MAX) {
		size_t r = storeindex_run_at(ix, e);

		if (r == 0 || ix->e[r].session)
			return 2;
		/* no base but lost samples: read, so that it is counted
		   when it does not decode */
		got = read_entry(pl, f, e);
		return got < 0 ? -1 : got ? 3 : 0;
	}
	if (pl->accumulate) {
		size_t af, ae;

		if (pl->acc_pos == SIZE_MAX || pl->acc_pos > i) {
			/* the window starts at this sample's base */
			pl->acc_pos = i;
			wb = b;
		} else if (!replay_set_store_pos(pl->rp, pl->acc_pos, &af, &ae) ||
			   af != f || storeindex_run_at(ix, ae) !=
				      storeindex_run_at(ix, e)) {
			/* ... or where the file or session began since, or
			   at the first key frame after damage */
			wb = storeindex_run_at(ix, e);
			while (wb < e && !ix->e[wb].key)
				wb++;
		} else {
			wb = base_of(pl, f, ae);
		}
	}
	if ((got = model_to(pl, f, b, pl->accumulate, wb)) <= 0)
		return got;
	if (e > b + 1 && span(pl, f, b, e) < 0)
		return -1;
	if ((got = read_entry(pl, f, e)) <= 0)
		return got; /* the model stays at its base */
	merged = pl->ss;
	if (e > b + 1 && coarse_end(pl->co, &pl->ss, &merged) < 0)
		return -1;
	if (engine_sample(pl->en, &merged, out) < 0) {
		pl->model_at = false;
		return -1;
	}
	pl->mentry = e;
	return 1;
}
