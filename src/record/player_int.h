/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the player's files (player.c, player_store.c) share: the player's
 * state. Not for use outside them.
 */
#ifndef STALLTOP_PLAYER_INT_H
#define STALLTOP_PLAYER_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "model/producer.h"
#include "model/sample.h"
#include "store/sample.h"

/*
 * With -d, the samples shown are at least this share of its seconds
 * apart: the recorder's interval wavers by some milliseconds (a -d 60 of
 * a recording at 10 s takes 6 of its intervals, 59.99 s, not 7).
 */
#define EVERY_SLACK 0.9

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

	/* recordings of readings */
	bool all_store;             /* every file is one: -a and -d work */
	struct engine *en;
	struct coarse *co;
	struct store_sample ss;     /* the store sample read last */
	double every;               /* -d: the interval shown, at least (0:
				       the recording's) */
	size_t *bases;              /* positions that are only a base
				       (find_bases), sorted */
	size_t nbases;
	bool told_every;            /* the note of a -d too small was given */
	bool accumulate;            /* -a */
	size_t acc_pos;             /* -a: the window starts at this sample's
				       base (SIZE_MAX: at the next shown) */
	bool model_at;              /* the model's base is (mfile, mentry) */
	size_t mfile, mentry;
	bool model_acc;             /* ... with -a's window started */
	char why[256];              /* the note of a sample of readings
				       skipped, or "" */
	bool have_last;             /* last: the sample of position last_pos */
	size_t last_pos;
	struct sample last;
};

/*
 * Position i, entry e of store file f, made by the model: 1 shown, 0 it
 * (or what its figures need) did not decode, 2 it has no base (a file's
 * first sample), 3 it has none because the samples before it were lost
 * to damage (it is a base only), -1 with errno set.
 */
int player_store_show(struct player *pl, size_t i, size_t f, size_t e,
		      struct sample *out);

#endif
