/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cgroup texts and paths: the mountinfo lines of the v2 and v1
 * hierarchies, the text of /proc/PID/cgroup (read from the kernel, never
 * guessed; its lines are parsed by lib/cgroup_parse.h), path checks and
 * containment. kernel/cg_layout.h puts the hierarchies together into a
 * layout.
 */
#ifndef STALLTOP_CGROUP_H
#define STALLTOP_CGROUP_H

#include <stddef.h>
#include <sys/types.h>

#include "kernel/psi_types.h"

/*
 * The mount point of the cgroup2 file system in a mountinfo text (the
 * first "cgroup2" entry), and the part of the hierarchy the mount shows
 * (its root field: "/" unless a part is bind-mounted) into fsroot (NULL:
 * not wanted). Returns 0, or -1 when there is none.
 */
int cgroup_parse_mountinfo_v2(const char *text, char *mnt, size_t size,
			      char *fsroot, size_t rootsize);

/*
 * Check a user-given cgroup path: it must exist below root (the mount
 * point of a hierarchy) as a directory of a cgroup file system. Normalises it into norm ("/a/b", no trailing or
 * doubled slashes, no "." or ".."). Returns 0, or -1 with errno set.
 */
int cgroup_check_path(const char *root, const char *path, char *norm, size_t size);

/*
 * cgroup v1 (hybrid and legacy systems keep a hierarchy per controller,
 * e.g. /sys/fs/cgroup/cpu). In a mountinfo text: the mount point of the
 * "cgroup" file system whose options name controller ("cpu", "memory",
 * "blkio", or "name=systemd"), and the path of the hierarchy it shows
 * (its root field, "/" unless a part is bind-mounted). 0, or -1 when
 * there is none or it does not fit.
 */
int cgroup_parse_mountinfo_v1(const char *text, const char *controller,
			      char *mnt, size_t mntsize, char *fsroot,
			      size_t rootsize);

/*
 * The whole text of a file such as /proc/self/mountinfo or
 * /proc/PID/cgroup, malloc'd (procfs_read_all); NULL with errno set.
 */
char *cgroup_read_file(const char *path);

#endif
