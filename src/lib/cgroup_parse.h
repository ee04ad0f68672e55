/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The lines of a /proc/PID/cgroup text, parsed (no I/O): a task's path
 * in the v2 hierarchy and in a v1 controller's. The kernel layer reads
 * the text (kernel/cgroup.h), the model names a recorded one's groups
 * (model/evorigin.c).
 */
#ifndef STALLTOP_CGROUP_PARSE_H
#define STALLTOP_CGROUP_PARSE_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The v2 path ("/system.slice/x.service") in the text of /proc/PID/cgroup
 * (the "0::" line). Returns 0, or -1 when the task has no v2 cgroup.
 */
int cgroup_parse_proc_cgroup(const char *text, char *path, size_t size);

/*
 * The v1 path of controller in the text of /proc/PID/cgroup
 * ("4:memory:/a/b", or "2:cpu,cpuacct:/a"). 0, or -1 when none.
 */
int cgroup_parse_proc_cgroup_v1(const char *text, const char *controller,
				char *path, size_t size);

/*
 * Is word one of the comma-separated items of [s, s + n) (the
 * controllers of such a line, a mount's super options)?
 */
bool cgroup_parse_in_list(const char *s, size_t n, const char *word);

#endif
