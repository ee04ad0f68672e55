/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Interval maths: two cumulative taskstats readings of one task become the
 * figures of one row. Pure functions, no state.
 */
#ifndef STALLTOP_DELTA_H
#define STALLTOP_DELTA_H

#include <stdbool.h>

#include "sample.h"
#include "ts_decode.h"

/*
 * Fill the figures of row from prev → cur over dt seconds. prev NULL means
 * the task started after the previous reading: it is counted from zero.
 * cats is the set of categories (bit 1 << cat) the kernel collects for
 * this task; the others are absent, whatever the payload holds (delay
 * accounting was off when the task started, or the kernel lacks the
 * feature behind a category).
 * A counter that went backwards (the kernel saturates on overflow) makes
 * that category absent for this interval instead of a giant figure.
 */
void delta_row(const struct ts_reading *prev, const struct ts_reading *cur,
	       double dt, unsigned cats, struct row *row);

/* Count difference; the kernel keeps non-cpu counts in 32 bits. */
unsigned long long delta_count(unsigned long long prev, unsigned long long cur,
			       int is_32bit);

#endif
