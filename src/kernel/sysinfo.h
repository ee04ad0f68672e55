/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Machine-wide figures the evidence sets a task's stall against: free
 * and available memory and swap (/proc/meminfo), the runnable and
 * blocked tasks (/proc/stat procs_running, procs_blocked: read by
 * kernel/cpustat.h), and the CPUs online (/sys/devices/system/cpu/online).
 */
#ifndef STALLTOP_SYSINFO_H
#define STALLTOP_SYSINFO_H

#include <stdint.h>

#include "kernel/sysinfo_types.h"

/* The text of /proc/meminfo; values in bytes. Returns the keys found. */
int sysinfo_parse_meminfo(const char *text, struct sysinfo_mem *out);

/*
 * The text of /proc/loadavg: its three averages into out. 0, or -1 when
 * it does not parse.
 */
int sysinfo_parse_loadavg(const char *text, double out[3]);
/* Read procfd's "loadavg"; 0, or -1. */
int sysinfo_read_loadavg(int procfd, double out[3]);

/*
 * The number of CPUs in a kernel CPU list ("0-3,8,10-11\n"), or -1 when
 * it does not parse (an empty list is 0).
 */
long sysinfo_cpulist_count(const char *text);

/* Whether CPU cpu is in such a list (false when it does not parse). */
bool sysinfo_cpulist_has(const char *text, unsigned cpu);

/*
 * Read below procfd (a descriptor of /proc, or of a fixture folder with
 * "meminfo") and sysfd (/sys/devices/system/cpu, or a folder with
 * "online"). A descriptor < 0 reads nothing there.
 */
void sysinfo_read_mem(int procfd, struct sysinfo_mem *out);
void sysinfo_read_online(int sysfd, struct kval *out);

#endif
