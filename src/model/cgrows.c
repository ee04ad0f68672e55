/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A cgroup row's figures: the sums of the task rows in it (cgrows.h). */
#include <config.h>

#include <string.h>

#include "model/cgrows.h"

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
		if (f->have_count)
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
