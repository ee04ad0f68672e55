/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Where a cgroup row's figures are read from, on every layout
 * (kernel/cg_layout.h). A row is a path in the view's tree; each figure
 * comes from that same path in the hierarchy that has it:
 *
 *   pressure        the v2 directory (*.pressure): pure v2 and hybrid;
 *                   on v1 only, where a kernel has v1 pressure files,
 *                   each resource's file in its controller's hierarchy,
 *                   else in cpuacct's
 *   cpu             v2 cpu.max, cpu.stat where the v2 directory has the
 *                   cpu controller, else v1 cpu (and cpuacct)
 *   memory          v2 memory.* likewise, else v1 memory
 *   io              v2 io.* likewise, else v1 blkio
 *   task states     the kernel's cgroupstats of the tree's own directory
 *                   on v1; counted from cgroup.threads and /proc on v2
 *                   (hybrid too: the query applies to v1 hierarchies)
 *
 * (the evidence readers choose between v2 and v1 by which files are
 * there: live/evidence_read.c). A process row reads its own cgroups the same
 * way, from /proc/PID/cgroup: each figure from its own cgroup in the
 * hierarchy that has the controller, none from a hierarchy where it is
 * in the root; where a process is in the cgroup of a row, both read the
 * same directories, and so agree about every limit.
 */
#ifndef STALLTOP_CGDIRS_H
#define STALLTOP_CGDIRS_H

#include "kernel/cg_layout.h"
#include "kernel/psi.h"
#include "live/evidence_read.h"

/*
 * Open the directories of the cgroup at tree path `path` into d: cg2,
 * cpu1, cpuacct1 (only where cpuacct is mounted apart from cpu), mem1,
 * blkio1, and states1 on a v1 tree. The tree's root counts no task
 * states (no_states): it holds every task of the machine. d's other
 * members are left as they were. A directory that is not there stays -1.
 */
void cgdirs_open(const struct cg_layout *l, const char *path,
		 struct evidence_dirs *d);

/*
 * Open the directories of a process's own cgroups, from the text of its
 * /proc/PID/cgroup (which need not be its tree path in each hierarchy):
 * cg2, cpu1, cpuacct1 (where cpuacct is mounted apart from cpu), mem1,
 * blkio1, each only where that cgroup is below its hierarchy's root (a
 * root holds every task: its counters are the machine's, no cgroup's
 * figure of the process), and as states1 its cgroup of a v1 tree (the
 * hierarchy cgroupstats applies to); on a v2 tree its states are counted
 * from cg2. A process in its tree's root counts none (no_states). d's
 * other members are left as they were.
 */
void cgdirs_open_task(const struct cg_layout *l, const char *proc_cgroup,
		      struct evidence_dirs *d);

/* Close what cgdirs_open or cgdirs_open_task opened (and set it to -1). */
void cgdirs_close(struct evidence_dirs *d);

/*
 * The cgroup's own pressure at tree path `path`: the v2 directory's
 * files where there is a v2 hierarchy, else each resource's file in the
 * v1 hierarchy of its controller (cpu and irq: cpu; memory; io: blkio)
 * or of cpuacct. Files that are not there stay absent.
 */
void cgdirs_read_psi(const struct cg_layout *l, const char *path,
		     struct psi_reading *out);

#endif
