/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The model over a recording of readings (playmodel.h): the states the
 * live monitor keeps in its tables, kept in trees (tsearch) by task life
 * and by cgroup path.
 */
#include <config.h>

#include "record/playmodel.h"

#include <errno.h>
#include <search.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/assemble.h"
#include "model/cgname.h"
#include "model/cgrows.h"
#include "model/rowev.h"

/* What is kept of one task life. */
struct pm_task {
	int32_t id;
	uint32_t life;            /* with id and start: one life */
	uint64_t start;
	bool thread;              /* a thread reading (thread_tasks) */
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

/* What is kept of one cgroup. */
struct pm_cgroup {
	char *path;
	uint64_t seen;
	struct cgrows_state st;
	struct rowev_state *ev;
};

struct playmodel {
	const char *within;
	bool accumulate;
	struct assemble a;
	uint64_t round;           /* baselines and samples given since reset */
	void *tasks;              /* tsearch tree of struct pm_task */
	struct pm_task **all;     /* the same, for sweeping */
	size_t nall, capall;
	struct pm_task **ended;   /* those kept, oldest first */
	size_t nended, capended;
	void *cgs;                /* tsearch tree of struct pm_cgroup */
	struct pm_cgroup **allcg;
	size_t nallcg, capallcg;
	/* per sample: the states of its tasks, and where their rows went */
	struct derive_state **states;
	struct pm_task **pt;
	long *row_at;             /* >= 0 rows[i], < -1 exited[-2 - i], -1 none */
	size_t capstates;
	struct cgroup_row *cgrows;
	struct cgrows_state **cgstate;
	struct pm_cgroup **pcg;
	unsigned *max_unknown;
	size_t capcg;
	struct diskstats disks_prev;
	bool have_disks_prev;
	double prev_query;        /* the last sample's query_start */
	bool first;               /* the baseline is the recording's first
				     sample (the live monitor's baseline) */
};

static int task_cmp(const void *x, const void *y)
{
	const struct pm_task *a = x, *b = y;

	if (a->thread != b->thread)
		return a->thread ? 1 : -1;
	if (a->id != b->id)
		return a->id < b->id ? -1 : 1;
	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	return (a->life > b->life) - (a->life < b->life);
}

static int cg_cmp(const void *x, const void *y)
{
	const struct pm_cgroup *a = x, *b = y;

	return strcmp(a->path, b->path);
}

struct playmodel *playmodel_new(const char *cgroup_within)
{
	struct playmodel *pm = calloc(1, sizeof(*pm));

	if (!pm)
		return NULL;
	pm->within = cgroup_within;
	assemble_init(&pm->a, &(struct assemble_settings){
		.cgroup_within = cgroup_within });
	return pm;
}

static void unkeep(struct pm_task *t)
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
	struct pm_task *t = p;

	unkeep(t);
	derive_free(&t->ds);
	free(t->ev);
	free(t);
}

static void cg_free(void *p)
{
	struct pm_cgroup *g = p;

	free((char *)g->st.name);
	free(g->ev);
	free(g->path);
	free(g);
}

static void nothing(void *p)
{
	(void)p;
}

void playmodel_reset(struct playmodel *pm, bool accumulate)
{
	tdestroy(pm->tasks, nothing);
	pm->tasks = NULL;
	for (size_t i = 0; i < pm->nall; i++)
		task_free(pm->all[i]);
	pm->nall = 0;
	pm->nended = 0;
	tdestroy(pm->cgs, nothing);
	pm->cgs = NULL;
	for (size_t i = 0; i < pm->nallcg; i++)
		cg_free(pm->allcg[i]);
	pm->nallcg = 0;
	assemble_free(&pm->a);
	assemble_init(&pm->a, &(struct assemble_settings){
		.cgroup_within = pm->within });
	pm->accumulate = accumulate;
	pm->round = 0;
	diskstats_free(&pm->disks_prev);
	pm->have_disks_prev = false;
}

void playmodel_window(struct playmodel *pm, double mono)
{
	pm->accumulate = true;
	pm->a.set.accumulate = true;
	pm->a.set.start = mono;
	for (size_t i = 0; i < pm->nall; i++)
		derive_forget_window(&pm->all[i]->ds);
	/* the tasks that ended before it are not in it */
	for (size_t i = 0; i < pm->nended; i++)
		unkeep(pm->ended[i]);
	pm->nended = 0;
}

bool playmodel_started(const struct playmodel *pm)
{
	return pm->round > 0;
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
static struct pm_task *task_of(struct playmodel *pm, const struct store_task *t,
			       bool thread)
{
	struct pm_task key = { .id = t->r.id, .start = t->r.start,
			       .life = t->r.life, .thread = thread };
	struct pm_task **found = tfind(&key, &pm->tasks, task_cmp);

	if (found)
		return *found;
	size_t cap = pm->capall;
	if (grow((void **)&pm->all, &cap, pm->nall + 1, sizeof(*pm->all)) < 0)
		return NULL;
	pm->capall = cap;
	struct pm_task *n = calloc(1, sizeof(*n));
	if (!n)
		return NULL;
	*n = key;
	if (!tsearch(n, &pm->tasks, task_cmp)) {
		free(n);
		return NULL;
	}
	pm->all[pm->nall++] = n;
	return n;
}

/* Forget the tasks the sample of round did not give. */
static void sweep_tasks(struct playmodel *pm)
{
	size_t kept = 0;

	for (size_t i = 0; i < pm->nall; i++) {
		struct pm_task *t = pm->all[i];

		if (t->seen == pm->round) {
			pm->all[kept++] = t;
			continue;
		}
		tdelete(t, &pm->tasks, task_cmp);
		task_free(t);
	}
	pm->nall = kept;
}

/* The states of in's tasks (of one kind) into pm->states and pm->pt. */
static int states_of(struct playmodel *pm, const struct store_task *v,
		     size_t n, bool thread, size_t at)
{
	for (size_t i = 0; i < n; i++) {
		struct pm_task *t = task_of(pm, &v[i], thread);

		if (!t)
			return -1;
		if (!t->made)
			t->made = pm->round;
		t->seen = pm->round;
		pm->pt[at + i] = t;
		pm->states[at + i] = &t->ds;
	}
	return 0;
}

static int reserve(struct playmodel *pm, size_t n)
{
	size_t c1 = pm->capstates, c2 = pm->capstates, c3 = pm->capstates;

	if (grow((void **)&pm->states, &c1, n, sizeof(*pm->states)) < 0 ||
	    grow((void **)&pm->pt, &c2, n, sizeof(*pm->pt)) < 0 ||
	    grow((void **)&pm->row_at, &c3, n, sizeof(*pm->row_at)) < 0)
		return -1;
	pm->capstates = c1 < c2 ? (c1 < c3 ? c1 : c3) : (c2 < c3 ? c2 : c3);
	return 0;
}

/*
 * A carried reading of a task without a base holds no counters: it is
 * not given to the model (it would count the task's life from zero).
 */
static bool usable(const struct pm_task *t, const struct store_task *st)
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
static void rebase(struct pm_task *t, struct derive_state *ds,
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

static struct pm_cgroup *cg_of(struct playmodel *pm, const char *path);
static void from_zero(struct playmodel *pm, const struct store_sample *in);

/* The cgroups' pressure of the baseline: the first interval's base. */
static int prime_cgroups(struct playmodel *pm, const struct store_sample *in)
{
	for (size_t i = 0; in->cgroups && i < in->ncgroups; i++) {
		const char *path = in->cgroups[i].path;
		struct pm_cgroup *g;

		if (!path || (pm->within && !cgname_within(path, pm->within)))
			continue;
		if (!(g = cg_of(pm, path)))
			return -1;
		g->seen = pm->round;
		g->st.prev = in->cgroups[i].psi;
		g->st.have_prev = true;
	}
	return 0;
}

static void keep_disks(struct playmodel *pm, const struct diskstats *d);

/*
 * The evidence read with the live monitor's baseline (a session's first
 * entry): the base of the next sample's, as the live monitor's
 * (live/gather.c, gather_base_read), with the disks. A key frame later
 * on holds the evidence its own sample's rows wanted, not such a base:
 * the next sample's evidence has current values only, as before a seek.
 */
static void base_evidence(struct playmodel *pm, const struct store_sample *in)
{
	struct rowev_input ri = {
		.round = pm->a.round,
		.lost = in->events_lost,
	};

	for (size_t i = 0; i < in->nevidence; i++) {
		const struct store_evidence *e = &in->evidence[i];

		for (size_t k = 0; e->id && k < in->ntasks; k++) {
			struct pm_task *t = pm->pt[k];

			if (in->tasks[k].r.id != e->id ||
			    in->tasks[k].r.start != e->start)
				continue;
			if (t->ev || (t->ev = calloc(1, sizeof(*t->ev))))
				rowev_base(t->ev, e, &ri);
			break;
		}
	}
	keep_disks(pm, in->disks);
}

int playmodel_baseline(struct playmodel *pm, const struct store_sample *in,
		       bool first)
{
	size_t n = in->ntasks + in->nthread_tasks;

	pm->round++;
	pm->first = first;
	if (reserve(pm, n) < 0 ||
	    states_of(pm, in->tasks, in->ntasks, false, 0) < 0 ||
	    states_of(pm, in->thread_tasks, in->nthread_tasks, true,
		      in->ntasks) < 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		const struct store_task *st = i < in->ntasks ? &in->tasks[i]
			: &in->thread_tasks[i - in->ntasks];

		if (!(st->have & STORE_REPEAT))
			rebase(pm->pt[i], pm->states[i], st);
		if (st->have & STORE_REPEAT)
			continue;
		pm->pt[i]->ctx = *st;
		pm->pt[i]->ctx.comm = pm->pt[i]->ctx.cmdline = NULL;
		pm->pt[i]->ctx.user = pm->pt[i]->ctx.cgroup = NULL;
		pm->pt[i]->have_ctx = true;
	}
	from_zero(pm, in);
	if (prime_cgroups(pm, in) < 0)
		return -1;
	assemble_baseline(&pm->a, in);
	if (first)
		base_evidence(pm, in);
	pm->prev_query = in->query_start;
	pm->a.set.accumulate = pm->accumulate;
	pm->a.set.start = in->mono;
	sweep_tasks(pm);
	return 0;
}

/*
 * A task without a base is counted from zero, as the live monitor counts
 * a task it learns of from an event after its readings: one known but
 * not read yet (STORE_REPEAT of a live task: its fork was seen), one that
 * began after the previous sample's queries began (its fork, as its
 * reading's born says), or one known only from its exit record.
 */
static void from_zero(struct playmodel *pm, const struct store_sample *in)
{
	for (size_t i = 0; i < in->ntasks + in->nthread_tasks; i++) {
		const struct store_task *st = i < in->ntasks ? &in->tasks[i]
			: &in->thread_tasks[i - in->ntasks];
		struct pm_task *t = pm->pt[i];
		bool ended = st->r.flags & READING_ENDED;

		/* only a task new to the model, of a sample it can tell */
		if (t->ds.have_prev || t->made != pm->round ||
		    (!pm->a.have_prev && !pm->first))
			continue;
		if (st->have & STORE_REPEAT) {
			if (!ended)
				derive_from_zero(&t->ds);
			continue;
		}
		if (pm->a.have_prev &&
		    ((st->r.flags & READING_FINAL) ||
		     (st->r.born > 0 && st->r.born > pm->prev_query)))
			derive_from_zero(&t->ds);
	}
}

/* The tasks' rows, remembering where each one's went. */
static void make_rows(struct playmodel *pm, const struct store_sample *in)
{
	size_t n = in->ntasks + in->nthread_tasks;

	for (size_t i = 0; i < n; i++) {
		bool thread = i >= in->ntasks;
		const struct store_task *st = thread
			? &in->thread_tasks[i - in->ntasks] : &in->tasks[i];
		struct row *r = NULL;

		pm->row_at[i] = -1;
		if (!usable(pm->pt[i], st))
			continue;
		r = assemble_task(&pm->a, st, pm->states[i],
				  thread ? ASSEMBLE_THREADS : ASSEMBLE_ROWS);
		if (!r || thread)
			continue;
		if (r >= pm->a.rows && r < pm->a.rows + pm->a.nrows)
			pm->row_at[i] = r - pm->a.rows;
		else
			pm->row_at[i] = -2 - (r - pm->a.exited);
	}
}

static struct row *row_at(struct playmodel *pm, size_t i)
{
	long at = pm->row_at[i];

	if (at >= 0)
		return &pm->a.rows[at];
	return at < -1 ? &pm->a.exited[-2 - at] : NULL;
}

/* What stands next to each row: from the task's reading and the last. */
static void make_context(struct playmodel *pm, const struct store_sample *in)
{
	for (size_t i = 0; i < in->ntasks + in->nthread_tasks; i++) {
		bool thread = i >= in->ntasks;
		const struct store_task *st = thread
			? &in->thread_tasks[i - in->ntasks] : &in->tasks[i];
		struct pm_task *t = pm->pt[i];
		struct row *r = thread ? NULL : row_at(pm, i);

		if (r)
			assemble_context(&pm->a, t->have_ctx ? &t->ctx : NULL,
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
static void thread_parents(struct playmodel *pm, const struct store_sample *in)
{
	const struct store_task **by;
	size_t n = 0;

	if (in->threads || !pm->a.ntrows || !in->ntasks ||
	    !(by = malloc(in->ntasks * sizeof(*by))))
		return;
	for (size_t i = 0; i < in->ntasks; i++)
		if ((in->tasks[i].have & STORE_HAVE_PPID) &&
		    !(in->tasks[i].r.flags & READING_ENDED))
			by[n++] = &in->tasks[i];
	qsort(by, n, sizeof(*by), by_id);
	for (size_t i = 0; i < pm->a.ntrows; i++) {
		struct row *r = &pm->a.trows[i];
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

/* The state of the cgroup at path, made when new; NULL: no memory. */
static struct pm_cgroup *cg_of(struct playmodel *pm, const char *path)
{
	struct pm_cgroup key = { .path = (char *)path };
	struct pm_cgroup **found = tfind(&key, &pm->cgs, cg_cmp);
	char name[512];

	if (found)
		return *found;
	size_t cap = pm->capallcg;
	if (grow((void **)&pm->allcg, &cap, pm->nallcg + 1,
		 sizeof(*pm->allcg)) < 0)
		return NULL;
	pm->capallcg = cap;
	struct pm_cgroup *g = calloc(1, sizeof(*g));
	if (!g || !(g->path = strdup(path))) {
		free(g);
		return NULL;
	}
	cgname_of(path, name, sizeof(name));
	if (!(g->st.name = strdup(name)) || !tsearch(g, &pm->cgs, cg_cmp)) {
		cg_free(g);
		return NULL;
	}
	pm->allcg[pm->nallcg++] = g;
	return g;
}

/* The cgroup rows of in, of those in the subtree asked for. */
static int make_cgroups(struct playmodel *pm, const struct store_sample *in,
			struct sample *out)
{
	size_t n = 0, c1 = pm->capcg, c2 = pm->capcg, c3 = pm->capcg,
	       c4 = pm->capcg;

	if (!in->cgroups)
		return 0;
	if (grow((void **)&pm->cgrows, &c1, in->ncgroups + 1,
		 sizeof(*pm->cgrows)) < 0 ||
	    grow((void **)&pm->cgstate, &c2, in->ncgroups + 1,
		 sizeof(*pm->cgstate)) < 0 ||
	    grow((void **)&pm->pcg, &c3, in->ncgroups + 1,
		 sizeof(*pm->pcg)) < 0 ||
	    grow((void **)&pm->max_unknown, &c4, in->ncgroups + 1,
		 sizeof(*pm->max_unknown)) < 0)
		return -1;
	pm->capcg = c1;
	if (c2 < pm->capcg) pm->capcg = c2;
	if (c3 < pm->capcg) pm->capcg = c3;
	if (c4 < pm->capcg) pm->capcg = c4;
	/* the cgroups in the subtree asked for (as the live table) */
	struct store_cgroup *cg = malloc((in->ncgroups + 1) * sizeof(*cg));
	if (!cg)
		return -1;
	for (size_t i = 0; i < in->ncgroups; i++) {
		const char *path = in->cgroups[i].path;
		struct pm_cgroup *g;

		if (!path || (pm->within && !cgname_within(path, pm->within)))
			continue;
		if (!(g = cg_of(pm, path))) {
			free(cg);
			return -1;
		}
		g->seen = pm->round;
		cg[n] = in->cgroups[i];
		cg[n].path = g->path;
		pm->pcg[n] = g;
		pm->cgstate[n++] = &g->st;
	}
	cgrows_build(cg, pm->cgstate, n, out->rows, out->nrows, out->exited,
		     out->nexited, out->interval, pm->within, pm->cgrows,
		     pm->max_unknown);
	free(cg);
	out->cgroups = pm->cgrows;
	out->ncgroups = n;
	/* the cgroups gone are forgotten */
	size_t kept = 0;
	for (size_t i = 0; i < pm->nallcg; i++) {
		struct pm_cgroup *g = pm->allcg[i];

		if (g->seen == pm->round) {
			pm->allcg[kept++] = g;
			continue;
		}
		tdelete(g, &pm->cgs, cg_cmp);
		cg_free(g);
	}
	pm->nallcg = kept;
	return 0;
}

/* A copy of the disks read with this sample, the next one's before. */
static void keep_disks(struct playmodel *pm, const struct diskstats *d)
{
	diskstats_free(&pm->disks_prev);
	pm->have_disks_prev = false;
	if (!d)
		return;
	pm->disks_prev = *d;
	pm->disks_prev.dev = d->n ? malloc(d->n * sizeof(*d->dev)) : NULL;
	pm->disks_prev.cap = d->n;
	if (d->n && !pm->disks_prev.dev) {
		pm->disks_prev.n = pm->disks_prev.cap = 0;
		return;
	}
	if (d->n)
		memcpy(pm->disks_prev.dev, d->dev, d->n * sizeof(*d->dev));
	pm->have_disks_prev = true;
}

/*
 * The row of process (id, start) among in's tasks, its latest life
 * where it has several (evidence is read of the one alive), or NULL.
 */
static struct row *task_row(struct playmodel *pm, const struct store_sample *in,
			    int32_t id, uint64_t start, struct pm_task **t)
{
	size_t at = in->ntasks;

	for (size_t i = 0; i < in->ntasks; i++)
		if (in->tasks[i].r.id == id && in->tasks[i].r.start == start &&
		    (at == in->ntasks || in->tasks[i].r.life > in->tasks[at].r.life))
			at = i;
	if (at == in->ntasks)
		return NULL;
	*t = pm->pt[at];
	return row_at(pm, at);
}

/* The evidence read with the sample into the rows it is of. */
static void make_evidence(struct playmodel *pm, const struct store_sample *in,
			  struct sample *out)
{
	struct rowev_input ri = {
		.round = pm->a.round,
		.lost = in->events_lost,
		.interval = pm->a.w.dt,
		.disks_prev = pm->have_disks_prev ? &pm->disks_prev : NULL,
		.disks_cur = in->disks,
	};

	for (size_t i = 0; i < in->nevidence; i++) {
		const struct store_evidence *e = &in->evidence[i];
		struct rowev_state **ev = NULL;
		struct pm_task *t = NULL;
		struct row *r = NULL;
		struct cgroup_row *g = NULL;

		if (e->id) {
			r = task_row(pm, in, e->id, e->start, &t);
			ev = t ? &t->ev : NULL;
		} else if (e->cgroup) {
			for (size_t k = 0; k < out->ncgroups && !g; k++)
				if (strcmp(out->cgroups[k].path, e->cgroup) == 0) {
					g = &out->cgroups[k];
					ev = &pm->pcg[k]->ev;
				}
		}
		if (!ev || (!*ev && !(*ev = calloc(1, sizeof(**ev)))))
			continue;
		if (r)
			r->why = rowev_task(*ev, e, &ri, r);
		else if (g)
			g->why = rowev_cgroup(*ev, e, &ri, g);
	}
	keep_disks(pm, in->disks);
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
static int keep_ended(struct playmodel *pm, const struct store_sample *in)
{
	size_t n = in->ntasks + in->nthread_tasks;

	if (!pm->a.set.accumulate)
		return 0;
	for (size_t i = 0; i < n; i++) {
		const struct store_task *st = i < in->ntasks ? &in->tasks[i]
			: &in->thread_tasks[i - in->ntasks];
		struct pm_task *t = pm->pt[i];
		size_t cap = pm->capended;

		if (t->kept || !(st->r.flags & READING_ENDED))
			continue;
		if (grow((void **)&pm->ended, &cap, pm->nended + 1,
			 sizeof(*pm->ended)) < 0)
			return -1;
		pm->capended = cap;
		t->last = *st;
		t->last.have |= STORE_REPEAT;
		t->last.comm = dup_or_null(st->comm);
		t->last.cmdline = dup_or_null(st->cmdline);
		t->last.user = dup_or_null(st->user);
		t->last.cgroup = dup_or_null(st->cgroup);
		t->kept = true;
		pm->ended[pm->nended++] = t;
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
static void trim_ended(struct playmodel *pm)
{
	size_t nthread = 0, nproc = 0, kept = 0;

	for (size_t i = 0; i < pm->nended; i++)
		*(pm->ended[i]->thread ? &nthread : &nproc) += 1;
	for (size_t i = 0; i < pm->nended; i++) {
		struct pm_task *t = pm->ended[i];
		size_t *left = t->thread ? &nthread : &nproc;

		if (*left > ASSEMBLE_ENDED_MAX) {
			--*left;
			unkeep(t);
			continue;
		}
		pm->ended[kept++] = t;
	}
	pm->nended = kept;
}

/*
 * The rows of the kept tasks the sample lacks, from their last reading
 * repeated (as the live monitor's of a task it showed ended).
 */
static void kept_rows(struct playmodel *pm)
{
	for (size_t i = 0; i < pm->nended; i++) {
		struct pm_task *t = pm->ended[i];

		if (t->seen == pm->round)
			continue;
		t->seen = pm->round;
		assemble_task(&pm->a, &t->last, &t->ds,
			      t->thread ? ASSEMBLE_THREADS : ASSEMBLE_ROWS);
	}
}

int playmodel_sample(struct playmodel *pm, const struct store_sample *in,
		     struct sample *out)
{
	size_t n = in->ntasks + in->nthread_tasks;

	pm->round++;
	trim_ended(pm);
	if (reserve(pm, n) < 0 ||
	    states_of(pm, in->tasks, in->ntasks, false, 0) < 0 ||
	    states_of(pm, in->thread_tasks, in->nthread_tasks, true,
		      in->ntasks) < 0)
		return -1;
	from_zero(pm, in);
	assemble_begin(&pm->a, in);
	make_rows(pm, in);
	kept_rows(pm);
	if (keep_ended(pm, in) < 0)
		return -1;
	assemble_end(&pm->a, in, out);
	thread_parents(pm, in);
	make_context(pm, in);
	if (make_cgroups(pm, in, out) < 0)
		return -1;
	make_evidence(pm, in, out);
	pm->prev_query = in->query_start;
	sweep_tasks(pm);
	return 0;
}

void playmodel_free(struct playmodel *pm)
{
	if (!pm)
		return;
	playmodel_reset(pm, false);
	assemble_free(&pm->a);
	free(pm->all);
	free(pm->ended);
	free(pm->allcg);
	free(pm->states);
	free(pm->pt);
	free(pm->row_at);
	free(pm->cgrows);
	free(pm->cgstate);
	free(pm->pcg);
	free(pm->max_unknown);
	free(pm);
}
