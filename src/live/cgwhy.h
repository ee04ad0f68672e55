/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Why a cgroup stalls: the evidence of a cgroup row (struct
 * cgroup_row.why), read from the cgroup's directories (live/cgdirs.h)
 * with its task states, next to the delays summed over its
 * processes. A table keyed by the cgroup's path keeps each cgroup's
 * previous reading, so that throttling, events and pressure are the
 * figures of the interval; a cgroup not read in the round before has no
 * previous reading, and its entry is dropped (cgwhy_prune).
 *
 * Which cgroups: those a view shows whose delay in a category the rule
 * table covers is a stall (rowwhy_wanted); the producer decides, never
 * every cgroup every refresh.
 */
#ifndef STALLTOP_CGWHY_H
#define STALLTOP_CGWHY_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/diskstats.h"
#include "live/evidence_read.h"
#include "model/evidence.h"
#include "model/rowwhy.h"
#include "model/sample.h"

struct cgwhy;

/* An empty table; NULL: no memory. */
struct cgwhy *cgwhy_new(void);
void cgwhy_free(struct cgwhy *t);

/* Whether a cgroup row stalled in a category the rules cover. */
bool cgwhy_wanted(const struct cgroup_row *g);

/*
 * Whether g's evidence of this round was gathered already; then g->why
 * points to it.
 */
bool cgwhy_have(struct cgwhy *t, struct cgroup_row *g, uint64_t round);

/*
 * Read g's evidence through d (its directories as cgdirs_open gives
 * them; pid -1), make the interval against its reading of
 * round - 1 (none: current values only) with the disks of the interval
 * (may be NULL), and find the causes of g's stalls over an interval of
 * interval seconds. g->why points into the table until the next
 * cgwhy_prune() or cgwhy_free(). Once per round: a second call of the
 * same round gives the first one's evidence. sys: the machine-wide part
 * of this round's readings (evidence_read_system), NULL to read it here.
 * 0, or -1 (ENOMEM).
 */
int cgwhy_gather(struct cgwhy *t, struct cgroup_row *g,
		 const struct evidence_dirs *d,
		 const struct evidence_reading *sys, uint64_t round,
		 double interval, const struct diskstats *disks_prev,
		 const struct diskstats *disks_cur);

/*
 * cgwhy_gather with the kernel's task states: ts (may be NULL) asks for
 * those of d->states1, a v1 directory (evidence_read).
 */
int cgwhy_gather_ts(struct cgwhy *t, struct ts_client *ts,
		    struct cgroup_row *g, const struct evidence_dirs *d,
		    const struct evidence_reading *sys, uint64_t round,
		    double interval, const struct diskstats *disks_prev,
		    const struct diskstats *disks_cur);

/*
 * A new round begins: forget the cgroups not read in the one before it
 * (gone, or no longer shown stalled: no interval to make with them).
 */
void cgwhy_prune(struct cgwhy *t, uint64_t round);

/* Cgroups the table holds (for the tests). */
size_t cgwhy_count(const struct cgwhy *t);

#endif
