/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One reading of the evidence next to a stall (struct evidence_reading,
 * model/evidence.h) through the kernel readers: descriptors the caller
 * opened and keeps, so fixture folders can stand in for /sys/fs/cgroup
 * and /proc. model/evidence.c makes the figures of an interval from two.
 */
#ifndef STALLTOP_EVIDENCE_READ_H
#define STALLTOP_EVIDENCE_READ_H

#include <stdbool.h>

#include "kernel/cpustat.h"
#include "model/evidence.h"

struct ts_client;

/*
 * Where one reading comes from: descriptors the caller opened and keeps
 * (-1: not there, that evidence stays absent).
 */
struct evidence_dirs {
	int cg2;         /* the process's v2 cgroup directory */
	int cpu1;        /* its v1 cpu controller directory */
	int cpuacct1;    /* its v1 cpuacct directory, where cpuacct is
			    mounted apart from cpu (else -1) */
	int mem1;        /* its v1 memory controller directory */
	int blkio1;      /* its v1 blkio controller directory */
	int states1;     /* a v1 directory for cgroupstats (any controller) */
	int pid;         /* /proc/PID */
	int proc;        /* /proc */
	int cpu_sys;     /* /sys/devices/system/cpu */
	bool no_states;  /* count no task states (a v2 root cgroup, whose
			    cgroup.threads lists every thread) */
	/*
	 * The groups to read (EVIDENCE_WANT of enum evidence_group, model/
	 * evidence.h), 0: all; the rest stays absent.
	 */
	unsigned want;
	/*
	 * This round's /proc/stat (cpustat_read: the per-CPU times, the
	 * tasks runnable and blocked) and /proc/meminfo, read once by the
	 * caller for every process; NULL: not known.
	 */
	const struct cpustat *cpus;
	const struct sysinfo_mem *mem;
	/*
	 * The process's allowed CPUs read already at this moment (its
	 * status, taskev_parse_cpu), NULL: read them below pid.
	 */
	const struct taskev_cpu *tcpu;
	/*
	 * Its /proc/PID/io read already this round (with its context),
	 * NULL: read it below pid.
	 */
	const struct taskev_io *tio;
};

/* Nothing open (and task states counted where a directory is). */
#define EVIDENCE_DIRS_NONE ((struct evidence_dirs){ .cg2 = -1, .cpu1 = -1, \
	.cpuacct1 = -1, .mem1 = -1, .blkio1 = -1, .states1 = -1, .pid = -1, \
	.proc = -1, .cpu_sys = -1, .no_states = false, .want = 0, \
	.cpus = NULL, .mem = NULL, .tcpu = NULL, .tio = NULL })

/*
 * The machine-wide part of a reading (dirs' mem and the procs_ counts of
 * its cpus, the CPUs online), the same for every task at one moment:
 * make it once and give it to evidence_read_with for each. Its when is
 * left 0; a caller that dates its readings at a sample sets it
 * (evidence_read_task).
 */
void evidence_read_system(const struct evidence_dirs *dirs,
			  struct evidence_reading *out);

/*
 * Only a cgroup's cpu and memory files (v2 where the directory has the
 * controller, else v1), as evidence_read_with reads them: its throttling and
 * memory events are the kernel's counters, for the metrics.
 */
void evidence_read_cgroup(const struct evidence_dirs *dirs, struct cg_cpu *cpu,
			  struct cg_mem *mem);

/*
 * The process's own part of evidence_read_with (its CPUs, IO, private memory:
 * dirs->pid and dirs->cpus; its allowed CPUs from dirs->tcpu where
 * given), with the machine-wide part copied from sys; out is cleared
 * first, and dated as sys is (the sample's reading time, so that a
 * recording stores no time of its own for it), or with the moment of the
 * reading where sys->when is 0.
 */
void evidence_read_task(const struct evidence_dirs *dirs,
			const struct evidence_reading *sys,
			struct evidence_reading *out);

/*
 * Whether evidence_read_task reads anything below dirs->pid for the
 * groups dirs->want names: not for the CPUs alone when dirs->tcpu gives
 * them and they are all the CPUs online (sys: the machine-wide part).
 */
bool evidence_read_task_dir_wanted(const struct evidence_dirs *dirs,
			      const struct evidence_reading *sys);

/*
 * The cgroups' part of evidence_read_with (cpu, memory, io and the task
 * states, of the groups dirs->want names) into those members of out;
 * the rest of out is left as it is.
 */
void evidence_read_cgroups(const struct evidence_dirs *dirs,
			   struct ts_client *ts, struct evidence_reading *out);

/*
 * Read everything dirs gives into out, the machine-wide part copied from
 * sys (evidence_read_system). ts (may be NULL) asks the kernel for the
 * v1 task states of dirs.states1; without it, or for a v2 cgroup, the
 * states are counted from cgroup.threads and /proc. out->forks is left
 * absent for the caller to fill.
 */
void evidence_read_with(const struct evidence_dirs *dirs, struct ts_client *ts,
			const struct evidence_reading *sys,
			struct evidence_reading *out);

#endif
