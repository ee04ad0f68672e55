/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A cgroup row's figures: the sums of the task rows in it (cgrows.h). */
#include <config.h>

#include <string.h>

#include "model/cgname.h"
#include "model/cgrows.h"
#include "model/delta.h"

int cgrows_depth(const char *path)
{
	if (strcmp(path, "/") == 0)
		return 0;
	int d = 0;
	for (; *path; path++)
		d += *path == '/';
	return d;
}

void cgrows_add(struct cgroup_row *g, unsigned *max_unknown,
		const struct row *r, double dt)
{
	for (int c = 0; c < NCAT; c++) {
		const struct cat_figure *f = &r->d[c];
		struct cat_figure *s = &g->d[c];
		if (!f->avail)
			continue;
		/* the average is rebuilt from summed delay over summed events */
		double delay_ms = f->pct / 100.0 * dt * 1000.0;
		double prev_delay = s->have_avg || s->count ?
			s->avg_ms * (double)s->count : 0;
		if (!s->avail) {
			s->avail = true;
			s->have_count = true;
		}
		s->pct += f->pct;
		/* unknown, or more events than a figure holds (sample.h) */
		if (f->have_count && f->count <= CAT_COUNT_MAX - s->count)
			s->count += f->count;
		else
			s->have_count = false;
		if (s->have_count && s->count)
			s->avg_ms = (prev_delay + (f->have_count ? delay_ms : 0)) /
				    (double)s->count;
		s->have_avg = s->have_count && s->count > 0;
		/* the longest wait is known only if every task's is */
		bool waited = f->have_count ? f->count > 0 : f->pct > 0;
		if (waited && !f->have_max)
			*max_unknown |= 1u << c;
		if (*max_unknown & (1u << c)) {
			s->have_max = false;
		} else if (f->have_max && (!s->have_max || f->max_ms > s->max_ms)) {
			s->have_max = true;
			s->max_ms = f->max_ms;
		}
	}
	g->total_pct += r->total_pct;
	g->nr_tasks++;
}

/* One cgroup's own figures: pressure and the kernel's counters. */
static void own_figures(const struct store_cgroup *cg, struct cgrows_state *st,
			struct cgroup_row *r)
{
	memset(r, 0, sizeof(*r));
	r->path = cg->path;
	r->name = st->name;
	r->depth = cgrows_depth(cg->path);
	r->have_psi = false;
	for (int k = 0; k < NPSI; k++)
		for (int j = 0; j < NPSI_KIND; j++)
			r->have_psi |= cg->psi.line[k][j].present;
	delta_psi(st->have_prev ? &st->prev : NULL, &cg->psi, &r->psi);
	st->prev = cg->psi;
	st->have_prev = true;
	r->have_throttled = cg->have & STORE_CG_THROTTLED;
	r->throttled_us = r->have_throttled ? cg->throttled_us : 0;
	r->have_mem_high = cg->have & STORE_CG_MEM_HIGH;
	r->mem_high = r->have_mem_high ? cg->mem_high : 0;
	r->have_mem_max = cg->have & STORE_CG_MEM_MAX;
	r->mem_max = r->have_mem_max ? cg->mem_max : 0;
	r->have_mem_oom_kill = cg->have & STORE_CG_OOM_KILL;
	r->mem_oom_kill = r->have_mem_oom_kill ? cg->mem_oom_kill : 0;
}

/* Sum the task rows rows[0..n-1] into the cgroup rows they are in. */
static void sum_rows(const struct row *rows, size_t n, double dt,
		     const char *within, struct cgroup_row *out, size_t nout,
		     unsigned *max_unknown)
{
	for (size_t i = 0; i < n; i++) {
		const char *p = rows[i].cgroup;
		if (!p || (within && !cgname_within(p, within)))
			continue;
		for (size_t j = 0; j < nout; j++)
			if (cgname_within(p, out[j].path))
				cgrows_add(&out[j], &max_unknown[j], &rows[i],
					   dt);
	}
}

void cgrows_build(const struct store_cgroup *cg, struct cgrows_state *const *state,
		  size_t n, const struct row *rows, size_t nrows,
		  const struct row *exited, size_t nexited, double dt,
		  const char *within, struct cgroup_row *out,
		  unsigned *max_unknown)
{
	for (size_t i = 0; i < n; i++) {
		max_unknown[i] = 0;
		own_figures(&cg[i], state[i], &out[i]);
	}
	sum_rows(rows, nrows, dt, within, out, n, max_unknown);
	if (exited)
		sum_rows(exited, nexited, dt, within, out, n, max_unknown);
}
