/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Store samples over a coarser interval (coarse.h): per task life met in
 * the span (a tsearch tree), its last reading with counters, whether its
 * thread count stayed, and its ended reading with its strings copied.
 */
#include <config.h>

#include "record/coarse.h"

#include <errno.h>
#include <search.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "model/tasklife.h"

struct co_task {
	struct tasklife key;      /* first: tasklife_cmp */
	bool have_real;           /* real: its last reading with counters */
	struct task_reading real;
	bool unsteady;            /* its thread count changed in the span */
	bool ended;               /* last: its ended reading (strings own) */
	struct store_task last;
	bool used;                /* the later sample has it */
};

struct coarse {
	void *tree;
	struct co_task **all;
	size_t n, cap;
	struct store_task *out[2];
	size_t capout[2];
};

struct coarse *coarse_new(void)
{
	return calloc(1, sizeof(struct coarse));
}

static void strings_free(struct store_task *t)
{
	free((char *)t->comm);
	free((char *)t->cmdline);
	free((char *)t->user);
	free((char *)t->cgroup);
	t->comm = t->cmdline = t->user = t->cgroup = NULL;
}

static void nothing(void *p)
{
	(void)p;
}

void coarse_begin(struct coarse *c)
{
	tdestroy(c->tree, nothing);
	c->tree = NULL;
	for (size_t i = 0; i < c->n; i++) {
		if (c->all[i]->ended)
			strings_free(&c->all[i]->last);
		free(c->all[i]);
	}
	c->n = 0;
}

static struct co_task *find(struct coarse *c, const struct store_task *t,
			    bool thread, bool make)
{
	struct co_task key = { .key = { .thread = thread, .id = t->r.id,
					.start = t->r.start,
					.life = t->r.life } };
	struct co_task **found = tfind(&key, &c->tree, tasklife_cmp);

	if (found || !make)
		return found ? *found : NULL;
	if (c->n == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 256;
		struct co_task **v = realloc(c->all, cap * sizeof(*v));

		if (!v)
			return NULL;
		c->all = v;
		c->cap = cap;
	}
	struct co_task *e = malloc(sizeof(*e));
	if (!e)
		return NULL;
	*e = key;
	if (!tsearch(e, &c->tree, tasklife_cmp)) {
		free(e);
		return NULL;
	}
	c->all[c->n++] = e;
	return e;
}

/* A copy of s, or NULL for NULL; *ok false when memory ran out. */
static const char *dup_or_null(const char *s, bool *ok)
{
	char *d = s ? strdup(s) : NULL;

	if (s && !d)
		*ok = false;
	return d;
}

static int add_tasks(struct coarse *c, const struct store_task *v, size_t n,
		     bool thread)
{
	for (size_t i = 0; i < n; i++) {
		const struct store_task *t = &v[i];
		struct co_task *e;

		if (t->have & STORE_REPEAT)
			continue; /* nothing new of it */
		if (!(e = find(c, t, thread, true)))
			return -1;
		if (!(t->r.flags & READING_CARRIED)) {
			e->real = t->r;
			e->have_real = true;
		}
		if (!(t->r.flags & READING_STEADY))
			e->unsteady = true;
		if ((t->r.flags & READING_ENDED) && !e->ended) {
			bool ok = true;

			e->last = *t;
			e->last.comm = dup_or_null(t->comm, &ok);
			e->last.cmdline = dup_or_null(t->cmdline, &ok);
			e->last.user = dup_or_null(t->user, &ok);
			e->last.cgroup = dup_or_null(t->cgroup, &ok);
			e->ended = true;
			if (!ok) {
				errno = ENOMEM;
				return -1;
			}
		}
	}
	return 0;
}

int coarse_add(struct coarse *c, const struct store_sample *in)
{
	if (add_tasks(c, in->tasks, in->ntasks, false) < 0 ||
	    add_tasks(c, in->thread_tasks, in->nthread_tasks, true) < 0) {
		errno = ENOMEM;
		return -1;
	}
	return 0;
}

/* The span's word on task t of the later sample, into *o. */
static void merge_one(struct co_task *e, const struct store_task *t,
		      struct store_task *o)
{
	*o = *t;
	if (!e)
		return;
	e->used = true;
	if (e->ended && (t->have & STORE_REPEAT)) {
		/* it ended in the span: its end is what is new of it */
		*o = e->last;
		o->r.flags &= ~(uint32_t)READING_STEADY;
		if (!e->unsteady && (e->last.r.flags & READING_STEADY))
			o->r.flags |= READING_STEADY;
		return;
	}
	if ((t->r.flags & READING_CARRIED) && e->have_real) {
		/* nothing moved since its last reading with counters */
		double asked_at = o->r.asked_at, at = o->r.at;

		o->r = e->real;
		o->r.asked_at = asked_at;
		o->r.at = at;
		o->r.flags = t->r.flags &
			     ~(uint32_t)(READING_CARRIED | READING_STANDING);
	}
	if (e->unsteady)
		o->r.flags &= ~(uint32_t)READING_STEADY;
}

static int merge(struct coarse *c, const struct store_task *v, size_t n,
		 bool thread, struct store_task **out, size_t *nout)
{
	size_t extra = 0, k = 0;
	int w = thread;

	for (size_t i = 0; i < c->n; i++)
		extra += c->all[i]->key.thread == thread && c->all[i]->ended;
	if (n + extra > c->capout[w]) {
		struct store_task *p = realloc(c->out[w],
					       (n + extra) * sizeof(*p));
		if (!p)
			return -1;
		c->out[w] = p;
		c->capout[w] = n + extra;
	}
	for (size_t i = 0; i < n; i++)
		merge_one(find(c, &v[i], thread, false), &v[i], &c->out[w][k++]);
	for (size_t i = 0; i < c->n; i++) {
		struct co_task *e = c->all[i];

		if (e->key.thread != thread || !e->ended || e->used)
			continue;
		/* ended in the span, not in the later sample: its exit */
		c->out[w][k] = e->last;
		if (e->unsteady)
			c->out[w][k].r.flags &= ~(uint32_t)READING_STEADY;
		k++;
	}
	*out = c->out[w];
	*nout = k;
	return 0;
}

int coarse_end(struct coarse *c, const struct store_sample *last,
	       struct store_sample *out)
{
	*out = *last;
	if (merge(c, last->tasks, last->ntasks, false, &out->tasks,
		  &out->ntasks) < 0 ||
	    merge(c, last->thread_tasks, last->nthread_tasks, true,
		  &out->thread_tasks, &out->nthread_tasks) < 0) {
		errno = ENOMEM;
		return -1;
	}
	if (!last->thread_tasks && !out->nthread_tasks)
		out->thread_tasks = NULL;
	return 0;
}

void coarse_free(struct coarse *c)
{
	if (!c)
		return;
	coarse_begin(c);
	free(c->all);
	free(c->out[0]);
	free(c->out[1]);
	free(c);
}
