/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The unprivileged source: cpu delay from /proc/PID/task/TID/schedstat and
 * block-IO delay from field 42 of stat, for when taskstats cannot be used
 * (no CAP_NET_ADMIN, or a kernel without it). It hands out readings of the
 * same shape as taskstats; what /proc does not give stays absent.
 *
 * A process's figure is built from its threads' differences between two
 * readings, never from a sum of their cumulative counters (a thread that
 * ends would then look like a negative delta): the last moments of a
 * thread that ends between two readings are not counted. The totals are
 * kept per pid and start time: a new process with a pid used before
 * starts from its own threads.
 */
#ifndef STALLTOP_PROCSTAT_H
#define STALLTOP_PROCSTAT_H

#include <stddef.h>
#include <stdint.h>

#include "kernel/ts_decode.h"

struct procstat;

struct procstat *procstat_new(void);
/* The same, reading the tree below proc instead of /proc. */
struct procstat *procstat_new_at(const char *proc);
void procstat_free(struct procstat *ps);

/* Like taskstats_query(): readings for processes (TGID) or threads (PID). */
int procstat_query(struct procstat *ps, enum ts_kind kind, const uint32_t *ids,
	     size_t n, ts_reading_cb cb, void *arg, size_t *vanished);

/* "run_ns delay_ns count\n" → values; returns 0, or -1 if malformed. */
int procstat_parse_schedstat(const char *text, uint64_t *run_ns, uint64_t *delay_ns,
		       uint64_t *count);

#endif
