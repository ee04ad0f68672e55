/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The evidence a row carries (struct row.why): the evidence of the
 * interval (evidence.h) and, per delay category that stalled, the cause
 * the rule table (why.h) finds, or none. Which rows have one: those shown
 * whose delay in a category the rules cover is at least ROWWHY_MIN_PCT of
 * the interval; the producers decide (live: gathered for such rows only;
 * a recording: as recorded). Cgroup rows carry the same (cgwhy.h).
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

struct row_why_cat {
	bool stalled;           /* the category stalled: a rule was tried */
	struct why_result r;    /* its cause, or WHY_NONE */
	char text[ROWWHY_TEXT]; /* the short line, "" for none */
};

struct row_why {
	struct evidence ev;
	struct row_why_cat c[NCAT];
};

/* Whether the rule table has rules for a category. */
bool rowwhy_covers(enum cat c);

/* Whether a category's figure is a stall worth the evidence. */
bool rowwhy_stalled(const struct cat_figure *f);

/* Whether any covered category of a row stalled. */
bool rowwhy_wanted(const struct cat_figure d[NCAT]);

/*
 * The evidence its stalls need (EVIDENCE_WANT of groups): what a stalled
 * category's rules read; the rest is not read and stays absent.
 */
unsigned rowwhy_wants(const struct cat_figure d[NCAT]);

/*
 * Fill w's causes from its evidence (w->ev set) and the row's figures
 * over an interval of interval seconds.
 */
void rowwhy_eval(struct row_why *w, const struct cat_figure d[NCAT],
		 double interval);

/*
 * The short cause of the row's largest stall that has one (the WHY
 * column), or "" when no stalled category has a cause.
 */
const char *rowwhy_main(const struct row *r);

/* The same for a cgroup row. */
const char *rowwhy_main_cg(const struct cgroup_row *g);

#endif
