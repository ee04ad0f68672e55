/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A cgroup's memory limits, usage, limit events, swap and workingset
 * refaults: v2 memory.{max,high,current,events,swap.current,swap.max,
 * stat,pressure}; v1 memory.{limit_in_bytes,usage_in_bytes,failcnt,
 * memsw.*,stat}. Counters are cumulative as the kernel keeps them.
 */
#ifndef STALLTOP_CG_MEM_H
#define STALLTOP_CG_MEM_H

#include "kernel/cg_mem_types.h"
#include "kernel/kval.h"

/*
 * v1 has no "max": an unlimited counter reads as the page counter's
 * ceiling (LONG_MAX rounded down to a page). Any limit at or above this
 * is taken as no limit.
 */
#define CG_MEM_V1_UNLIMITED (1ULL << 62)

/* v2 memory.events into ev_*; returns the keys found. */
int cg_mem_parse_events(const char *text, struct cg_mem *out);

/* memory.stat of version 2 or 1 into refault_*. */
void cg_mem_parse_stat(const char *text, int version, struct cg_mem *out);

/* A v1 limit file: a number, with CG_MEM_V1_UNLIMITED and up as max. */
struct kval cg_mem_parse_v1_limit(const char *text);

/* Read a v2 cgroup directory, or a v1 memory controller directory. */
void cg_mem_read_v2(int dirfd, struct cg_mem *out);
void cg_mem_read_v1(int dirfd, struct cg_mem *out);

#endif
