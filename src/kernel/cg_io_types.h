/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a reading of a cgroup's IO limits and IO per device is
 * (kernel/cg_io.h reads it): limits as set, counters cumulative.
 */
#ifndef STALLTOP_CG_IO_TYPES_H
#define STALLTOP_CG_IO_TYPES_H

#include <stddef.h>

#include "kernel/kval_types.h"
#include "kernel/psi_types.h"

/* Devices kept per cgroup; more are counted in cg_io.dropped. */
#define CG_IO_DEVS 16

struct cg_io_dev {
	unsigned major, minor;
	/* limits per second; max: none. Absent when no limit file was read. */
	struct kval rbps, wbps, riops, wiops;
	/* cumulative */
	struct kval rbytes, wbytes, rios, wios;
};

struct cg_io {
	int version;          /* 2 or 1; 0 when no file could be read */
	size_t ndev;
	size_t dropped;       /* devices beyond CG_IO_DEVS */
	struct cg_io_dev dev[CG_IO_DEVS];
	struct psi_line pressure[NPSI_KIND]; /* io.pressure */
};

#endif
