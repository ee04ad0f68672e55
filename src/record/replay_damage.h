/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef STALLTOP_RECORD_REPLAY_DAMAGE_H
#define STALLTOP_RECORD_REPLAY_DAMAGE_H

#include <stddef.h>

struct damage;
struct replay;
struct skip;

/* Count a line skipped (the first one named keeps its reason). */
void replay_damage_skip(struct damage *d, size_t line_no,
			const struct skip *k);
/* The replay's problem text (rp->problem) made again from its counts. */
void replay_damage_problem(struct replay *rp);
/*
 * Line index was found unusable by replay_get: count it, say so (in the
 * problem and in rp->skipped_note).
 */
void replay_damage_bad_line(struct replay *rp, size_t index,
			    const struct skip *why);
/* Sample index dropped rows that are not tasks, and impossible values. */
void replay_damage_dropped(struct replay *rp, size_t index, size_t rows,
			   size_t values);

#endif
