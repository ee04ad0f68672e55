/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The monitor's rows: what each task did in the interval, checked and
 * made into struct row (with its name, user and cgroup), the details read
 * for new tasks, and the state read for the rows a view shows.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "kernel/procinfo.h"
#include "kernel/taskstats.h"
#include "live/monitor_int.h"
#include "live/taskinfo.h"
#include "live/tasktable.h"
#include "model/cgname.h"
#include "model/delta.h"
#include "model/derive.h"
#include "model/producer.h"
#include "store/reading.h"

/* exited tasks kept for accumulated mode (-a), newest first */
#define MAX_RETIRED 10000

struct build_ctx {
	struct monitor *m;
	double now;
	double dt;
	bool recording;   /* rows for sample.thread_rows */
};

static void fill_identity(struct monitor *m, struct task *k, struct row *r)
{
	r->pid = k->id;
	r->tgid = k->tgid;
	r->info = k->info;
	/* read for the rows shown (rows_fill_status), never carried over */
	memset(&r->info.ctx, 0, sizeof(r->info.ctx));
	if (m->o.threads)
		r->info.threads = -1;
	r->uid = k->uid;
	/* a thread's own record names it (process records leave it blank) */
	if (k->have_cur && k->cur.kind == TS_KIND_PID && k->cur.have_basic) {
		if (!k->comm && k->cur.comm[0])
			tasktable_set_details(k, k->cur.comm, NULL, NULL);
		if (k->uid == (uid_t)-1) {
			k->uid = k->cur.uid;
			r->uid = k->uid;
		}
		if (!k->info.ppid)
			r->info.ppid = (pid_t)k->cur.ppid;
	}
	if (!k->user && k->uid != (uid_t)-1)
		tasktable_set_details(k, NULL, NULL, procinfo_user_name(m->pi, k->uid));
	if (cgsum_used(m)) {
		struct task *p = k->id == k->tgid && !m->o.threads ? k :
				 tasktable_find(m->procs, k->tgid);
		r->cgroup = p ? p->cgroup : k->cgroup;
	}
	r->comm = k->comm ? k->comm : "";
	r->cmdline = k->cmdline ? k->cmdline : "";
	r->user = k->user ? k->user : "";
}

/* The categories with true figures for this task (delta_cats). */
static unsigned task_cats(const struct monitor *m, const struct task *k)
{
	return delta_cats(m->kernel_cats, m->delayacct == 1, m->acct_hi,
			  k->waits_from);
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

static unsigned reading_flags(const struct monitor *m, const struct task *k)
{
	unsigned f = 0;
	if (k->cur.kind == TS_KIND_PID)
		f |= READING_OWN | READING_ONE;
	if (m->o.threads || single_threaded(m, k))
		f |= READING_ONE;
	if (threads_steady(m, k))
		f |= READING_STEADY;
	if (k->carried && !k->have_final)
		f |= READING_CARRIED;
	if (k->have_final)
		f |= READING_FINAL;
	if (k->exited)
		f |= READING_ENDED;
	return f;
}

void rows_reading(const struct monitor *m, const struct task *k,
		  struct task_reading *r)
{
	const struct ts_reading *c = &k->cur;

	r->id = k->id;
	r->tgid = k->tgid;
	r->start = k->start;
	r->asked_at = k->have_final ? k->cur_at : m->query_start;
	r->at = reading_at(m, k);
	r->born = k->waits_from;
	r->age = task_age(m, k);
	r->first_seen = k->first_seen;
	r->cats = task_cats(m, k);
	r->threads = k->info.threads > 0 ? k->info.threads : 0;
	r->flags = reading_flags(m, k);
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

/* The sample's window, as the model takes it. */
static void sample_window(const struct build_ctx *c, struct derive_window *w)
{
	const struct monitor *m = c->m;

	w->round = m->round;
	w->accumulate = m->o.accumulate;
	w->now = c->now;
	w->dt = c->dt;
	w->start = m->start_time;
	w->prev_time = m->prev_time;
	w->from = m->prev_real;
	w->to = m->reading_real;
}

static void build_row(struct task *k, void *arg)
{
	struct build_ctx *c = arg;
	struct monitor *m = c->m;
	struct task_reading rd;
	struct derive_window w;
	struct delta iv;
	rows_reading(m, k, &rd);
	sample_window(c, &w);
	/* an ended task shown already: nothing new of it */
	bool fresh = k->have_cur && !(k->exited && k->shown);
	if (!derive_interval(&k->ds, fresh ? &rd : NULL, &w, &iv))
		return;
	struct row *r;
	if (c->recording) {
		/* ended threads apart, as a view of threads shows them */
		if (k->exited && !m->o.accumulate)
			r = producer_push_row(&m->texited, &m->ntexited,
					      &m->captexited);
		else
			r = producer_push_row(&m->trows, &m->ntrows,
					      &m->captrows);
	} else if (k->exited && !m->o.accumulate) {
		r = producer_push_row(&m->exited, &m->nexited, &m->capexited);
	} else {
		r = producer_push_row(&m->rows, &m->nrows, &m->caprows);
	}
	if (!r)
		return;
	fill_identity(m, k, r);
	if (m->o.cgroup_within &&
	    (!r->cgroup || !cgname_within(r->cgroup, m->o.cgroup_within))) {
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
		r->info.state = 'X';
	}
	unsigned dropped = derive_figures(&iv, &rd, &w, r);
	if (c->recording)
		return;
	/* the figures of the window dropped as impossible */
	m->dropped += dropped;
	if (!m->o.threads && !(k->exited && !m->o.accumulate)) {
		/* a live process row: where its threads' maxima can go */
		k->row_round = m->round;
		k->row_at = (size_t)(r - m->rows);
	}
}

static int push_pid(struct monitor *m, pid_t pid)
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
		push_pid(m, k->id);
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
	if (d->start && tasktable_order(tasks_span(k), tasktable_span_ticks(d->start,
							    procinfo_hertz())) != TT_SAME)
		return; /* another task now has this id */
	k->start = d->start;
	tasks_waits_from_ticks(c->m, k, d->start);
	taskinfo_from_details(&k->info, d); /* ctx is read apart (fill_context) */
	k->info_round = c->m->round;
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
static bool settled(char state)
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
static bool info_due(const struct monitor *m, const struct task *k)
{
	return k->info_round != m->round &&
	       (k->info_stale || k->moved > k->info_round ||
		!settled(k->info.state));
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
	if (!info_due(m, k))
		return;
	if (push_pid(m, k->id) == 0) {
		/* asked once per round; what does not answer has ended */
		k->info_round = m->round;
		k->info_stale = false;
	}
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
 * A rate from two readings of a counter: none for the first reading,
 * an unreadable one, or a counter that went back (another task's, or
 * garbage), as the trust rules want.
 */
static bool counter_rate(bool have_prev, unsigned long long prev,
			 bool have_now, unsigned long long now, double dt,
			 double *out)
{
	if (!have_prev || !have_now || !(dt > 0) || now < prev)
		return false;
	*out = (double)(now - prev) / dt;
	return true;
}

struct context_read {
	struct monitor *m;
	struct tasktable *t;
};

static void on_context(const struct procinfo_context *c, void *arg)
{
	struct context_read *cr = arg;
	struct monitor *m = cr->m;
	struct task *k = tasktable_find(cr->t, c->pid);
	bool follows;
	double dt;

	if (!k || (c->start && k->start && c->start != k->start))
		return; /* gone, or the id is another task's now */
	/* rates only between readings of consecutive samples, per interval */
	follows = k->ctx_round && k->ctx_round + 1 == m->round &&
		  !m->o.accumulate;
	dt = c->at - k->ctx_at;
	struct task_ctx *x = &k->info.ctx;

	taskinfo_ctx_from(x, c);
	if (counter_rate(follows && k->ctx_have_majflt, k->ctx_majflt,
			 c->have_majflt, c->majflt, dt, &x->majflt_ps))
		x->have |= CTX_MAJFLT;
	if (counter_rate(follows && k->ctx_have_io, k->ctx_rbytes, c->have_io,
			 c->read_bytes, dt, &x->read_bps))
		x->have |= CTX_READ;
	if (counter_rate(follows && k->ctx_have_io, k->ctx_wbytes, c->have_io,
			 c->write_bytes, dt, &x->write_bps))
		x->have |= CTX_WRITE;
	k->ctx_round = m->round;
	k->ctx_at = c->at;
	k->ctx_have_majflt = c->have_majflt;
	k->ctx_majflt = c->majflt;
	k->ctx_have_io = c->have_io;
	k->ctx_rbytes = c->read_bytes;
	k->ctx_wbytes = c->write_bytes;
}

/*
 * What stands next to the stall of these rows, read once per reading
 * (a view may ask again: it gets the same), into each row.
 */
static void fill_context(struct monitor *m, struct tasktable *t,
			 struct row *rows, size_t n, bool threads)
{
	struct context_read cr = { m, t };

	m->npidbuf = 0;
	for (size_t i = 0; i < n; i++) {
		struct task *k;

		if (!(rows[i].flags & ROW_EXITED) &&
		    (k = tasktable_find(t, rows[i].pid)) &&
		    k->ctx_round != m->round)
			push_pid(m, k->id);
	}
	if (m->npidbuf)
		procinfo_context(m->pi, m->pidbuf, m->npidbuf, threads,
				 on_context, &cr);
	for (size_t i = 0; i < n; i++) {
		struct task *k;

		memset(&rows[i].info.ctx, 0, sizeof(rows[i].info.ctx));
		if (!(rows[i].flags & ROW_EXITED) &&
		    (k = tasktable_find(t, rows[i].pid)) &&
		    k->ctx_round == m->round)
			rows[i].info.ctx = k->info.ctx;
	}
}

/* Thread rows: the thread's state, and the parent of its process. */
static void fill_thread_status(struct monitor *m, struct row *rows, size_t n)
{
	m->npidbuf = 0;
	for (size_t i = 0; i < n; i++) {
		if (rows[i].flags & ROW_EXITED)
			continue;
		struct task *k = tasktable_find(m->threads, rows[i].pid);
		struct task *p = tasktable_find(m->procs, rows[i].tgid);
		if (k && info_due(m, k)) {
			k->info.state = procinfo_thread_state(rows[i].tgid,
							      rows[i].pid);
			k->info_round = m->round;
			k->info_stale = false;
		}
		if (p)
			want_process_info(m, p);
	}
	read_wanted_info(m);
	for (size_t i = 0; i < n; i++) {
		if (rows[i].flags & ROW_EXITED)
			continue;
		struct task *k = tasktable_find(m->threads, rows[i].pid);
		struct task *p = tasktable_find(m->procs, rows[i].tgid);
		if (k)
			rows[i].info.state = k->info.state;
		if (p && p->info.ppid)
			rows[i].info.ppid = p->info.ppid;
	}
	if (m->threads)
		fill_context(m, m->threads, rows, n, true);
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
		if (!k)
			continue;
		rows[i].info = k->info; /* process rows: threads is theirs */
	}
	fill_context(m, t, rows, n, false);
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
	if (m->o.accumulate) {
		/* ended tasks stay in the window, up to a limit */
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
}

void rows_build(struct monitor *m, double now, double dt)
{
	struct tasktable *t = tasks_active(m);
	rows_refresh_details(m, m->procs);
	if (m->threads)
		tasktable_foreach(m->threads, thread_identity, m);
	if (cgsum_used(m))
		cgsum_update_all(m);
	struct build_ctx c = { m, now, dt, false };
	tasktable_foreach(t, build_row, &c);
	tasktable_foreach_retired(t, build_row, &c);
	tasktable_foreach_retired(t, mark_shown, NULL);
	/* processes ended in thread mode: their threads' rows say it */
	if (m->o.threads)
		tasktable_foreach_retired(m->procs, mark_shown, NULL);
	m->ntrows = m->ntexited = 0;
	if (m->o.record_threads && !m->o.threads) {
		struct build_ctx tc = { m, now, dt, true };
		tasktable_foreach(m->threads, build_row, &tc);
		tasktable_foreach_retired(m->threads, build_row, &tc);
		tasktable_foreach_retired(m->threads, mark_shown, NULL);
		max_from_threads(m);
	}
}

void rows_thread_rows(struct monitor *m, struct sample *out)
{
	static struct row none;
	out->thread_rows = m->trows ? m->trows : &none;
	out->nthread_rows = m->ntrows;
	out->thread_exited = m->texited ? m->texited : &none;
	out->nthread_exited = m->ntexited;
}
