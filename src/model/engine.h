/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The model object over samples of readings: every state the figures of
 * a sample need from the samples before, kept from sample to sample, so
 * that a producer holding whole store samples hands them over and gets
 * the sample views see (model/assemble.h makes it): a struct
 * derive_state per task life (id and start ticks; processes and thread
 * readings apart), freed once a sample lacks the task (under -a, one
 * that ended in the window stays, as the live monitor keeps it); the
 * context the rates next to a stall are made from; per process the
 * evidence before (model/rowev.h); the disks before; the states of
 * cgroups in the model of cgroups (model/cgmodel.h), which the live
 * monitor's table of cgroups (live/cgtable.c) uses too. The player of
 * recordings of readings drives it; the live monitor still keeps the
 * tasks' states in its own tables (live/tasktable.c, live/gather.c).
 *
 *     engine_baseline(en, in)      the readings the first interval
 *                                  is counted from
 *     engine_sample(en, in, out)   each sample after it
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
#ifndef STALLTOP_ENGINE_H
#define STALLTOP_ENGINE_H

#include <stdbool.h>

#include "model/sample.h"
#include "store/sample.h"

struct engine;

/* rows of tasks in this subtree only (normalised), or NULL; NULL: ENOMEM */
struct engine *engine_new(const char *cgroup_within);

/*
 * Forget every sample: the next one given is a baseline. accumulate:
 * the figures of the samples after it cover the window since it (-a).
 */
void engine_reset(struct engine *en, bool accumulate);

/* Whether a baseline or sample was given since the reset. */
bool engine_started(const struct engine *en);

/*
 * -a's window starts at the sample given last (mono: its clock): the
 * figures of the samples after it cover the time since.
 */
void engine_window(struct engine *en, double mono);

/*
 * The readings the next interval is counted from; first: they are the
 * recording's first (the live monitor's baseline), else a key frame
 * further in, where a task known but not read yet cannot be told from
 * one whose reading failed. 0, or -1 (ENOMEM).
 */
int engine_baseline(struct engine *en, const struct store_sample *in,
		       bool first);

/*
 * The sample of in over the interval since the one given before: rows,
 * exited rows, thread rows, the rates next to them, PSI shares, the
 * machine line, cgroup rows (in->cgroups), the evidence of the rows in
 * in->evidence. out and what it points to are valid until the next call
 * (its strings are in's). 0, or -1 with errno (ENOMEM).
 */
int engine_sample(struct engine *en, const struct store_sample *in,
		     struct sample *out);

void engine_free(struct engine *en);

#endif
