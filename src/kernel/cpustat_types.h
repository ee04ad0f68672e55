/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a reading of each CPU's time (the "cpuN" lines of /proc/stat, in
 * USER_HZ ticks) is, and its split between the CPUs a process may use
 * and the others (kernel/cpustat.h reads and splits them).
 */
#ifndef STALLTOP_CPUSTAT_TYPES_H
#define STALLTOP_CPUSTAT_TYPES_H

#include <stddef.h>
#include <stdint.h>

#include "kernel/kval_types.h"

struct cpustat_cpu {
	unsigned cpu;      /* its number */
	uint64_t idle;     /* idle + iowait ticks */
	uint64_t nice;     /* ticks of tasks of nice above 0 (their guest
			      time inside) */
	uint64_t total;    /* every field's ticks (guest counted once) */
};

struct cpustat {
	struct cpustat_cpu *cpu;  /* in the order of the file */
	size_t n, cap;
	struct kval procs_running;  /* runnable tasks, the reader included */
	struct kval procs_blocked;  /* tasks in uninterruptible IO wait */
};

struct cpustat_split {
	struct kval in_idle, in_total, out_idle, out_total, out_nice;
};

#endif
