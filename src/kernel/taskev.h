/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A process's own evidence, read below its /proc/PID directory (a
 * descriptor, so that a fixture folder can stand in): IO it did
 * (/proc/PID/io), the CPUs it may run on and its runnable threads
 * (/proc/PID/status, /proc/PID/task/TID/stat), and its private memory
 * (/proc/PID/smaps_rollup, else statm).
 *
 * Forks: the kernel keeps no per-process fork counter in /proc (the
 * stat file's fields count faults and times, not forks). The live
 * monitor sees every fork on the proc connector and counts them per
 * parent; the evidence carries that count (evidence.forks), not this file.
 */
#ifndef STALLTOP_TASKEV_H
#define STALLTOP_TASKEV_H

#include <stdbool.h>

#include "kernel/taskev_types.h"

int taskev_parse_io(const char *text, struct taskev_io *out);

/* Cpus_allowed_list from the text of /proc/PID/status. */
struct kval taskev_parse_allowed(const char *text);

/* smaps_rollup text: Private_Clean + Private_Dirty in bytes. */
struct kval taskev_parse_smaps_rollup(const char *text);

/* statm text ("size resident shared text lib data dt", pages). */
struct kval taskev_parse_statm(const char *text, unsigned long page_size);

/* Readers below a /proc/PID descriptor; pidfd < 0 reads nothing. */
void taskev_read_io(int pidfd, struct taskev_io *out);
/*
 * Allowed CPUs; the threads and those runnable only where they can tell
 * something: when the process may use fewer CPUs than cpus_online (0:
 * not known, count anyway). Counting reads one file per thread.
 */
void taskev_read_cpu(int pidfd, uint64_t cpus_online, struct taskev_cpu *out);
/*
 * The part of taskev_read_cpu from the text of /proc/PID/status read
 * already: the allowed CPUs into out (cleared first), nothing counted.
 */
void taskev_parse_cpu(const char *status, struct taskev_cpu *out);
/*
 * The other part: out's threads and runnable ones counted below pidfd,
 * where out's allowed CPUs are fewer than cpus_online (as
 * taskev_read_cpu).
 */
void taskev_count_cpu(int pidfd, uint64_t cpus_online, struct taskev_cpu *out);
void taskev_read_mem(int pidfd, struct taskev_mem *out);

#endif
