/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The whole store sample kept for a recording (storesample.h). */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "live/storesample.h"

struct storesample *storesample_new(void)
{
	return calloc(1, sizeof(struct storesample));
}

void storesample_free(struct storesample *w)
{
	if (!w)
		return;
	free(w->tasks);
	free(w->threads);
	free(w->evidence);
	free(w);
}

void storesample_begin(struct storesample *w)
{
	w->complete = false;
	w->failed = false;
	w->ntasks = w->nthreads = w->nevidence = 0;
}

static struct store_task *push(struct store_task **v, size_t *n,
			       size_t *cap, const struct store_task *t)
{
	if (*n == *cap) {
		size_t c = *cap ? *cap * 2 : 256;
		struct store_task *p = realloc(*v, c * sizeof(*p));
		if (!p)
			return NULL;
		*v = p;
		*cap = c;
	}
	(*v)[*n] = *t;
	return &(*v)[(*n)++];
}

struct store_task *storesample_push(struct storesample *w, bool thread,
				    const struct store_task *t)
{
	struct store_task *p = thread ?
		push(&w->threads, &w->nthreads, &w->capthreads, t) :
		push(&w->tasks, &w->ntasks, &w->captasks, t);
	if (!p)
		w->failed = true;
	return p;
}

void storesample_push_evidence(struct storesample *w,
			       const struct store_evidence *ev)
{
	if (w->nevidence == w->capevidence) {
		size_t c = w->capevidence ? w->capevidence * 2 : 16;
		struct store_evidence *p = realloc(w->evidence, c * sizeof(*p));

		if (!p) {
			w->failed = true;
			return;
		}
		w->evidence = p;
		w->capevidence = c;
	}
	w->evidence[w->nevidence++] = *ev;
}

/*
 * An array grown for many more than the n it held this sample (a large
 * process ended) gives the rest back: room for 2 n kept.
 */
static void shrink(void **v, size_t *cap, size_t n, size_t size)
{
	size_t c = n > STORESAMPLE_KEEP / 2 ? 2 * n : STORESAMPLE_KEEP;
	void *p;

	if (*cap <= STORESAMPLE_KEEP || *cap <= 4 * n)
		return;
	if ((p = realloc(*v, c * size))) {
		*v = p;
		*cap = c;
	}
}

void storesample_end(struct storesample *w, const struct store_sample *in,
		     struct store_cgroup *cgroups, size_t ncgroups)
{
	shrink((void **)&w->tasks, &w->captasks, w->ntasks, sizeof(*w->tasks));
	shrink((void **)&w->threads, &w->capthreads, w->nthreads,
	       sizeof(*w->threads));
	shrink((void **)&w->evidence, &w->capevidence, w->nevidence,
	       sizeof(*w->evidence));
	w->s = *in;
	w->s.tasks = w->tasks;
	w->s.ntasks = w->ntasks;
	w->s.thread_tasks = in->thread_readings ? w->threads : NULL;
	w->s.nthread_tasks = in->thread_readings ? w->nthreads : 0;
	w->s.evidence = w->nevidence ? w->evidence : NULL;
	w->s.nevidence = w->nevidence;
	w->s.cgroups = cgroups;
	w->s.ncgroups = cgroups ? ncgroups : 0;
	w->complete = !w->failed;
}

const struct store_sample *storesample_get(const struct storesample *w)
{
	return w && w->complete ? &w->s : NULL;
}
