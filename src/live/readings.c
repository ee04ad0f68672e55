/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The monitor's readings: one query of every task's figures per sample
 * (taskstats, or /proc where taskstats is out of reach), the scans of
 * /proc that (re)synchronise membership, and the readings becoming the
 * base of the next interval.
 */
#include <config.h>

#include <errno.h>
#include <limits.h>
#ifdef HAVE_MALLOC_TRIM
#include <malloc.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kernel/cpuclock.h"
#include "kernel/procinfo.h"
#include "kernel/procstat.h"
#include "kernel/cpustat.h"
#include "kernel/taskstats.h"
#include "lib/nls.h"
#include "live/monitor_int.h"
#include "live/tasktable.h"
#include "model/delta.h"
#include "model/producer.h"

/* Readings let go at once worth giving back to the system (1 MiB). */
#define READINGS_TRIM_BYTES ((size_t)1 << 20)

/* A scan found task st: the life of its entry, or a new one. */
static void scanned(struct monitor *m, struct tasktable *t,
		    const struct pi_task *st, bool from_zero)
{
	struct task *k = tasktable_find(t, st->pid);
	if (k) {
		enum tasktable_order o = tasktable_order(tasks_span(k),
					   tasktable_span_ticks(st->start, procinfo_hertz()));
		/*
		 * Only a start /proc told is sure; one events told may be off
		 * by a suspend of the machine.
		 */
		if (o == TT_BEFORE || (o == TT_AFTER && k->start)) {
			/* answered at the last reading: the new life began since */
			if (o == TT_BEFORE && k->answered)
				from_zero = true;
			tasks_retire_earlier(t, k);
		}
	}
	k = tasks_add(m, t, st->pid, st->tgid, st->start, from_zero);
	if (k && !k->exited)
		k->seen = m->gen;
}

void readings_on_scanned(struct monitor *m, const struct pi_task *t,
			 bool threads)
{
	bool from_zero = m->prev_time > 0 &&
		(double)t->start / (double)procinfo_hertz() > m->prev_boot;
	if (t->pid == t->tgid && tasks_wanted_process(m, t->tgid))
		scanned(m, m->procs, t, from_zero);
	if (threads && m->threads && tasks_wanted_thread(m, t->tgid))
		scanned(m, m->threads, t, from_zero);
}

struct scan_ctx {
	struct monitor *m;
	bool threads;
};

static void on_scanned(const struct pi_task *t, void *arg)
{
	struct scan_ctx *c = arg;
	readings_on_scanned(c->m, t, c->threads);
}

static bool unseen(struct task *k, void *arg)
{
	struct monitor *m = arg;
	if (k->seen == m->gen)
		return false;
	k->exited = true; /* gone without a notification reaching us */
	if (k->id != k->tgid || !tasktable_find(m->procs, k->id))
		tasks_threads_changed(m, k->tgid);
	if (k->id == k->tgid)
		m->parent_gone = true;
	return true;
}

/* Walk /proc once to (re)synchronise membership. */
static void rescan(struct monitor *m)
{
	struct scan_ctx c = { m, m->threads != NULL };
	m->gen++;
	m->found_at = monitor_now();
	if (m->threads && m->o.only_tgid) {
		pid_t one = m->o.only_tgid;
		struct scan_ctx pc = { m, false };
		procinfo_scan(m->pi, false, on_scanned, &pc);
		procinfo_threads(m->pi, &one, 1, on_scanned, &c);
	} else {
		procinfo_scan(m->pi, c.threads, on_scanned, &c);
	}
	tasktable_retire_if(m->procs, unseen, m);
	if (m->threads)
		tasktable_retire_if(m->threads, unseen, m);
	m->need_rescan = false;
	m->last_rescan = monitor_now();
}

struct answer_ctx {
	struct monitor *m;
	struct tasktable *t;
};

static void on_reading(const struct ts_reading *r, void *arg)
{
	struct answer_ctx *a = arg;
	struct task *k = tasktable_find(a->t, (pid_t)r->id);
	if (!k || k->have_final)
		return;
	/* a zombie's zeros: it did nothing more, it did not forget */
	struct ts_reading prev;
	if (k->ds.have_prev)
		delta_base_reading(&k->ds.prev, &prev);
	if (k->ds.have_prev && delta_zombie_reply(&prev, r)) {
		tasktable_set_reading(k, &prev);
		return;
	}
	if (k->ds.have_prev && delta_moved(&prev, r))
		k->moved = k->queried;
	tasktable_set_reading(k, r);
	k->answered = true;
	/*
	 * The base this reading makes is sure (the gate, below) when the
	 * process's clock was read before this query and no task waited on
	 * block IO in between.
	 */
	if (k->proc)
		k->proc->clock_sure = k->proc->clock_round == a->m->round &&
				      a->m->io_quiet;
}

static int push_id(struct monitor *m, uint32_t id)
{
	if (m->nids == m->capids) {
		size_t n = m->capids ? m->capids * 2 : 1024;
		uint32_t *p = realloc(m->ids, n * sizeof(*p));
		if (!p)
			return -1;
		m->ids = p;
		m->capids = n;
	}
	m->ids[m->nids++] = id;
	return 0;
}

static void collect_live_id(struct task *k, void *arg)
{
	struct monitor *m = arg;
	k->carried = false;
	k->queried = m->round;
	push_id(m, (uint32_t)k->id);
}

/*
 * Not asked, nothing of k moved: this round's reading is the last one,
 * and ds.prev was made of it (no copy).
 */
static void carry(struct task *k)
{
	k->carried = true;
	k->have_cur = true;
}

/* Asked for and not answered: it ended without a record reaching us. */
static bool vanished(struct task *k, void *arg)
{
	struct monitor *m = arg;
	if (k->queried != m->round || k->have_cur)
		return false;
	k->exited = true;
	if (k->id == k->tgid)
		m->parent_gone = true;
	return true;
}

/* Ask the source for the ids in m->ids, readings into table t. */
static int ask(struct monitor *m, enum ts_kind kind, struct tasktable *t)
{
	struct answer_ctx a = { m, t };
	if (!m->ts)
		return procstat_query(m->ps, kind, m->ids, m->nids, on_reading, &a, NULL);
	return taskstats_query(m->ts, kind, m->ids, m->nids, on_reading, &a, NULL);
}

/*
 * The gate of process mode's queries. A process's counters move when
 * one of its threads runs, and the kernel adds to its CPU clock then
 * (kernel/cpuclock.h), at a fraction of a query's cost. Two waits the
 * kernel records for a thread that has not run since: the end of a
 * block IO wait, when the thread is woken, and the part of a wait for a
 * CPU before the thread is moved to another CPU's queue. So a process
 * is not asked, its reading carried (as a thread's is, below), when its
 * clock stands since it was read before the query of its base and that
 * base is sure: no task of the machine waited on block IO when the
 * query was sent (/proc/stat procs_blocked, read after the clocks and
 * before the queries), so that none of its threads could have been
 * woken from one since without running. A thread moved while it waits
 * for a CPU shows that wait at the next reading after it ran (the
 * manual page says so). A process that moved at the last reading is
 * asked without its clock: it most likely moves again.
 */
static bool clock_wanted(const struct monitor *m, const struct task *k)
{
	const struct tt_proc *p = k->proc;
	if (!m->ts || !p || k->exited || k->have_final)
		return false;
	if (k->moved && k->moved + 1 == m->round)
		return false;
	/* a base it may keep, or may make: no IO wait at the last look */
	return p->clock_sure || m->io_quiet;
}

static int read_clock(struct task *k, uint64_t *ns)
{
	struct tt_proc *p = k->proc;
	if (!p->have_clock) {
		if (cpuclock_id(k->id, &p->clock) < 0)
			return -1;
		p->have_clock = true;
	}
	return cpuclock_read(p->clock, ns);
}

struct gate_ctx {
	struct monitor *m;
	bool clocked;              /* a clock was read for a query */
};

static void collect_gated(struct task *k, void *arg)
{
	struct gate_ctx *g = arg;
	struct tt_proc *p = k->proc;
	uint64_t ns;

	if (!clock_wanted(g->m, k) || read_clock(k, &ns) < 0) {
		collect_live_id(k, g->m);
		return;
	}
	if (p->clock_sure && ns == p->clock_ns && k->ds.have_prev &&
	    k->answered) {
		carry(k);
		return;
	}
	p->clock_ns = ns;
	p->clock_round = g->m->round;
	g->clocked = true;
	collect_live_id(k, g->m);
}

/*
 * Whether a task waited on block IO now, after the clocks were read:
 * the bases the queries make are sure when none did. Read every round
 * while one did, to know when the gate opens again.
 */
static void look_at_io(struct monitor *m, bool clocks_read)
{
	const struct cpustat *s;
	if (!clocks_read && m->io_quiet)
		return;
	s = machine_stat(m);
	m->io_quiet = s && s->procs_blocked.have && s->procs_blocked.v == 0;
}

/* Process mode: the processes that may have moved (the gate, above). */
static int query_gated(struct monitor *m)
{
	struct gate_ctx g = { m, false };
	m->nids = 0;
	tasktable_foreach(m->procs, collect_gated, &g);
	look_at_io(m, g.clocked);
	return ask(m, TS_KIND_TGID, m->procs);
}

/* In thread mode, the processes of the threads shown. */
static void collect_process(struct task *k, void *arg)
{
	struct monitor *m = arg;
	if (tasks_wanted_thread(m, k->id))
		collect_live_id(k, m);
}

/*
 * Whether thread k's counters can have moved since its reading: its
 * process's reading of this round moved, or its set of threads changed,
 * or there is no process reading to tell. A process's reading sums its
 * threads' counters (live ones and, kept by the kernel, ended ones), and
 * counters only grow: when the sum did not move between the previous
 * round's process reading and this one, no thread of it ran or waited in
 * between. Its threads' readings were taken after that previous process
 * reading (or are carried from one that was), so they still hold.
 */
static bool thread_may_have_moved(const struct monitor *m,
				  const struct task *k)
{
	if (!m->ts || !k->ds.have_prev || !k->answered)
		return true;
	const struct task *p = tasktable_find(m->procs, k->tgid);
	if (!p || !p->have_cur || !p->ds.have_prev || p->threads_changed)
		return true;
	/*
	 * Carried by the gate (process mode recording threads): none of its
	 * threads ran since its base.
	 */
	if (p->carried)
		return false;
	return p->queried != m->round || p->moved == m->round;
}

static void collect_thread(struct task *k, void *arg)
{
	struct monitor *m = arg;
	if (thread_may_have_moved(m, k))
		collect_live_id(k, m);
	else
		carry(k);
}

static void threads_asked(struct task *k, void *arg)
{
	struct monitor *m = arg;
	if (k->queried == m->round)
		k->threads_changed = false;
}

/*
 * Ask the threads whose counters may have moved (all of them where
 * readings come from /proc, which cannot sum a process cheaply).
 */
static int query_threads(struct monitor *m)
{
	m->nids = 0;
	tasktable_foreach(m->threads, collect_thread, m);
	/* what changes from now on is for the next round */
	tasktable_foreach(m->procs, threads_asked, m);
	return ask(m, TS_KIND_PID, m->threads);
}

struct rebase_ctx {
	const struct monitor *m;
	size_t dropped;             /* readings let go */
};

static void drop_reading(struct task *k, struct rebase_ctx *c)
{
	if (k->cur)
		c->dropped++;
	tasktable_drop_reading(k);
}

/* The latest reading becomes the base of the next interval. */
static void rebase(struct task *k, void *arg)
{
	struct rebase_ctx *c = arg;
	if (k->have_cur) {
		struct task_reading r;
		rows_reading(c->m, k, &r);
		derive_rebase(&k->ds, &r);
		drop_reading(k, c);
	}
}

/* The model rebased k with its reading (assemble_task). */
static void rebased(struct task *k, void *arg)
{
	drop_reading(k, arg);
}

static void collect_requery(struct task *k, void *arg)
{
	struct monitor *m = arg;
	if (!k->requery)
		return;
	k->requery = false;
	if (!k->exited && k->queried == m->round)
		push_id(m, (uint32_t)k->id);
}

/*
 * Processes that lost a thread while they were queried may have counted
 * it twice (ended and alive) for a moment: ask them once more.
 */
static int requery(struct monitor *m)
{
	m->nids = 0;
	tasktable_foreach(m->procs, collect_requery, m);
	return m->nids ? ask(m, TS_KIND_TGID, m->procs) : 0;
}

/*
 * Processes are asked by TGID for their rows, and in thread mode for
 * telling which threads to ask (where readings come from taskstats).
 */
static bool procs_queried(const struct monitor *m)
{
	return !m->o.threads || m->ts;
}

static int query_procs(struct monitor *m)
{
	if (!m->o.threads)
		return query_gated(m);
	m->nids = 0;
	tasktable_foreach(m->procs, collect_process, m);
	return ask(m, TS_KIND_TGID, m->procs);
}

int readings_take(struct monitor *m)
{
	double now = monitor_now();
	monitor_read_clocks(&m->clk);
	if (m->rescan_every > 0 && now - m->last_rescan >= m->rescan_every)
		m->need_rescan = true;
	events_drain(m);
	if (m->need_rescan || !m->pc)
		rescan(m);
	m->round++;
	/* processes, unless rows are threads; threads, when kept at all */
	double t0 = monitor_now();
	m->query_start = t0;
	m->reading_boot = monitor_clock(CLOCK_BOOTTIME);
	if (procs_queried(m) && query_procs(m) < 0)
		return -1;
	if (m->threads && query_threads(m) < 0)
		return -1;
	/* the readings were taken across the queries: date them midway */
	m->reading_end = monitor_now();
	m->reading_time = (t0 + m->reading_end) / 2;
	m->reading_real = monitor_clock(CLOCK_REALTIME) -
			  (m->reading_end - m->reading_time);
	/*
	 * Exit records that arrived while we queried belong to this interval;
	 * a task that ended is in the socket before its id stops answering.
	 */
	events_drain(m);
	if (!m->o.threads && requery(m) < 0)
		return -1;
	if (procs_queried(m))
		tasktable_retire_if(m->procs, vanished, m);
	if (m->threads)
		tasktable_retire_if(m->threads, vanished, m);
	return 0;
}

/*
 * Taskstats is out of reach: read cpu and io delay from /proc instead and
 * say what is missing and how to get it.
 */
int readings_use_procstat(struct monitor *m, int why)
{
	taskstats_close(m->ts);
	m->ts = NULL;
	m->ps = procstat_new();
	if (!m->ps)
		return -1;
	m->kernel_cats &= (1u << CAT_CPU) | (1u << CAT_IO);
	char text[PATH_MAX + 256];
	if (why == EPERM) {
		char exe[PATH_MAX];
		ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
		if (n <= 0)
			n = (ssize_t)strlen(strcpy(exe, PACKAGE));
		exe[n] = '\0';
		snprintf(text, sizeof(text),
			 _("no CAP_NET_ADMIN: cpu and io delay only, from /proc; "
			   "the other categories need it: run as root or "
			   "'setcap cap_net_admin+ep %s'"), exe);
	} else if (why == ENOENT) /* no taskstats family */ {
		snprintf(text, sizeof(text), "%s",
			 _("this kernel has no taskstats (CONFIG_TASKSTATS): "
			   "cpu and io delay only, from /proc"));
	} else {
		snprintf(text, sizeof(text),
			 _("taskstats failed (%s): cpu and io delay only, "
			   "from /proc"), strerror(errno));
	}
	/* it explains the other categories' '-': shown first */
	producer_notice_first(&m->p, text);
	return 0;
}

void readings_rebase(struct monitor *m, bool model)
{
	bool procs = model && !m->o.threads;
	bool threads = model && (m->o.threads || rows_thread_readings(m));

	struct rebase_ctx c = { m, 0 };

	tasktable_foreach(m->procs, procs ? rebased : rebase, &c);
	if (m->threads)
		tasktable_foreach(m->threads, threads ? rebased : rebase, &c);
#ifdef HAVE_MALLOC_TRIM
	/*
	 * Many more readings than the round before were let go (the first
	 * round asks every task; the next ones, with nothing moving, few):
	 * give their memory back rather than hold it for rounds that need
	 * none of it. Rounds that read as many as before keep it.
	 */
	if (c.dropped * sizeof(struct ts_reading) >= READINGS_TRIM_BYTES &&
	    c.dropped > 2 * m->readings_let_go)
		malloc_trim(0);
#endif
	m->readings_let_go = c.dropped;
}
