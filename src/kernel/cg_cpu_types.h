/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a reading of a cgroup's CPU limit and throttling is (kernel/cg_cpu.h
 * reads it): counters cumulative as the kernel keeps them.
 */
#ifndef STALLTOP_CG_CPU_TYPES_H
#define STALLTOP_CG_CPU_TYPES_H

#include "kernel/kval_types.h"
#include "kernel/psi_types.h"

struct cg_cpu {
	int version;             /* 2 or 1; 0 when no file could be read */
	struct kval quota_us;    /* runtime per period; max: no quota */
	struct kval period_us;
	struct kval nr_periods;  /* periods with runnable tasks */
	struct kval nr_throttled;/* periods that ran out of quota */
	struct kval throttled_us;/* time throttled, summed over CPUs
				    (v2 throttled_usec, v1 throttled_time/1000) */
	struct kval usage_us;    /* CPU time used (v2 usage_usec, v1
				    cpuacct.usage/1000 where mounted together) */
	struct psi_line pressure[NPSI_KIND]; /* cpu.pressure */
};

#endif
