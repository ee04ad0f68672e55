/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One reading of the evidence next to a stall: the kernel's cumulative
 * counters and current values of a process and its cgroups at one
 * moment, as the live side reads them (live/evidence_read.h) and a
 * store sample holds them (store/sample.h). model/evidence.h makes the
 * figures of an interval from two.
 */
#ifndef STALLTOP_EVREADING_H
#define STALLTOP_EVREADING_H

#include "kernel/cg_cpu_types.h"
#include "kernel/cg_io_types.h"
#include "kernel/cg_mem_types.h"
#include "kernel/cgstats_types.h"
#include "kernel/cpustat_types.h"
#include "kernel/kval_types.h"
#include "kernel/sysinfo_types.h"
#include "kernel/taskev_types.h"

/* One moment: cumulative counters and current values. */
struct evidence_reading {
	double when;              /* CLOCK_MONOTONIC seconds: the live
				     monitor's, its sample's reading time */
	struct cg_cpu cpu;        /* v2 where it has the controller, else v1 */
	struct cg_mem mem;
	struct cg_io io;
	struct sysinfo_mem sysmem;
	struct sysinfo_load load;
	struct taskev_io tio;
	struct taskev_cpu tcpu;
	struct cpustat_split cpus; /* the CPUs it may use and the others */
	struct taskev_mem tmem;
	struct cgstats states;
	struct kval forks;        /* forks by the process so far: counted by
				     the caller (proc connector), not read */
};

#endif
