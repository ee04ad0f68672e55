/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The monitor's notifications: fork, exec, comm and exit events from the
 * proc connector, and the taskstats exit records that carry the final
 * figures of every task that ends (so a task that lived 5 ms is still
 * counted). Losses are counted and repaired by one rescan.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "kernel/proc_conn.h"
#include "kernel/procfs.h"
#include "kernel/taskstats.h"
#include "lib/evloop.h"
#include "lib/nls.h"
#include "live/monitor_int.h"
#include "live/tasktable.h"
#include "model/producer.h"

/*
 * One exit-record socket per CPU up to this many CPUs (their records are
 * numbered per CPU, so losses are counted exactly); groups beyond.
 */
#define ONE_CPU_LISTENERS 64
#define CPUS_PER_LISTENER 64
/* AGROUP in ac_flag: this exit record is the last of its thread group */
#define TS_AGROUP 0x20

/*
 * Fork, exec and exit events are taken in batches: once one woke the
 * loop and the connector's socket was drained, it is not watched for
 * this long (ns); what comes meanwhile waits in its buffer (32 MiB: 50
 * ms of the fastest fork storm fit many times over), and a refresh
 * drains it first anyway (events_drain). A storm of forks then wakes
 * the loop at most 20 times a second for them, not twice a fork. Each
 * event carries the kernel's time of it, so its handling may wait; an
 * exit record does not (its life is placed by when it was read:
 * tasktable_span_exit), so the exit-record sockets stay watched.
 */
#define EVENTS_HOLD_NS 50000000L

/*
 * Events and exit records carry no /proc start time, and the two sockets
 * are read in any order, so each one is placed among the lives of its id
 * by time (tasktable_order): a fork event by its timestamp, an exit record by
 * its elapsed time and start second. On the connector's one socket a
 * life's fork comes before its exit, and that before the next life's fork.
 */

/*
 * The earliest moment a task can have begun to wait (task.waits_from),
 * from a thread's record: it started ac_btime (whole seconds, which the
 * kernel may round up by one) on the wall clock.
 */
static void waits_from_record(const struct monitor *m, struct task *k,
			      const struct ts_reading *r)
{
	if (k->waits_from || !r->have_basic || !r->btime)
		return;
	double real_off = ((double)m->clk.real_ns - (double)m->clk.mono_ns) / 1e9;
	k->waits_from = (double)r->btime - 1.0 - real_off;
}

/* A retired task made from its exit record, its fork event not yet seen. */
static bool awaits_fork(struct task *k, void *arg)
{
	const struct tt_span *born = arg;
	return !k->forked && !k->start && tasktable_order(k->born, *born) == TT_SAME;
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
		enum tasktable_order o = tasktable_order(tasks_span(k), born);
		if (o == TT_AFTER)
			return; /* a later life holds the id: this one is over */
		if (o == TT_SAME && !k->forked && !k->exit_seen) {
			k->forked = true; /* a scan found it first */
			return;
		}
		tasks_retire_earlier(t, k);
	}
	struct task *done = tasktable_find_retired(t, id, awaits_fork, &born);
	if (done) {
		/*
		 * its exit record came first: the record was read some time
		 * after the exit, the event is dated by the kernel
		 */
		done->forked = true;
		done->born = tasktable_span_meet(done->born, born);
		return;
	}
	k = tasks_add(m, t, id, tgid, 0, true);
	if (k) {
		k->born = born;
		k->forked = true;
		if (at > k->waits_from)
			k->waits_from = at;
		if (t == m->procs)
			cgsum_inherit(m, k, parent);
	}
}

/* An exit event at ns (CLOCK_MONOTONIC): the life that ended began before. */
static void on_exit_event(struct monitor *m, struct tasktable *t, pid_t id,
			  uint64_t ns)
{
	struct task *k = tasktable_find(t, id);
	uint64_t boot = ns ? tasktable_boot_ns(ns, &m->clk) : 0;
	struct tt_span at = { boot, boot };
	if (k && tasktable_order(tasks_span(k), at) != TT_AFTER)
		k->exit_seen = true;
}

void events_on_event(struct monitor *m, const struct pc_event *ev)
{
	struct task *k;
	switch (ev->type) {
	case PC_FORK: {
		struct tt_span born = tasktable_span_fork(ev->timestamp_ns, &m->clk);
		double at = (double)ev->timestamp_ns / 1e9;
		/* a thread: its process has more than one now */
		if (ev->pid != ev->tgid && (k = tasktable_find(m->procs, ev->tgid))) {
			k->multi = true;
			k->info_stale = true;
			k->threads_at = m->round + 1;
		}
		/* the parent's forks: copy-on-write evidence (gather.c) */
		if (ev->pid == ev->tgid &&
		    (k = tasktable_find(m->procs, ev->parent_tgid)))
			k->proc->forks++;
		if (ev->pid == ev->tgid && tasks_wanted_process(m, ev->tgid))
			on_fork(m, m->procs, ev->pid, ev->tgid, born, at,
				ev->parent_tgid);
		if (m->threads && tasks_wanted_thread(m, ev->tgid))
			on_fork(m, m->threads, ev->pid, ev->tgid, born, at,
				ev->parent_tgid);
		break;
	}
	case PC_EXEC:
		/* exec ends the other threads; the cgroup may be another */
		if ((k = tasktable_find(m->procs, ev->tgid)))
			k->details_stale = k->info_stale = k->cg_stale = true;
		if (m->threads && (k = tasktable_find(m->threads, ev->pid)))
			k->details_stale = k->info_stale = true;
		break;
	case PC_COMM:
		if (ev->pid == ev->tgid && (k = tasktable_find(m->procs, ev->tgid)))
			tasktable_set_details(k, ev->comm, NULL, NULL);
		if (m->threads && (k = tasktable_find(m->threads, ev->pid)))
			tasktable_set_details(k, ev->comm, NULL, NULL);
		break;
	case PC_EXIT:
		/* the figures come from the exit record, or the next query */
		tasks_threads_changed(m, ev->tgid);
		if (ev->pid == ev->tgid)
			m->parent_gone = true; /* its children have another */
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
		monitor_read_clocks(&m->clk);
	events_on_event(m, ev);
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
	/* read as the record came */
	bool kept = tasktable_set_final(k, r, (double)m->clk.mono_ns / 1e9);
	waits_from_record(m, k, r);
	if (kept)
		mark_ended(k);
	else
		k->exited = true; /* no memory for its final figures */
	tasktable_retire(t, k);
}

/* A retired task still waiting for its exit record, of the life in arg. */
static bool awaits_record(struct task *k, void *arg)
{
	const struct tt_span *life = arg;
	return !k->have_final && !k->shown &&
	       tasktable_order(tasks_span(k), *life) == TT_SAME;
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
		switch (tasktable_order(tasks_span(k), life)) {
		case TT_SAME:
			break;
		case TT_BEFORE:
			/* the entry's life ended before this one began */
			tasks_retire_earlier(t, k);
			k = NULL;
			break;
		case TT_AFTER: {
			/* a life before the entry's that we never had: keep both */
			struct task *later = k;
			tasktable_detach(t, later);
			k = tasks_add(m, t, id, tgid, 0, true);
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
		k = tasks_add(m, t, id, tgid, 0, true);
		if (!k)
			return NULL;
		k->born = life;
	}
	take_final(m, t, k, r);
	return k;
}

void events_on_exit_record(struct monitor *m, const struct ts_reading *r)
{
	static const struct tt_span unknown;
	if (r->kind == TS_KIND_TGID) {
		pid_t tgid = (pid_t)r->id;
		struct task *k = m->group;
		m->group = NULL;
		if (!tasks_wanted_process(m, tgid))
			return;
		if (!k || k->id != tgid) {
			/* no thread record before it to say which life */
			end_life(m, m->procs, tgid, tgid, unknown, r);
			return;
		}
		/* the group's own total replaces its last thread's record */
		if (k->cur && k->cur->have_basic) {
			/* keep the name and user that record gave */
			if (!k->comm && k->cur->comm[0])
				tasktable_set_details(k, k->cur->comm, NULL, NULL);
			if (k->uid == (uid_t)-1)
				k->uid = k->cur->uid;
		}
		tasktable_set_reading(k, r);
		return;
	}
	m->group = NULL;
	pid_t tid = (pid_t)r->id;
	pid_t tgid = r->have_tgid ? (pid_t)r->tgid : tid;
	struct tt_span life = tasktable_span_exit(r, &m->clk);
	if (m->threads && tasks_wanted_thread(m, tgid))
		end_life(m, m->threads, tid, tgid, life, r);
	/*
	 * A thread that ends while its process is queried is counted twice
	 * (dead and alive) for a moment: ask again once it is gone.
	 */
	struct task *group = tasktable_find(m->procs, tgid);
	if (group && tid != tgid)
		group->requery = true;
	if (group) {
		group->threads_changed = true;
		group->threads_at = m->round + 1;
	}
	/*
	 * The last thread of a group: this record is the process's final
	 * figure, unless a TGID record follows in the same message (as it
	 * does when the group had several threads).
	 */
	bool group_dead = r->version >= 12 ? (r->flag & TS_AGROUP) != 0
					   : tid == tgid;
	if (group_dead)
		m->parent_gone = true;
	if (group_dead && tasks_wanted_process(m, tgid)) {
		/* another thread than the leader began after the process */
		if (tid != tgid)
			life.lo = 0;
		m->group = end_life(m, m->procs, tgid, tgid, life, r);
	}
}

void events_records_done(struct monitor *m)
{
	m->group = NULL; /* a group's record is in its last thread's message */
}

static void on_exit_record(const struct ts_reading *r, void *arg)
{
	struct monitor *m = arg;
	monitor_read_clocks(&m->clk);
	events_on_exit_record(m, r);
}

static void hold(struct monitor *m);

static void drain_pc(int fd, unsigned revents, void *arg)
{
	struct monitor *m = arg;
	uint64_t before = m->lost;
	int n;
	(void)fd;
	(void)revents;
	m->found_at = monitor_now();
	if ((n = proc_conn_drain(m->pc, on_pc_event, m, &m->lost)) < 0 &&
	    errno != EAGAIN)
		m->need_rescan = true;
	if (m->lost != before)
		m->need_rescan = true;
	/* a drain that stopped at its budget left more: no pause then */
	if (n < PC_DRAIN_BUDGET)
		hold(m);
}

static void drain_listener(int fd, unsigned revents, void *arg)
{
	struct monitor *m = arg;
	uint64_t before = m->exit_lost;
	(void)revents;
	m->found_at = monitor_now();
	for (int i = 0; i < m->nlis; i++)
		if (taskstats_listener_fd(m->lis[i]) == fd)
			taskstats_listener_drain(m->lis[i], on_exit_record, m,
					  &m->exit_lost);
	events_records_done(m);
	if (m->exit_lost != before)
		m->need_rescan = true;
}

/* Watch the connector's socket (on), or leave it be for a while. */
static void watch(struct monitor *m, bool on)
{
	if (on)
		evloop_add_fd(m->loop, proc_conn_fd(m->pc), POLLIN, drain_pc, m);
	else
		evloop_del_fd(m->loop, proc_conn_fd(m->pc));
}

/* A batch was taken: the next one no sooner than EVENTS_HOLD_NS. */
static void hold(struct monitor *m)
{
	struct itimerspec its = { .it_value.tv_nsec = EVENTS_HOLD_NS };

	if (m->hold_fd < 0 || m->held)
		return;
	if (timerfd_settime(m->hold_fd, 0, &its, NULL) < 0)
		return; /* no batches: each wakes the loop */
	m->held = true;
	watch(m, false);
}

/*
 * The hold is over: watch again (what came meanwhile makes the socket
 * readable at once: its batch is taken in the next round of the loop).
 */
static void hold_end(int fd, unsigned revents, void *arg)
{
	struct monitor *m = arg;
	uint64_t expirations;

	(void)revents;
	if (read(fd, &expirations, sizeof(expirations)) != sizeof(expirations))
		return;
	m->held = false;
	watch(m, true);
}

void events_drain(struct monitor *m)
{
	bool held = m->held;

	/* a refresh's drain starts no pause of its own */
	m->held = true;
	if (m->pc)
		drain_pc(proc_conn_fd(m->pc), POLLIN, m);
	for (int i = 0; i < m->nlis; i++)
		drain_listener(taskstats_listener_fd(m->lis[i]), POLLIN, m);
	m->held = held;
}

/* Number of possible CPUs: one past the highest id in "0-3,8-11". */
static int possible_cpus(void)
{
	int hi = -1;
	char line[256];
	if (procfs_read_lines(AT_FDCWD, "/sys/devices/system/cpu/possible", line,
			      sizeof(line)) > 0) {
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
			producer_notice(&m->p,
					_("exit records unavailable: tasks that end "
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

void events_open(struct monitor *m)
{
	if (m->o.no_events) {
		producer_notice(&m->p,
				_("scanning /proc at every refresh (--no-events)"));
		return;
	}
	m->pc = proc_conn_open();
	if (m->pc) {
		if (m->loop)
			evloop_add_fd(m->loop, proc_conn_fd(m->pc), POLLIN,
				      drain_pc, m);
	} else {
		producer_notice(&m->p,
				_("fork/exit notifications unavailable: scanning "
				  "/proc at every refresh"));
	}
	open_listeners(m);
	if (m->loop && m->pc &&
	    (m->hold_fd = timerfd_create(CLOCK_MONOTONIC,
					 TFD_NONBLOCK | TFD_CLOEXEC)) >= 0 &&
	    evloop_add_fd(m->loop, m->hold_fd, POLLIN, hold_end, m) < 0) {
		close(m->hold_fd);
		m->hold_fd = -1; /* no batches: each notification wakes it */
	}
}

void events_close(struct monitor *m)
{
	if (m->hold_fd >= 0) {
		if (m->loop)
			evloop_del_fd(m->loop, m->hold_fd);
		close(m->hold_fd);
		m->hold_fd = -1;
	}
	m->held = false; /* the sockets' watches are removed below */
	close_listeners(m);
	if (m->pc) {
		if (m->loop)
			evloop_del_fd(m->loop, proc_conn_fd(m->pc));
		proc_conn_close(m->pc);
	}
}
