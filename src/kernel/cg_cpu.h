/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A cgroup's CPU limit and throttling: v2 cpu.max and cpu.stat, v1
 * cpu.cfs_quota_us, cpu.cfs_period_us, cpu.stat and cpuacct.usage, and
 * cpu.pressure. Counters are cumulative as the kernel keeps them; the
 * interval figures are made from two readings (model/evidence.c).
 */
#ifndef STALLTOP_CG_CPU_H
#define STALLTOP_CG_CPU_H

#include "kernel/cg_cpu_types.h"
#include "kernel/kval.h"

/*
 * v2 cpu.max: "QUOTA PERIOD" or "max PERIOD". Both absent unless the
 * whole line parses. Returns 0, or -1 when it does not.
 */
int cg_cpu_parse_max(const char *text, struct kval *quota, struct kval *period);

/* cpu.stat of version 2 or 1 into out's counters (the rest untouched). */
void cg_cpu_parse_stat(const char *text, int version, struct cg_cpu *out);

/*
 * Read a v2 cgroup directory (dirfd), or a v1 cpu controller directory.
 * dirfd < 0 reads nothing. out is cleared first; version says which
 * reader found at least one file.
 */
void cg_cpu_read_v2(int dirfd, struct cg_cpu *out);
void cg_cpu_read_v1(int dirfd, struct cg_cpu *out);

/*
 * usage_us from cpuacct.usage in dirfd: a v1 cpuacct directory, which
 * is the cpu one where the two are mounted together. Nothing else of out
 * changes; dirfd < 0 or no file leaves usage_us as it was.
 */
void cg_cpu_read_cpuacct(int dirfd, struct cg_cpu *out);

#endif
