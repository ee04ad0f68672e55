/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a count of a cgroup's task states is (kernel/cgstats.h counts
 * them: the kernel's cgroupstats for v1, /proc for v2).
 */
#ifndef STALLTOP_CGSTATS_TYPES_H
#define STALLTOP_CGSTATS_TYPES_H

#include "kernel/kval_types.h"

enum cgstats_source { CGSTATS_NONE, CGSTATS_KERNEL, CGSTATS_PROC };

struct cgstats {
	enum cgstats_source source;
	struct kval nr_running, nr_sleeping, nr_uninterruptible, nr_stopped;
	struct kval nr_io_wait;       /* the kernel's count only */
	struct kval nr_tasks;         /* /proc count: threads seen */
};

#endif
