/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Interval maths: two cumulative readings → per-interval figures. */
#include <config.h>

#include <stdint.h>
#include <string.h>

#include "delta.h"

unsigned long long delta_count(unsigned long long prev, unsigned long long cur,
			       int is_32bit)
{
	if (is_32bit)
		return (uint32_t)(cur - prev);
	return cur >= prev ? cur - prev : 0;
}

void delta_row(const struct ts_reading *prev, const struct ts_reading *cur,
	       double dt, unsigned cats, struct row *row)
{
	static const struct ts_reading zero;
	if (!prev)
		prev = &zero;

	row->total_pct = 0;
	row->have_cpu_pct = false;
	if (dt > 0 && cur->run_real_ns >= prev->run_real_ns) {
		row->have_cpu_pct = true;
		row->cpu_pct = (double)(cur->run_real_ns - prev->run_real_ns) /
			       (dt * 1e9) * 100.0;
	}

	for (int c = 0; c < NCAT; c++) {
		struct cat_figure *f = &row->d[c];
		const struct ts_delay *a = &prev->d[c], *b = &cur->d[c];
		memset(f, 0, sizeof(*f));
		if (!(cur->have & cats & (1u << c)) || dt <= 0)
			continue;
		/* saturated or reset: no figure rather than a wrong one */
		if (b->total_ns < a->total_ns)
			continue;
		uint64_t dtotal = b->total_ns - a->total_ns;
		f->avail = true;
		f->have_count = !(cur->no_count & (1u << c));
		if (f->have_count)
			f->count = delta_count(a->count, b->count,
					       categories[c].count_is_32bit);
		f->pct = (double)dtotal / (dt * 1e9) * 100.0;
		if (f->count) {
			f->have_avg = true;
			f->avg_ms = (double)dtotal / (double)f->count / 1e6;
		}
		if (cur->have_max & (1u << c)) {
			f->have_max = true;
			f->max_ms = (double)b->max_ns / 1e6;
		}
		row->total_pct += f->pct;
	}
}
