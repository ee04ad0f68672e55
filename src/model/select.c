/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Filtering and sorting of rows, shared by batch output and the screen. */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/select.h"

static const char *const extra_keys[] = {
	[SORT_TOTAL - NCAT] = "total",
	[SORT_CPU_PCT - NCAT] = "cpu_pct",
	[SORT_PID - NCAT] = "pid",
	[SORT_COMM - NCAT] = "comm",
};

int select_sort_key_by_name(const char *name)
{
	int c = categories_by_key(name);
	if (c >= 0)
		return c;
	for (int k = SORT_TOTAL; k < NSORT; k++)
		if (strcmp(extra_keys[k - NCAT], name) == 0)
			return k;
	return -1;
}

const char *select_sort_key_name(int key)
{
	if (key >= 0 && key < NCAT)
		return categories[key].key;
	if (key >= SORT_TOTAL && key < NSORT)
		return extra_keys[key - NCAT];
	return "?";
}

double select_row_metric(const struct row *r, int cat, enum metric m, double interval)
{
	const struct cat_figure *f = &r->d[cat];
	if (!f->avail)
		return NAN;
	switch (m) {
	case METRIC_PCT:
		return f->pct;
	case METRIC_AVG:
		return f->have_avg ? f->avg_ms : NAN;
	case METRIC_RATE:
		return interval > 0 && f->have_count ? (double)f->count / interval
						     : NAN;
	case METRIC_MAX:
		return f->have_max ? f->max_ms : NAN;
	default:
		return NAN;
	}
}

static bool keep(const struct row *r, const struct select_opts *o)
{
	if (o->only_stalled && !(r->total_pct > 0))
		return false;
	if (o->have_uid && r->uid != o->uid)
		return false;
	if (o->npids) {
		bool found = false;
		for (size_t i = 0; i < o->npids && !found; i++)
			found = r->tgid == o->pids[i];
		if (!found)
			return false;
	}
	if (o->name && *o->name) {
		if (!(r->comm && strstr(r->comm, o->name)) &&
		    !(r->cmdline && strstr(r->cmdline, o->name)))
			return false;
	}
	return true;
}

int select_cmp_num(double a, double b)
{
	bool na = isnan(a), nb = isnan(b);
	if (na || nb)
		return na == nb ? 0 : (na ? 1 : -1);
	if (a == b)
		return 0;
	return a > b ? -1 : 1; /* descending by default */
}

/* qsort has no context argument: the sort runs with these. */
static const struct select_opts *cmp_opts;
static double cmp_interval;

static int cmp_rows(const void *pa, const void *pb)
{
	const struct row *a = pa, *b = pb;
	const struct select_opts *o = cmp_opts;
	int r = 0;
	if (o->sort < NCAT) {
		r = select_cmp_num(
			select_row_metric(a, o->sort, o->metric, cmp_interval),
			select_row_metric(b, o->sort, o->metric, cmp_interval));
	} else if (o->sort == SORT_TOTAL) {
		r = select_cmp_num(a->total_pct, b->total_pct);
	} else if (o->sort == SORT_CPU_PCT) {
		r = select_cmp_num(a->have_cpu_pct ? a->cpu_pct : NAN,
				   b->have_cpu_pct ? b->cpu_pct : NAN);
	} else if (o->sort == SORT_PID) {
		r = (a->pid > b->pid) - (a->pid < b->pid); /* ascending */
	} else if (o->sort == SORT_COMM) {
		r = strcmp(a->comm ? a->comm : "", b->comm ? b->comm : "");
	}
	bool absent_involved = o->sort < SORT_PID && r != 0 &&
		(o->sort < NCAT
		 ? isnan(select_row_metric(a, o->sort, o->metric, cmp_interval)) ||
		   isnan(select_row_metric(b, o->sort, o->metric, cmp_interval))
		 : false);
	if (o->reverse && !absent_involved)
		r = -r;
	if (r == 0)
		r = (a->pid > b->pid) - (a->pid < b->pid);
	return r;
}

size_t select_rows(struct row *rows, size_t n, const struct select_opts *o,
		   double interval)
{
	size_t kept = 0;
	for (size_t i = 0; i < n; i++) {
		if (!keep(&rows[i], o))
			continue;
		if (kept != i) {
			struct row tmp = rows[kept];
			rows[kept] = rows[i];
			rows[i] = tmp;
		}
		kept++;
	}
	cmp_opts = o;
	cmp_interval = interval;
	if (kept > 1) /* rows may be NULL when there are none */
		qsort(rows, kept, sizeof(*rows), cmp_rows);
	if (o->limit && kept > o->limit)
		kept = o->limit;
	return kept;
}

void select_sample_rows(struct row *rows, size_t *n, struct row *exited,
			size_t *nexited, const struct select_opts *o,
			double interval)
{
	struct select_opts all = *o;
	all.limit = 0;
	*n = select_rows(rows, *n, &all, interval);
	*nexited = select_rows(exited, *nexited, &all, interval);
	if (!o->limit || *n + *nexited <= o->limit)
		return;
	/* the first rows of both sorted lists, as if they were one */
	size_t i = 0, j = 0;
	cmp_opts = o;
	cmp_interval = interval;
	while (i + j < o->limit) {
		if (j == *nexited || (i < *n && cmp_rows(&rows[i], &exited[j]) <= 0))
			i++;
		else
			j++;
	}
	*n = i;
	*nexited = j;
}

static int cmp_cgroups(const void *pa, const void *pb)
{
	const struct cgroup_row *a = pa, *b = pb;
	const struct select_opts *o = cmp_opts;
	int r = 0;
	if (o->sort < NCAT) {
		const struct cat_figure *fa = &a->d[o->sort], *fb = &b->d[o->sort];
		r = select_cmp_num(fa->avail ? fa->pct : NAN,
				   fb->avail ? fb->pct : NAN);
	} else if (o->sort == SORT_TOTAL || o->sort == SORT_CPU_PCT) {
		r = select_cmp_num(a->total_pct, b->total_pct);
	}
	if (o->reverse)
		r = -r;
	return r ? r : strcmp(a->path, b->path);
}

size_t select_cgroups(struct cgroup_row *rows, size_t n,
		      const struct select_opts *o)
{
	cmp_opts = o;
	if (n > 1)
		qsort(rows, n, sizeof(*rows), cmp_cgroups);
	return n;
}
