/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The model object over samples of readings (engine.h): the states of
 * tasks, kept in a tree (tsearch) by task life; those of cgroups in
 * model/cgmodel.c.
 */
#include <config.h>

#include "model/engine.h"

#include <search.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/assemble.h"
#include "model/cgmodel.h"
#include "model/rowev.h"
#include "model/tasklife.h"

/* What is kept of one task life. */
struct en_task {
	struct tasklife key;      /* first: tasklife_cmp */
	uint64_t seen;            /* the round it was last given in */
	uint64_t made;            /* the round it was first given in */
	struct derive_state ds;
	struct store_task ctx;    /* its last reading's context (strings NULL) */
	bool have_ctx;
	struct rowev_state *ev;   /* its evidence before, once it had some */
	/*
	 * Ended in -a's window: its row stays in the samples after, from
	 * its last reading (strings its own) where a sample lacks it (a
	 * recording made without -a), as the live monitor keeps it
	 */
	bool kept;
	struct store_task last;
};

struct engine {
	const char *within;
	bool accumulate;
	struct assemble a;
	uint64_t round;           /* baselines and samples given since reset */
	void *tasks;              /* tsearch tree of struct en_task */
	struct en_task **all;     /* the same, for sweeping */
	size_t nall, capall;
	struct en_task **ended;   /* those kept, oldest first */
	size_t nended, capended;
	struct cgmodel *cgs;
	/* per sample: the states of its tasks, and where their rows went */
	struct derive_state **states;
	struct en_task **pt;
	long *row_at;             /* >= 0 rows[i], < -1 exited[-2 - i], -1 none */
	size_t capstates;
	struct diskstats disks_prev;
	bool have_disks_prev;
	double prev_query;        /* the last sample's query_start */
	bool first;               /* the baseline is the recording's first
				     sample (the live monitor's baseline) */
};

/* The copy of the disks before goes. */
static void forget_disks(struct engine *en)
{
	free(en->disks_prev.dev);
	en->disks_prev = (struct diskstats){ 0 };
	en->have_disks_prev = false;
}

struct engine *engine_new(const char *cgroup_within)
{
	struct engine *en = calloc(1, sizeof(*en));

	if (!en || !(en->cgs = cgmodel_new())) {
		free(en);
		return NULL;
	}
	en->within = cgroup_within;
	assemble_init(&en->a, &(struct assemble_settings){
		.cgroup_within = cgroup_within });
	return en;
}

static void unkeep(struct en_task *t)
{
	if (!t->kept)
		return;
	free((char *)t->last.comm);
	free((char *)t->last.cmdline);
	free((char *)t->last.user);
	free((char *)t->last.cgroup);
	t->kept = false;
}

static void task_free(void *p)
{
	struct en_task *t = p;

	unkeep(t);
	derive_free(&t->ds);
	free(t->ev);
	free(t);
}

static void nothing(void *p)
{
	(void)p;
}

void engine_reset(struct engine *en, bool accumulate)
{
	tdestroy(en->tasks, nothing);
	en->tasks = NULL;
	for (size_t i = 0; i < en->nall; i++)
		task_free(en->all[i]);
	en->nall = 0;
	en->nended = 0;
	cgmodel_reset(en->cgs);
	assemble_free(&en->a);
	assemble_init(&en->a, &(struct assemble_settings){
		.cgroup_within = en->within });
	en->accumulate = accumulate;
	en->round = 0;
	forget_disks(en);
}

void engine_window(struct engine *en, double mono)
{
	en->accumulate = true;
	en->a.set.accumulate = true;
	en->a.set.start = mono;
	for (size_t i = 0; i < en->nall; i++)
		derive_forget_window(&en->all[i]->ds);
	/* the tasks that ended before it are not in it */
	for (size_t i = 0; i < en->nended; i++)
		unkeep(en->ended[i]);
	en->nended = 0;
}

bool engine_started(const struct engine *en)
{
	return en->round > 0;
}

static int grow(void **v, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return 0;
	size_t n = *cap ? *cap : 64;
	while (n < need)
		n *= 2;
	void *p = realloc(*v, n * size);
	if (!p)
		return -1;
	*v = p;
	*cap = n;
	return 0;
}

/* The state of t's life, made when new; NULL: no memory. */
static struct en_task *task_of(struct engine *en, const struct store_task *t,
			       bool thread)
{
	struct en_task key = { .key = { .id = t->r.id, .start = t->r.start,
					.life = t->r.life, .thread = thread } };
	struct en_task **found = tfind(&key, &en->tasks, tasklife_cmp);

	if (found)
		return *found;
	size_t cap = en->capall;
	if (grow((void **)&en->all, &cap, en->nall + 1, sizeof(*en->all)) < 0)
		return NULL;
	en->capall = cap;
	struct en_task *n = calloc(1, sizeof(*n));
	if (!n)
		return NULL;
	*n = key;
	if (!tsearch(n, &en->tasks, tasklife_cmp)) {
		free(n);
		return NULL;
	}
	en->all[en->nall++] = n;
	return n;
}

/* Forget the tasks the sample of round did not give. */
static void sweep_tasks(struct engine *en)
{
	size_t kept = 0;

	for (size_t i = 0; i < en->nall; i++) {
		struct en_task *t = en->all[i];

		if (t->seen == en->round) {
			en->all[kept++] = t;
			continue;
		}
		tdelete(t, &en->tasks, tasklife_cmp);
		task_free(t);
	}
	en->nall = kept;
}

/* The states of in's tasks (of one kind) into en->states and en->pt. */
static int states_of(struct engine *en, const struct store_task *v,
		     size_t n, bool thread, size_t at)
{
	for (size_t i = 0; i < n; i++) {
		struct en_task *t = task_of(en, &v[i], thread);

		if (!t)
			return -1;
		if (!t->made)
			t->made = en->round;
		t->seen = en->round;
		en->pt[at + i] = t;
		en->states[at + i] = &t->ds;
	}
	return 0;
}

static int reserve(struct engine *en, size_t n)
{
	size_t c1 = en->capstates, c2 = en->capstates, c3 = en->capstates;

	if (grow((void **)&en->states, &c1, n, sizeof(*en->states)) < 0 ||
	    grow((void **)&en->pt, &c2, n, sizeof(*en->pt)) < 0 ||
	    grow((void **)&en->row_at, &c3, n, sizeof(*en->row_at)) < 0)
		return -1;
	en->capstates = c1 < c2 ? (c1 < c3 ? c1 : c3) : (c2 < c3 ? c2 : c3);
	return 0;
}

/*
 * A carried reading of a task without a base holds no counters: it is
 * not given to the model (it would count the task's life from zero).
 */
static bool usable(const struct en_task *t, const struct store_task *st)
{
	return !(st->r.flags & READING_CARRIED) || t->ds.have_prev;
}

/*
 * The base of task t from its reading at a baseline. A carried reading
 * that holds the counters that stand (READING_STANDING: a recording's
 * key frame) is the base of a task that has none, as its last reading
 * with counters was, so that a reader starting here counts it as one
 * that played through to here.
 */
static void rebase(struct en_task *t, struct derive_state *ds,
		   const struct store_task *st)
{
	if ((st->r.flags & READING_CARRIED) &&
	    (st->r.flags & READING_STANDING) && !t->ds.have_prev) {
		struct task_reading r = st->r;

		r.flags &= ~(uint32_t)(READING_CARRIED | READING_STANDING);
		derive_rebase(ds, &r);
	} else if (usable(t, st)) {
		derive_rebase(ds, &st->r);
	}
}

static void from_zero(struct engine *en, const struct store_sample *in);

static void keep_disks(struct engine *en, const struct diskstats *d);

/*
 * The evidence read with the live monitor's baseline (a session's first
 * entry): the base of the next sample's, as the live monitor's
 * (live/gather.c, gather_base_read), with the disks. A key frame later
 * on holds the evidence its own sample's rows wanted, not such a base:
 * the next sample's evidence has current values only, as before a seek.
 */
static void base_evidence(struct engine *en, const struct store_sample *in)
{
	struct rowev_input ri = {
		.round = en->a.round,
		.lost = in->events_lost,
	};

	for (size_t i = 0; i < in->nevidence; i++) {
		const struct store_evidence *e = &in->evidence[i];

		for (size_t k = 0; e->id && k < in->ntasks; k++) {
			struct en_task *t = en->pt[k];

			if (in->tasks[k].r.id != e->id ||
			    in->tasks[k].r.start != e->start)
				continue;
			if (t->ev || (t->ev = calloc(1, sizeof(*t->ev))))
				rowev_base(t->ev, e, &ri);
			break;
		}
	}
	keep_disks(en, in->disks);
}

int engine_baseline(struct engine *en, const struct store_sample *in,
		       bool first)
{
	size_t n = in->ntasks + in->nthread_tasks;

	en->round++;
	en->first = first;
	if (reserve(en, n) < 0 ||
	    states_of(en, in->tasks, in->ntasks, false, 0) < 0 ||
	    states_of(en, in->thread_tasks, in->nthread_tasks, true,
		      in->ntasks) < 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		const struct store_task *st = i < in->ntasks ? &in->tasks[i]
			: &in->thread_tasks[i - in->ntasks];

		if (!(st->have & STORE_REPEAT))
			rebase(en->pt[i], en->states[i], st);
		if (st->have & STORE_REPEAT)
			continue;
		en->pt[i]->ctx = *st;
		en->pt[i]->ctx.comm = en->pt[i]->ctx.cmdline = NULL;
		en->pt[i]->ctx.user = en->pt[i]->ctx.cgroup = NULL;
		en->pt[i]->have_ctx = true;
	}
	from_zero(en, in);
	/* the cgroups' pressure of the baseline: the first interval's base */
	if (in->cgroups && cgmodel_prime(en->cgs, in->cgroups, in->ncgroups,
					 en->within) < 0)
		return -1;
	assemble_baseline(&en->a, in);
	if (first)
		base_evidence(en, in);
	en->prev_query = in->query_start;
	en->a.set.accumulate = en->accumulate;
	en->a.set.start = in->mono;
	sweep_tasks(en);
	return 0;
}

/*
 * A task without a base is counted from zero, as the live monitor counts
 * a task it learns of from an event after its readings: one known but
 * not read yet (STORE_REPEAT of a live task: its fork was seen), one that
 * began after the previous sample's queries began (its fork, as its
 * reading's born says), or one known only from its exit record.
 */
static void from_zero(struct engine *en, const struct store_sample *in)
{
	for (size_t i = 0; i < in->ntasks + in->nthread_tasks; i++) {
		const struct store_task *st = i < in->ntasks ? &in->tasks[i]
			: &in->thread_tasks[i - in->ntasks];
		struct en_task *t = en->pt[i];
		bool ended = st->r.flags & READING_ENDED;

		/* only a task new to the model, of a sample it can tell */
		if (t->ds.have_prev || t->made != en->round ||
		    (!en->a.have_prev && !en->first))
			continue;
		if (st->have & STORE_REPEAT) {
			if (!ended)
				derive_from_zero(&t->ds);
			continue;
		}
		if (en->a.have_prev &&
		    ((st->r.flags & READING_FINAL) ||
		     (st->r.born > 0 && st->r.born > en->prev_query)))
			derive_from_zero(&t->ds);
	}
}

/* The tasks' rows, remembering where each one's went. */
static void make_rows(struct engine *en, const struct store_sample *in)
{
	size_t n = in->ntasks + in->nthread_tasks;

	for (size_t i = 0; i < n; i++) {
		bool thread = i >= in->ntasks;
		const struct store_task *st = thread
			? &in->thread_tasks[i - in->ntasks] : &in->tasks[i];
		struct row *r = NULL;

		en->row_at[i] = -1;
		if (!usable(en->pt[i], st))
			continue;
		r = assemble_task(&en->a, st, en->states[i],
				  thread ? ASSEMBLE_THREADS : ASSEMBLE_ROWS);
		if (!r || thread)
			continue;
		if (r >= en->a.rows && r < en->a.rows + en->a.nrows)
			en->row_at[i] = r - en->a.rows;
		else
			en->row_at[i] = -2 - (r - en->a.exited);
	}
}

static struct row *row_at(struct engine *en, size_t i)
{
	long at = en->row_at[i];

	if (at >= 0)
		return &en->a.rows[at];
	return at < -1 ? &en->a.exited[-2 - at] : NULL;
}

/* What stands next to each row: from the task's reading and the last. */
static void make_context(struct engine *en, const struct store_sample *in)
{
	for (size_t i = 0; i < in->ntasks + in->nthread_tasks; i++) {
		bool thread = i >= in->ntasks;
		const struct store_task *st = thread
			? &in->thread_tasks[i - in->ntasks] : &in->tasks[i];
		struct en_task *t = en->pt[i];
		struct row *r = thread ? NULL : row_at(en, i);

		if (r)
			assemble_context(&en->a, t->have_ctx ? &t->ctx : NULL,
					 st, &r->ctx);
		if (st->have & STORE_REPEAT)
			continue;
		t->ctx = *st;
		t->ctx.comm = t->ctx.cmdline = t->ctx.user = NULL;
		t->ctx.cgroup = NULL;
		t->have_ctx = true;
	}
}

static int by_id(const void *x, const void *y)
{
	const struct store_task *a = *(const struct store_task *const *)x;
	const struct store_task *b = *(const struct store_task *const *)y;

	return (a->r.id > b->r.id) - (a->r.id < b->r.id);
}

/*
 * A thread's parent is its process's: the thread rows of live tasks take
 * the parent their process's reading names, as the live monitor's do.
 */
static void thread_parents(struct engine *en, const struct store_sample *in)
{
	const struct store_task **by;
	size_t n = 0;

	if (in->threads || !en->a.ntrows || !in->ntasks ||
	    !(by = malloc(in->ntasks * sizeof(*by))))
		return;
	for (size_t i = 0; i < in->ntasks; i++)
		if ((in->tasks[i].have & STORE_HAVE_PPID) &&
		    !(in->tasks[i].r.flags & READING_ENDED))
			by[n++] = &in->tasks[i];
	qsort(by, n, sizeof(*by), by_id);
	for (size_t i = 0; i < en->a.ntrows; i++) {
		struct row *r = &en->a.trows[i];
		struct store_task key = { .r.id = r->tgid };
		const struct store_task *k = &key, **p;

		if (r->info.ppid || (r->flags & ROW_EXITED))
			continue;
		p = bsearch(&k, by, n, sizeof(*by), by_id);
		if (p)
			r->info.ppid = (*p)->ppid;
	}
	free(by);
}

/* The cgroup rows of in, of those in the subtree asked for. */
static int make_cgroups(struct engine *en, const struct store_sample *in,
			struct sample *out)
{
	if (!in->cgroups)
		return 0;
	cgmodel_begin(en->cgs);
	return cgmodel_rows(en->cgs, in->cgroups, in->ncgroups, out->rows,
			    out->nrows, out->exited, out->nexited,
			    out->interval, en->within, &out->cgroups,
			    &out->ncgroups);
}

/* A copy of the disks read with this sample, the next one's before. */
static void keep_disks(struct engine *en, const struct diskstats *d)
{
	forget_disks(en);
	if (!d)
		return;
	en->disks_prev = *d;
	en->disks_prev.dev = d->n ? malloc(d->n * sizeof(*d->dev)) : NULL;
	en->disks_prev.cap = d->n;
	if (d->n && !en->disks_prev.dev) {
		en->disks_prev.n = en->disks_prev.cap = 0;
		return;
	}
	if (d->n)
		memcpy(en->disks_prev.dev, d->dev, d->n * sizeof(*d->dev));
	en->have_disks_prev = true;
}

/*
 * The row of process (id, start) among in's tasks, its latest life
 * where it has several (evidence is read of the one alive), or NULL.
 */
static struct row *task_row(struct engine *en, const struct store_sample *in,
			    int32_t id, uint64_t start, struct en_task **t)
{
	size_t at = in->ntasks;

	for (size_t i = 0; i < in->ntasks; i++)
		if (in->tasks[i].r.id == id && in->tasks[i].r.start == start &&
		    (at == in->ntasks || in->tasks[i].r.life > in->tasks[at].r.life))
			at = i;
	if (at == in->ntasks)
		return NULL;
	*t = en->pt[at];
	return row_at(en, at);
}

/* The evidence read with the sample into the rows it is of. */
static void make_evidence(struct engine *en, const struct store_sample *in,
			  struct sample *out)
{
	struct rowev_input ri = {
		.round = en->a.round,
		.lost = in->events_lost,
		.interval = en->a.w.dt,
		.disks_prev = en->have_disks_prev ? &en->disks_prev : NULL,
		.disks_cur = in->disks,
	};

	for (size_t i = 0; i < in->nevidence; i++) {
		const struct store_evidence *e = &in->evidence[i];
		struct en_task *t = NULL;
		struct row *r = NULL;

		if (e->id && (r = task_row(en, in, e->id, e->start, &t)) &&
		    (t->ev || (t->ev = calloc(1, sizeof(*t->ev)))))
			r->why = rowev_task(t->ev, e, &ri, r);
		for (size_t k = 0; !e->id && e->cgroup && k < out->ncgroups; k++)
			if (strcmp(out->cgroups[k].path, e->cgroup) == 0) {
				cgmodel_evidence(en->cgs, &out->cgroups[k], e,
						 &ri);
				break;
			}
	}
	keep_disks(en, in->disks);
}

static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

/*
 * The tasks of in that ended in -a's window are kept with their last
 * reading (its strings copied), at most ASSEMBLE_ENDED_MAX of processes
 * and of threads each, the oldest let go first.
 */
static int keep_ended(struct engine *en, const struct store_sample *in)
{
	size_t n = in->ntasks + in->nthread_tasks;

	if (!en->a.set.accumulate)
		return 0;
	for (size_t i = 0; i < n; i++) {
		const struct store_task *st = i < in->ntasks ? &in->tasks[i]
			: &in->thread_tasks[i - in->ntasks];
		struct en_task *t = en->pt[i];
		size_t cap = en->capended;

		if (t->kept || !(st->r.flags & READING_ENDED))
			continue;
		if (grow((void **)&en->ended, &cap, en->nended + 1,
			 sizeof(*en->ended)) < 0)
			return -1;
		en->capended = cap;
		t->last = *st;
		t->last.have |= STORE_REPEAT;
		t->last.comm = dup_or_null(st->comm);
		t->last.cmdline = dup_or_null(st->cmdline);
		t->last.user = dup_or_null(st->user);
		t->last.cgroup = dup_or_null(st->cgroup);
		t->kept = true;
		en->ended[en->nended++] = t;
		if ((st->comm && !t->last.comm) ||
		    (st->cmdline && !t->last.cmdline) ||
		    (st->user && !t->last.user) ||
		    (st->cgroup && !t->last.cgroup))
			return -1;
	}
	return 0;
}

/*
 * Let go of the oldest kept tasks beyond ASSEMBLE_ENDED_MAX of a kind
 * (as the live monitor trims its ended tasks): the sample at hand
 * forgets them.
 */
static void trim_ended(struct engine *en)
{
	size_t nthread = 0, nproc = 0, kept = 0;

	for (size_t i = 0; i < en->nended; i++)
		*(en->ended[i]->key.thread ? &nthread : &nproc) += 1;
	for (size_t i = 0; i < en->nended; i++) {
		struct en_task *t = en->ended[i];
		size_t *left = t->key.thread ? &nthread : &nproc;

		if (*left > ASSEMBLE_ENDED_MAX) {
			--*left;
			unkeep(t);
			continue;
		}
		en->ended[kept++] = t;
	}
	en->nended = kept;
}

/*
 * The rows of the kept tasks the sample lacks, from their last reading
 * repeated (as the live monitor's of a task it showed ended).
 */
static void kept_rows(struct engine *en)
{
	for (size_t i = 0; i < en->nended; i++) {
		struct en_task *t = en->ended[i];

		if (t->seen == en->round)
			continue;
		t->seen = en->round;
		assemble_task(&en->a, &t->last, &t->ds,
			      t->key.thread ? ASSEMBLE_THREADS : ASSEMBLE_ROWS);
	}
}

int engine_sample(struct engine *en, const struct store_sample *in,
		     struct sample *out)
{
	size_t n = in->ntasks + in->nthread_tasks;

	en->round++;
	trim_ended(en);
	if (reserve(en, n) < 0 ||
	    states_of(en, in->tasks, in->ntasks, false, 0) < 0 ||
	    states_of(en, in->thread_tasks, in->nthread_tasks, true,
		      in->ntasks) < 0)
		return -1;
	from_zero(en, in);
	assemble_begin(&en->a, in);
	make_rows(en, in);
	kept_rows(en);
	if (keep_ended(en, in) < 0)
		return -1;
	assemble_end(&en->a, in, out);
	thread_parents(en, in);
	make_context(en, in);
	if (make_cgroups(en, in, out) < 0)
		return -1;
	make_evidence(en, in, out);
	en->prev_query = in->query_start;
	sweep_tasks(en);
	return 0;
}

void engine_free(struct engine *en)
{
	if (!en)
		return;
	engine_reset(en, false);
	assemble_free(&en->a);
	free(en->all);
	free(en->ended);
	cgmodel_free(en->cgs);
	free(en->states);
	free(en->pt);
	free(en->row_at);
	free(en);
}
