/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Interval maths: two cumulative readings → checked per-interval figures. */
#include <config.h>

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "model/delta.h"

unsigned long long delta_count(unsigned long long prev, unsigned long long cur,
			       int is_32bit)
{
	if (is_32bit)
		return (uint32_t)(cur - prev);
	return cur >= prev ? cur - prev : 0;
}

unsigned delta_cats(unsigned kernel_cats, bool acct_on)
{
	if (!acct_on)
		kernel_cats &= 1u << CAT_CPU;
	return kernel_cats;
}

static bool reading_empty(const struct ts_reading *r)
{
	if (r->run_ns)
		return false;
	for (int c = 0; c < NCAT; c++)
		if (r->d[c].count || r->d[c].total_ns)
			return false;
	return true;
}

_Static_assert(TS_NDELAY <= 8, "a base's bits of the kinds fit in a byte");

void delta_base_of(const struct ts_reading *r, struct ts_base *b)
{
	b->kind = (uint8_t)r->kind;
	b->have = (uint8_t)r->have;
	b->have_max = (uint8_t)r->have_max;
	b->have_max_at = (uint8_t)r->have_max_at;
	b->no_count = (uint8_t)r->no_count;
	b->run_ns = r->run_ns;
	for (int c = 0; c < NCAT; c++) {
		b->d[c].count = r->d[c].count;
		b->d[c].total_ns = r->d[c].total_ns;
		b->d[c].max_ns = r->d[c].max_ns;
	}
}

void delta_base_reading(const struct ts_base *b, struct ts_reading *r)
{
	memset(r, 0, sizeof(*r));
	r->kind = (enum ts_kind)b->kind;
	r->have = b->have;
	r->have_max = b->have_max;
	r->have_max_at = b->have_max_at;
	r->no_count = b->no_count;
	r->run_ns = b->run_ns;
	for (int c = 0; c < NCAT; c++) {
		r->d[c].count = b->d[c].count;
		r->d[c].total_ns = b->d[c].total_ns;
		r->d[c].max_ns = b->d[c].max_ns;
	}
}

bool delta_moved(const struct ts_reading *prev, const struct ts_reading *cur)
{
	if (prev->run_ns != cur->run_ns || prev->have != cur->have ||
	    prev->no_count != cur->no_count)
		return true;
	for (int c = 0; c < NCAT; c++)
		if (prev->d[c].count != cur->d[c].count ||
		    prev->d[c].total_ns != cur->d[c].total_ns)
			return true;
	return false;
}

bool delta_zombie_reply(const struct ts_reading *prev,
			const struct ts_reading *cur)
{
	return reading_empty(cur) && !reading_empty(prev);
}

double delta_age_bound(double age)
{
	return age * 1.01 + 0.002;
}

/* The longest a wait of a task of that age can be, in ns. */
static double longest_wait_ns(double age)
{
	return delta_age_bound(age) * 1e9;
}

/* Can the kernel's movement in one category be true? */
static bool possible(const struct delta_bounds *b, int c, uint64_t dtotal,
		     bool have_count, uint64_t dcount, bool max_rose,
		     uint64_t max_ns)
{
	/*
	 * Every wait the kernel counts lasted at least a nanosecond (it adds
	 * one only then); a run-queue wait (cpu) may last none, and an IRQ
	 * is counted as it is. More events than nanoseconds: a count that
	 * went backwards, read as a wrap of its 32 bits. The totals are
	 * read in whole microseconds (TS_TIME_RES_NS, rounded down), so
	 * those of the window may be short of the true ones by less than
	 * one.
	 */
	if (have_count && c != CAT_CPU && c != CAT_IRQ &&
	    dcount > dtotal + (TS_TIME_RES_NS - 1))
		return false;
	double lim = b->age > 0 ? longest_wait_ns(b->age) : 0;
	if (b->thread) {
		/*
		 * One thread is in at most one wait of a kind at a time: the
		 * waits of the window follow its previous one, which ended
		 * within since[c], and began after it was born.
		 */
		double span = b->since[c] > 0 ? longest_wait_ns(b->since[c]) : 0;
		if (lim > 0 && (span <= 0 || lim < span))
			span = lim;
		if (span > 0 && ((double)dtotal > span ||
				 (max_rose && (double)max_ns > span)))
			return false;
	}
	if (lim <= 0)
		return true; /* nothing more to bound it with */
	if (!have_count) {
		/*
		 * No count (/proc's io delay, field 42 of stat): each of the
		 * task's threads waited at most as long as the task lived.
		 */
		int parts = b->thread ? 1 : b->threads;
		return parts <= 0 || (double)dtotal <= parts * lim;
	}
	double waits = (double)dcount;
	if (c == CAT_CPU) {
		/* a run-queue wait cut by migration: one part per thread */
		int parts = b->thread ? 1 : b->threads;
		if (parts <= 0)
			return true;
		waits += parts;
	}
	return (double)dtotal <= waits * lim;
}

int delta_interval(const struct ts_reading *prev, const struct ts_reading *cur,
		   const struct delta_bounds *b, struct delta *out)
{
	static const struct ts_reading zero;
	int dropped = 0;

	if (!prev)
		prev = &zero;
	memset(out, 0, sizeof(*out));
	if (cur->run_ns >= prev->run_ns) {
		out->have_run = true;
		out->run_ns = cur->run_ns - prev->run_ns;
	}
	for (int c = 0; c < NCAT; c++) {
		unsigned bit = 1u << c;
		const struct ts_delay *x = &prev->d[c], *y = &cur->d[c];
		struct delta_cat *o = &out->d[c];
		if (!(cur->have & b->cats & bit))
			continue;
		/* the kernel saturates to 0 on overflow: no figure */
		if (y->total_ns < x->total_ns) {
			o->flags = DELTA_DROPPED;
			dropped++;
			continue;
		}
		uint64_t dtotal = y->total_ns - x->total_ns;
		bool have_count = !(cur->no_count & bit);
		uint64_t dcount = have_count ?
			delta_count(x->count, y->count,
				    categories[c].count_is_32bit) : 0;
		bool waited = have_count ? dcount > 0 : dtotal > 0;
		/* a lifetime max that rose was set by a wait of this window */
		bool max_rose = (cur->have_max & bit) && waited &&
			y->max_ns > ((prev->have_max & bit) ? x->max_ns : 0);
		/*
		 * a wait begun while delay accounting was off ends measured
		 * from the start of an earlier one: what moved cannot be
		 * trusted (the scheduler's cpu and the irq time are stamped
		 * otherwise)
		 */
		if (b->unstamped && waited && c != CAT_CPU && c != CAT_IRQ) {
			o->flags = DELTA_DROPPED;
			dropped++;
			continue;
		}
		if (!possible(b, c, dtotal, have_count, dcount, max_rose,
			      y->max_ns)) {
			o->flags = DELTA_DROPPED;
			dropped++;
			continue;
		}
		if (dcount > CAT_COUNT_MAX) {
			/* more events than a row's figure holds: impossible */
			o->flags = DELTA_DROPPED;
			dropped++;
			continue;
		}
		o->flags = DELTA_AVAIL | (have_count ? DELTA_COUNT : 0);
		o->count = dcount;
		o->total_ns = dtotal;
		if (!waited)
			continue;
		/*
		 * Only a thread's own record holds its maximum (a process
		 * record carries one live thread's): the window's longest
		 * wait is known when that maximum rose, or (version 17) its
		 * time stamp falls in the window, or when exactly one wait
		 * ended (its length is the whole delay; not for cpu, whose
		 * delay may hold parts of unfinished waits).
		 */
		if (b->thread && max_rose) {
			o->flags |= DELTA_MAX | DELTA_LIFETIME;
			o->max_ns = y->max_ns;
		} else if (b->thread && (cur->have_max_at & bit) &&
			   b->to > 0 && y->max_at > b->from &&
			   y->max_at <= b->to) {
			o->flags |= DELTA_MAX | DELTA_LIFETIME;
			o->max_ns = y->max_ns;
		} else if (have_count && dcount == 1 && c != CAT_CPU) {
			o->flags |= DELTA_MAX;
			o->max_ns = dtotal;
		}
	}
	return dropped;
}

void delta_still(const struct ts_base *b, unsigned cats, struct delta *out)
{
	memset(out, 0, sizeof(*out));
	out->have_run = true;
	for (int c = 0; c < NCAT; c++) {
		unsigned bit = 1u << c;
		if (b->have & cats & bit)
			out->d[c].flags = DELTA_AVAIL |
				(b->no_count & bit ? 0 : DELTA_COUNT);
	}
}

static void accumulate_max(struct delta_cat *a, const struct delta_cat *v)
{
	bool v_waited = (v->flags & DELTA_COUNT) ? v->count > 0 : v->total_ns > 0;
	if (!v_waited)
		return;
	if (v->flags & DELTA_LIFETIME) {
		/* the longest of the life so far: of the window too */
		a->flags |= DELTA_MAX | DELTA_LIFETIME;
		a->max_ns = v->max_ns;
	} else if (a->flags & DELTA_LIFETIME) {
		/* the lifetime max did not rise: no wait was longer */
		if ((v->flags & DELTA_MAX) && v->max_ns > a->max_ns)
			a->max_ns = v->max_ns;
	} else if ((a->flags & DELTA_MAX) && (v->flags & DELTA_MAX)) {
		if (v->max_ns > a->max_ns)
			a->max_ns = v->max_ns;
	} else {
		a->flags &= ~DELTA_MAX;
	}
}

void delta_accumulate(struct delta *acc, bool first, const struct delta *iv)
{
	if (first) {
		*acc = *iv;
		return;
	}
	acc->have_run = acc->have_run && iv->have_run;
	acc->run_ns += iv->run_ns;
	for (int c = 0; c < NCAT; c++) {
		struct delta_cat *a = &acc->d[c];
		const struct delta_cat *v = &iv->d[c];
		if (a->flags & DELTA_DROPPED)
			continue;
		if (v->flags & DELTA_DROPPED) {
			a->flags = DELTA_DROPPED;
			continue;
		}
		if (!(a->flags & DELTA_AVAIL) || !(v->flags & DELTA_AVAIL)) {
			a->flags = 0;
			continue;
		}
		bool a_waited = (a->flags & DELTA_COUNT) ? a->count > 0
							 : a->total_ns > 0;
		if (!a_waited) {
			/* nothing yet: the window's max is this interval's */
			unsigned keep = a->flags & DELTA_COUNT;
			a->flags = (v->flags & ~DELTA_COUNT) | keep;
			a->max_ns = v->max_ns;
		} else {
			accumulate_max(a, v);
		}
		a->total_ns += v->total_ns;
		a->count += v->count;
		if (!(v->flags & DELTA_COUNT))
			a->flags &= ~DELTA_COUNT;
	}
}

/* A category's figure, 0 when absent or dropped. */
static double pct_of(const struct cat_figure d[NCAT], enum cat c)
{
	return d[c].avail && isfinite(d[c].pct) && d[c].pct > 0 ? d[c].pct : 0;
}

static double max2(double a, double b)
{
	return a > b ? a : b;
}

/*
 * Every category has its place in the sums below (held back, memory
 * work, or thrashing, which lies partly within IO and swap-in): a new
 * category must be given one before it builds, or TOTAL would leave it
 * out unsaid.
 */
_Static_assert(NCAT == 8, "a new delay category needs its place in "
			  "delta_stall's TOTAL");

void delta_stall(const struct cat_figure d[NCAT], bool have_run,
		 double run_pct, double lived_pct, struct delta_stall *out)
{
	double cpu = pct_of(d, CAT_CPU), irq = pct_of(d, CAT_IRQ);
	double io = pct_of(d, CAT_IO), swap = pct_of(d, CAT_SWAP);
	double reclaim = pct_of(d, CAT_RECLAIM);
	double compact = pct_of(d, CAT_COMPACT);
	double wpcopy = pct_of(d, CAT_WPCOPY);
	double thrashing = pct_of(d, CAT_THRASHING);
	double held = cpu + irq + io;  /* disjoint, all held back */
	double work = swap + max2(wpcopy, reclaim + compact);

	out->lo = max2(held, max2(work, thrashing));
	out->hi = held + swap + wpcopy + reclaim + compact + thrashing;
	if (isfinite(lived_pct) && lived_pct > 0 && out->hi > lived_pct)
		out->hi = lived_pct;
	if (out->lo > out->hi)
		out->lo = out->hi;  /* a long wait ending now: L caps it */

	double share = 1;  /* of the memory work that was running */
	if (have_run && isfinite(run_pct) && run_pct >= 0) {
		double awake = run_pct + cpu + irq;
		share = awake > 0 ? run_pct / awake : 0;
	}
	double est = held + work * share + max2(0, thrashing - swap - io);
	if (est < out->lo)
		est = out->lo;
	if (est > out->hi)
		est = out->hi;
	out->est = est;
}

double delta_total(const struct cat_figure d[NCAT], bool have_run,
		   double run_pct, double lived_pct)
{
	struct delta_stall s;
	delta_stall(d, have_run, run_pct, lived_pct, &s);
	return s.est;
}

void delta_figures(const struct delta *iv, double dt, double lived,
		   struct row *row)
{
	row->have_cpu_pct = dt > 0 && iv->have_run;
	row->cpu_pct = row->have_cpu_pct ?
		(double)iv->run_ns / (dt * 1e9) * 100.0 : 0;
	for (int c = 0; c < NCAT; c++) {
		const struct delta_cat *v = &iv->d[c];
		struct cat_figure *f = &row->d[c];
		memset(f, 0, sizeof(*f));
		/* more events than a figure holds: not true (CAT_COUNT_MAX) */
		if ((v->flags & DELTA_DROPPED) || v->count > CAT_COUNT_MAX) {
			f->dropped = true;
			continue;
		}
		if (!(v->flags & DELTA_AVAIL) || dt <= 0)
			continue;
		f->avail = true;
		f->have_count = v->flags & DELTA_COUNT;
		f->count = v->count;
		f->pct = (double)v->total_ns / (dt * 1e9) * 100.0;
		if (f->have_count && f->count) {
			f->have_avg = true;
			f->avg_ms = (double)v->total_ns / (double)f->count / 1e6;
		}
		if (v->flags & DELTA_MAX) {
			f->have_max = true;
			f->max_ms = (double)v->max_ns / 1e6;
		}
	}
	row->total_pct = delta_total(row->d, row->have_cpu_pct, row->cpu_pct,
				     dt > 0 && lived > 0 ? lived / dt * 100.0 : 0);
}

void delta_psi(const struct psi_reading *prev, const struct psi_reading *cur,
	       struct psi_sample *out)
{
	double dt = prev ? cur->when - prev->when : 0;

	memset(out, 0, sizeof(*out));
	for (int r = 0; r < NPSI; r++) {
		for (int k = 0; k < NPSI_KIND; k++) {
			const struct psi_line *c = &cur->line[r][k];
			const struct psi_line *p = prev ? &prev->line[r][k] : NULL;
			struct psi_stat *st = &out->s[r][k];
			double pct;

			if (!c->present)
				continue;
			st->present = true;
			st->avg10 = c->avg10;
			st->avg60 = c->avg60;
			st->avg300 = c->avg300;
			st->total_us = c->total_us;
			if (!p || !p->present || !(dt > 0) ||
			    c->total_us < p->total_us)
				continue;
			pct = (double)(c->total_us - p->total_us) / (dt * 1e6) * 100.0;
			st->pct = pct > 100.0 ? 100.0 : pct;
			st->have_pct = true;
		}
	}
}
