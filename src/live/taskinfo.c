/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The reads of kernel/procinfo.c into struct task_info (taskinfo.h). */
#include <config.h>

#include <stdio.h>

#include "live/taskinfo.h"

_Static_assert(PROCINFO_WCHAN_MAX <= STORE_WCHAN_MAX,
	       "a wait channel read fits in struct store_task");

void taskinfo_from_details(struct task_info *info,
			   const struct procinfo_details *d)
{
	info->ppid = d->info.ppid;
	info->state = d->info.state;
	info->threads = d->info.threads;
	info->start = d->info.start;
}

void taskinfo_store_context(const struct procinfo_context *c,
			    struct store_task *st)
{
	st->have |= STORE_HAVE_CTX_AT;
	st->ctx_at = c->at;
	if (c->have_nice) {
		st->nice = (int8_t)c->nice;
		st->have |= STORE_HAVE_NICE;
	}
	if (c->have_mem) {
		st->rss_kib = c->rss_kib;
		st->swap_kib = c->swap_kib;
		st->have |= STORE_HAVE_RSS | STORE_HAVE_SWAP;
	}
	if (c->wchan[0]) {
		snprintf(st->wchan, sizeof(st->wchan), "%s", c->wchan);
		st->have |= STORE_HAVE_WCHAN;
	}
	if (c->have_majflt) {
		st->majflt = c->majflt;
		st->have |= STORE_HAVE_MAJFLT;
	}
	if (c->io.read_bytes.have && c->io.write_bytes.have) {
		st->read_bytes = c->io.read_bytes.v;
		st->write_bytes = c->io.write_bytes.v;
		st->have |= STORE_HAVE_IO;
	}
}
