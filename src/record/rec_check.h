/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Every value read from a recording is checked as a kernel value is: what
 * no real system can produce is dropped, never shown as a number. A
 * dropped figure is absent ('-', JSON null) and counted in the sample's
 * dropped count (figures_dropped), a category's figure marked dropped as
 * live mode marks it. (A row that is not a task, without a pid and
 * thread group id a kernel can give, json_read.c leaves out.) The
 * bounds, each one only what no schedule can exceed (the manual page
 * lists them, RECORDING FORMAT):
 *
 *   - ids: 1 to REC_CHECK_PID_MAX (the kernel's PID_MAX_LIMIT); a parent
 *     0 to it; threads at most that;
 *   - interval: more than 0 and not before 1970 (at most the sample's
 *     time); a task's start: after 1970 and at most a second after the
 *     sample's time;
 *   - a wait, a run time or a stall of the interval (an interval not
 *     known taken as a microsecond, less than any two samples are
 *     apart): not negative, and no longer than the task has lived
 *     (since its start, else since 1970) times the threads it can have
 *     had at once (1 for a thread row, REC_CHECK_PID_MAX for a process
 *     or cgroup; a stall counts three categories at once); one wait
 *     (avg, max) no longer than that life; every counted wait but cpu's
 *     and irq's at least a nanosecond long;
 *   - PSI averages and shares: 0 to 100; evidence rates and shares: not
 *     negative.
 */
#ifndef STALLTOP_REC_CHECK_H
#define STALLTOP_REC_CHECK_H

#include <stddef.h>

#include "model/sample.h"

/* PID_MAX_LIMIT on 64-bit Linux: no id, and no count of tasks, is above. */
#define REC_CHECK_PID_MAX 4194304

/*
 * Check the sample s as read from a recording, in place: impossible
 * values made absent and added to s->dropped. Returns their number.
 */
size_t rec_check_sample(struct sample *s);

#endif
