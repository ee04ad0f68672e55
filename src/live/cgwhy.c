/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The evidence of cgroup rows and the table of their previous readings
 * (cgwhy.h). Entries are allocated one by one: a row points into its
 * entry while the table grows.
 */
#include <config.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "live/cgwhy.h"

struct cgwhy_entry {
	char *path;
	struct evidence_reading prev;
	uint64_t prev_round;       /* the round prev was read in */
	uint64_t why_round;        /* why holds that round's evidence */
	bool have_why;
	struct row_why why;
};

struct cgwhy {
	struct cgwhy_entry **e;
	size_t n, cap;
};

struct cgwhy *cgwhy_new(void)
{
	return calloc(1, sizeof(struct cgwhy));
}

static void entry_free(struct cgwhy_entry *e)
{
	if (!e)
		return;
	free(e->path);
	free(e);
}

void cgwhy_free(struct cgwhy *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->n; i++)
		entry_free(t->e[i]);
	free(t->e);
	free(t);
}

bool cgwhy_wanted(const struct cgroup_row *g)
{
	return g && rowwhy_wanted(g->d);
}

static struct cgwhy_entry *find(const struct cgwhy *t, const char *path)
{
	for (size_t i = 0; t && path && i < t->n; i++)
		if (strcmp(t->e[i]->path, path) == 0)
			return t->e[i];
	return NULL;
}

static struct cgwhy_entry *add(struct cgwhy *t, const char *path)
{
	struct cgwhy_entry *e;

	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 16;
		struct cgwhy_entry **v = realloc(t->e, cap * sizeof(*v));

		if (!v)
			return NULL;
		t->e = v;
		t->cap = cap;
	}
	if (!(e = calloc(1, sizeof(*e))) || !(e->path = strdup(path))) {
		free(e);
		errno = ENOMEM;
		return NULL;
	}
	t->e[t->n++] = e;
	return e;
}

bool cgwhy_have(struct cgwhy *t, struct cgroup_row *g, uint64_t round)
{
	struct cgwhy_entry *e = find(t, g ? g->path : NULL);

	if (!e || !e->have_why || e->why_round != round)
		return false;
	g->why = &e->why;
	return true;
}

int cgwhy_gather(struct cgwhy *t, struct cgroup_row *g,
		 const struct evidence_dirs *d,
		 const struct evidence_reading *sys, uint64_t round,
		 double interval, const struct diskstats *disks_prev,
		 const struct diskstats *disks_cur)
{
	return cgwhy_gather_ts(t, NULL, g, d, sys, round, interval, disks_prev,
			       disks_cur);
}

int cgwhy_gather_ts(struct cgwhy *t, struct ts_client *ts,
		    struct cgroup_row *g, const struct evidence_dirs *d,
		    const struct evidence_reading *sys, uint64_t round,
		    double interval, const struct diskstats *disks_prev,
		    const struct diskstats *disks_cur)
{
	struct evidence_reading cur;
	struct cgwhy_entry *e;
	bool prev_ok;

	if (!t || !g || !g->path) {
		errno = EINVAL;
		return -1;
	}
	if (cgwhy_have(t, g, round))
		return 0;
	e = find(t, g->path);
	prev_ok = e && e->prev_round + 1 == round;
	if (!e && !(e = add(t, g->path)))
		return -1;
	if (sys)
		evidence_read_with(d, ts, sys, &cur);
	else
		evidence_read(d, ts, &cur);
	evidence_interval(prev_ok ? &e->prev : NULL, &cur, disks_prev,
			  disks_cur, &e->why.ev);
	rowwhy_eval(&e->why, g->d, g->total_pct, false, 0, interval,
		    prev_ok ? rowwhy_first(&e->why) : WHY_NONE);
	e->prev = cur;
	e->prev_round = round;
	e->why_round = round;
	e->have_why = true;
	g->why = &e->why;
	return 0;
}

void cgwhy_prune(struct cgwhy *t, uint64_t round)
{
	size_t k = 0;

	if (!t)
		return;
	for (size_t i = 0; i < t->n; i++) {
		if (t->e[i]->prev_round + 1 >= round)
			t->e[k++] = t->e[i];
		else
			entry_free(t->e[i]);
	}
	t->n = k;
}

size_t cgwhy_count(const struct cgwhy *t)
{
	return t ? t->n : 0;
}
