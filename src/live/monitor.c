/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The monitor: keeps the task table in step with the kernel and closes
 * one interval per sample.
 *
 * Membership comes from fork/exit notifications (proc connector) after one
 * initial scan of /proc; final figures of every task that ends come from
 * the taskstats exit records, so a task that lived 5 ms is still counted.
 * Where a notification source is missing the monitor scans /proc at every
 * sample instead, and says so. Lost notifications are counted and repaired
 * by one rescan.
 */
#include <config.h>

#include <err.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kernel/cgroup.h"
#include "kernel/delayacct.h"
#include "kernel/proc_conn.h"
#include "kernel/procinfo.h"
#include "kernel/procstat.h"
#include "kernel/taskstats.h"
#include "lib/evloop.h"
#include "lib/nls.h"
#include "live/monitor.h"
#include "live/monitor_int.h"
#include "model/cgtable.h"
#include "model/delta.h"
#include "model/tasktable.h"
#include "record/replay.h"

/*
 * One exit-record socket per CPU up to this many CPUs (their records are
 * numbered per CPU, so losses are counted exactly); groups beyond.
 */
#define ONE_CPU_LISTENERS 64
#define CPUS_PER_LISTENER 64
/* exited tasks kept for accumulated mode (-a), newest first */
#define MAX_RETIRED 10000
/* AGROUP in ac_flag: this exit record is the last of its thread group */
#define TS_AGROUP 0x20


static double clock_seconds(clockid_t id)
{
	struct timespec ts;
	clock_gettime(id, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double now_mono(void)
{
	return clock_seconds(CLOCK_MONOTONIC);
}

/*
 * The earliest moment a task can have begun to wait (task.waits_from):
 * from /proc's start time in boot ticks, a lower bound of its start.
 */
static void waits_from_ticks(const struct monitor *m, struct task *k,
			     unsigned long long ticks)
{
	if (!ticks)
		return;
	/* the two clocks part only while the machine sleeps */
	double asleep = m->clk.boot_ns > m->clk.mono_ns ?
		(double)(m->clk.boot_ns - m->clk.mono_ns) / 1e9 : 0;
	double at = (double)ticks / (double)procinfo_hertz() - asleep;
	if (at > k->waits_from)
		k->waits_from = at;
}

/*
 * The same from a thread's record: it started ac_btime (whole seconds,
 * which the kernel may round up by one) on the wall clock.
 */
static void waits_from_record(const struct monitor *m, struct task *k,
			      const struct ts_reading *r)
{
	if (k->waits_from || !r->have_basic || !r->btime)
		return;
	double real_off = ((double)m->clk.real_ns - (double)m->clk.mono_ns) / 1e9;
	k->waits_from = (double)r->btime - 1.0 - real_off;
}

void monitor_notice(struct monitor *m, const char *text)
{
	for (int i = 0; i < m->nnotices; i++)
		if (strcmp(m->notices[i], text) == 0)
			return;
	if (m->nnotices < MAX_NOTICES) {
		char *copy = strdup(text);
		if (copy)
			m->notices[m->nnotices++] = copy;
	}
	m->notices[m->nnotices] = NULL;
}

const char *const *monitor_notices(const struct monitor *m)
{
	return (const char *const *)m->notices;
}

static struct tasktable *active(struct monitor *m)
{
	return m->o.threads ? m->threads : m->procs;
}

static bool wanted_process(const struct monitor *m, pid_t tgid)
{
	if (!m->o.npids)
		return true;
	for (size_t i = 0; i < m->o.npids; i++)
		if (m->o.pids[i] == tgid)
			return true;
	return false;
}

static bool wanted_thread(const struct monitor *m, pid_t tgid)
{
	if (m->o.only_tgid)
		return tgid == m->o.only_tgid;
	return wanted_process(m, tgid);
}

/* ---- membership ---- */

static bool cgroups_used(const struct monitor *m)
{
	return m->cg_root[0] != '\0';
}

/* Where a process is now (tasks can be moved at any time). */
static void update_cgroup(struct monitor *m, struct task *k)
{
	char path[4096];
	if (!cgroups_used(m) || k->exited)
		return;
	if (cgroup_task_path(k->id, path, sizeof(path)) < 0)
		return;
	if (k->cgroup && strcmp(k->cgroup, path) == 0)
		return;
	char *copy = strdup(path);
	if (!copy)
		return;
	free(k->cgroup);
	k->cgroup = copy;
}

/* A task entered the table; from_zero: it started after the last reading. */
static struct task *add_task(struct monitor *m, struct tasktable *t, pid_t id,
			     pid_t tgid, unsigned long long start, bool from_zero)
{
	bool created;
	struct task *k = tasktable_get(t, id, start, &created);
	if (!k)
		return NULL;
	if (created) {
		k->tgid = tgid;
		if (t == m->procs)
			update_cgroup(m, k);
		k->first_seen = now_mono();
		k->seen = m->gen;
		k->lost_at_add = m->lost + m->exit_lost;
		if (from_zero) {
			/* counted from zero: the previous reading is all zeros */
			memset(&k->prev, 0, sizeof(k->prev));
			k->have_prev = true;
		}
	}
	waits_from_ticks(m, k, start);
	return k;
}

/* The clocks now, for placing lives (see struct tt_span). */
static void read_clocks(struct tt_clocks *c)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	c->mono_ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	clock_gettime(CLOCK_BOOTTIME, &ts);
	c->boot_ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	clock_gettime(CLOCK_REALTIME, &ts);
	c->real_ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static struct tt_span span_of(const struct task *k)
{
	return tasktable_task_span(k, procinfo_hertz());
}

/*
 * An earlier life of this id has ended: a later one holds the id now.
 * Retire it as exited with what it had at its last reading; its exit
 * record, should one still come, replaces that.
 */
static void retire_earlier(struct tasktable *t, struct task *k)
{
	if (!k->have_cur && k->answered && k->have_prev) {
		k->cur = k->prev;
		k->have_cur = true;
	}
	k->exited = true;
	tasktable_retire(t, k);
}

/* A scan found task st: the life of its entry, or a new one. */
static void scanned(struct monitor *m, struct tasktable *t,
		    const struct pi_task *st, bool from_zero)
{
	struct task *k = tasktable_find(t, st->pid);
	if (k) {
		enum tasktable_order o = tasktable_order(span_of(k),
					   tasktable_span_ticks(st->start, procinfo_hertz()));
		/*
		 * Only a start /proc told is sure; one events told may be off
		 * by a suspend of the machine.
		 */
		if (o == TT_BEFORE || (o == TT_AFTER && k->start)) {
			/* answered at the last reading: the new life began since */
			if (o == TT_BEFORE && k->answered)
				from_zero = true;
			retire_earlier(t, k);
		}
	}
	k = add_task(m, t, st->pid, st->tgid, st->start, from_zero);
	if (k && !k->exited)
		k->seen = m->gen;
}

void monitor_on_scanned(struct monitor *m, const struct pi_task *t,
			bool threads)
{
	bool from_zero = m->prev_time > 0 &&
		(double)t->start / (double)procinfo_hertz() > m->prev_boot;
	if (t->pid == t->tgid && wanted_process(m, t->tgid))
		scanned(m, m->procs, t, from_zero);
	if (threads && m->threads && wanted_thread(m, t->tgid))
		scanned(m, m->threads, t, from_zero);
}

struct scan_ctx {
	struct monitor *m;
	bool threads;
};

static void on_scanned(const struct pi_task *t, void *arg)
{
	struct scan_ctx *c = arg;
	monitor_on_scanned(c->m, t, c->threads);
}

static bool unseen(struct task *k, void *arg)
{
	struct monitor *m = arg;
	if (k->seen == m->gen)
		return false;
	k->exited = true; /* gone without a notification reaching us */
	return true;
}

/* Walk /proc once to (re)synchronise membership. */
static void rescan(struct monitor *m)
{
	struct scan_ctx c = { m, m->threads != NULL };
	m->gen++;
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
	m->last_rescan = now_mono();
}

/* ---- notifications ---- */

/*
 * Events and exit records carry no /proc start time, and the two sockets
 * are read in any order, so each one is placed among the lives of its id
 * by time (tasktable_order): a fork event by its timestamp, an exit record by
 * its elapsed time and start second. On the connector's one socket a
 * life's fork comes before its exit, and that before the next life's fork.
 */

/* A retired task made from its exit record, its fork event not yet seen. */
static bool awaits_fork(struct task *k, void *arg)
{
	const struct tt_span *born = arg;
	return !k->forked && !k->start && tasktable_order(k->born, *born) == TT_SAME;
}

/* A child that ended before its cgroup was read is where its parent is. */
static void inherit_cgroup(struct monitor *m, struct task *k, pid_t parent)
{
	struct task *p;
	if (!cgroups_used(m) || k->cgroup || !(p = tasktable_find(m->procs, parent)) ||
	    !p->cgroup)
		return;
	k->cgroup = strdup(p->cgroup);
}

/*
 * A fork event: a life of id began within born. The child cannot have
 * waited before the event (at, CLOCK_MONOTONIC seconds): it runs only
 * after the kernel announced it.
 */
static void on_fork(struct monitor *m, struct tasktable *t, pid_t id,
		    pid_t tgid, struct tt_span born, double at, pid_t parent)
{
	struct task *k = tasktable_find(t, id);
	if (k) {
		enum tasktable_order o = tasktable_order(span_of(k), born);
		if (o == TT_AFTER)
			return; /* a later life holds the id: this one is over */
		if (o == TT_SAME && !k->forked && !k->exit_seen) {
			k->forked = true; /* a scan found it first */
			return;
		}
		retire_earlier(t, k);
	}
	struct task *done = tasktable_find_retired(t, id, awaits_fork, &born);
	if (done) {
		done->forked = true; /* its exit record came first */
		return;
	}
	k = add_task(m, t, id, tgid, 0, true);
	if (k) {
		k->born = born;
		k->forked = true;
		if (at > k->waits_from)
			k->waits_from = at;
		if (t == m->procs)
			inherit_cgroup(m, k, parent);
	}
}

/* An exit event at ns (CLOCK_MONOTONIC): the life that ended began before. */
static void on_exit_event(struct monitor *m, struct tasktable *t, pid_t id,
			  uint64_t ns)
{
	struct task *k = tasktable_find(t, id);
	uint64_t boot = ns ? tasktable_boot_ns(ns, &m->clk) : 0;
	struct tt_span at = { boot, boot };
	if (k && tasktable_order(span_of(k), at) != TT_AFTER)
		k->exit_seen = true;
}

void monitor_on_event(struct monitor *m, const struct pc_event *ev)
{
	struct task *k;
	switch (ev->type) {
	case PC_FORK: {
		struct tt_span born = tasktable_span_fork(ev->timestamp_ns, &m->clk);
		double at = (double)ev->timestamp_ns / 1e9;
		/* a thread: its process has more than one now */
		if (ev->pid != ev->tgid && (k = tasktable_find(m->procs, ev->tgid)))
			k->multi = true;
		if (ev->pid == ev->tgid && wanted_process(m, ev->tgid))
			on_fork(m, m->procs, ev->pid, ev->tgid, born, at,
				ev->parent_tgid);
		if (m->threads && wanted_thread(m, ev->tgid))
			on_fork(m, m->threads, ev->pid, ev->tgid, born, at,
				ev->parent_tgid);
		break;
	}
	case PC_EXEC:
		if ((k = tasktable_find(m->procs, ev->tgid)))
			k->details_stale = true;
		if (m->threads && (k = tasktable_find(m->threads, ev->pid)))
			k->details_stale = true;
		break;
	case PC_COMM:
		if (ev->pid == ev->tgid && (k = tasktable_find(m->procs, ev->tgid)))
			tasktable_set_details(k, ev->comm, NULL, NULL);
		if (m->threads && (k = tasktable_find(m->threads, ev->pid)))
			tasktable_set_details(k, ev->comm, NULL, NULL);
		break;
	case PC_EXIT:
		/* the figures come from the exit record, or the next query */
		if (ev->pid == ev->tgid)
			on_exit_event(m, m->procs, ev->pid, ev->timestamp_ns);
		if (m->threads)
			on_exit_event(m, m->threads, ev->pid, ev->timestamp_ns);
		break;
	default:
		break;
	}
}

static void on_pc_event(const struct pc_event *ev, void *arg)
{
	struct monitor *m = arg;
	if (ev->type == PC_FORK || ev->type == PC_EXIT)
		read_clocks(&m->clk);
	monitor_on_event(m, ev);
}

/* Its figures are final: it ended. */
static void mark_ended(struct task *k)
{
	k->have_final = true;
	k->exited = true;
}

/* A task ended: keep its final record and retire it from the index. */
static void take_final(const struct monitor *m, struct tasktable *t,
		       struct task *k, const struct ts_reading *r)
{
	k->cur = *r;
	k->have_cur = true;
	k->cur_at = (double)m->clk.mono_ns / 1e9; /* read as the record came */
	waits_from_record(m, k, r);
	mark_ended(k);
	tasktable_retire(t, k);
}

/* A retired task still waiting for its exit record, of the life in arg. */
static bool awaits_record(struct task *k, void *arg)
{
	const struct tt_span *life = arg;
	return !k->have_final && !k->shown &&
	       tasktable_order(span_of(k), *life) == TT_SAME;
}

/*
 * The exit record r ends a life of id that began within life: give it
 * to that life's entry (made if there is none) and retire that.
 */
static struct task *end_life(struct monitor *m, struct tasktable *t, pid_t id,
			     pid_t tgid, struct tt_span life,
			     const struct ts_reading *r)
{
	/* an earlier life, retired while its record was on the way */
	struct task *k = tasktable_find_retired(t, id, awaits_record, &life);
	if (!k && (k = tasktable_find(t, id))) {
		switch (tasktable_order(span_of(k), life)) {
		case TT_SAME:
			break;
		case TT_BEFORE:
			/* the entry's life ended before this one began */
			retire_earlier(t, k);
			k = NULL;
			break;
		case TT_AFTER: {
			/* a life before the entry's that we never had: keep both */
			struct task *later = k;
			tasktable_detach(t, later);
			k = add_task(m, t, id, tgid, 0, true);
			if (k) {
				k->born = life;
				take_final(m, t, k, r);
			}
			tasktable_attach(t, later);
			return k;
		}
		}
	}
	if (!k) {
		k = add_task(m, t, id, tgid, 0, true);
		if (!k)
			return NULL;
		k->born = life;
	}
	take_final(m, t, k, r);
	return k;
}

void monitor_on_exit_record(struct monitor *m, const struct ts_reading *r)
{
	static const struct tt_span unknown;
	if (r->kind == TS_KIND_TGID) {
		pid_t tgid = (pid_t)r->id;
		struct task *k = m->group;
		m->group = NULL;
		if (!wanted_process(m, tgid))
			return;
		if (!k || k->id != tgid) {
			/* no thread record before it to say which life */
			end_life(m, m->procs, tgid, tgid, unknown, r);
			return;
		}
		/* the group's own total replaces its last thread's record */
		if (k->cur.have_basic) {
			/* keep the name and user that record gave */
			if (!k->comm && k->cur.comm[0])
				tasktable_set_details(k, k->cur.comm, NULL, NULL);
			if (k->uid == (uid_t)-1)
				k->uid = k->cur.uid;
		}
		k->cur = *r;
		return;
	}
	m->group = NULL;
	pid_t tid = (pid_t)r->id;
	pid_t tgid = r->have_tgid ? (pid_t)r->tgid : tid;
	struct tt_span life = tasktable_span_exit(r, &m->clk);
	if (m->threads && wanted_thread(m, tgid))
		end_life(m, m->threads, tid, tgid, life, r);
	/*
	 * A thread that ends while its process is queried is counted twice
	 * (dead and alive) for a moment: ask again once it is gone.
	 */
	struct task *group = tasktable_find(m->procs, tgid);
	if (group && tid != tgid)
		group->requery = true;
	/*
	 * The last thread of a group: this record is the process's final
	 * figure, unless a TGID record follows in the same message (as it
	 * does when the group had several threads).
	 */
	bool group_dead = r->version >= 12 ? (r->flag & TS_AGROUP) != 0
					   : tid == tgid;
	if (group_dead && wanted_process(m, tgid)) {
		/* another thread than the leader began after the process */
		if (tid != tgid)
			life.lo = 0;
		m->group = end_life(m, m->procs, tgid, tgid, life, r);
	}
}

void monitor_records_done(struct monitor *m)
{
	m->group = NULL; /* a group's record is in its last thread's message */
}

static void on_exit_record(const struct ts_reading *r, void *arg)
{
	struct monitor *m = arg;
	read_clocks(&m->clk);
	monitor_on_exit_record(m, r);
}

static void drain_pc(int fd, unsigned revents, void *arg)
{
	struct monitor *m = arg;
	uint64_t before = m->lost;
	(void)fd;
	(void)revents;
	if (proc_conn_drain(m->pc, on_pc_event, m, &m->lost) < 0 && errno != EAGAIN)
		m->need_rescan = true;
	if (m->lost != before)
		m->need_rescan = true;
}

static void drain_listener(int fd, unsigned revents, void *arg)
{
	struct monitor *m = arg;
	uint64_t before = m->exit_lost;
	(void)revents;
	for (int i = 0; i < m->nlis; i++)
		if (taskstats_listener_fd(m->lis[i]) == fd)
			taskstats_listener_drain(m->lis[i], on_exit_record, m,
					  &m->exit_lost);
	monitor_records_done(m);
	if (m->exit_lost != before)
		m->need_rescan = true;
}

static void drain_all(struct monitor *m)
{
	if (m->pc)
		drain_pc(proc_conn_fd(m->pc), POLLIN, m);
	for (int i = 0; i < m->nlis; i++)
		drain_listener(taskstats_listener_fd(m->lis[i]), POLLIN, m);
}

static void on_trigger_fd(int fd, unsigned revents, void *arg)
{
	struct monitor *m = arg;
	for (size_t i = 0; i < m->o.ntriggers; i++) {
		struct psi_trigger *t = &m->o.triggers[i];
		if (t->fd != fd)
			continue;
		int fired = psi_trigger_fired(t, revents);
		if (fired < 0) {
			/* the kernel dropped it: stop watching */
			if (m->loop)
				evloop_del_fd(m->loop, fd);
			monitor_notice(m, _("a PSI trigger stopped working"));
			return;
		}
		if (!fired)
			return;
		m->fired = t->label;
		if (m->trigger_cb)
			m->trigger_cb(m->trigger_arg);
	}
}

void monitor_on_sample(struct monitor *m,
		       void (*cb)(const struct sample *, void *), void *arg)
{
	m->sample_cb = cb;
	m->sample_arg = arg;
}

void monitor_on_trigger(struct monitor *m, void (*cb)(void *), void *arg)
{
	m->trigger_cb = cb;
	m->trigger_arg = arg;
}

/* ---- sources ---- */

/* Number of possible CPUs: one past the highest id in "0-3,8-11". */
static int possible_cpus(void)
{
	int hi = -1;
	FILE *f = fopen("/sys/devices/system/cpu/possible", "re");
	if (f) {
		char line[256];
		if (fgets(line, sizeof(line), f)) {
			for (char *p = line; *p;) {
				if (*p < '0' || *p > '9') {
					p++;
					continue;
				}
				char *end;
				long v = strtol(p, &end, 10);
				if (v > hi && v < INT_MAX)
					hi = (int)v;
				p = end;
			}
		}
		fclose(f);
	}
	if (hi < 0)
		hi = (int)sysconf(_SC_NPROCESSORS_CONF) - 1;
	return hi + 1;
}

static void open_listeners(struct monitor *m)
{
	int ncpu = possible_cpus();
	int per = ncpu <= ONE_CPU_LISTENERS ? 1 : CPUS_PER_LISTENER;
	for (int first = 0; first < ncpu && m->nlis < MAX_LISTENERS;
	     first += per) {
		int last = first + per - 1;
		if (last >= ncpu)
			last = ncpu - 1;
		char mask[64];
		if (first == last)
			snprintf(mask, sizeof(mask), "%d", first);
		else
			snprintf(mask, sizeof(mask), "%d-%d", first, last);
		struct ts_listener *l = taskstats_listen(mask);
		if (!l) {
			monitor_notice(m, _("exit records unavailable: tasks that end "
				    "between refreshes lose their last figures"));
			return;
		}
		m->lis[m->nlis++] = l;
		if (m->loop)
			evloop_add_fd(m->loop, taskstats_listener_fd(l), POLLIN,
				  drain_listener, m);
	}
}

static void close_listeners(struct monitor *m)
{
	for (int i = 0; i < m->nlis; i++) {
		if (m->loop)
			evloop_del_fd(m->loop, taskstats_listener_fd(m->lis[i]));
		taskstats_listener_close(m->lis[i]);
	}
	m->nlis = 0;
}

/* ---- readings ---- */

static void on_reading(const struct ts_reading *r, void *arg)
{
	struct tasktable *t = arg;
	struct task *k = tasktable_find(t, (pid_t)r->id);
	if (!k || k->have_final)
		return;
	/* a zombie's zeros: it did nothing more, it did not forget */
	if (k->have_prev && delta_zombie_reply(&k->prev, r)) {
		k->cur = k->prev;
		k->have_cur = true;
		return;
	}
	k->cur = *r;
	k->have_cur = true;
	k->answered = true;
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
	k->queried = m->round;
	push_id(m, (uint32_t)k->id);
}

/* Asked for and not answered: it ended without a record reaching us. */
static bool vanished(struct task *k, void *arg)
{
	struct monitor *m = arg;
	if (k->queried != m->round || k->have_cur)
		return false;
	k->exited = true;
	return true;
}

/* Query every live task of table t; returns -1 with errno on failure. */
/* Ask the source for the ids in m->ids, readings into table t. */
static int ask(struct monitor *m, enum ts_kind kind, struct tasktable *t)
{
	if (!m->ts)
		return procstat_query(m->ps, kind, m->ids, m->nids, on_reading, t, NULL);
	return taskstats_query(m->ts, kind, m->ids, m->nids, on_reading, t, NULL);
}

static int query(struct monitor *m, struct tasktable *t, bool threads)
{
	m->nids = 0;
	tasktable_foreach(t, collect_live_id, m);
	return ask(m, threads ? TS_KIND_PID : TS_KIND_TGID, t);
}

static void rebase(struct task *k, void *arg)
{
	const struct monitor *m = arg;
	if (k->have_cur) {
		k->prev = k->cur;
		k->prev_at = m->query_start;
		k->have_prev = true;
		k->have_cur = false;
	}
}

/* ---- samples ---- */

struct row *monitor_push_row(struct row **v, size_t *n, size_t *cap)
{
	if (*n == *cap) {
		size_t nc = *cap ? *cap * 2 : 256;
		struct row *p = realloc(*v, nc * sizeof(*p));
		if (!p)
			return NULL;
		*v = p;
		*cap = nc;
	}
	struct row *r = &(*v)[(*n)++];
	memset(r, 0, sizeof(*r));
	return r;
}

struct build_ctx {
	struct monitor *m;
	double now;
	double dt;
	bool recording;   /* rows for sample.thread_rows */
};

static void fill_identity(struct monitor *m, struct task *k, struct row *r,
			  double now)
{
	r->pid = k->id;
	r->tgid = k->tgid;
	r->ppid = k->ppid;
	r->state = k->state;
	r->threads = m->o.threads ? -1 : k->threads;
	r->uid = k->uid;
	/* a thread's own record names it (process records leave it blank) */
	if (k->have_cur && k->cur.kind == TS_KIND_PID && k->cur.have_basic) {
		if (!k->comm && k->cur.comm[0])
			tasktable_set_details(k, k->cur.comm, NULL, NULL);
		if (k->uid == (uid_t)-1) {
			k->uid = k->cur.uid;
			r->uid = k->uid;
		}
		if (!k->ppid)
			r->ppid = (pid_t)k->cur.ppid;
	}
	if (!k->user && k->uid != (uid_t)-1)
		tasktable_set_details(k, NULL, NULL, procinfo_user_name(m->pi, k->uid));
	if (cgroups_used(m)) {
		struct task *p = k->id == k->tgid && !m->o.threads ? k :
				 tasktable_find(m->procs, k->tgid);
		r->cgroup = p ? p->cgroup : k->cgroup;
	}
	r->comm = k->comm ? k->comm : "";
	r->cmdline = k->cmdline ? k->cmdline : "";
	r->user = k->user ? k->user : "";
	r->age = now - k->first_seen;
	if (k->first_seen > m->prev_time)
		r->flags |= ROW_NEW;
}

/* The categories with true figures for this task (delta_cats). */
static unsigned task_cats(const struct monitor *m, const struct task *k)
{
	return delta_cats(m->kernel_cats, m->delayacct == 1, m->acct_hi,
			  k->waits_from);
}

/*
 * Categories the kernel cannot collect although struct taskstats has room
 * for them: irq delay needs CONFIG_IRQ_TIME_ACCOUNTING. With PSI on, that
 * option is what makes /proc/pressure/irq exist; without PSI the kernel's
 * configuration tells, where it is published.
 */
static unsigned detect_kernel_cats(struct monitor *m)
{
	unsigned cats = (1u << NCAT) - 1;
	if (access("/proc/pressure/irq", F_OK) == 0)
		return cats;
	if (access("/proc/pressure/cpu", F_OK) == 0)
		return cats & ~(1u << CAT_IRQ);
	int irqtime = procinfo_kernel_config("CONFIG_IRQ_TIME_ACCOUNTING");
	if (irqtime < 0)
		monitor_notice(m, _("irq delay unknown: without PSI and without "
				    "the kernel's configuration, stalltop cannot "
				    "tell whether this kernel collects it"));
	if (irqtime != 1)
		cats &= ~(1u << CAT_IRQ);
	return cats;
}

/* When the task's latest reading was taken at the latest (monotonic). */
static double reading_at(const struct monitor *m, const struct task *k)
{
	return k->have_final ? k->cur_at : m->reading_end;
}

/* The age of the task at its latest reading, an upper bound; 0 unknown. */
static double task_age(const struct monitor *m, const struct task *k)
{
	/* a thread's own record says how long it has lived */
	if (k->cur.kind == TS_KIND_PID && k->cur.have_basic && k->cur.etime_us)
		return (double)k->cur.etime_us / 1e6;
	double at = reading_at(m, k);
	return k->waits_from > 0 && at > k->waits_from ? at - k->waits_from : 0;
}

/*
 * A process that had one thread all along while watched: every thread it
 * makes is announced, and none was (nor was any announcement lost).
 */
static bool single_threaded(const struct monitor *m, const struct task *k)
{
	return m->pc && !k->multi && k->lost_at_add == m->lost + m->exit_lost &&
	       (k->forked || k->threads == 1);
}

static void task_bounds(const struct monitor *m, const struct task *k,
			struct delta_bounds *b)
{
	b->cats = task_cats(m, k);
	b->age = task_age(m, k);
	b->thread = k->cur.kind == TS_KIND_PID || single_threaded(m, k);
	double at = reading_at(m, k);
	for (int c = 0; c < NCAT; c++)
		b->since[c] = k->wait_lo[c] > 0 && at > k->wait_lo[c] ?
			      at - k->wait_lo[c] : 0;
	b->threads = k->threads > 0 ? k->threads : 0;
	b->from = m->prev_real;
	b->to = m->reading_real;
}

/*
 * What the task did in this interval, checked (delta.h); in accumulated
 * mode added to its window once. Returns false when there is nothing.
 */
static bool task_interval(struct monitor *m, struct task *k, struct delta *iv)
{
	bool fresh = k->have_cur && k->have_prev;
	/*
	 * The window keeps what it had when nothing new came: vanished, a
	 * baseline only, added already, or an ended task shown again.
	 */
	if (m->o.accumulate && k->have_acc &&
	    (!fresh || k->acc_round == m->round || (k->exited && k->shown))) {
		*iv = k->acc;
		return true;
	}
	if (!fresh)
		return false;
	struct delta_bounds b;
	task_bounds(m, k, &b);
	delta_interval(&k->prev, &k->cur, &b, iv);
	/* a wait counted now ended after the previous reading began */
	double ended_after = k->prev_at > k->waits_from ? k->prev_at
							 : k->waits_from;
	for (int c = 0; c < NCAT; c++) {
		const struct delta_cat *d = &iv->d[c];
		if ((d->flags & DELTA_AVAIL) &&
		    ((d->flags & DELTA_COUNT) ? d->count > 0 : d->total_ns > 0))
			k->wait_lo[c] = ended_after;
	}
	if (m->o.accumulate) {
		delta_accumulate(&k->acc, !k->have_acc, iv);
		k->have_acc = true;
		k->acc_round = m->round;
		*iv = k->acc;
	}
	return true;
}

static void build_row(struct task *k, void *arg)
{
	struct build_ctx *c = arg;
	struct monitor *m = c->m;
	struct delta iv;
	if (!task_interval(m, k, &iv))
		return;
	struct row *r;
	if (c->recording) {
		/* ended threads apart, as a view of threads shows them */
		if (k->exited && !m->o.accumulate)
			r = monitor_push_row(&m->texited, &m->ntexited,
					     &m->captexited);
		else
			r = monitor_push_row(&m->trows, &m->ntrows, &m->captrows);
	} else if (k->exited && !m->o.accumulate) {
		r = monitor_push_row(&m->exited, &m->nexited, &m->capexited);
	} else {
		r = monitor_push_row(&m->rows, &m->nrows, &m->caprows);
	}
	if (!r)
		return;
	fill_identity(m, k, r, c->now);
	if (m->o.cgroup_within &&
	    (!r->cgroup || !cgroup_path_within(r->cgroup, m->o.cgroup_within))) {
		/* outside the subtree asked for: take the row back */
		if (c->recording && k->exited && !m->o.accumulate)
			m->ntexited--;
		else if (c->recording)
			m->ntrows--;
		else if (k->exited && !m->o.accumulate)
			m->nexited--;
		else
			m->nrows--;
		return;
	}
	if (k->exited) {
		r->flags |= ROW_EXITED;
		r->state = 'X';
	}
	delta_figures(&iv, m->o.accumulate ? c->now - m->start_time : c->dt, r);
	if (c->recording)
		return;
	/* the figures of the window dropped as impossible */
	for (int i = 0; i < NCAT; i++)
		m->dropped += r->d[i].dropped;
	if (!m->o.threads && !(k->exited && !m->o.accumulate)) {
		/* a live process row: where its threads' maxima can go */
		k->row_round = m->round;
		k->row_at = (size_t)(r - m->rows);
	}
}

static void collect_need_details(struct task *k, void *arg)
{
	struct monitor *m = arg;
	if (k->exited)
		return;
	if (!k->comm || !k->cmdline || k->details_stale) {
		if (m->npidbuf == m->cappidbuf) {
			size_t n = m->cappidbuf ? m->cappidbuf * 2 : 256;
			pid_t *p = realloc(m->pidbuf, n * sizeof(*p));
			if (!p)
				return;
			m->pidbuf = p;
			m->cappidbuf = n;
		}
		m->pidbuf[m->npidbuf++] = k->id;
	}
}

struct details_ctx {
	struct monitor *m;
	struct tasktable *t;
};

static void on_details(const struct procinfo_details *d, void *arg)
{
	struct details_ctx *c = arg;
	struct task *k = tasktable_find(c->t, d->pid);
	if (!k)
		return;
	if (d->start && tasktable_order(span_of(k), tasktable_span_ticks(d->start,
							    procinfo_hertz())) != TT_SAME)
		return; /* another task now has this id */
	k->start = d->start;
	waits_from_ticks(c->m, k, d->start);
	k->ppid = d->ppid;
	k->state = d->state;
	k->threads = d->threads;
	if (d->threads > 1)
		k->multi = true;
	if (d->comm) {
		k->uid = d->uid;
		tasktable_set_details(k, d->comm, d->cmdline ? d->cmdline : "",
				 d->user);
		k->details_stale = false;
	}
}

/*
 * Thread rows: the name from the thread's own taskstats record (or raw
 * from /proc where readings come from /proc), the command line and user
 * from its process. No per-thread libproc2 read.
 */
static void thread_identity(struct task *k, void *arg)
{
	struct monitor *m = arg;
	if (k->have_cur && k->cur.kind == TS_KIND_PID && k->cur.have_basic &&
	    k->cur.comm[0]) {
		tasktable_set_details(k, k->cur.comm, NULL, NULL);
	} else if (!k->comm || k->details_stale) {
		const char *comm = procinfo_comm(m->pi, k->id);
		if (comm)
			tasktable_set_details(k, comm, NULL, NULL);
	}
	k->details_stale = false;
	struct task *p = tasktable_find(m->procs, k->tgid);
	if (p && p->cmdline) {
		tasktable_set_details(k, NULL, p->cmdline, p->user);
		k->uid = p->uid;
	}
}

/* Names and users for tasks new or changed since the last sample. */
static void refresh_details(struct monitor *m, struct tasktable *t)
{
	m->npidbuf = 0;
	tasktable_foreach(t, collect_need_details, m);
	if (!m->npidbuf)
		return;
	struct details_ctx c = { m, t };
	procinfo_details(m->pi, m->pidbuf, m->npidbuf, true, on_details, &c);
}

void monitor_fill_status(struct monitor *m, struct row *rows, size_t n)
{
	if (m->rp || m->status_filled)
		return; /* replayed, or read for the recording already */
	struct tasktable *t = active(m);
	if (m->o.threads) {
		/* threads: only the state changes, read per thread */
		for (size_t i = 0; i < n; i++)
			if (!(rows[i].flags & ROW_EXITED))
				rows[i].state = procinfo_thread_state(rows[i].tgid,
								rows[i].pid);
		return;
	}
	m->npidbuf = 0;
	if (m->cappidbuf < n) {
		pid_t *p = realloc(m->pidbuf, n * sizeof(*p));
		if (!p)
			return;
		m->pidbuf = p;
		m->cappidbuf = n;
	}
	for (size_t i = 0; i < n; i++)
		if (!(rows[i].flags & ROW_EXITED))
			m->pidbuf[m->npidbuf++] = rows[i].pid;
	struct details_ctx c = { m, t };
	procinfo_details(m->pi, m->pidbuf, m->npidbuf, false, on_details, &c);
	for (size_t i = 0; i < n; i++) {
		if (rows[i].flags & ROW_EXITED)
			continue;
		struct task *k = tasktable_find(t, rows[i].pid);
		if (!k)
			continue;
		rows[i].state = k->state;
		rows[i].ppid = k->ppid;
		if (!m->o.threads)
			rows[i].threads = k->threads;
	}
}

/*
 * Follow kernel.task_delayacct. When it comes on, note between which
 * moments: stalltop's own switch (--enable-delayacct) knows them to the
 * microsecond; a switch by hand is seen at the next refresh. On already
 * when stalltop started: every task counts as measured (the kernel keeps
 * no trace of when it came on).
 */
static void update_delayacct(struct monitor *m)
{
	int now = delayacct_state();
	double t = now_mono();
	if (now == 1 && m->delayacct != 1) {
		double lo, hi;
		if (delayacct_switched(&lo, &hi) && hi >= m->acct_checked) {
			m->acct_lo = lo;
			m->acct_hi = hi;
		} else if (m->delayacct == -2) {
			m->acct_lo = m->acct_hi = -INFINITY;
		} else {
			m->acct_lo = m->acct_checked;
			m->acct_hi = t;
		}
	}
	m->delayacct = now;
	m->acct_checked = t;
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

static int take_reading(struct monitor *m)
{
	double now = now_mono();
	read_clocks(&m->clk);
	if (m->rescan_every > 0 && now - m->last_rescan >= m->rescan_every)
		m->need_rescan = true;
	drain_all(m);
	if (m->need_rescan || !m->pc)
		rescan(m);
	m->round++;
	/* processes, unless rows are threads; threads, when kept at all */
	double t0 = now_mono();
	m->query_start = t0;
	m->reading_boot = clock_seconds(CLOCK_BOOTTIME);
	if (!m->o.threads && query(m, m->procs, false) < 0)
		return -1;
	if (m->threads && query(m, m->threads, true) < 0)
		return -1;
	/* the readings were taken across the queries: date them midway */
	m->reading_end = now_mono();
	m->reading_time = (t0 + m->reading_end) / 2;
	m->reading_real = clock_seconds(CLOCK_REALTIME) -
			  (m->reading_end - m->reading_time);
	/*
	 * Exit records that arrived while we queried belong to this interval;
	 * a task that ended is in the socket before its id stops answering.
	 */
	drain_all(m);
	if (!m->o.threads && requery(m) < 0)
		return -1;
	if (!m->o.threads)
		tasktable_retire_if(m->procs, vanished, m);
	if (m->threads)
		tasktable_retire_if(m->threads, vanished, m);
	return 0;
}

static void update_cgroup_cb(struct task *k, void *arg)
{
	update_cgroup(arg, k);
}

static bool was_shown(struct task *k, void *arg)
{
	(void)arg;
	return k->shown;
}

static void mark_shown(struct task *k, void *arg)
{
	(void)arg;
	k->shown = true;
}

/*
 * A process's longest wait is its threads' (its own record carries just
 * one live thread's): known where every wait of the window is in a thread
 * row whose longest wait is known.
 */
static void max_from_threads(struct monitor *m)
{
	struct span { uint64_t count; double max; bool unknown; } *sp;
	if (!m->nrows || !(sp = calloc(m->nrows * NCAT, sizeof(*sp))))
		return;
	for (size_t i = 0; i < m->ntrows + m->ntexited; i++) {
		const struct row *t = i < m->ntrows ? &m->trows[i]
						     : &m->texited[i - m->ntrows];
		struct task *p = tasktable_find(m->procs, t->tgid);
		if (!p || p->row_round != m->round || p->row_at >= m->nrows)
			continue;
		for (int c = 0; c < NCAT; c++) {
			const struct cat_figure *f = &t->d[c];
			struct span *s = &sp[p->row_at * NCAT + c];
			if (!f->avail || !f->have_count) {
				s->unknown = true;
			} else if (f->count) {
				s->count += f->count;
				s->unknown |= !f->have_max;
				if (f->max_ms > s->max)
					s->max = f->max_ms;
			}
		}
	}
	for (size_t i = 0; i < m->nrows; i++) {
		for (int c = 0; c < NCAT; c++) {
			struct cat_figure *f = &m->rows[i].d[c];
			const struct span *s = &sp[i * NCAT + c];
			if (!f->avail || !f->have_count || !f->count ||
			    s->unknown || s->count != f->count)
				continue;
			f->have_max = true;
			f->max_ms = s->max;
		}
	}
	free(sp);
}

static void add_threads(struct task *k, void *arg)
{
	size_t *n = arg;
	if (k->threads > 0)
		*n += (size_t)k->threads;
}

/*
 * Threads known, in the scope of the processes: the kernel's count of the
 * whole machine, unless stalltop sees only a pid namespace's processes,
 * or only some processes; then theirs.
 */
static size_t count_threads(struct monitor *m)
{
	size_t n = 0;
	long nsys;
	if (m->o.threads)
		return tasktable_count(m->threads);
	if (!m->o.npids && !m->own_pidns && (nsys = procinfo_system_threads()) > 0)
		return (size_t)nsys;
	tasktable_foreach(m->procs, add_threads, &n);
	return n;
}

int monitor_sample(struct monitor *m, struct sample *out)
{
	if (m->rp)
		return monitor_replay_sample(m, out);
	m->status_filled = false;

	/* the previous sample's exited rows are no longer referenced */
	if (m->o.accumulate) {
		tasktable_trim_retired(m->procs, MAX_RETIRED);
		if (m->threads)
			tasktable_trim_retired(m->threads, MAX_RETIRED);
	} else {
		tasktable_free_retired_if(m->procs, was_shown, NULL);
		if (m->threads)
			tasktable_free_retired_if(m->threads, was_shown, NULL);
	}
	m->nrows = m->nexited = 0;
	m->dropped = 0;

	update_delayacct(m);
	if (take_reading(m) < 0)
		return -1;
	double now = m->reading_time;
	double dt = now - m->prev_time;

	struct tasktable *t = active(m);
	refresh_details(m, m->procs);
	if (m->threads)
		tasktable_foreach(m->threads, thread_identity, m);
	if (cgroups_used(m))
		tasktable_foreach(m->procs, update_cgroup_cb, m);
	struct build_ctx c = { m, now, dt, false };
	tasktable_foreach(t, build_row, &c);
	tasktable_foreach_retired(t, build_row, &c);
	tasktable_foreach_retired(t, mark_shown, NULL);
	m->ntrows = m->ntexited = 0;
	if (m->o.record_threads && !m->o.threads) {
		struct build_ctx tc = { m, now, dt, true };
		tasktable_foreach(m->threads, build_row, &tc);
		tasktable_foreach_retired(m->threads, build_row, &tc);
		tasktable_foreach_retired(m->threads, mark_shown, NULL);
		max_from_threads(m);
	}
	tasktable_foreach(t, rebase, m);
	if (m->threads && !m->o.threads)
		tasktable_foreach(m->threads, rebase, m);
	if (m->o.threads)
		tasktable_foreach(m->procs, rebase, m);

	struct psi_reading psi;
	psi_read("/proc/pressure", &psi);

	memset(out, 0, sizeof(*out));
	out->time = clock_seconds(CLOCK_REALTIME);
	out->interval = m->o.accumulate ? now - m->start_time : dt;
	out->delayacct = m->delayacct == 1;
	out->delayacct_known = m->delayacct >= 0;
	out->ts_version = m->ts ? taskstats_kernel_version(m->ts) : 0;
	out->events_lost = m->lost + m->exit_lost;
	out->exit_records_lost = m->exit_lost;
	out->dropped = m->dropped;
	out->threads = m->o.threads;
	out->accumulated = m->o.accumulate;
	psi_interval(&m->psi_prev, &psi, &out->psi);
	out->rows = m->rows;
	out->nrows = m->nrows;
	out->exited = m->exited;
	out->nexited = m->nexited;
	out->nprocs = tasktable_count(m->procs);
	out->nthreads = count_threads(m);

	if (m->o.cgroups) {
		static struct cgroup_row none;
		if (cgtable_build(m->cgt, m->rows, m->nrows, m->exited, m->nexited,
			      out->interval, m->o.cgroup_within, &out->cgroups,
			      &out->ncgroups) < 0 || !out->cgroups) {
			out->cgroups = &none;
			out->ncgroups = 0;
		}
	}
	if (m->o.record_threads && !m->o.threads) {
		static struct row none;
		out->thread_rows = m->trows ? m->trows : &none;
		out->nthread_rows = m->ntrows;
		out->thread_exited = m->texited ? m->texited : &none;
		out->nthread_exited = m->ntexited;
	}
	out->trigger = m->fired;
	m->fired = NULL;
	if (m->sample_cb) {
		/*
		 * A recording keeps what views show: the state of every row,
		 * read once, so that a view of this sample shows the same.
		 */
		monitor_fill_status(m, out->rows, out->nrows);
		m->status_filled = true;
		m->sample_cb(out, m->sample_arg);
	}

	m->psi_prev = psi;
	m->prev_time = now;
	m->prev_boot = m->reading_boot;
	m->prev_real = m->reading_real;
	return 0;
}

static void push_cgroup_row(struct task *k, void *arg)
{
	struct monitor *m = arg;
	struct row *r;
	if (k->cgroup && (r = monitor_push_row(&m->rows, &m->nrows, &m->caprows)))
		r->cgroup = k->cgroup;
}

/* Read every cgroup's pressure once, so the first interval has a share. */
static void prime_cgroups(struct monitor *m)
{
	struct cgroup_row *rows;
	size_t n;
	m->nrows = 0;
	tasktable_foreach(m->procs, push_cgroup_row, m);
	cgtable_build(m->cgt, m->rows, m->nrows, NULL, 0, 0, m->o.cgroup_within,
		  &rows, &n);
	m->nrows = 0;
}

/* Take the baseline: readings to compute the first interval against. */
static int baseline(struct monitor *m)
{
	if (take_reading(m) < 0)
		return -1;
	refresh_details(m, m->procs);
	tasktable_foreach(m->procs, rebase, m);
	if (m->threads)
		tasktable_foreach(m->threads, rebase, m);
	/* tasks that ended before the first interval are not part of it */
	tasktable_free_retired(m->procs);
	if (m->threads)
		tasktable_free_retired(m->threads);
	if (m->cgt)
		prime_cgroups(m);
	psi_read("/proc/pressure", &m->psi_prev);
	m->prev_time = m->reading_time;
	m->prev_boot = m->reading_boot;
	m->prev_real = m->reading_real;
	return 0;
}

/*
 * Taskstats is out of reach (why: EPERM, ENOENT for no family, or any
 * other errno): read cpu and io delay from /proc instead and say what is
 * missing and how to get it.
 */
static int use_procstat(struct monitor *m, int why)
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
	} else if (why == ENOENT) { /* no taskstats family */
		snprintf(text, sizeof(text), "%s",
			 _("this kernel has no taskstats (CONFIG_TASKSTATS): "
			   "cpu and io delay only, from /proc"));
	} else {
		snprintf(text, sizeof(text),
			 _("taskstats failed (%s): cpu and io delay only, "
			   "from /proc"), strerror(errno));
	}
	monitor_notice(m, text);
	return 0;
}

struct monitor *monitor_new(const struct monitor_opts *o, struct evloop *loop,
			    int *exit_code)
{
	struct monitor *m = calloc(1, sizeof(*m));
	*exit_code = 1;
	if (!m) {
		warnx("%s", strerror(ENOMEM));
		return NULL;
	}
	m->o = *o;
	m->loop = loop;
	if (o->replay) {
		char why[512];
		if (monitor_replay_open(m, o->replay, why, sizeof(why)) < 0) {
			warnx("--replay '%s': %s", o->replay, why);
			*exit_code = 2;
			monitor_free(m);
			return NULL;
		}
		*exit_code = 0;
		return m;
	}
	m->rescan_every = o->rescan;
	m->delayacct = -2; /* first reading: tasks already running count */
	m->kernel_cats = detect_kernel_cats(m);
	m->own_pidns = !procinfo_in_initial_pid_ns();
	update_delayacct(m);

	m->ts = taskstats_open();
	if (!m->ts && use_procstat(m, errno) < 0) {
		warnx("%s", strerror(ENOMEM));
		monitor_free(m);
		return NULL;
	}
	m->pi = procinfo_new();
	m->procs = tasktable_new();
	if (!m->pi || !m->procs) {
		warnx(_("cannot read process details"));
		monitor_free(m);
		return NULL;
	}
	if ((o->threads || o->record_threads) && !(m->threads = tasktable_new())) {
		monitor_free(m);
		return NULL;
	}
	if (o->cgroups || o->cgroup_within) {
		if (cgroup_find_root(m->cg_root, sizeof(m->cg_root)) < 0) {
			warnx(_("no cgroup v2 hierarchy is mounted"));
			monitor_free(m);
			return NULL;
		}
		if (!(m->cgt = cgtable_new(m->cg_root))) {
			monitor_free(m);
			return NULL;
		}
	}
	for (size_t i = 0; i < o->ntriggers; i++) {
		char err[256];
		if (psi_trigger_arm(&o->triggers[i], "/proc/pressure", err,
				    sizeof(err)) < 0) {
			warnx("%s", err);
			monitor_free(m);
			return NULL;
		}
		if (loop)
			evloop_add_fd(loop, o->triggers[i].fd, POLLPRI, on_trigger_fd, m);
	}

	m->pc = o->no_events ? NULL : proc_conn_open();
	if (o->no_events) {
		monitor_notice(m, _("scanning /proc at every refresh (--no-events)"));
	} else if (m->pc) {
		if (loop)
			evloop_add_fd(loop, proc_conn_fd(m->pc), POLLIN, drain_pc, m);
	} else {
		monitor_notice(m, _("fork/exit notifications unavailable: scanning "
			    "/proc at every refresh"));
	}
	if (!o->no_events)
		open_listeners(m);

	int rc = baseline(m);
	if (rc < 0 && m->ts) {
		/* the family answers anyone; the queries need the capability */
		if (use_procstat(m, errno == EPERM ? EPERM : 0) == 0)
			rc = baseline(m);
	}
	if (rc < 0) {
		warn(_("cannot read task figures"));
		monitor_free(m);
		return NULL;
	}
	/* accumulated figures cover the time since the baseline reading */
	m->start_time = m->prev_time;
	*exit_code = 0;
	return m;
}

void monitor_free(struct monitor *m)
{
	if (!m)
		return;
	close_listeners(m);
	if (m->pc) {
		if (m->loop)
			evloop_del_fd(m->loop, proc_conn_fd(m->pc));
		proc_conn_close(m->pc);
	}
	for (size_t i = 0; i < m->o.ntriggers; i++) {
		if (m->loop && m->o.triggers[i].fd >= 0)
			evloop_del_fd(m->loop, m->o.triggers[i].fd);
		psi_trigger_close(&m->o.triggers[i]);
	}
	cgtable_free(m->cgt);
	replay_close(m->rp);
	free(m->trows);
	free(m->texited);
	taskstats_close(m->ts);
	procstat_free(m->ps);
	for (int i = 0; i < m->nnotices; i++)
		free(m->notices[i]);
	procinfo_free(m->pi);
	tasktable_free(m->procs);
	tasktable_free(m->threads);
	free(m->rows);
	free(m->exited);
	free(m->ids);
	free(m->pidbuf);
	free(m);
}

void monitor_set_threads(struct monitor *m, bool threads, pid_t only_tgid)
{
	if (m->rp) {
		m->o.threads = threads;
		m->o.only_tgid = threads ? only_tgid : 0;
		return;
	}
	if (m->threads) {
		tasktable_free(m->threads);
		m->threads = NULL;
	}
	m->o.threads = threads;
	m->o.only_tgid = threads ? only_tgid : 0;
	if (threads)
		m->threads = tasktable_new();
	m->need_rescan = true;
	baseline(m);
}

static void forget_window(struct task *k, void *arg)
{
	(void)arg;
	k->have_acc = false;
}

int monitor_set_cgroups(struct monitor *m, bool on)
{
	if (m->rp || !on || m->cgt) {
		m->o.cgroups = on;
		return 0;
	}
	if (cgroup_find_root(m->cg_root, sizeof(m->cg_root)) < 0) {
		m->cg_root[0] = '\0';
		errno = ENOENT;
		return -1;
	}
	if (!(m->cgt = cgtable_new(m->cg_root))) {
		m->cg_root[0] = '\0';
		return -1;
	}
	m->o.cgroups = true;
	tasktable_foreach(m->procs, update_cgroup_cb, m);
	prime_cgroups(m);
	return 0;
}

void monitor_set_accumulate(struct monitor *m, bool accumulate)
{
	if (m->rp)
		return; /* a recording holds intervals as they were */
	m->o.accumulate = accumulate;
	/* figures since now: the next readings become the base */
	tasktable_foreach(m->procs, forget_window, NULL);
	if (m->threads)
		tasktable_foreach(m->threads, forget_window, NULL);
	baseline(m);
	m->start_time = m->prev_time;
}
