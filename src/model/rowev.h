/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A row's evidence and causes from sample to sample: from the reading of
 * the evidence next to a process's or a cgroup row's stalls at one
 * sample (struct store_evidence) and the reading before it, kept here,
 * the figures of the interval (model/evidence.h) and the causes of the
 * row's stalls (model/rowwhy.h). Pure: no I/O; what it needs of earlier
 * samples is in struct rowev_state, which the caller keeps per process
 * or per cgroup row (the live monitor in its tables), as it keeps a
 * task's struct derive_state.
 *
 * An interval is made only between readings of consecutive samples;
 * otherwise the evidence has current values only. A reading's cgroups'
 * part (cpu, mem, io, states) is compared with the one before only when
 * both are of the same cgroups (store_evidence.cgroups), and a group of
 * it only when the process's row wanted that group (rowwhy_wants) at
 * the sample before: a group read then for another process in the same
 * cgroups is not a reading of this one, and without a reading of its
 * own the group's figures of the interval are unknown; forks counted
 * from fork events are compared only when no event was lost between the
 * two readings. The first cause of the interval before stays first
 * while it binds (rowwhy_eval).
 */
#ifndef STALLTOP_ROWEV_H
#define STALLTOP_ROWEV_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/diskstats_types.h"
#include "model/rowwhy.h"
#include "model/sample.h"
#include "store/sample.h"

/* What is kept of one owner's evidence between samples. */
struct rowev_state {
	struct evidence_reading prev; /* the reading before */
	uint64_t prev_round;       /* the sample it was given in */
	uint64_t prev_lost;        /* events lost by then (forks) */
	unsigned prev_want;        /* the groups it was read for (0: all) */
	bool have_prev;
	bool prev_cgroups_known;   /* prev_cgroups names its cgroups */
	/*
	 * Its cgroups as a 64-bit FNV-1a hash of the text (two texts of one
	 * process that hash alike but differ: 2^-64), not the text itself:
	 * a kept reading costs 8 bytes here, not the text's length.
	 */
	uint64_t prev_cgroups;
	uint64_t why_round;        /* why is of this sample */
	bool have_why;
	struct row_why why;
};

/* Whether s holds the evidence of sample round already. */
bool rowev_have(const struct rowev_state *s, uint64_t round);

/* What a row's evidence is made of at one sample. */
struct rowev_input {
	uint64_t round;            /* the sample, counting up by one */
	uint64_t lost;             /* events lost so far (cumulative) */
	double interval;           /* the sample's interval, s */
	const struct diskstats *disks_prev, *disks_cur; /* /proc/diskstats
				      of the interval's ends, or NULL */
};

/*
 * Process row r's evidence and causes at sample in->round from its
 * reading cur (cur->cgroups: the text of its /proc/PID/cgroup, NULL
 * unknown), against the reading before in s; cur becomes the one
 * before. Returns s's evidence (s->why).
 */
const struct row_why *rowev_task(struct rowev_state *s,
				 const struct store_evidence *cur,
				 const struct rowev_input *in,
				 const struct row *r);

/*
 * A process's reading cur taken only as the base of the next sample's
 * (a baseline's: no row, no causes of its own), every group it holds
 * (its cgroups' parts as read at that moment, for it or for another
 * process in them: a recording holds the same); the next sample's
 * causes are of the interval from it.
 */
void rowev_base(struct rowev_state *s, const struct store_evidence *cur,
		const struct rowev_input *in);

/* The same for cgroup row g (the cgroups' part is always its own). */
const struct row_why *rowev_cgroup(struct rowev_state *s,
				   const struct store_evidence *cur,
				   const struct rowev_input *in,
				   const struct cgroup_row *g);

#endif
