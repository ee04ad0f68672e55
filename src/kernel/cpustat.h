/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * /proc/stat: each CPU's time from its "cpuN" line, in the kernel's
 * USER_HZ ticks (how long it was idle, and in all), and the tasks
 * runnable and blocked on IO now (procs_running, procs_blocked). Read
 * once a refresh; two readings make each CPU's idle share of an
 * interval, and the split between the CPUs a process may use and the
 * others tells whether it is crowded on a few while others idle.
 */
#ifndef STALLTOP_CPUSTAT_H
#define STALLTOP_CPUSTAT_H

#include <stddef.h>
#include <stdint.h>

#include "kernel/cpustat_types.h"

/*
 * A /proc/stat text into out (emptied first): its cpuN lines, and its
 * procs_ lines whether or not there are any. 0, or -1 (ENOMEM; EINVAL:
 * no cpuN line).
 */
int cpustat_parse(const char *text, struct cpustat *out);

/*
 * Read procfd's "stat" (a descriptor of /proc or a fixture). 0, or -1 as
 * cpustat_parse, or when it does not read (out emptied).
 */
int cpustat_read(int procfd, struct cpustat *out);

void cpustat_free(struct cpustat *s);

/*
 * The ticks so far of the CPUs in the kernel CPU list (as
 * Cpus_allowed_list has it), and of the others: idle and in all, and
 * the others' time in niced tasks. A list that does not parse leaves
 * them absent.
 */
void cpustat_split(const struct cpustat *s, const char *list,
		   struct cpustat_split *out);

#endif
