/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A row's evidence and causes: which categories count as stalled, the
 * rule table applied to each, and the one short line of the WHY column.
 */
#include <config.h>

#include <math.h>
#include <string.h>

#include "model/rowwhy.h"

bool rowwhy_covers(enum cat c)
{
	switch (c) {
	case CAT_CPU:
	case CAT_IO:
	case CAT_SWAP:
	case CAT_RECLAIM:
	case CAT_THRASHING:
	case CAT_WPCOPY:
		return true;
	default:
		return false;
	}
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
