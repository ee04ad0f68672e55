/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A row's evidence and causes: which categories count as stalled, the
 * rule table applied to each, and the one short line of the WHY column.
 */
#include <config.h>

#include <math.h>
#include <string.h>

#include "model/rowwhy.h"

/*
 * The evidence the rules of a category need (EVIDENCE_WANT of its groups;
 * the task states go with cpu and io); 0: none.
 */
static unsigned evidence_of(enum cat c)
{
	switch (c) {
	case CAT_CPU:
		return EVIDENCE_WANT(EVIDENCE_CPU) |
		       EVIDENCE_WANT(EVIDENCE_STATES);
	case CAT_IO:
		return EVIDENCE_WANT(EVIDENCE_IO) |
		       EVIDENCE_WANT(EVIDENCE_STATES);
	case CAT_SWAP:
	case CAT_RECLAIM:
	case CAT_THRASHING:
		return EVIDENCE_WANT(EVIDENCE_MEMORY);
	case CAT_WPCOPY:
		return EVIDENCE_WANT(EVIDENCE_WPCOPY);
	default:
		return 0;
	}
}

bool rowwhy_covers(enum cat c)
{
	return evidence_of(c) != 0;
}

bool rowwhy_stalled(const struct cat_figure *f)
{
	return f->avail && !f->dropped && isfinite(f->pct) &&
	       f->pct >= ROWWHY_MIN_PCT;
}

bool rowwhy_wanted(const struct cat_figure d[NCAT])
{
	for (int c = 0; c < NCAT; c++)
		if (rowwhy_covers((enum cat)c) && rowwhy_stalled(&d[c]))
			return true;
	return false;
}

unsigned rowwhy_wants(const struct cat_figure d[NCAT])
{
	unsigned want = 0;

	for (int c = 0; c < NCAT; c++)
		if (rowwhy_stalled(&d[c]))
			want |= evidence_of((enum cat)c);
	return want;
}

void rowwhy_eval(struct row_why *w, const struct cat_figure d[NCAT],
		 double interval)
{
	for (int c = 0; c < NCAT; c++) {
		struct row_why_cat *wc = &w->c[c];

		memset(wc, 0, sizeof(*wc));
		wc->r = (struct why_result){ WHY_NONE, -1, -1 };
		if (!rowwhy_covers((enum cat)c) || !rowwhy_stalled(&d[c]))
			continue;
		wc->stalled = true;
		/* pct of the interval into microseconds */
		wc->r = why_eval((enum cat)c, interval > 0,
				 d[c].pct * interval * 1e4, &w->ev);
		why_text(&wc->r, &w->ev, wc->text, sizeof(wc->text));
	}
}

/* The short cause of the largest stall of figures d that has one. */
static const char *main_cause(const struct row_why *w,
			      const struct cat_figure d[NCAT])
{
	const char *best = "";
	double most = -1;

	if (!w)
		return best;
	for (int c = 0; c < NCAT; c++) {
		const struct row_why_cat *wc = &w->c[c];

		if (!wc->stalled || !wc->text[0] || !d[c].avail)
			continue;
		if (d[c].pct > most) {
			most = d[c].pct;
			best = wc->text;
		}
	}
	return best;
}

const char *rowwhy_main(const struct row *r)
{
	return main_cause(r->why, r->d);
}

const char *rowwhy_main_cg(const struct cgroup_row *g)
{
	return main_cause(g->why, g->d);
}
