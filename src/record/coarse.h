/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Store samples over a coarser interval (a replay's -d): the samples
 * between two shown ones are read but not shown, and what they said that
 * the later one no longer says is carried into it, so the model makes of
 * the two ends one interval as a live monitor sampling that seldom
 * would have:
 *  - a task that ended between them comes with its last reading (its
 *    exit record), so its row is among the exited;
 *  - a carried reading (READING_CARRIED: counters not repeated) takes
 *    the counters of its task's last reading that had them;
 *  - a process's thread count is steady (READING_STEADY) only when it
 *    was so in every sample of the span.
 * Counters, PSI totals, the machine's and the cgroups' counters are
 * cumulative: the later sample's are those of the span.
 *
 *     coarse_begin(c)           a span starts after the base
 *     coarse_add(c, in)         each sample between, in order
 *     coarse_end(c, last, out)  the last one, with the above
 */
#ifndef STALLTOP_COARSE_H
#define STALLTOP_COARSE_H

#include "store/sample.h"

struct coarse;

struct coarse *coarse_new(void);
void coarse_begin(struct coarse *c);
/* A sample between the ends. 0, or -1 with errno ENOMEM. */
int coarse_add(struct coarse *c, const struct store_sample *in);
/*
 * last with what the samples between said into *out (its task arrays
 * c's, valid until the next coarse_begin; the rest last's). 0, or -1
 * with errno ENOMEM.
 */
int coarse_end(struct coarse *c, const struct store_sample *last,
	       struct store_sample *out);
void coarse_free(struct coarse *c);

#endif
