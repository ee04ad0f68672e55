/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A sample of readings made into the sample views see (assemble.h).
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "model/assemble.h"
#include "model/cgname.h"
#include "model/producer.h"
#include "model/wchan.h"

_Static_assert(STORE_WCHAN_MAX == TASK_WCHAN_MAX,
	       "a wait channel read is what a row shows");

void assemble_init(struct assemble *a, const struct assemble_settings *set)
{
	memset(a, 0, sizeof(*a));
	a->set = *set;
}

void assemble_free(struct assemble *a)
{
	free(a->rows);
	free(a->exited);
	free(a->trows);
	free(a->texited);
	memset(a, 0, sizeof(*a));
}

static void keep_clocks(struct assemble *a, const struct store_sample *in)
{
	a->prev_mono = in->mono;
	a->prev_real = in->real;
	a->psi_prev = in->psi;
	a->have_prev = true;
}

void assemble_baseline(struct assemble *a, const struct store_sample *in)
{
	keep_clocks(a, in);
}

void assemble_reserve(struct assemble *a, size_t n)
{
	/* an eighth more, for the tasks that begin before the next sample */
	size_t want = n + n / 8;
	if (a->caprows >= n || want < n)
		return;
	struct row *r = realloc(a->rows, want * sizeof(*r));
	if (!r)
		return;
	a->rows = r;
	a->caprows = want;
}

/*
 * Rows an array keeps room for whatever it held; one with room for more
 * than four times the rows of the last sample (a large process ended)
 * gives it back down to twice those.
 */
#define ROWS_KEEP 1024

static void shrink(struct row **v, size_t *cap, size_t n)
{
	size_t c = n > ROWS_KEEP / 2 ? 2 * n : ROWS_KEEP;
	struct row *p;

	if (*cap <= ROWS_KEEP || *cap / 4 <= n)
		return;
	if ((p = realloc(*v, c * sizeof(*p)))) {
		*v = p;
		*cap = c;
	}
}

void assemble_begin(struct assemble *a, const struct store_sample *in)
{
	struct derive_window *w = &a->w;

	/* the last sample's rows are done with */
	shrink(&a->rows, &a->caprows, a->nrows);
	shrink(&a->exited, &a->capexited, a->nexited);
	shrink(&a->trows, &a->captrows, a->ntrows);
	shrink(&a->texited, &a->captexited, a->ntexited);
	a->round++;
	a->nrows = a->nexited = a->ntrows = a->ntexited = 0;
	a->dropped = 0;
	w->round = a->round;
	w->accumulate = a->set.accumulate;
	w->now = in->mono;
	w->dt = a->have_prev ? in->mono - a->prev_mono : 0;
	w->start = a->set.start;
	w->prev_time = a->prev_mono;
	w->from = a->have_prev ? a->prev_real : 0;
	w->to = in->real;
}

static void row_identity(const struct assemble *a, const struct store_task *t,
			 struct row *r)
{
	r->pid = t->r.id;
	r->tgid = t->r.tgid;
	r->uid = (t->have & STORE_HAVE_UID) ? (uid_t)t->uid : (uid_t)-1;
	r->comm = t->comm ? t->comm : "";
	r->cmdline = t->cmdline ? t->cmdline : "";
	r->user = t->user ? t->user : "";
	r->cgroup = t->cgroup;
	assemble_info(t, &r->info);
	assemble_context(a, NULL, t, &r->ctx);
}

/* Where t's row goes: the set's rows or, for an ended task, its exited. */
static struct row *push(struct assemble *a, bool ended, enum assemble_set set)
{
	bool apart = ended && !a->set.accumulate;

	if (set == ASSEMBLE_THREADS)
		return apart ? producer_push_row(&a->texited, &a->ntexited,
						 &a->captexited)
			     : producer_push_row(&a->trows, &a->ntrows,
						 &a->captrows);
	return apart ? producer_push_row(&a->exited, &a->nexited,
					 &a->capexited)
		     : producer_push_row(&a->rows, &a->nrows, &a->caprows);
}

struct row *assemble_task(struct assemble *a, const struct store_task *t,
			  struct derive_state *s, enum assemble_set set)
{
	bool fresh = !(t->have & STORE_REPEAT);
	bool ended = t->r.flags & READING_ENDED;
	struct delta iv;

	if (!derive_interval(s, fresh ? &t->r : NULL, &a->w, &iv)) {
		if (fresh)
			derive_rebase(s, &t->r);
		return NULL;
	}
	if (fresh)
		derive_rebase(s, &t->r);
	if (a->set.cgroup_within &&
	    (!t->cgroup || !cgname_within(t->cgroup, a->set.cgroup_within)))
		return NULL; /* outside the subtree asked for */
	struct row *r = push(a, ended, set);
	if (!r)
		return NULL;
	row_identity(a, t, r);
	if (ended) {
		r->flags |= ROW_EXITED;
		r->info.state = 'X';
	}
	unsigned dropped = derive_figures(&iv, &t->r, &a->w, r);
	if (set == ASSEMBLE_ROWS)
		a->dropped += dropped;
	return r;
}

/*
 * The row of process tgid among rows sorted by tgid (by), or NULL; of
 * two lives of one id (-a keeps the ended), the live one.
 */
static struct row *row_of(struct row **by, size_t n, pid_t tgid)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (by[mid]->tgid < tgid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && by[lo]->tgid == tgid ? by[lo] : NULL;
}

/* By tgid, a live row before an ended one of the same id. */
static int by_tgid(const void *x, const void *y)
{
	const struct row *a = *(struct row *const *)x;
	const struct row *b = *(struct row *const *)y;
	unsigned ea = a->flags & ROW_EXITED, eb = b->flags & ROW_EXITED;
	if (a->tgid != b->tgid)
		return (a->tgid > b->tgid) - (a->tgid < b->tgid);
	return (ea > eb) - (ea < eb);
}

/* What a process's threads' rows say of its longest wait in c. */
struct span {
	uint64_t count;
	double max;
	bool unknown;
};

static void add_span(struct span *s, const struct cat_figure *f)
{
	if (!f->avail || !f->have_count) {
		s->unknown = true;
	} else if (f->count) {
		s->count += f->count;
		s->unknown |= !f->have_max;
		if (f->max_ms > s->max)
			s->max = f->max_ms;
	}
}

/*
 * A process's longest wait is its threads' (its own record carries just
 * one live thread's): known where every wait of the window is in a thread
 * row whose longest wait is known.
 */
static void max_from_threads(struct assemble *a)
{
	struct row **by;
	struct span *sp;

	if (!a->nrows || !(by = malloc(a->nrows * sizeof(*by))))
		return;
	if (!(sp = calloc(a->nrows * NCAT, sizeof(*sp)))) {
		free(by);
		return;
	}
	for (size_t i = 0; i < a->nrows; i++)
		by[i] = &a->rows[i];
	qsort(by, a->nrows, sizeof(*by), by_tgid);
	for (size_t i = 0; i < a->ntrows + a->ntexited; i++) {
		const struct row *t = i < a->ntrows ? &a->trows[i]
						     : &a->texited[i - a->ntrows];
		const struct row *p = row_of(by, a->nrows, t->tgid);
		if (!p)
			continue;
		for (int c = 0; c < NCAT; c++)
			add_span(&sp[(size_t)(p - a->rows) * NCAT + c], &t->d[c]);
	}
	for (size_t i = 0; i < a->nrows; i++) {
		for (int c = 0; c < NCAT; c++) {
			struct cat_figure *f = &a->rows[i].d[c];
			const struct span *s = &sp[i * NCAT + c];
			if (!f->avail || !f->have_count || !f->count ||
			    s->unknown || s->count != f->count)
				continue;
			f->have_max = true;
			f->max_ms = s->max;
		}
	}
	free(sp);
	free(by);
}

/*
 * The machine line from its counters: the CPUs' busy share of the time
 * since the previous counters (neither idle nor waiting for IO), memory
 * and swap in use.
 */
static void machine_line(struct assemble *a, const struct store_machine *m,
			 struct sample_machine *out)
{
	const struct store_machine *p = &a->machine_prev;

	*out = (struct sample_machine){ .have_load = false };
	if (m->have & STORE_M_LOAD) {
		out->have_load = true;
		memcpy(out->load, m->load, sizeof(out->load));
	}
	/* a CPU going offline takes its ticks away: no figure then */
	if ((m->have & p->have & STORE_M_CPU) && m->cpu_total > p->cpu_total &&
	    m->cpu_idle >= p->cpu_idle &&
	    m->cpu_idle - p->cpu_idle <= m->cpu_total - p->cpu_total) {
		double dt = (double)(m->cpu_total - p->cpu_total);
		double di = (double)(m->cpu_idle - p->cpu_idle);
		out->cpu_busy = (dt - di) / dt * 100.0;
		out->have_cpu = true;
	}
	if ((m->have & STORE_M_MEM) && m->mem_available <= m->mem_total) {
		out->have_mem = true;
		out->mem_total = m->mem_total;
		out->mem_used = m->mem_total - m->mem_available;
	}
	if ((m->have & STORE_M_SWAP) && m->swap_free <= m->swap_total) {
		out->have_swap = true;
		out->swap_total = m->swap_total;
		out->swap_used = m->swap_total - m->swap_free;
	}
	a->machine_prev = *m;
}

void assemble_end(struct assemble *a, const struct store_sample *in,
		  struct sample *out)
{
	static struct row none;

	if (in->thread_readings)
		max_from_threads(a);
	memset(out, 0, sizeof(*out));
	out->time = in->time;
	out->boottime = in->boot;
	out->interval = a->set.accumulate ? in->mono - a->set.start : a->w.dt;
	out->delayacct = in->delayacct == STORE_DELAYACCT_ON;
	out->delayacct_known = in->delayacct != STORE_DELAYACCT_UNKNOWN;
	out->ts_version = in->ts_version;
	out->events_lost = in->events_lost;
	out->exit_records_lost = in->exit_records_lost;
	out->dropped = a->dropped;
	out->threads = in->threads;
	out->accumulated = a->set.accumulate;
	delta_psi(&a->psi_prev, &in->psi, &out->psi);
	out->rows = a->rows;
	out->nrows = a->nrows;
	out->exited = a->exited;
	out->nexited = a->nexited;
	if (in->thread_readings) {
		out->thread_rows = a->trows ? a->trows : &none;
		out->nthread_rows = a->ntrows;
		out->thread_exited = a->texited ? a->texited : &none;
		out->nthread_exited = a->ntexited;
	}
	machine_line(a, &in->machine, &out->machine);
	out->trigger = in->trigger;
	out->nprocs = (size_t)in->nprocs;
	out->nthreads = (size_t)in->nthreads;
	keep_clocks(a, in);
}

/*
 * A rate from two readings of a counter: none for the first reading, an
 * unreadable one, or a counter that went back (another task's, or
 * garbage), as the trust rules want.
 */
static bool counter_rate(bool have_prev, uint64_t prev, bool have_now,
			 uint64_t now, double dt, double *out)
{
	if (!have_prev || !have_now || !(dt > 0) || now < prev)
		return false;
	*out = (double)(now - prev) / dt;
	return true;
}

void assemble_context(const struct assemble *a, const struct store_task *prev,
		      const struct store_task *cur, struct task_ctx *out)
{
	static const struct store_task none;
	uint32_t h = cur->have;

	*out = (struct task_ctx){ .have = 0 };
	if (h & STORE_HAVE_NICE) {
		out->nice = cur->nice;
		out->have |= CTX_NICE;
	}
	if (h & STORE_HAVE_RSS) {
		out->rss_kib = cur->rss_kib;
		out->have |= CTX_RSS;
	}
	if (h & STORE_HAVE_SWAP) {
		out->swap_kib = cur->swap_kib;
		out->have |= CTX_SWAP;
	}
	if ((h & STORE_HAVE_WCHAN) && (out->wchan = wchan_keep(cur->wchan)))
		out->have |= CTX_WCHAN;
	if (!prev)
		prev = &none;
	/* rates only between readings of consecutive samples, per interval */
	bool follows = !a->set.accumulate && (prev->have & h & STORE_HAVE_CTX_AT) &&
		       prev->ctx_at >= a->w.prev_time;
	uint32_t both = follows ? prev->have & h : 0;
	double dt = cur->ctx_at - prev->ctx_at;

	if (counter_rate(both & STORE_HAVE_MAJFLT, prev->majflt,
			 h & STORE_HAVE_MAJFLT, cur->majflt, dt, &out->majflt_ps))
		out->have |= CTX_MAJFLT;
	if (counter_rate(both & STORE_HAVE_IO, prev->read_bytes, h & STORE_HAVE_IO,
			 cur->read_bytes, dt, &out->read_bps))
		out->have |= CTX_READ;
	if (counter_rate(both & STORE_HAVE_IO, prev->write_bytes,
			 h & STORE_HAVE_IO, cur->write_bytes, dt,
			 &out->write_bps))
		out->have |= CTX_WRITE;
}

void assemble_info(const struct store_task *t, struct task_info *out)
{
	*out = TASK_INFO_UNKNOWN;
	if (t->have & STORE_HAVE_PPID)
		out->ppid = t->ppid;
	if (t->have & STORE_HAVE_STATE)
		out->state = t->state;
	if (t->have & STORE_HAVE_THREADS)
		out->threads = t->threads;
	if (t->have & STORE_HAVE_START)
		out->start = t->start_real;
}
