/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Deep copies of samples: the rows (process, exited, recorded thread and
 * exited thread rows), the cgroup rows and the trigger label, with every string they
 * point to in one block.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "model/rowwhy.h"
#include "model/snapshot.h"

static size_t str_size(const char *s)
{
	return s ? strlen(s) + 1 : 0;
}

static size_t rows_strings(const struct row *r, size_t n)
{
	size_t total = 0;
	for (size_t i = 0; i < n; i++)
		total += str_size(r[i].comm) + str_size(r[i].cmdline) +
			 str_size(r[i].user) + str_size(r[i].cgroup);
	return total;
}

static size_t cgroups_strings(const struct cgroup_row *g, size_t n)
{
	size_t total = 0;
	for (size_t i = 0; i < n; i++)
		total += str_size(g[i].path) + str_size(g[i].name);
	return total;
}

static const char *put(char **pos, const char *s)
{
	if (!s)
		return NULL;
	size_t len = strlen(s) + 1;
	char *at = *pos;
	memcpy(at, s, len);
	*pos += len;
	return at;
}

/* A copy of n elements of size bytes (never NULL for n = 0 unless OOM). */
static void *dup_array(const void *src, size_t n, size_t size)
{
	void *a = malloc((n ? n : 1) * size);
	if (a && n)
		memcpy(a, src, n * size);
	return a;
}

static size_t rows_whys(const struct row *r, size_t n)
{
	size_t total = 0;
	for (size_t i = 0; r && i < n; i++)
		total += r[i].why != NULL;
	return total;
}

/* The rows' evidence into the next places of whys. */
static void copy_whys(struct row *rows, size_t n, struct row_why **whys)
{
	for (size_t i = 0; i < n; i++) {
		if (!rows[i].why)
			continue;
		**whys = *rows[i].why;
		rows[i].why = (*whys)++;
	}
}

static size_t cgroups_whys(const struct cgroup_row *g, size_t n)
{
	size_t total = 0;
	for (size_t i = 0; g && i < n; i++)
		total += g[i].why != NULL;
	return total;
}

static void copy_cg_whys(struct cgroup_row *g, size_t n,
			 struct row_why **whys)
{
	for (size_t i = 0; g && i < n; i++) {
		if (!g[i].why)
			continue;
		**whys = *g[i].why;
		g[i].why = (*whys)++;
	}
}

static struct row *copy_rows(const struct row *src, size_t n, char **pos)
{
	struct row *rows = dup_array(src, n, sizeof(*rows));
	if (!rows)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		rows[i].comm = put(pos, src[i].comm);
		rows[i].cmdline = put(pos, src[i].cmdline);
		rows[i].user = put(pos, src[i].user);
		rows[i].cgroup = put(pos, src[i].cgroup);
	}
	return rows;
}

static struct cgroup_row *copy_cgroups(const struct cgroup_row *src, size_t n,
				       char **pos)
{
	struct cgroup_row *g = dup_array(src, n, sizeof(*g));
	if (!g)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		g[i].path = put(pos, src[i].path);
		g[i].name = put(pos, src[i].name);
	}
	return g;
}

int snapshot_copy(struct snapshot *dst, const struct sample *src)
{
	struct snapshot n = { .s = *src };
	size_t bytes = rows_strings(src->rows, src->nrows) +
		       rows_strings(src->exited, src->nexited) +
		       str_size(src->trigger);
	if (src->thread_rows)
		bytes += rows_strings(src->thread_rows, src->nthread_rows);
	if (src->thread_exited)
		bytes += rows_strings(src->thread_exited, src->nthread_exited);
	if (src->cgroups)
		bytes += cgroups_strings(src->cgroups, src->ncgroups);
	n.s.rows = NULL;
	n.s.exited = NULL;
	n.s.thread_rows = NULL;
	n.s.thread_exited = NULL;
	n.s.cgroups = NULL;
	n.strings = malloc(bytes ? bytes : 1);
	if (!n.strings)
		return -1;
	char *pos = n.strings;
	n.s.trigger = put(&pos, src->trigger);
	n.s.rows = copy_rows(src->rows, src->nrows, &pos);
	n.s.exited = copy_rows(src->exited, src->nexited, &pos);
	bool ok = n.s.rows && n.s.exited;
	/* NULL stays NULL: "not collected" differs from "none" */
	if (ok && src->thread_rows) {
		n.s.thread_rows = copy_rows(src->thread_rows, src->nthread_rows,
					    &pos);
		ok = n.s.thread_rows != NULL;
	}
	if (ok && src->thread_exited) {
		n.s.thread_exited = copy_rows(src->thread_exited,
					      src->nthread_exited, &pos);
		ok = n.s.thread_exited != NULL;
	}
	if (ok && src->cgroups) {
		n.s.cgroups = copy_cgroups(src->cgroups, src->ncgroups, &pos);
		ok = n.s.cgroups != NULL;
	}
	size_t nwhys = rows_whys(src->rows, src->nrows) +
		       rows_whys(src->exited, src->nexited) +
		       rows_whys(src->thread_rows, src->nthread_rows) +
		       rows_whys(src->thread_exited, src->nthread_exited) +
		       (n.s.cgroups ? cgroups_whys(src->cgroups,
						   src->ncgroups) : 0);
	if (ok && nwhys) {
		struct row_why *w = n.whys = malloc(nwhys * sizeof(*n.whys));
		ok = w != NULL;
		if (ok) {
			copy_whys(n.s.rows, n.s.nrows, &w);
			copy_whys(n.s.exited, n.s.nexited, &w);
			if (n.s.thread_rows)
				copy_whys(n.s.thread_rows, n.s.nthread_rows, &w);
			if (n.s.thread_exited)
				copy_whys(n.s.thread_exited, n.s.nthread_exited,
					  &w);
			copy_cg_whys(n.s.cgroups, n.s.ncgroups, &w);
		}
	}
	if (!ok) {
		snapshot_free(&n);
		return -1;
	}
	snapshot_free(dst);
	*dst = n;
	return 0;
}

void snapshot_free(struct snapshot *snap)
{
	free(snap->s.rows);
	free(snap->s.exited);
	free(snap->s.thread_rows);
	free(snap->s.thread_exited);
	free(snap->s.cgroups);
	free(snap->strings);
	free(snap->whys);
	for (size_t i = 0; i < snap->nlater; i++)
		free(snap->later[i]);
	free(snap->later);
	memset(snap, 0, sizeof(*snap));
}

/* A copy of w the snapshot owns, or NULL. */
static struct row_why *keep(struct snapshot *snap, const struct row_why *w)
{
	struct row_why *copy;

	if (snap->nlater == snap->caplater) {
		size_t cap = snap->caplater ? snap->caplater * 2 : 16;
		struct row_why **v = realloc(snap->later, cap * sizeof(*v));
		if (!v)
			return NULL;
		snap->later = v;
		snap->caplater = cap;
	}
	if (!(copy = malloc(sizeof(*copy))))
		return NULL;
	*copy = *w;
	snap->later[snap->nlater++] = copy;
	return copy;
}

int snapshot_keep_why(struct snapshot *snap, struct row *r,
		      const struct row_why *w)
{
	struct row_why *copy = keep(snap, w);

	if (!copy)
		return -1;
	r->why = copy;
	return 0;
}

int snapshot_keep_cg_why(struct snapshot *snap, struct cgroup_row *g,
			 const struct row_why *w)
{
	struct row_why *copy = keep(snap, w);

	if (!copy)
		return -1;
	g->why = copy;
	return 0;
}
