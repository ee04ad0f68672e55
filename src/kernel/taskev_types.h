/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a reading of a process's own evidence is: its IO, the CPUs it
 * may run on and its runnable threads, its private memory
 * (kernel/taskev.h reads them below its /proc/PID).
 */
#ifndef STALLTOP_TASKEV_TYPES_H
#define STALLTOP_TASKEV_TYPES_H

#include "kernel/kval_types.h"

/* /proc/PID/io: readable only with ptrace rights over the process. */
struct taskev_io {
	struct kval rchar, wchar;             /* bytes through read/write calls */
	struct kval read_bytes, write_bytes;  /* bytes to and from storage */
	struct kval cancelled_write_bytes;
};

struct taskev_cpu {
	struct kval allowed_cpus;     /* Cpus_allowed_list of the process */
	char allowed_list[256];       /* ... as the kernel writes it ("0-1,4");
				         "" when unknown or longer */
	struct kval threads;          /* threads counted */
	struct kval runnable_threads; /* of them in state R (running or waiting
				         for a CPU) */
};

struct taskev_mem {
	struct kval private_bytes;   /* Private_Clean + Private_Dirty, or
					statm resident - shared */
};

#endif
