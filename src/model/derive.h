/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A task's figures from its readings (store/reading.h): the one place
 * where two readings of a task become what it did in a window, checked
 * by the trust rules (delta.h), and then the figures of its row. Pure:
 * no I/O, no globals. The caller keeps a struct derive_state per task
 * (the live monitor in its task table, a replay in its own) and feeds it
 * the task's readings in order:
 *
 *     derive_interval(&s, &r, &w, &iv)   what it did in the window
 *     derive_figures(&iv, &r, &w, row)   its row's figures
 *     derive_rebase(&s, &r)              r becomes the base of the next
 *
 * A sample may give a task no reading (vanished, or ended and shown):
 * derive_interval takes NULL then, and rebase is skipped.
 */
#ifndef STALLTOP_DERIVE_H
#define STALLTOP_DERIVE_H

#include <stdbool.h>
#include <stdint.h>

#include "model/delta.h"
#include "model/sample.h"
#include "store/reading.h"

struct derive_acc;

/* What the model keeps of one task from reading to reading. */
struct derive_state {
	struct ts_base prev;    /* the counters of the base reading */
	double prev_at;         /* when its query began (CLOCK_MONOTONIC s);
				   0: counted from zero */
	/*
	 * Per category: the task's latest wait ended after this moment
	 * (CLOCK_MONOTONIC s: the start of the reading before the one that
	 * counted it); its next waits began later. 0 before any.
	 */
	double wait_lo[NCAT];
	/*
	 * -a: the window so far and the sample last added to it; NULL until
	 * its first interval (malloc'd, derive_free), so that a task costs
	 * nothing for it without -a
	 */
	struct derive_acc *acc;
	bool have_prev;         /* prev holds a reading */
};

/* The window of one sample, the same for every task of it. */
struct derive_window {
	uint64_t round;      /* the sample's number, counting from 1 */
	bool accumulate;     /* -a: figures over the window since start */
	double now;          /* the sample's time (CLOCK_MONOTONIC s) */
	double dt;           /* the interval, s */
	double start;        /* -a: when the window began */
	double prev_time;    /* the previous sample's time: tasks first seen
				after it are new */
	double from, to;     /* the interval in CLOCK_REALTIME s (for the
				kernel's max stamps); 0: none */
};

/*
 * The task counted from zero: it began after the previous reading, so
 * its base is all zeros.
 */
void derive_from_zero(struct derive_state *s);

/*
 * What the task did in window w, checked, from r (NULL: no reading in
 * this sample) and s; in accumulated mode added to its window once (s
 * keeps it). Returns false when there is nothing to show: no reading,
 * or none before it.
 */
bool derive_interval(struct derive_state *s, const struct task_reading *r,
		     const struct derive_window *w, struct delta *iv);

/*
 * The figures of row from interval iv over w (the delay figures, CPU %,
 * TOTAL, its age and whether it is new); r is the task's latest reading
 * (its age bound, threads, when first seen), also when this sample gave
 * none. Returns the number of figures dropped as impossible.
 */
unsigned derive_figures(const struct delta *iv, const struct task_reading *r,
			const struct derive_window *w, struct row *row);

/* Reading r becomes the base of the next interval. */
void derive_rebase(struct derive_state *s, const struct task_reading *r);

/* Forget the accumulated window (-a turned on again, or off). */
void derive_forget_window(struct derive_state *s);

/* Free what s holds (not s itself). */
void derive_free(struct derive_state *s);

#endif
