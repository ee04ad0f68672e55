/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a reading of the machine-wide figures the evidence sets a task's
 * stall against is: memory and swap, runnable and blocked tasks, CPUs
 * online (kernel/sysinfo.h reads them).
 */
#ifndef STALLTOP_SYSINFO_TYPES_H
#define STALLTOP_SYSINFO_TYPES_H

#include "kernel/kval_types.h"

struct sysinfo_mem {
	struct kval mem_total, mem_free, mem_available; /* bytes */
	struct kval swap_total, swap_free;
};

struct sysinfo_load {
	struct kval procs_running;  /* runnable tasks, the reader included */
	struct kval procs_blocked;  /* tasks in uninterruptible IO wait */
	struct kval cpus_online;
};

#endif
