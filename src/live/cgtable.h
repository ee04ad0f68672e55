/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The table of cgroups of the live monitor: which cgroups are rows (the
 * cgroup of every task row and its ancestors: a cgroup's figures cover
 * everything below it), their readings, made into rows, and their rows'
 * evidence read, for the model of cgroups (model/cgmodel.h), which keeps
 * what is kept of each from sample to sample; and the evidence of the
 * cgroups processes are in, read once a round for all processes of the
 * same cgroups however many of them stall (cgtable_members_read), keyed
 * by the text of /proc/PID/cgroup they share (their own cgroup in each
 * hierarchy, which need not be their tree path).
 */
#ifndef STALLTOP_CGTABLE_H
#define STALLTOP_CGTABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/cg_layout.h"
#include "kernel/diskstats.h"
#include "live/evidence_read.h"
#include "model/evidence.h"
#include "model/sample.h"
#include "store/sample.h"

struct cgtable;

/*
 * The table of the hierarchies of layout (copied): paths are of its
 * tree, pressure is read where cgdirs.h says.
 */
struct cgtable *cgtable_new(const struct cg_layout *layout);
void cgtable_free(struct cgtable *t);

/*
 * Build the cgroup rows of one interval from task rows and the rows of
 * tasks that ended in it (each with its row->cgroup; rows without are
 * left out; exited may be NULL) over dt seconds. Only cgroups within
 * `within` (NULL: all) are kept. The result stays valid until the next
 * call. Returns 0, or -1 when out of memory.
 */
int cgtable_build(struct cgtable *t, const struct row *rows, size_t n,
	      const struct row *exited, size_t nexited, double dt,
	      const char *within, struct cgroup_row **out, size_t *nout);

/*
 * Whether g's evidence of this round was gathered already; then g->why
 * points to it.
 */
bool cgtable_why_have(struct cgtable *t, struct cgroup_row *g, uint64_t round);

/*
 * Read cgroup row g's evidence through d (its directories as cgdirs_open
 * gives them; pid -1; ts, may be NULL, asks the kernel for the task
 * states of d->states1), and have the model (cgmodel_evidence) make the
 * interval against its reading of round - 1 (none: current values only)
 * with the disks of the interval (may be NULL), and the causes of g's
 * stalls over an interval of interval seconds. g->why points into the
 * table until the build that drops the cgroup, or cgtable_free(). Once
 * per round: a second call of the same round gives the first one's
 * evidence. sys: the machine-wide part of this round's readings
 * (evidence_read_system). read (may be NULL): a copy of the reading
 * when one was taken now (read->cgroup set), else untouched. 0, or -1
 * (ENOMEM).
 */
int cgtable_why_gather(struct cgtable *t, struct ts_client *ts,
		       struct cgroup_row *g, const struct evidence_dirs *d,
		       const struct evidence_reading *sys, uint64_t round,
		       double interval, const struct diskstats *disks_prev,
		       const struct diskstats *disks_cur,
		       struct store_evidence *read);

/*
 * The cgroups' part of the evidence (struct evidence_reading: cpu, mem,
 * io, states) of the processes whose /proc/PID/cgroup reads proc_cgroup,
 * this round: only the groups in cur_have (EVIDENCE_WANT bits) were
 * read, the rest is absent. (The reading before is the model's, kept
 * with each process: model/rowev.h.)
 */
struct cgtable_members {
	struct evidence_reading cur;   /* read in round */
	uint64_t round;
	unsigned cur_have;
	uint64_t want_round;           /* want: of the processes of that round */
	unsigned want;
};

/*
 * The groups (EVIDENCE_WANT bits, 0: all) that a process in the cgroups
 * proc_cgroup names wants in round, said before any is read: the first
 * cgtable_members_read of that round reads what all of them want, so
 * every process of those cgroups has the same reading, whichever asks
 * first. 0, or -1 as cgtable_members_read.
 */
int cgtable_members_expect(struct cgtable *t, const char *proc_cgroup,
			   uint64_t round, unsigned want);

/*
 * The cgroups' evidence of processes in the cgroups proc_cgroup names,
 * of round: the groups of want (EVIDENCE_WANT bits, 0: all) and those
 * cgtable_members_expect said of this round, not read yet in it, are
 * read now from their directories (cgdirs_open_task;
 * proc: /proc, for task states counted there; ts as in
 * cgtable_why_gather), the others given as read. The result stays valid
 * until cgtable_prune() or cgtable_free(). NULL: no memory (ENOMEM), or
 * not such a text (EINVAL).
 */
const struct cgtable_members *
cgtable_members_read(struct cgtable *t, struct ts_client *ts, int proc,
		     const char *proc_cgroup, uint64_t round, unsigned want);

/*
 * A new round begins: forget the processes' cgroups not read in the one
 * before it (no interval to make with them).
 */
void cgtable_prune(struct cgtable *t, uint64_t round);

/* Entries of the table, and readings of processes' cgroups (the tests). */
size_t cgtable_count(const struct cgtable *t);
/*
 * What the files of the cgroup rows of the last cgtable_build said, one
 * per row in the same order; valid as long as those rows.
 */
struct store_cgroup *cgtable_readings(const struct cgtable *t);
uint64_t cgtable_reads(const struct cgtable *t);

#endif
