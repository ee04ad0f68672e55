/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Batch OpenMetrics: samples in, one exposition per sample out, with
 * counters that add up every sample since the writer was made. The
 * caller owns the state across samples.
 */
#ifndef STALLTOP_OUT_OPENMETRICS_H
#define STALLTOP_OUT_OPENMETRICS_H

#include <stddef.h>
#include <stdio.h>

#include "model/sample.h"

/* Per-task series shown per sample when the caller does not say. */
#define OUT_OPENMETRICS_TOP 20

struct out_openmetrics;

/*
 * A writer that shows the top tasks of each sample (by total stall of the
 * interval; 0: no per-task series). NULL with errno on failure.
 */
struct out_openmetrics *out_openmetrics_new(size_t top);
void out_openmetrics_free(struct out_openmetrics *m);

/*
 * Add the sample's figures (every row of it, live and ended) to the
 * counters, then write the exposition, ending with "# EOF".
 */
void out_openmetrics_write(FILE *f, struct out_openmetrics *m,
			   const struct sample *s);

#endif
