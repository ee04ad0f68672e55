/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Filtering and sorting of rows, shared by batch output and the screen. */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/fields.h"
#include "model/select.h"

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
		/* in any case, as the search and the cgroups' filter */
		if (!(r->comm && strcasestr(r->comm, o->name)) &&
		    !(r->cmdline && strcasestr(r->cmdline, o->name)))
			return false;
	}
	return true;
}

/* qsort has no context argument: the sort runs with these. */
static const struct select_opts *cmp_opts;
static double cmp_interval;

static double metric(const struct row *r, int cat)
{
	return fields_metric(r, cat, cmp_opts->metric, cmp_interval);
}

/* r, the comparison of two rows' values, reversed as asked, then by pid */
static int order(const struct row *a, const struct row *b, int r,
		 bool absent_involved)
{
	if (cmp_opts->reverse && !absent_involved)
		r = -r;
	if (r == 0)
		r = (a->pid > b->pid) - (a->pid < b->pid);
	return r;
}

/* By a category's metric; an absent one last either way. */
static int cmp_metric(const struct row *a, double va, const struct row *b,
		      double vb)
{
	int r = fields_cmp_num(va, vb);

	return order(a, b, r, r != 0 && (isnan(va) || isnan(vb)));
}

/*
 * Two values of the field sorted by: a value that is absent (no figure,
 * no text: `-` on the screen) sorts after every present one, with -r
 * too; present ones compare by the field's own order. *absent: whether
 * an absent one decided it.
 */
static int cmp_values(int field, const struct field_value *va,
		      const struct field_value *vb, bool *absent)
{
	bool pa = fields_value_present(va), pb = fields_value_present(vb);

	*absent = pa != pb;
	if (pa != pb)
		return pa ? -1 : 1;
	return fields_compare(field, va, vb);
}

/* By a field's value; an absent one last either way. */
static int cmp_field(const struct row *a, const struct field_value *va,
		     const struct row *b, const struct field_value *vb)
{
	bool absent;
	int r = cmp_values(cmp_opts->sort, va, vb, &absent);

	return order(a, b, r, absent);
}

static int cmp_rows(const struct row *a, const struct row *b)
{
	int cat = fields_cat(cmp_opts->sort);
	struct field_ctx ctx = { .fmt = FIELD_FMT_SORT };
	struct field_value va, vb;

	if (cat >= 0)
		return cmp_metric(a, metric(a, cat), b, metric(b, cat));
	fields_row_value(cmp_opts->sort, a, &ctx, &va);
	fields_row_value(cmp_opts->sort, b, &ctx, &vb);
	return cmp_field(a, &va, b, &vb);
}

static int cmp_row_ptrs(const void *pa, const void *pb)
{
	return cmp_rows(pa, pb);
}

/*
 * What a row is sorted by, worked out once per row for a sort rather
 * than for both rows of every comparison, when it is a number: a
 * category's metric (num), or a field's value that holds no text nor
 * figures (have, i, num: what the comparisons of such a value read).
 * Small, as thread mode sorts tens of thousands of rows.
 */
struct sort_key {
	long long i;
	double num;
	bool have;
};

/* The key of r; false when its value is more than a number. */
static bool sort_key(const struct row *r, struct sort_key *k)
{
	int cat = fields_cat(cmp_opts->sort);
	struct field_ctx ctx = { .fmt = FIELD_FMT_SORT };
	struct field_value v;

	if (cat >= 0) {
		k->num = metric(r, cat);
		return true;
	}
	fields_row_value(cmp_opts->sort, r, &ctx, &v);
	k->have = v.have;
	k->i = v.i;
	k->num = v.num;
	return !v.str && !v.d && !v.why;
}

/* A number value from its key: the members its comparison reads. */
static void key_value(const struct sort_key *k, struct field_value *v)
{
	v->have = k->have;
	v->i = k->i;
	v->num = k->num;
	v->str = NULL;
	v->d = NULL;
	v->why = NULL;
}

static const struct row *cmp_base;
static const struct sort_key *cmp_key; /* NULL: values made per comparison */

static int cmp_index(const void *pa, const void *pb)
{
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	const struct sort_key *ka, *kb;
	struct field_value va, vb;

	if (!cmp_key)
		return cmp_rows(&cmp_base[a], &cmp_base[b]);
	ka = &cmp_key[a];
	kb = &cmp_key[b];
	if (fields_cat(cmp_opts->sort) >= 0)
		return cmp_metric(&cmp_base[a], ka->num, &cmp_base[b], kb->num);
	key_value(ka, &va);
	key_value(kb, &vb);
	return cmp_field(&cmp_base[a], &va, &cmp_base[b], &vb);
}

/* Every row's key, or NULL when one is more than a number (or no memory). */
static struct sort_key *sort_keys(const struct row *rows, size_t n)
{
	struct sort_key *keys = malloc(n * sizeof(*keys));

	for (size_t i = 0; keys && i < n; i++) {
		if (!sort_key(&rows[i], &keys[i])) {
			free(keys);
			return NULL;
		}
	}
	return keys;
}

/*
 * Sort rows by cmp_rows. A row is large: qsort would move each one many
 * times, so the order is found on their indices, with each row's key
 * worked out once where it is a number, and the rows are then moved
 * once, along the cycles of the permutation.
 */
static void sort_rows(struct row *rows, size_t n)
{
	size_t *to = malloc(n * sizeof(*to));
	struct sort_key *keys;

	if (!to) {
		qsort(rows, n, sizeof(*rows), cmp_row_ptrs);
		return;
	}
	for (size_t i = 0; i < n; i++)
		to[i] = i;
	keys = sort_keys(rows, n);
	cmp_base = rows;
	cmp_key = keys;
	qsort(to, n, sizeof(*to), cmp_index);
	cmp_key = NULL;
	free(keys);
	/* position j takes the row at to[j]; a done position has to[j] == j */
	for (size_t i = 0; i < n; i++) {
		if (to[i] == i)
			continue;
		struct row tmp = rows[i];
		size_t j = i;
		for (;;) {
			size_t k = to[j];
			to[j] = j;
			if (k == i)
				break;
			rows[j] = rows[k];
			j = k;
		}
		rows[j] = tmp;
	}
	free(to);
}

size_t select_keep(struct row *rows, size_t n, const struct select_opts *o)
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
	return kept;
}

/* Filter and sort, without the limit. */
static size_t keep_sorted(struct row *rows, size_t n,
			  const struct select_opts *o, double interval)
{
	size_t kept = select_keep(rows, n, o);
	cmp_opts = o;
	cmp_interval = interval;
	if (kept > 1) /* rows may be NULL when there are none */
		sort_rows(rows, kept);
	return kept;
}

size_t select_rows(struct row *rows, size_t n, const struct select_opts *o,
		   double interval)
{
	size_t kept = keep_sorted(rows, n, o, interval);
	if (o->limit && kept > o->limit)
		kept = o->limit;
	return kept;
}

void select_sample_rows(struct row *rows, size_t *n, struct row *exited,
			size_t *nexited, const struct select_opts *o,
			double interval)
{
	*n = keep_sorted(rows, *n, o, interval);
	*nexited = keep_sorted(exited, *nexited, o, interval);
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
	int cat = fields_cat(o->sort);
	bool absent = false; /* an absent figure decides: last either way */
	int r;

	if (cat >= 0) {
		const struct cat_figure *fa = &a->d[cat], *fb = &b->d[cat];
		r = fields_cmp_num(fa->avail ? fa->pct : NAN,
				   fb->avail ? fb->pct : NAN);
		absent = fa->avail != fb->avail;
	} else if (fields_get(o->sort)->cg_get) {
		struct field_ctx ctx = { .fmt = FIELD_FMT_SORT };
		struct field_value va, vb;
		fields_cg_value(o->sort, a, &ctx, &va);
		fields_cg_value(o->sort, b, &ctx, &vb);
		r = cmp_values(o->sort, &va, &vb, &absent);
	} else {
		r = 0; /* a field cgroups lack (pid, comm): the order by path */
	}
	if (o->reverse && !absent)
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
