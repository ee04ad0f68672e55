/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The monitor's rows: what each task did in the interval, checked and
 * made into struct row (with its name, user and cgroup), the details read
 * for new tasks, and the state read for the rows a view shows.
 */
#include <config.h>

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/procinfo.h"
#include "kernel/taskstats.h"
#include "live/monitor_int.h"
#include "live/rows_int.h"
#include "live/storesample.h"
#include "live/taskinfo.h"
#include "live/tasktable.h"
#include "model/cgname.h"
#include "model/delta.h"
#include "model/assemble.h"
#include "model/derive.h"
#include "model/producer.h"
#include "store/reading.h"
#include "store/sample.h"

/*
 * Task k's details as the store holds them, into st: its parent (a
 * thread row's is its process's, as fill_thread_status shows it; a
 * thread's own record says it where no details were read), state,
 * threads (a thread row shows no count of threads), start.
 */
void rows_store_details(const struct monitor *m, const struct task *k,
			struct store_task *st)
{
	pid_t ppid = k->info.ppid;
	const struct task *p;

	/* a thread's row shows its process's parent, recorded as shown */
	if (m->o.threads && (p = tasktable_find(m->procs, k->tgid)) &&
	    p->info.ppid)
		ppid = p->info.ppid;
	if (!ppid)
		ppid = k->rec_ppid;
	if (ppid) {
		st->have |= STORE_HAVE_PPID;
		st->ppid = ppid;
	}
	if (k->info.state) {
		st->have |= STORE_HAVE_STATE;
		st->state = k->info.state;
	}
	if (!m->o.threads && k->info.threads >= 0) {
		st->have |= STORE_HAVE_THREADS;
		st->threads = k->info.threads;
	}
	/*
	 * a task that ended before its details were read: its start as a
	 * scan told it, else as its fork event did (in boot time, ticks)
	 */
	unsigned long long ticks = k->start ? k->start :
		k->born.hi / (1000000000ULL / (unsigned long long)procinfo_hertz());
	double start = k->info.start > 0 ? k->info.start :
		       procinfo_start_epoch(ticks);
	if (start > 0) {
		st->have |= STORE_HAVE_START;
		st->start_real = start;
	}
}

/*
 * What names task k, into st: a thread's own record names it (process
 * records leave the name blank), the user from the uid, the cgroup of
 * its process where the sums per cgroup are in use; and its details.
 */
static void store_identity(struct monitor *m, struct task *k,
			   struct store_task *st)
{
	/*
	 * A thread's taskstats record names it (a process's leaves comm
	 * empty); so does every /proc reading (stat's comm), for a task
	 * that ends before its details are read.
	 */
	if (k->cur && !k->comm && k->cur->comm[0])
		tasktable_set_details(k, k->cur->comm, NULL, NULL);
	if (k->cur && k->cur->kind == TS_KIND_PID && k->cur->have_basic &&
	    k->uid == (uid_t)-1)
		k->uid = k->cur->uid;
	if (!k->user && k->uid != (uid_t)-1)
		tasktable_set_details(k, NULL, NULL, procinfo_user_name(m->pi, k->uid));
	if (k->uid != (uid_t)-1) {
		st->have |= STORE_HAVE_UID;
		st->uid = (uint32_t)k->uid;
	}
	rows_store_details(m, k, st);
	if (cgsum_used(m)) {
		struct task *p = k->id == k->tgid && !m->o.threads ? k :
				 tasktable_find(m->procs, k->tgid);
		st->cgroup = tasktable_cgroup(p ? p : k);
	}
	st->comm = k->comm ? k->comm : "";
	st->cmdline = k->cmdline ? k->cmdline : "";
	st->user = k->user ? k->user : "";
}

/* The categories with true figures for this task (delta_cats). */
static unsigned task_cats(const struct monitor *m, const struct task *k)
{
	return delta_cats(m->kernel_cats,
			  m->delayacct == 1 && !tasks_unmeasured(m, k));
}

/*
 * Delay accounting came on since the task's base reading was taken (or
 * since it began, when it is counted from zero): a wait that ended since
 * may have begun unstamped (READING_UNSTAMPED).
 */
static bool unstamped(const struct monitor *m, const struct task *k)
{
	return m->delayacct == 1 && m->acct_hi > -INFINITY &&
	       k->waits_from <= m->acct_hi &&
	       (!k->ds.have_prev || k->ds.prev_at <= m->acct_hi);
}

/* When the task's latest reading was taken at the latest (monotonic). */
static double reading_at(const struct monitor *m, const struct task *k)
{
	return k->have_final ? tasktable_final_at(k) : m->reading_end;
}

/* The age of the task at its latest reading, an upper bound; 0 unknown. */
static double task_age(const struct monitor *m, const struct task *k)
{
	double at = reading_at(m, k);
	double since = k->waits_from > 0 && at > k->waits_from ?
		       at - k->waits_from : 0;

	/* a thread's own record says how long it has lived */
	if (k->cur && k->cur->kind == TS_KIND_PID && k->cur->have_basic &&
	    k->cur->etime_us) {
		double own = (double)k->cur->etime_us / 1e6;

		/*
		 * the time since waits_from instead where it is within the
		 * clocks' tolerance of the trust rules (delta_age_bound): an
		 * upper bound too, and the same from sample to sample as at
		 * and waits_from are, so a recording stores no age of its
		 * own for the task
		 */
		return since >= own && since <= delta_age_bound(own) ? since : own;
	}
	return since;
}

/*
 * A process that had one thread all along while watched: every thread it
 * makes is announced, and none was (nor was any announcement lost).
 */
static bool single_threaded(const struct monitor *m, const struct task *k)
{
	return m->pc && !k->multi && k->lost_at_add == m->lost + m->exit_lost &&
	       (k->forked || k->info.threads == 1);
}

/*
 * A process's number of threads is known to have stayed the same over
 * the window: no thread began or ended in it (since the start of -a's
 * window, or the last reading), no event lost, the count read after the
 * last change.
 */
static bool threads_steady(const struct monitor *m, const struct task *k)
{
	uint64_t since = m->o.accumulate ? 0 : m->round;
	return m->pc && k->lost_at_add == m->lost + m->exit_lost &&
	       (k->threads_at == 0 ||
		(k->threads_at < since && k->info_round >= k->threads_at));
}

static unsigned reading_flags(const struct monitor *m, const struct task *k,
			      const struct ts_reading *c)
{
	unsigned f = 0;
	if (c->kind == TS_KIND_PID)
		f |= READING_OWN | READING_ONE;
	if (m->o.threads || single_threaded(m, k) || c->one_thread)
		f |= READING_ONE;
	if (threads_steady(m, k))
		f |= READING_STEADY;
	if (k->carried && !k->have_final)
		f |= READING_CARRIED;
	if (k->have_final)
		f |= READING_FINAL;
	if (k->exited)
		f |= READING_ENDED;
	if (unstamped(m, k))
		f |= READING_UNSTAMPED;
	return f;
}

void rows_reading(const struct monitor *m, const struct task *k,
		  struct task_reading *r)
{
	struct ts_reading base;
	const struct ts_reading *c = k->cur;

	if (!c) {
		/* carried, or no reading this sample: the base is the last one */
		if (k->ds.have_prev)
			delta_base_reading(&k->ds.prev, &base);
		else
			memset(&base, 0, sizeof(base));
		c = &base;
	}
	r->id = k->id;
	r->tgid = k->tgid;
	r->start = k->start;
	r->life = k->life;
	r->asked_at = k->have_final ? tasktable_final_at(k) : m->query_start;
	r->at = reading_at(m, k);
	r->born = k->waits_from;
	r->age = task_age(m, k);
	r->first_seen = k->first_seen;
	r->cats = task_cats(m, k);
	/* the threads a /proc reading summed, where no details were read */
	r->threads = k->info.threads > 0 ? k->info.threads :
		     c->threads <= INT32_MAX ? (int32_t)c->threads : 0;
	r->flags = reading_flags(m, k, c);
	r->have = c->have;
	r->have_max = c->have_max;
	r->have_max_at = c->have_max_at;
	r->no_count = c->no_count;
	if (r->flags & READING_CARRIED) {
		/* the base stands: its counters are not repeated */
		r->run_ns = 0;
		memset(r->d, 0, sizeof(r->d));
		memset(r->max_at, 0, sizeof(r->max_at));
		return;
	}
	r->run_ns = c->run_ns;
	for (int i = 0; i < NCAT; i++) {
		r->d[i].count = c->d[i].count;
		r->d[i].total_ns = c->d[i].total_ns;
		r->d[i].max_ns = c->d[i].max_ns;
		r->max_at[i] = c->d[i].max_at;
	}
}

void rows_store_task(struct monitor *m, struct task *k,
		     struct store_task *st)
{
	/* rows_reading gives every member of st->r: clear only the rest */
	memset(&st->have, 0, sizeof(*st) - offsetof(struct store_task, have));
	rows_reading(m, k, &st->r);
	/* an ended task shown already: nothing new of it */
	if (!k->have_cur || (k->exited && k->shown))
		st->have |= STORE_REPEAT;
	store_identity(m, k, st);
}

/*
 * Task k's store task st into the kept sample (thread: of the thread
 * readings); a carried reading there holds the counters that stand, so
 * that a recording's reader starting at this sample has the task's base.
 */
static void keep(struct monitor *m, const struct task *k, bool thread,
		 const struct store_task *st)
{
	struct store_task *w = storesample_push(m->whole, thread, st);
	struct ts_reading base;
	const struct ts_reading *c = k->cur;

	if (!w || !(w->r.flags & READING_CARRIED))
		return;
	if (!c) {
		/* the counters that stand are the base's (it keeps no max
		   times: as the live base, they are 0) */
		if (!k->ds.have_prev)
			return;
		delta_base_reading(&k->ds.prev, &base);
		c = &base;
	}
	w->r.flags |= READING_STANDING;
	w->r.run_ns = c->run_ns;
	for (int i = 0; i < NCAT; i++) {
		w->r.d[i].count = c->d[i].count;
		w->r.d[i].total_ns = c->d[i].total_ns;
		w->r.d[i].max_ns = c->d[i].max_ns;
		w->r.max_at[i] = c->d[i].max_at;
	}
}

struct build_ctx {
	struct monitor *m;
	enum assemble_set set;
};

/* Task k's reading to the model, which makes its row (if it has one). */
static void build_row(struct task *k, void *arg)
{
	const struct build_ctx *c = arg;
	struct store_task st;

	rows_store_task(c->m, k, &st);
	if (c->m->whole)
		keep(c->m, k, c->set == ASSEMBLE_THREADS, &st);
	assemble_task(&c->m->model, &st, &k->ds, c->set);
}

struct keep_ctx {
	struct monitor *m;
	bool thread;
};

static void keep_task(struct task *k, void *arg)
{
	const struct keep_ctx *c = arg;
	struct store_task st;

	rows_store_task(c->m, k, &st);
	keep(c->m, k, c->thread, &st);
}

void rows_keep_baseline(struct monitor *m)
{
	struct keep_ctx c = { m, false };

	storesample_begin(m->whole);
	tasktable_foreach(tasks_active(m), keep_task, &c);
	if (rows_thread_readings(m)) {
		c.thread = true;
		tasktable_foreach(m->threads, keep_task, &c);
	}
}

/* The kept tasks of one table: those alive, of the same life. */
static void keep_status(struct monitor *m, struct tasktable *t,
			struct store_task *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct task *k;

		if ((v[i].r.flags & READING_ENDED) ||
		    !(k = tasktable_find(t, v[i].r.id)) ||
		    k->start != v[i].r.start || k->life != v[i].r.life)
			continue;
		context_store_status(m, k, &v[i]);
	}
}

void rows_keep_status(struct monitor *m)
{
	struct storesample *w = m->whole;

	keep_status(m, tasks_active(m), w->tasks, w->ntasks);
	if (m->threads && rows_thread_readings(m))
		keep_status(m, m->threads, w->threads, w->nthreads);
}

int rows_push_pid(struct monitor *m, pid_t pid)
{
	if (m->npidbuf == m->cappidbuf) {
		size_t n = m->cappidbuf ? m->cappidbuf * 2 : 256;
		pid_t *p = realloc(m->pidbuf, n * sizeof(*p));
		if (!p)
			return -1;
		m->pidbuf = p;
		m->cappidbuf = n;
	}
	m->pidbuf[m->npidbuf++] = pid;
	return 0;
}

static void collect_need_details(struct task *k, void *arg)
{
	struct monitor *m = arg;
	if (k->exited)
		return;
	if (!k->comm || !k->cmdline || k->details_stale)
		rows_push_pid(m, k->id);
}

struct details_ctx {
	struct monitor *m;
	struct tasktable *t;
};

void rows_take_details(struct monitor *m, struct tasktable *t,
		       const struct procinfo_details *d)
{
	struct task *k = tasktable_find(t, d->pid);
	if (!k)
		return;
	if (d->start && tasktable_order(tasks_span(k), tasktable_span_ticks(d->start,
							    procinfo_hertz())) != TT_SAME)
		return; /* another task now has this id */
	k->start = d->start;
	tasks_waits_from_ticks(m, k, d->start);
	taskinfo_from_details(&k->info, d); /* ctx is read apart (context_fill) */
	k->info_round = m->round;
	k->info_stale = false;
	if (d->info.threads > 1)
		k->multi = true;
	if (d->comm) {
		k->uid = d->uid;
		tasktable_set_details(k, d->comm, d->cmdline ? d->cmdline : "",
				 d->user);
		k->details_stale = false;
	}
}

static void on_details(const struct procinfo_details *d, void *arg)
{
	struct details_ctx *c = arg;

	rows_take_details(c->m, c->t, d);
}

/*
 * Thread rows: the name from the thread's own taskstats record (or raw
 * from /proc where readings come from /proc), the command line and user
 * from its process. No per-thread libproc2 read.
 */
static void thread_identity(struct task *k, void *arg)
{
	struct monitor *m = arg;
	if (k->cur && k->cur->kind == TS_KIND_PID && k->cur->have_basic &&
	    k->cur->comm[0]) {
		tasktable_set_details(k, k->cur->comm, NULL, NULL);
	} else if (!k->comm || k->details_stale) {
		const char *comm = procinfo_comm(m->pi, k->id);
		if (comm)
			tasktable_set_details(k, comm, NULL, NULL);
	}
	k->details_stale = false;
	struct task *p = tasktable_find(m->procs, k->tgid);
	if (p && p->cmdline) {
		tasktable_share_details(k, p);
		k->uid = p->uid;
	}
}

/* Names and users for tasks new or changed since the last sample. */
void rows_refresh_details(struct monitor *m, struct tasktable *t)
{
	m->npidbuf = 0;
	tasktable_foreach(t, collect_need_details, m);
	if (!m->npidbuf)
		return;
	struct details_ctx c = { m, t };
	procinfo_details(m->pi, m->pidbuf, m->npidbuf, true, on_details, &c);
}

/*
 * A state that lasts until the task runs: asleep (S), or an idle kernel
 * thread (I). Every other one may end without the task's counters moving
 * (a stopped task continued, an uninterruptible sleep woken, a runnable
 * task not yet run), or is not known.
 */
bool rows_settled(char state)
{
	return state == 'S' || state == 'I';
}

/*
 * Whether k's details (state, parent, threads) can differ from those
 * read last: it ran or waited since (its counters moved after that
 * read), an event may have changed them (a thread began or ended, it
 * exec'd, its parent ended), or its state was not a settled one. A task
 * woken from S that has not run yet still shows S: its first run moves
 * its counters.
 */
bool rows_info_due(const struct monitor *m, const struct task *k)
{
	return k->info_round != m->round &&
	       (k->info_stale || k->moved > k->info_round ||
		!rows_settled(k->info.state));
}

/* The parent of k has ended (or the id is another's now): read it again. */
static void check_parent(struct task *k, void *arg)
{
	struct monitor *m = arg;
	if (k->info.ppid <= 0 || k->info_stale)
		return;
	struct task *p = tasktable_find(m->procs, k->info.ppid);
	if (!p || p->first_seen > m->prev_time)
		k->info_stale = true;
}

/* Processes ended since the last look: their children have another parent. */
static void check_parents(struct monitor *m)
{
	if (!m->parent_gone)
		return;
	m->parent_gone = false;
	tasktable_foreach(m->procs, check_parent, m);
}

/* The process k's details, if due, to read with the others (pidbuf). */
static void want_process_info(struct monitor *m, struct task *k)
{
	if (!rows_info_due(m, k))
		return;
	if (rows_push_pid(m, k->id) == 0) {
		/* asked once per round; what does not answer has ended */
		k->info_round = m->round;
		k->info_stale = false;
	}
}

/*
 * The process k of thread rows, if its parent can differ from the one
 * read: a thread row shows only that of it, not its state or threads,
 * and the parent changes only when it ends (check_parents marks the
 * children) or with an event that marks k (info_stale); a process new
 * to the table has none read yet.
 */
static void want_parent(struct monitor *m, struct task *k)
{
	if (k->info_round && !k->info_stale)
		return;
	want_process_info(m, k);
}

/* Read the brief details of the processes want_process_info() listed. */
static void read_wanted_info(struct monitor *m)
{
	struct details_ctx c = { m, m->procs };

	if (m->npidbuf)
		procinfo_details(m->pi, m->pidbuf, m->npidbuf, false,
				 on_details, &c);
}

/*
 * Thread rows: the thread's state (read with its context, unknown where
 * it was not: context_fill), and the parent of its process.
 */
static void fill_thread_status(struct monitor *m, struct row *rows, size_t n)
{
	if (m->threads)
		context_fill(m, m->threads, rows, n, true);
	m->npidbuf = 0;
	for (size_t i = 0; i < n; i++) {
		if (rows[i].flags & ROW_EXITED)
			continue;
		struct task *p = tasktable_find(m->procs, rows[i].tgid);
		if (p)
			want_parent(m, p);
	}
	read_wanted_info(m);
	for (size_t i = 0; i < n; i++) {
		if (rows[i].flags & ROW_EXITED)
			continue;
		struct task *k = context_state_wanted(m, &rows[i]) ?
				 tasktable_find(m->threads, rows[i].pid) : NULL;
		struct task *p = tasktable_find(m->procs, rows[i].tgid);
		rows[i].info.state = k && context_now(m, k) ?
				     k->info.state : '\0';
		if (p && p->info.ppid)
			rows[i].info.ppid = p->info.ppid;
	}
}

void rows_fill_status(struct monitor *m, struct row *rows, size_t n)
{
	if (m->status_filled)
		return; /* read for the recording already */
	check_parents(m);
	if (m->o.threads) {
		fill_thread_status(m, rows, n);
		return;
	}
	struct tasktable *t = m->procs;
	/* first the context: its read gives the details it finds due too */
	context_fill(m, t, rows, n, false);
	m->npidbuf = 0;
	for (size_t i = 0; i < n; i++) {
		struct task *k;
		if (!(rows[i].flags & ROW_EXITED) &&
		    (k = tasktable_find(t, rows[i].pid)))
			want_process_info(m, k);
	}
	read_wanted_info(m);
	for (size_t i = 0; i < n; i++) {
		if (rows[i].flags & ROW_EXITED)
			continue;
		struct task *k = tasktable_find(t, rows[i].pid);
		struct store_task st = { .have = 0 };
		if (!k)
			continue;
		/*
		 * as the store holds them (a replay's rows are made of that):
		 * where no details were read, the start and parent its
		 * events told
		 */
		rows_store_details(m, k, &st);
		assemble_info(&st, &rows[i].info);
	}
	gather_rows(m, rows, n);
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

static void add_threads(struct task *k, void *arg)
{
	size_t *n = arg;
	if (k->info.threads > 0)
		*n += (size_t)k->info.threads;
}

/*
 * Threads known, in the scope of the processes: the kernel's count of the
 * whole machine, unless stalltop sees only a pid namespace's processes,
 * or only some processes; then theirs.
 */
size_t rows_count_threads(struct monitor *m)
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

void rows_forget(struct monitor *m)
{
	m->status_filled = false;
	tasktable_given(m->procs);
	if (m->threads)
		tasktable_given(m->threads);
	if (m->o.accumulate) {
		/* ended tasks stay in the window, up to a limit */
		tasktable_trim_retired(m->procs, ASSEMBLE_ENDED_MAX);
		if (m->threads)
			tasktable_trim_retired(m->threads, ASSEMBLE_ENDED_MAX);
	} else {
		tasktable_free_retired_if(m->procs, was_shown, NULL);
		if (m->threads)
			tasktable_free_retired_if(m->threads, was_shown, NULL);
	}
}

void rows_build(struct monitor *m)
{
	struct tasktable *t = tasks_active(m);
	rows_refresh_details(m, m->procs);
	if (m->threads)
		tasktable_foreach(m->threads, thread_identity, m);
	if (cgsum_used(m))
		cgsum_update_all(m);
	struct build_ctx c = { m, ASSEMBLE_ROWS };
	tasktable_foreach(t, build_row, &c);
	tasktable_foreach_retired(t, build_row, &c);
	tasktable_foreach_retired(t, mark_shown, NULL);
	/* processes ended in thread mode: their threads' rows say it */
	if (m->o.threads)
		tasktable_foreach_retired(m->procs, mark_shown, NULL);
	if (rows_thread_readings(m)) {
		struct build_ctx tc = { m, ASSEMBLE_THREADS };
		tasktable_foreach(m->threads, build_row, &tc);
		tasktable_foreach_retired(m->threads, build_row, &tc);
		tasktable_foreach_retired(m->threads, mark_shown, NULL);
	}
}

bool rows_thread_readings(const struct monitor *m)
{
	return m->o.record_threads && !m->o.threads;
}
