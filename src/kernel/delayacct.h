/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The kernel.task_delayacct switch. */
#ifndef STALLTOP_DELAYACCT_H
#define STALLTOP_DELAYACCT_H

#define DELAYACCT_SYSCTL "/proc/sys/kernel/task_delayacct"

/* 1 on, 0 off, -1 unknown (file absent: delay accounting compiled out). */
int delayacct_state(void);

/* Turn it on. Returns 0, or -1 with errno set (EACCES/EPERM: not root). */
int delayacct_enable(void);

#include <stdbool.h>

/*
 * Whether delayacct_enable() switched it on, and then between which
 * CLOCK_MONOTONIC times (seconds) the switch happened.
 */
bool delayacct_switched(double *lo, double *hi);

#endif
