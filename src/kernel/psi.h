/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Pressure Stall Information: /proc/pressure/{cpu,memory,io,irq} and a
 * cgroup's pressure files read into struct psi_reading
 * (kernel/psi_types.h). Whatever a file or line lacks stays absent
 * (shown as -/null).
 */
#ifndef STALLTOP_PSI_H
#define STALLTOP_PSI_H

#include <stdbool.h>

#include "kernel/psi_types.h"

/*
 * Parse the text of one pressure file into line[NPSI_KIND]. Lines that do
 * not parse are ignored (that kind stays absent). Returns the number of
 * lines found.
 */
int psi_parse(const char *text, struct psi_line line[NPSI_KIND]);

/*
 * Read the pressure file name below dirfd (AT_FDCWD: name is a path) into
 * line[NPSI_KIND]. True when the file was there (a line that does not
 * parse stays absent, as in psi_parse).
 */
bool psi_read_file(int dirfd, const char *name, struct psi_line line[NPSI_KIND]);

/*
 * Read the file of each resource in dir, named by the resource and suffix:
 * "cpu" in /proc/pressure (suffix ""), "cpu.pressure" in a cgroup (suffix
 * ".pressure"). Missing files are absent; so is every one when dir is NULL.
 */
void psi_read_dir(const char *dir, const char *suffix, struct psi_reading *out);

/*
 * The files psi_read_dir reads, kept open to be read each refresh with
 * one pread each (procfs_reread) rather than opened and closed: fd -1
 * for a file that was missing (it stays absent). psi_close closes them.
 */
struct psi_files {
	int fd[NPSI];
};
void psi_open(const char *dir, const char *suffix, struct psi_files *f);
void psi_read_open(const struct psi_files *f, struct psi_reading *out);
void psi_close(struct psi_files *f);

#endif
