/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The evidence a row carries (struct row.why): the evidence of the
 * interval (evidence.h) and, per delay category that stalled, the cause
 * the rule table (why.h) finds, or none. Which rows have one: those shown
 * whose delay in a category evidence explains (the category table's
 * evidence and causes) is at least ROWWHY_MIN_PCT of the interval; the producers decide (live: gathered for such rows only;
 * a recording: as recorded). Cgroup rows carry the same (live/cgtable.h).
 *
 * THE RANKING. A row's TOTAL (delta.h) is split by category: cpu and irq
 * delay outside the memory work (the part of them the memory work's own
 * waits for a CPU take goes with it), io less the refault waits inside it
 * (thrashing beyond swap: memory's), and what is left of TOTAL to the
 * other categories (swap, reclaim, compact, wpcopy, thrashing) in
 * proportion to their delays.
 * Each stalled category's part goes to its causes that hold (why.h); a
 * cause's share is what it took, summed over categories, in % of the
 * interval. The causes are ranked by share, the largest first: the
 * binding one, whose lifting would cut the stall most. Stable: the first
 * cause of the row's previous interval stays first while it still holds
 * and the challenger's share is below ROWWHY_KEEP times its own.
 */
#ifndef STALLTOP_ROWWHY_H
#define STALLTOP_ROWWHY_H

#include <stdbool.h>
#include <stddef.h>

#include "model/categories.h"
#include "model/evidence.h"
#include "model/sample.h"
#include "model/why.h"

/* A category stalled: its delay is at least this share of the interval. */
#define ROWWHY_MIN_PCT 1.0

/* Room for a short cause ("disk nvme0n1p12 100%"). */
#define ROWWHY_TEXT 64

/* A challenger replaces the previous first cause from this many times
 * its share on (hysteresis). */
#define ROWWHY_KEEP 1.5

struct row_why_cat {
	bool stalled;           /* the category stalled: a rule was tried */
	struct why_result r;    /* its cause with the largest share, or
				   WHY_NONE */
	char text[ROWWHY_TEXT]; /* the short line, "" for none */
};

/* A cause that holds, and its share of the row's stall. */
struct row_why_rank {
	struct why_result r;
	double share_pct;       /* % of the interval it accounts for */
	char text[ROWWHY_TEXT];
};

struct row_why {
	struct evidence ev;
	struct row_why_cat c[NCAT];
	size_t nranked;
	struct row_why_rank ranked[NWHY]; /* largest share first */
};

/*
 * The part of a row's TOTAL each category accounts for, % of the
 * interval (see THE RANKING); they add up to TOTAL.
 */
void rowwhy_parts(const struct cat_figure d[NCAT], double total,
		  bool have_cpu, double cpu_pct, double part[NCAT]);

/* Whether evidence explains a category (its row in the category table
 * names some). */
bool rowwhy_covers(enum cat c);

/* Whether a category's figure is a stall worth the evidence. */
bool rowwhy_stalled(const struct cat_figure *f);

/* Whether any covered category of a row stalled. */
bool rowwhy_wanted(const struct cat_figure d[NCAT]);

/*
 * The evidence its stalls need (EVIDENCE_WANT of groups): the evidence
 * of each stalled category's row in the category table; the rest is not
 * read and stays absent.
 */
unsigned rowwhy_wants(const struct cat_figure d[NCAT]);

/*
 * Fill w's causes and ranking from its evidence (w->ev set) and the
 * row's figures (d, its TOTAL and CPU%) over an interval of interval
 * seconds. prev: the first cause of the row's previous interval
 * (WHY_NONE: none), kept first while it holds (ROWWHY_KEEP).
 */
void rowwhy_eval(struct row_why *w, const struct cat_figure d[NCAT],
		 double total, bool have_cpu, double cpu_pct, double interval,
		 enum why_cause prev);

/* The first cause of w, WHY_NONE when none holds (or no w). */
enum why_cause rowwhy_first(const struct row_why *w);

/*
 * The short line of the row's binding cause (the WHY column), or ""
 * when no cause holds.
 */
const char *rowwhy_main(const struct row *r);

/* The same for a cgroup row. */
const char *rowwhy_main_cg(const struct cgroup_row *g);

#endif
