/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What stands next to a row's stall (its context: nice, memory, the IO
 * and fault rates, wait channel; a thread's state with it), read for the
 * rows a view shows and only where it can differ from the last read.
 */
#include <config.h>

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/procinfo.h"
#include "live/monitor_int.h"
#include "live/rows_int.h"
#include "live/taskinfo.h"
#include "live/tasktable.h"
#include "model/assemble.h"
#include "store/sample.h"

/*
 * A task's memory and nice value can change while it does not run
 * (reclaim, swap-out, another's renice): its context is read again at
 * the latest this long after the last read (s).
 */
#define CTX_RECHECK 5.0

/*
 * Whether k's context can differ from the one read or kept last: it ran
 * since (its counters moved after that), it is in no settled state (a
 * D task's wait channel), or the last read is CTX_RECHECK old. One that
 * did not run did no IO and took no fault (both are counted to the task
 * that runs: a fault taken for another's memory, of ptrace or
 * /proc/PID/mem, is the reader's): its rates are 0.
 */
static bool context_due(const struct monitor *m, const struct task *k)
{
	const struct tt_ctx *x = k->ctx;

	return !x || (x->round != m->round &&
		      (!x->round || k->moved > x->round ||
		       !rows_settled(k->info.state) ||
		       m->reading_time - x->read >= CTX_RECHECK));
}

/*
 * Whether k's context is due (context_due) only because the last read is
 * CTX_RECHECK old: none of its threads ran since, so only what changes
 * while it sleeps is read again (procinfo_context_asleep: memory and
 * nice, not the faults and IO that did not move).
 */
static bool context_asleep(const struct task *k)
{
	const struct tt_ctx *x = k->ctx;

	return x && x->round && k->moved <= x->round &&
	       rows_settled(k->info.state);
}

/* Whether k's context was read (or kept) for the reading at hand. */
bool context_now(const struct monitor *m, const struct task *k)
{
	return k->ctx && k->ctx->round == m->round;
}

struct context_read {
	struct monitor *m;
	struct tasktable *t;
	bool asleep;              /* procinfo_context_asleep's reads */
};

/* The context counters k kept of its latest read, into st's bits. */
static void context_before(const struct task *k, struct store_task *st)
{
	const struct tt_ctx *x = k->ctx;

	if (!x || !x->round)
		return;
	st->have |= STORE_HAVE_CTX_AT;
	st->ctx_at = x->at;
	if (x->have_majflt) {
		st->have |= STORE_HAVE_MAJFLT;
		st->majflt = x->majflt;
	}
	if (x->have_io) {
		st->have |= STORE_HAVE_IO;
		st->read_bytes = x->rbytes;
		st->write_bytes = x->wbytes;
	}
}

void context_store_status(const struct monitor *m, const struct task *k,
			  struct store_task *st)
{
	st->have &= STORE_HAVE_UID | STORE_REPEAT; /* the rest is made here */
	rows_store_details(m, k, st);
	if (!context_now(m, k))
		return; /* not read for this sample */
	const struct task_ctx *c = &k->ctx->ctx;
	context_before(k, st);
	if (c->have & CTX_NICE) {
		st->nice = (int8_t)c->nice;
		st->have |= STORE_HAVE_NICE;
	}
	if (c->have & CTX_RSS) {
		st->rss_kib = c->rss_kib;
		st->have |= STORE_HAVE_RSS;
	}
	if (c->have & CTX_SWAP) {
		st->swap_kib = c->swap_kib;
		st->have |= STORE_HAVE_SWAP;
	}
	if (c->have & CTX_WCHAN) {
		snprintf(st->wchan, sizeof(st->wchan), "%s", c->wchan);
		st->have |= STORE_HAVE_WCHAN;
	}
}

/*
 * A process's context read its stat line: the brief details with it, so
 * that they need no read of their own this round.
 */
static void details_from_context(struct monitor *m,
				 const struct procinfo_context *c)
{
	struct procinfo_details d = {
		.pid = c->pid,
		.start = c->start,
		.info = {
			.ppid = c->ppid,
			.state = c->state,
			.threads = c->threads,
			.start = procinfo_start_epoch(c->start),
		},
		.uid = (uid_t)-1,
	};

	rows_take_details(m, m->procs, &d);
}

static void on_context(const struct procinfo_context *c, void *arg)
{
	struct context_read *cr = arg;
	struct monitor *m = cr->m;
	struct task *k = tasktable_find(cr->t, c->pid);
	struct store_task prev = { .have = 0 }, cur;
	struct tt_ctx *x;

	if (!k || (c->start && k->start && c->start != k->start))
		return; /* gone, or the id is another task's now */
	if (!(x = tasktable_ctx(k)))
		return; /* no memory: its row shows nothing of it */
	if (cr->t == m->threads) {
		/* a thread's state is read with its context */
		k->info.state = c->state;
		k->info_round = m->round;
		k->info_stale = false;
	} else {
		details_from_context(m, c);
		gather_context(m, k, c);
	}
	context_before(k, &prev);
	memset(&cur, 0, sizeof(cur));
	rows_store_details(m, k, &cur);
	taskinfo_store_context(c, &cur);
	if (cr->asleep) {
		/* none of its threads ran: its faults and IO are as before */
		cur.have |= prev.have & (STORE_HAVE_MAJFLT | STORE_HAVE_IO);
		cur.majflt = prev.majflt;
		cur.read_bytes = prev.read_bytes;
		cur.write_bytes = prev.write_bytes;
	}
	/*
	 * dated at the sample, as its counters are: the rates are then
	 * per interval, and a recording stores no time of its own for it
	 */
	cur.ctx_at = m->reading_time;
	/* what a row shows of it, made as a replay makes it */
	assemble_info(&cur, &k->info);
	assemble_context(&m->model, &prev, &cur, &x->ctx);
	x->round = m->round;
	x->at = cur.ctx_at;
	x->read = c->at;
	if (cr->asleep)
		return;
	x->have_majflt = c->have_majflt;
	x->majflt = c->majflt;
	x->have_io = c->io.read_bytes.have && c->io.write_bytes.have;
	x->rbytes = c->io.read_bytes.v;
	x->wbytes = c->io.write_bytes.v;
}

/*
 * k did not run since its context was read: what was read stands, now,
 * and its counters did not move (the model makes the rates of that).
 */
static void context_keep(struct monitor *m, struct task *k)
{
	struct store_task prev = { .have = 0 }, cur;
	struct tt_ctx *x = k->ctx; /* not due: read before */
	const struct task_ctx *c = &x->ctx;

	context_before(k, &prev);
	cur = prev;
	cur.ctx_at = m->reading_time;
	if (c->have & CTX_NICE) {
		cur.have |= STORE_HAVE_NICE;
		cur.nice = (int8_t)c->nice;
	}
	if (c->have & CTX_RSS) {
		cur.have |= STORE_HAVE_RSS;
		cur.rss_kib = c->rss_kib;
	}
	if (c->have & CTX_SWAP) {
		cur.have |= STORE_HAVE_SWAP;
		cur.swap_kib = c->swap_kib;
	}
	assemble_context(&m->model, &prev, &cur, &x->ctx);
	x->round = m->round;
	x->at = cur.ctx_at;
}

/*
 * Whether row r waited in the interval on something other than a CPU
 * (io, swap, reclaim, thrashing, compact, wpcopy, irq): a thread row's
 * state then says whether it still waits (D).
 */
static bool waited_off_cpu(const struct row *r)
{
	for (int c = 0; c < NCAT; c++)
		if (c != CAT_CPU && r->d[c].avail && !r->d[c].dropped &&
		    (r->d[c].pct > 0 || r->d[c].count > 0))
			return true;
	return false;
}

/*
 * Whether thread row r needs its state read: every row, unless the
 * batch output asked only for those that waited off the CPU
 * (monitor_opts.thread_state_waits; a recording reads every row).
 */
bool context_state_wanted(const struct monitor *m, const struct row *r)
{
	return !m->o.thread_state_waits || m->whole || waited_off_cpu(r);
}

/*
 * What stands next to the stall of these rows, read once per reading
 * (a view may ask again: it gets the same), into each row; kept from
 * the last read for a task that did not run since (context_due), read
 * again in part for a process that did not run when that read is
 * CTX_RECHECK old (context_asleep: procinfo_context_asleep). Thread
 * rows whose state is not wanted (context_state_wanted) are left unread.
 */
void context_fill(struct monitor *m, struct tasktable *t,
		  struct row *rows, size_t n, bool threads)
{
	struct context_read cr = { m, t, false };
	/*
	 * ids read apart from pidbuf: of thread rows, the processes of
	 * the threads read (beside their ids in pidbuf); of process rows,
	 * those due only by age (context_asleep)
	 */
	pid_t *aside = n ? malloc(n * sizeof(*aside)) : NULL;
	size_t nasleep = 0;

	m->npidbuf = 0;
	for (size_t i = 0; i < n; i++) {
		struct task *k;

		if (rows[i].flags & ROW_EXITED ||
		    (threads && !context_state_wanted(m, &rows[i])) ||
		    !(k = tasktable_find(t, rows[i].pid)) ||
		    context_now(m, k))
			continue;
		/* a thread's state comes with it: due with its state too */
		if (!context_due(m, k) && !(threads && rows_info_due(m, k)))
			context_keep(m, k);
		else if (!threads && context_asleep(k)) {
			/* read apart: it did not run, nor stall */
			if (aside)
				aside[nasleep++] = k->id;
		} else if (!threads) {
			/* its status is read: kept for its evidence */
			if (rows_push_pid(m, k->id) == 0)
				gather_expect(m, &rows[i]);
		} else if (aside && rows_push_pid(m, k->id) == 0)
			aside[m->npidbuf - 1] = k->tgid;
	}
	if (m->npidbuf && !threads)
		procinfo_context(m->pi, m->pidbuf, m->npidbuf, on_context, &cr);
	if (nasleep) {
		cr.asleep = true;
		procinfo_context_asleep(m->pi, aside, nasleep, on_context, &cr);
	}
	if (m->npidbuf && threads)
		procinfo_thread_context(m->pi, aside, m->pidbuf, m->npidbuf,
					on_context, &cr);
	free(aside);
	for (size_t i = 0; i < n; i++) {
		struct task *k;

		memset(&rows[i].ctx, 0, sizeof(rows[i].ctx));
		if (!(rows[i].flags & ROW_EXITED) &&
		    (!threads || context_state_wanted(m, &rows[i])) &&
		    (k = tasktable_find(t, rows[i].pid)) &&
		    context_now(m, k))
			rows[i].ctx = k->ctx->ctx;
	}
}
