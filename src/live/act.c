/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The live monitor's actions on a task (the producer's act and prio):
 * the requests of a view handed to kernel/taskact.c.
 */
#include <config.h>

#include <errno.h>

#include "kernel/taskact.h"
#include "live/monitor_int.h"

static struct taskact_target target(const struct producer_act *a)
{
	return (struct taskact_target){
		.pid = a->pid, .tgid = a->tgid ? a->tgid : a->pid,
		.thread = a->thread, .start = a->start,
	};
}

int act_run(struct producer *p, struct producer_act *a)
{
	(void)p;
	struct taskact_target t = target(a);
	switch (a->kind) {
	case PRODUCER_ACT_SIGNAL:
		if (taskact_signal(&t, a->value) < 0)
			return -1;
		a->done = 1;
		return 0;
	case PRODUCER_ACT_NICE:
		return taskact_set_nice(&t, a->value, &a->done);
	case PRODUCER_ACT_IOPRIO:
		return taskact_set_ioprio(&t, (enum taskact_ioclass)a->value,
					  a->level, &a->done);
	}
	errno = EINVAL;
	return -1;
}

int act_prio(struct producer *p, const struct producer_act *who,
	     struct producer_prio *out)
{
	(void)p;
	struct taskact_target t = target(who);
	if (taskact_get_nice(&t, &out->nice) < 0)
		return -1;
	out->have_nice = true;
	enum taskact_ioclass cls;
	if (taskact_get_ioprio(&t, &cls, &out->io_level) == 0) {
		out->io_class = (int)cls;
		out->have_io = true;
	}
	return 0;
}
