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
	return categories[c].evidence != 0;
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
			want |= categories[c].evidence;
	return want;
}

/* Held back from running (cpu, irq, io); the others are memory work and
 * share what is left of TOTAL. */
static bool is_held(int c)
{
	return c == CAT_CPU || c == CAT_IRQ || c == CAT_IO;
}

static double fig(const struct cat_figure d[NCAT], int c)
{
	return d[c].avail && !d[c].dropped && isfinite(d[c].pct) &&
	       d[c].pct > 0 ? d[c].pct : 0;
}

void rowwhy_parts(const struct cat_figure d[NCAT], double total,
		  bool have_cpu, double cpu_pct, double part[NCAT])
{
	double cpu = fig(d, CAT_CPU), irq = fig(d, CAT_IRQ), io = fig(d, CAT_IO);
	double swap = fig(d, CAT_SWAP), thr = fig(d, CAT_THRASHING);
	double work = swap + fmax(fig(d, CAT_WPCOPY),
				  fig(d, CAT_RECLAIM) + fig(d, CAT_COMPACT));
	double w = 0, refault, weight[NCAT] = { 0 }, sum = 0, rest;

	memset(part, 0, NCAT * sizeof(part[0]));
	if (!isfinite(total) || total <= 0)
		return;
	/* the memory work's share of the time on and waiting for a CPU */
	if (have_cpu && isfinite(cpu_pct) && cpu_pct + cpu + irq > 0)
		w = fmin(1, work / (cpu_pct + cpu + irq));
	refault = fmin(io, fmax(0, thr - swap));
	part[CAT_CPU] = cpu * (1 - w);
	part[CAT_IRQ] = irq * (1 - w);
	part[CAT_IO] = io - refault;
	for (int c = 0; c < NCAT; c++)
		sum += part[c];
	if (sum > total) {
		for (int c = 0; c < NCAT; c++)
			part[c] *= total / sum;
		return;
	}
	rest = total - sum;
	for (int c = 0; c < NCAT; c++)
		if (!is_held(c))
			weight[c] = c == CAT_THRASHING ? fmax(0, thr - swap)
						       : fig(d, c);
	sum = 0;
	for (int c = 0; c < NCAT; c++)
		sum += weight[c];
	if (sum <= 0) {
		/* nothing to give it to: the cpu, irq and io parts grow */
		double held = part[CAT_CPU] + part[CAT_IRQ] + part[CAT_IO];
		for (int c = 0; c < NCAT && held > 0; c++)
			part[c] *= total / held;
		return;
	}
	for (int c = 0; c < NCAT; c++)
		part[c] += rest * weight[c] / sum;
}

/* Add share to cause r of the ranking. */
static void rank_add(struct row_why *w, const struct why_result *r,
		     double share)
{
	for (size_t i = 0; i < w->nranked; i++)
		if (w->ranked[i].r.cause == r->cause) {
			w->ranked[i].share_pct += share;
			return;
		}
	if (w->nranked < NWHY)
		w->ranked[w->nranked++] = (struct row_why_rank){ *r, share, "" };
}

/* Largest share first; ties in the table's order. */
static void rank_sort(struct row_why *w)
{
	for (size_t i = 1; i < w->nranked; i++) {
		struct row_why_rank x = w->ranked[i];
		size_t j = i;

		while (j > 0 && (w->ranked[j - 1].share_pct < x.share_pct ||
				 (w->ranked[j - 1].share_pct == x.share_pct &&
				  w->ranked[j - 1].r.cause > x.r.cause))) {
			w->ranked[j] = w->ranked[j - 1];
			j--;
		}
		w->ranked[j] = x;
	}
}

/* The previous first cause stays first while the challenger is short of
 * ROWWHY_KEEP times its share. */
static void rank_keep(struct row_why *w, enum why_cause prev)
{
	for (size_t i = 1; prev != WHY_NONE && i < w->nranked; i++) {
		if (w->ranked[i].r.cause != prev)
			continue;
		if (w->ranked[0].share_pct < ROWWHY_KEEP * w->ranked[i].share_pct) {
			struct row_why_rank x = w->ranked[i];
			memmove(&w->ranked[1], &w->ranked[0],
				i * sizeof(w->ranked[0]));
			w->ranked[0] = x;
		}
		return;
	}
}

void rowwhy_eval(struct row_why *w, const struct cat_figure d[NCAT],
		 double total, bool have_cpu, double cpu_pct, double interval,
		 enum why_cause prev)
{
	double part[NCAT];
	/* % of the interval into microseconds, and back */
	double us = interval > 0 ? interval * 1e4 : 0;

	rowwhy_parts(d, total, have_cpu, cpu_pct, part);
	w->nranked = 0;
	for (int c = 0; c < NCAT; c++) {
		struct row_why_cat *wc = &w->c[c];
		struct why_hold h[WHY_HOLDS];
		double share[WHY_HOLDS];
		size_t n;
		int best;

		memset(wc, 0, sizeof(*wc));
		wc->r = (struct why_result){ WHY_NONE, -1, -1 };
		if (!rowwhy_covers((enum cat)c) || !rowwhy_stalled(&d[c]))
			continue;
		wc->stalled = true;
		if (!(us > 0))
			continue;
		n = why_holds((enum cat)c, part[c] * us, &w->ev, h);
		best = why_share(h, n, part[c] * us, share);
		if (best < 0)
			continue;
		wc->r = h[best].r;
		why_text(&wc->r, &w->ev, wc->text, sizeof(wc->text));
		for (size_t i = 0; i < n; i++)
			rank_add(w, &h[i].r, share[i] / us);
	}
	rank_sort(w);
	rank_keep(w, prev);
	for (size_t i = 0; i < w->nranked; i++)
		why_text(&w->ranked[i].r, &w->ev, w->ranked[i].text,
			 sizeof(w->ranked[i].text));
}

enum why_cause rowwhy_first(const struct row_why *w)
{
	return w && w->nranked ? w->ranked[0].r.cause : WHY_NONE;
}

/*
 * The first ranked cause; a recording made before causes were ranked has
 * only each category's cause: then the cause of the largest stall that
 * has one, as such a recording was shown when it was made.
 */
static const char *main_cause(const struct row_why *w,
			      const struct cat_figure d[NCAT])
{
	const char *best = "";
	double most = -1;

	if (!w)
		return best;
	if (w->nranked)
		return w->ranked[0].text;
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
