/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Where the cgroup figures of an evidence were read (struct evidence's
 * cpu_cgroup, mem_cgroup, io_cgroup, states_cgroup): "HIERARCHY:PATH",
 * the hierarchy as /proc/PID/cgroup names it ("cgroup2" for v2; "cpu",
 * "memory", "blkio", "name=systemd" for v1), the path in it. Made from
 * what a recording holds too (a process's /proc/PID/cgroup text, a
 * cgroup row's path and the versions its figures were read from), so a
 * replay names the same. A figure is read from a process's own cgroup
 * in the hierarchy that has its controller (live/cgdirs.h); where that
 * cgroup is the hierarchy's root ("blkio:/"), none is: a root's
 * counters are the machine's. "" where not known.
 */
#ifndef STALLTOP_EVORIGIN_H
#define STALLTOP_EVORIGIN_H

#include "model/evidence.h"

/*
 * The cgroups of process evidence ev (its states_source
 * set), from the text of its /proc/PID/cgroup (NULL: not known).
 */
void evorigin_task(const char *proc_cgroup, struct evidence *ev);

/* The same for a cgroup row at tree path `path` (NULL: not known). */
void evorigin_cgroup(const char *path, struct evidence *ev);

#endif
