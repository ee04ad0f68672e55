/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The checks of rec_check.h: each value of a sample read back against
 * what a real system can produce, the impossible made absent and counted.
 */
#include <config.h>

#include <math.h>
#include <stdbool.h>
#include <stddef.h>

#include "model/categories.h"
#include "record/rec_check.h"

/* Seconds a task can have lived when nothing better is known: since 1970. */
#define LIFE_UNKNOWN 253402300800.0
/* A task's start is from the boot time, known to the second. */
#define START_SLACK 1.0
/* A share written with three decimals may be 0.0005 below the truth. */
#define PCT_ROUNDING 0.0005
/* No two samples are taken less than a microsecond apart. */
#define INTERVAL_MIN 1e-6

/* What bounds the figures of one row or cgroup. */
struct bounds {
	double interval;  /* seconds, NAN unknown */
	double life;      /* seconds the task (or any task) can have lived */
	double tasks;     /* threads at once: 1, or REC_CHECK_PID_MAX */
};

static bool ok_num(double v, double max)
{
	return isfinite(v) && v >= 0 && v <= max;
}

/*
 * A share of the interval: seconds within life × tasks (× n categories).
 * NAN is a share not known (null), not an impossible one.
 */
static bool ok_pct(double pct, const struct bounds *b, double n)
{
	if (isnan(pct))
		return true;
	if (!isfinite(pct) || pct < 0)
		return false;
	/* an interval not known was at least a microsecond */
	double interval = isnan(b->interval) ? INTERVAL_MIN : b->interval;
	return pct / 100 * interval <= b->life * b->tasks * n;
}

/* One category's figure: all of it true, or dropped. */
static bool ok_figure(const struct cat_figure *f, int c,
		      const struct bounds *b)
{
	if (!ok_pct(f->pct, b, 1))
		return false;
	if (f->have_avg && !ok_num(f->avg_ms, b->life * 1000))
		return false;
	if (f->have_max && !ok_num(f->max_ms, b->life * 1000))
		return false;
	/* more events than a figure holds (sample.h) */
	if (f->have_count && f->count >= CAT_COUNT_MAX)
		return false;
	/* every wait counted lasted a nanosecond (cpu and irq aside) */
	if (f->have_count && c != CAT_CPU && c != CAT_IRQ &&
	    !isnan(b->interval) && !isnan(f->pct) &&
	    (double)f->count > (f->pct + PCT_ROUNDING) / 100 * b->interval *
			       1e9 + 1)
		return false;
	return true;
}

static size_t check_figures(struct cat_figure d[NCAT], const struct bounds *b)
{
	size_t n = 0;

	for (int c = 0; c < NCAT; c++) {
		struct cat_figure *f = &d[c];

		if (!f->avail || ok_figure(f, c, b))
			continue;
		*f = (struct cat_figure){ .dropped = true };
		n++;
	}
	return n;
}

static size_t check_total(double *total, const struct bounds *b)
{
	/* cpu + irq + the largest other: three waits at once */
	if (ok_pct(*total, b, 3))
		return 0;
	*total = NAN;
	return 1;
}

static size_t check_psi(struct psi_sample *p)
{
	size_t n = 0;

	for (int r = 0; r < NPSI; r++) {
		for (int k = 0; k < NPSI_KIND; k++) {
			struct psi_stat *st = &p->s[r][k];
			double *avg[] = { &st->avg10, &st->avg60, &st->avg300 };

			if (!st->present)
				continue;
			for (size_t i = 0; i < 3; i++) {
				if (isnan(*avg[i]) || ok_num(*avg[i], 100))
					continue;
				*avg[i] = NAN;
				n++;
			}
			if (st->have_pct && !ok_num(st->pct, 100)) {
				st->have_pct = false;
				st->pct = 0;
				n++;
			}
		}
	}
	return n;
}

static bool ok_id(pid_t id)
{
	return id >= 0 && id <= REC_CHECK_PID_MAX;
}

/*
 * What stands next to a stall: memory not negative nor beyond what a
 * 64-bit machine addresses (2^54 KiB), nice -20..19, rates finite and not
 * negative. Returns the values dropped.
 */
static size_t check_ctx(struct task_ctx *x)
{
	unsigned bad = 0;

	if ((x->have & CTX_RSS) && !(x->rss_kib >= 0 && x->rss_kib < (1LL << 54)))
		bad |= CTX_RSS;
	if ((x->have & CTX_SWAP) &&
	    !(x->swap_kib >= 0 && x->swap_kib < (1LL << 54)))
		bad |= CTX_SWAP;
	if ((x->have & CTX_NICE) && !(x->nice >= -20 && x->nice <= 19))
		bad |= CTX_NICE;
	if ((x->have & CTX_READ) && !(isfinite(x->read_bps) && x->read_bps >= 0))
		bad |= CTX_READ;
	if ((x->have & CTX_WRITE) &&
	    !(isfinite(x->write_bps) && x->write_bps >= 0))
		bad |= CTX_WRITE;
	if ((x->have & CTX_MAJFLT) &&
	    !(isfinite(x->majflt_ps) && x->majflt_ps >= 0))
		bad |= CTX_MAJFLT;
	x->have &= ~bad;
	return (size_t)__builtin_popcount(bad);
}

static size_t check_row(struct row *r, const struct sample *s, bool thread)
{
	struct bounds b = { s->interval, LIFE_UNKNOWN,
			    thread ? 1 : REC_CHECK_PID_MAX };
	double latest = isnan(s->time) ? LIFE_UNKNOWN : s->time + START_SLACK;
	size_t n = 0;

	if (!ok_id(r->info.ppid)) {
		r->info.ppid = 0;
		n++;
	}
	if (r->info.threads > REC_CHECK_PID_MAX) {
		r->info.threads = -1;
		n++;
	}
	if (r->info.start != 0 && !(r->info.start > 0 &&
				    r->info.start <= latest)) {
		r->info.start = 0;
		n++;
	}
	if (!isnan(s->time))
		b.life = r->info.start > 0 ? s->time - r->info.start + START_SLACK
					   : s->time;
	if (r->have_cpu_pct && !ok_pct(r->cpu_pct, &b, 1)) {
		r->have_cpu_pct = false;
		r->cpu_pct = 0;
		n++;
	}
	n += check_figures(r->d, &b);
	n += check_total(&r->total_pct, &b);
	n += check_ctx(&r->ctx);
	return n;
}

static size_t check_rows(struct row *rows, size_t nrows,
			 const struct sample *s, bool thread)
{
	size_t n = 0;

	for (size_t i = 0; i < nrows; i++)
		n += check_row(&rows[i], s, thread || s->threads);
	return n;
}

size_t rec_check_sample(struct sample *s)
{
	size_t n = 0;

	/* not before 1970: at most the time since then */
	if (!isnan(s->interval) &&
	    !(s->interval > 0 && isfinite(s->interval) &&
	      (isnan(s->time) || s->interval <= s->time))) {
		s->interval = NAN;
		n++;
	}
	n += check_psi(&s->psi);
	n += check_rows(s->rows, s->nrows, s, false);
	n += check_rows(s->exited, s->nexited, s, false);
	n += check_rows(s->thread_rows, s->nthread_rows, s, true);
	n += check_rows(s->thread_exited, s->nthread_exited, s, true);
	for (size_t i = 0; i < s->ncgroups; i++) {
		struct cgroup_row *g = &s->cgroups[i];
		struct bounds b = { s->interval,
				    isnan(s->time) ? LIFE_UNKNOWN : s->time,
				    REC_CHECK_PID_MAX };

		if (g->have_psi)
			n += check_psi(&g->psi);
		n += check_figures(g->d, &b);
		n += check_total(&g->total_pct, &b);
	}
	s->dropped += n;
	return n;
}
