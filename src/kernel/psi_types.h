/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a reading of Pressure Stall Information is: the lines of
 * /proc/pressure/{cpu,memory,io,irq} and of a cgroup's pressure files
 * (kernel/psi.h reads them). Whatever a file or line lacks stays absent
 * (shown as -/null).
 */
#ifndef STALLTOP_PSI_TYPES_H
#define STALLTOP_PSI_TYPES_H

#include <stdbool.h>
#include <stdint.h>

enum psi_res { PSI_CPU, PSI_MEMORY, PSI_IO, PSI_IRQ, NPSI };
enum psi_kind { PSI_SOME, PSI_FULL, NPSI_KIND };

extern const char *const psi_res_name[NPSI];   /* "cpu", "memory", ... */
extern const char *const psi_kind_name[NPSI_KIND]; /* "some", "full" */

struct psi_line {
	bool present;
	double avg10, avg60, avg300;
	uint64_t total_us;
};

/* One reading of every file; line[r][k].present says what was there. */
struct psi_reading {
	double when;   /* CLOCK_MONOTONIC seconds at the read */
	struct psi_line line[NPSI][NPSI_KIND];
};

#endif
