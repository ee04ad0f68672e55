/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The model run over a recording of readings: what the live monitor
 * keeps from sample to sample, kept here for a replay, so that its
 * samples are made by the same code from the same store samples
 * (model/assemble.h): a struct derive_state per task life (id and start
 * ticks; processes and thread readings apart), freed once a sample
 * lacks the task; the context the rates next to a stall are made from;
 * per cgroup its PSI reading before (model/cgrows.h); per process and
 * cgroup row the evidence before (model/rowev.h); the disks before.
 *
 *     playmodel_baseline(pm, in)      the readings the first interval
 *                                     is counted from
 *     playmodel_sample(pm, in, out)   each sample after it
 *
 * A task new to the model that began after the sample before began its
 * queries (its reading's born), that comes with its exit record only, or
 * that is known but not read yet at the recording's first sample, is
 * counted from zero, as the live monitor counts one it learns of from
 * its fork or exit. A task that first comes with a carried reading (READING_CARRIED: its
 * counters not repeated) after a baseline has no base until its next
 * reading that holds counters: no row until then. At a baseline, a
 * carried reading that holds the counters standing (READING_STANDING,
 * as a recording's key frame has them) is the base of a task without.
 */
#ifndef STALLTOP_PLAYMODEL_H
#define STALLTOP_PLAYMODEL_H

#include <stdbool.h>

#include "model/sample.h"
#include "store/sample.h"

struct playmodel;

/* rows of tasks in this subtree only (normalised), or NULL; NULL: ENOMEM */
struct playmodel *playmodel_new(const char *cgroup_within);

/*
 * Forget every sample: the next one given is a baseline. accumulate:
 * the figures of the samples after it cover the window since it (-a).
 */
void playmodel_reset(struct playmodel *pm, bool accumulate);

/* Whether a baseline or sample was given since the reset. */
bool playmodel_started(const struct playmodel *pm);

/*
 * -a's window starts at the sample given last (mono: its clock): the
 * figures of the samples after it cover the time since.
 */
void playmodel_window(struct playmodel *pm, double mono);

/*
 * The readings the next interval is counted from; first: they are the
 * recording's first (the live monitor's baseline), else a key frame
 * further in, where a task known but not read yet cannot be told from
 * one whose reading failed. 0, or -1 (ENOMEM).
 */
int playmodel_baseline(struct playmodel *pm, const struct store_sample *in,
		       bool first);

/*
 * The sample of in over the interval since the one given before: rows,
 * exited rows, thread rows, the rates next to them, PSI shares, the
 * machine line, cgroup rows (in->cgroups), the evidence of the rows in
 * in->evidence. out and what it points to are valid until the next call
 * (its strings are in's). 0, or -1 with errno (ENOMEM).
 */
int playmodel_sample(struct playmodel *pm, const struct store_sample *in,
		     struct sample *out);

void playmodel_free(struct playmodel *pm);

#endif
