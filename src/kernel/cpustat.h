/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Each CPU's time from the "cpuN" lines of /proc/stat, in the kernel's
 * USER_HZ ticks: how long it was idle, and in all. Read once a refresh;
 * two readings make each CPU's idle share of an interval, and the split
 * between the CPUs a process may use and the others tells whether it is
 * crowded on a few while others idle.
 */
#ifndef STALLTOP_CPUSTAT_H
#define STALLTOP_CPUSTAT_H

#include <stddef.h>
#include <stdint.h>

#include "kernel/cpustat_types.h"

/*
 * The cpuN lines of a /proc/stat text into out (emptied first). 0, or
 * -1 (ENOMEM; EINVAL: no cpuN line).
 */
int cpustat_parse(const char *text, struct cpustat *out);

/* Read procfd's "stat" (a descriptor of /proc or a fixture). 0 or -1. */
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
