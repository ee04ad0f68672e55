/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The lives in the monitor's task tables: which tasks are wanted, a task
 * entering a table, an earlier life of an id retired when a later one
 * holds it, and the earliest moment a task can have begun to wait.
 */
#include <config.h>

#include <math.h>
#include <string.h>

#include "kernel/procinfo.h"
#include "live/monitor_int.h"
#include "live/tasktable.h"

/* A start in boot ticks as a CLOCK_MONOTONIC time, a lower bound. */
static double ticks_at(const struct monitor *m, unsigned long long ticks)
{
	/* the two clocks part only while the machine sleeps */
	double asleep = m->clk.boot_ns > m->clk.mono_ns ?
		(double)(m->clk.boot_ns - m->clk.mono_ns) / 1e9 : 0;
	return (double)ticks / (double)procinfo_hertz() - asleep;
}

/*
 * The earliest moment a task can have begun to wait (task.waits_from):
 * from /proc's start time in boot ticks, a lower bound of its start.
 */
void tasks_waits_from_ticks(const struct monitor *m, struct task *k,
			    unsigned long long ticks)
{
	if (!ticks)
		return;
	double at = ticks_at(m, ticks);
	if (at > k->waits_from)
		k->waits_from = at;
}

/* Was a task born at `at` (0 unknown) perhaps while it was off? */
static bool born_unmeasured(const struct monitor *m, double at)
{
	return m->acct_hi > -INFINITY &&
	       (at <= 0 || (at > m->acct_on_until && at <= m->acct_hi));
}

bool tasks_unmeasured(const struct monitor *m, const struct task *k)
{
	return k->unmeasured || born_unmeasured(m, k->waits_from);
}

static void mark_born(struct task *k, void *arg)
{
	if (born_unmeasured(arg, k->waits_from))
		k->unmeasured = true;
}

static void mark_thread(const struct pi_task *t, void *arg)
{
	struct monitor *m = arg;
	/* a start of 0 is unknown: taken as maybe while off */
	if (!born_unmeasured(m, t->start ? ticks_at(m, t->start) : 0))
		return;
	struct task *k = tasktable_find(m->procs, t->tgid);
	if (k)
		k->unmeasured = true;
	if (m->threads && (k = tasktable_find(m->threads, t->pid)))
		k->unmeasured = true;
}

void tasks_mark_unmeasured(struct monitor *m)
{
	if (!m->procs)
		return; /* at the start: no task yet, each judged as it comes */
	tasktable_foreach(m->procs, mark_born, m);
	if (m->threads)
		tasktable_foreach(m->threads, mark_born, m);
	if (m->pi)
		procinfo_scan(m->pi, true, mark_thread, m);
}

struct tasktable *tasks_active(struct monitor *m)
{
	return m->o.threads ? m->threads : m->procs;
}

bool tasks_wanted_process(const struct monitor *m, pid_t tgid)
{
	if (!m->o.npids)
		return true;
	for (size_t i = 0; i < m->o.npids; i++)
		if (m->o.pids[i] == tgid)
			return true;
	return false;
}

bool tasks_wanted_thread(const struct monitor *m, pid_t tgid)
{
	if (m->o.only_tgid)
		return tgid == m->o.only_tgid;
	return tasks_wanted_process(m, tgid);
}

struct tt_span tasks_span(const struct task *k)
{
	return tasktable_task_span(k, procinfo_hertz());
}

/*
 * The set of threads of process tgid changed: a thread's end leaves the
 * process's sums as they were (the kernel keeps what its dead threads
 * did), and a thread that began may have done all it did before the
 * process's last reading, so its threads are asked again.
 */
void tasks_threads_changed(struct monitor *m, pid_t tgid)
{
	struct task *p = tasktable_find(m->procs, tgid);
	if (p) {
		p->threads_changed = true;
		p->threads_at = m->round + 1;
		p->info_stale = true; /* its count of threads */
	}
}

/* A task entered the table; from_zero: it started after the last reading. */
struct task *tasks_add(struct monitor *m, struct tasktable *t, pid_t id,
		       pid_t tgid, unsigned long long start, bool from_zero)
{
	bool created;
	struct task *k = tasktable_get(t, id, start, &created);
	if (!k)
		return NULL;
	if (created) {
		if (t == m->procs && !tasktable_make_proc(k)) {
			tasktable_remove(t, id); /* no memory for it */
			return NULL;
		}
		k->tgid = tgid;
		if (t == m->threads)
			tasks_threads_changed(m, tgid);
		if (t == m->procs)
			cgsum_update(m, k);
		k->first_seen = m->found_at;
		k->seen = m->gen;
		k->lost_at_add = m->lost + m->exit_lost;
		if (from_zero) {
			/* counted from zero: the previous reading is all zeros */
			derive_from_zero(&k->ds);
		}
	}
	tasks_waits_from_ticks(m, k, start);
	return k;
}

/*
 * An earlier life of this id has ended: a later one holds the id now.
 * Retire it as exited with what it had at its last reading; its exit
 * record, should one still come, replaces that.
 */
void tasks_retire_earlier(struct tasktable *t, struct task *k)
{
	if (!k->have_cur && k->answered && k->ds.have_prev) {
		struct ts_reading r;
		delta_base_reading(&k->ds.prev, &r);
		tasktable_set_reading(k, &r);
	}
	k->exited = true;
	tasktable_retire(t, k);
}
