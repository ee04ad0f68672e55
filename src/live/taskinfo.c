/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The reads of kernel/procinfo.c into struct task_info (taskinfo.h). */
#include <config.h>

#include <stdio.h>

#include "live/taskinfo.h"

_Static_assert(PROCINFO_WCHAN_MAX <= TASK_WCHAN_MAX,
	       "a wait channel read fits in struct task_ctx");

void taskinfo_from_details(struct task_info *info,
			   const struct procinfo_details *d)
{
	info->ppid = d->info.ppid;
	info->state = d->info.state;
	info->threads = d->info.threads;
	info->start = d->info.start;
}

void taskinfo_ctx_from(struct task_ctx *x, const struct procinfo_context *c)
{
	*x = (struct task_ctx){ 0 };
	if (c->have_nice) {
		x->nice = c->nice;
		x->have |= CTX_NICE;
	}
	if (c->have_mem) {
		x->rss_kib = c->rss_kib;
		x->swap_kib = c->swap_kib;
		x->have |= CTX_RSS | CTX_SWAP;
	}
	if (c->wchan[0]) {
		snprintf(x->wchan, sizeof(x->wchan), "%s", c->wchan);
		x->have |= CTX_WCHAN;
	}
}
