/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a reading of a cgroup's memory limits, usage, limit events, swap
 * and workingset refaults is (kernel/cg_mem.h reads it): counters
 * cumulative as the kernel keeps them.
 */
#ifndef STALLTOP_CG_MEM_TYPES_H
#define STALLTOP_CG_MEM_TYPES_H

#include "kernel/kval_types.h"
#include "kernel/psi_types.h"

struct cg_mem {
	int version;              /* 2 or 1; 0 when no file could be read */
	struct kval max;          /* v2 memory.max, v1 limit_in_bytes (bytes) */
	struct kval high;         /* v2 memory.high */
	struct kval current;      /* v2 memory.current, v1 usage_in_bytes */
	/* v2 memory.events (hierarchical: this cgroup and below) */
	struct kval ev_low, ev_high, ev_max, ev_oom, ev_oom_kill;
	struct kval failcnt;      /* v1: times usage hit the limit */
	struct kval swap_current, swap_max;   /* v2 */
	struct kval memsw_usage, memsw_limit, memsw_failcnt; /* v1 mem+swap */
	/*
	 * memory.stat, pages brought back soon after eviction: _anon and
	 * _file since 5.9, one workingset_refault before; refault is their
	 * sum or the older single counter. v1 uses its total_ (hierarchical)
	 * names.
	 */
	struct kval refault_anon, refault_file, refault;
	struct psi_line pressure[NPSI_KIND]; /* memory.pressure */
};

#endif
