/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Batch metrics: samples in, counters that add up every sample since the
 * writer was made, and an exposition of them out, in the OpenMetrics text
 * format or in the Prometheus text format 0.0.4. Adding and writing are
 * apart: a write shows the state of the last sample added and changes
 * nothing, so the same state can be written any number of times, in
 * either format, into any FILE * (a file, a pipe, open_memstream).
 * The caller owns the state across samples.
 */
#ifndef STALLTOP_OUT_OPENMETRICS_H
#define STALLTOP_OUT_OPENMETRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "model/sample.h"

/* Per-task series shown per sample when the caller does not say: none
 * (the series are per cgroup and per workload group). */
#define OUT_OPENMETRICS_TOP 0

/*
 * The two text formats. They differ in the TYPE and HELP lines of a
 * counter (the family's name without _total in OpenMetrics, with it in
 * Prometheus 0.0.4), the UNIT lines and the info type (OpenMetrics
 * only), and the closing "# EOF" (OpenMetrics only). The series and their
 * values are the same.
 */
enum out_openmetrics_format {
	OUT_OPENMETRICS_OM,   /* OpenMetrics 1.0.0 */
	OUT_OPENMETRICS_PROM, /* Prometheus text format 0.0.4 */
};

/* The HTTP Content-Type of a format, with its version and charset. */
const char *out_openmetrics_content_type(enum out_openmetrics_format fmt);

struct out_openmetrics;
struct om_rule;

/*
 * A writer that shows the top tasks of each sample (by total stall of the
 * interval; 0: no per-task series). NULL with errno on failure.
 */
struct out_openmetrics *out_openmetrics_new(size_t top);
void out_openmetrics_free(struct out_openmetrics *m);

/* Workload groups by these rules (view/om_series.h; kept by the caller)
 * rather than by command name alone. */
void out_openmetrics_set_rules(struct out_openmetrics *m,
			       const struct om_rule *rules, size_t n);

/* Where the group rules' notes go (view/om_series.h; NULL: nowhere). */
void out_openmetrics_on_note(struct out_openmetrics *m,
			     void (*fn)(const char *text, void *arg),
			     void *arg);

/* Write the host's PSI totals too (node_exporter has them already as
 * node_pressure_*): off unless asked. */
void out_openmetrics_set_host_psi(struct out_openmetrics *m, bool on);

/* Add the sample's figures (every row of it, live and ended) to the
 * counters; what the next write shows. */
void out_openmetrics_add(struct out_openmetrics *m, const struct sample *s);

/*
 * Write the exposition of the last sample added (before any: the
 * counters that need no sample). Computes nothing and changes nothing;
 * 0, or -1 when the stream has an error (ferror).
 */
int out_openmetrics_write(FILE *f, const struct out_openmetrics *m,
			  enum out_openmetrics_format fmt);

#endif
