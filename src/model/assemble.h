/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * From a sample of readings (store/sample.h) to the sample views see
 * (model/sample.h): the rows through model/derive (and ended tasks'
 * rows apart), the figures dropped as impossible, the PSI shares of the
 * interval, a process's longest wait from its threads' rows, the machine
 * line (the CPUs' busy share of the interval, memory in use). Pure: no
 * I/O, no clock, no task table; what it needs of earlier samples is in
 * struct assemble (the previous sample's clocks and PSI) and in the
 * struct derive_state of each task, which the caller keeps (the live
 * monitor in its task table, a replay in its own) and passes with the
 * task's reading. So live and replay give the same figures from the
 * same store samples.
 *
 *     assemble_baseline(a, in)           the readings before the first
 *
 * and each sample after it, one task at a time (the live monitor keeps
 * no array of them unless recording; a player gives a store sample's):
 *
 *     assemble_begin(a, in)
 *     assemble_task(a, task, state, ASSEMBLE_ROWS) for each task
 *     assemble_end(a, in, out)
 *
 * The rows are the model's until the next sample begins; their strings
 * are the store sample's.
 */
#ifndef STALLTOP_ASSEMBLE_H
#define STALLTOP_ASSEMBLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/derive.h"
#include "model/sample.h"
#include "store/sample.h"

/*
 * -a keeps the rows of tasks that ended in its window, the newest this
 * many (of processes, and of threads, apart): the live monitor and a
 * player of recordings alike.
 */
#define ASSEMBLE_ENDED_MAX 10000

/* How the figures are made: the settings, not readings. */
struct assemble_settings {
	bool accumulate;           /* -a: figures over the window since start */
	double start;              /* -a: when the window began (mono s) */
	const char *cgroup_within; /* rows of this subtree only (normalised),
				      or NULL */
};

/* Where a task's row goes (assemble_task). */
enum assemble_set {
	ASSEMBLE_ROWS,    /* the sample's rows (or exited rows) */
	ASSEMBLE_THREADS, /* the thread rows kept for a recording */
};

struct assemble {
	struct assemble_settings set;
	uint64_t round;           /* samples assembled, counting from 1 */
	bool have_prev;           /* a baseline or sample was given */
	double prev_mono, prev_real; /* the previous readings' clocks */
	struct psi_reading psi_prev;
	struct store_machine machine_prev; /* the previous machine counters */
	struct derive_window w;   /* the window of the sample at hand */
	size_t dropped;           /* figures dropped in it */
	/* the rows of the sample at hand (malloc'd, kept for the next) */
	struct row *rows, *exited, *trows, *texited;
	size_t nrows, caprows, nexited, capexited;
	size_t ntrows, captrows, ntexited, captexited;
};

/* A model with nothing yet; free what it holds with assemble_free. */
void assemble_init(struct assemble *a, const struct assemble_settings *set);
void assemble_free(struct assemble *a);

/*
 * The readings before the first interval: their clocks and PSI become
 * the base (its tasks' readings are rebased by the caller, or given to
 * assemble_task as the first; see derive_rebase).
 */
void assemble_baseline(struct assemble *a, const struct store_sample *in);

/* A sample begins: the window of in, the rows of the last one dropped. */
void assemble_begin(struct assemble *a, const struct store_sample *in);

/*
 * Room for about n rows in the sample's rows, taken at once: a producer
 * that knows how many tasks it will give spares the array its doublings
 * (each a copy, the old one left behind in the heap). Nothing when
 * there is room, or no memory (the rows then grow as they come).
 */
void assemble_reserve(struct assemble *a, size_t n);

/*
 * Task t of the sample at hand: its row (if it has one: a reading and
 * one before it, and inside the subtree asked for) into set, from its
 * reading and s, which t's reading then becomes the base of. Returns the
 * row made, or NULL.
 */
struct row *assemble_task(struct assemble *a, const struct store_task *t,
			  struct derive_state *s, enum assemble_set set);

/*
 * The sample at hand into out: the rows made, the PSI shares, the
 * machine line, the clocks, counts and flags of in (the cgroups are the
 * caller's).
 */
void assemble_end(struct assemble *a, const struct store_sample *in,
		  struct sample *out);

/*
 * What stands next to a task's stall (row.ctx) from the context
 * read for its row (cur: STORE_HAVE_RSS... and ctx_at) and the one read
 * before of the same life (prev, or NULL): rates only between readings
 * of consecutive samples (prev read after the previous sample's
 * readings), never over -a's window, never from a counter that went
 * back. Call it after assemble_end of the sample.
 */
void assemble_context(const struct assemble *a, const struct store_task *prev,
		      const struct store_task *cur, struct task_ctx *out);

/*
 * A row's details (struct task_info: parent, state, threads, start) from
 * its task's store task t: what t's have bits do not give stays unknown.
 * What stands next to its stall is assemble_context's. The live monitor
 * makes a task's details with it when it reads them, and a player of
 * recordings the same from the samples it reads.
 */
void assemble_info(const struct store_task *t, struct task_info *out);

#endif
