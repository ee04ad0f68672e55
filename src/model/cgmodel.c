/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The states of cgroups (cgmodel.h): a pointer array sorted by path,
 * each entry allocated on its own (rows point into entries while the
 * array grows).
 */
#include <config.h>

#include "model/cgmodel.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model/cgname.h"
#include "model/cgrows.h"

struct cgm {
	char *path;
	unsigned long gen;         /* the last sample that used it */
	struct cgrows_state st;    /* its pressure before, its name */
	struct rowev_state *ev;    /* its evidence before, once it had some */
};

struct cgmodel {
	struct cgm **cg;           /* sorted by path */
	size_t n, cap;
	unsigned long gen;
	/* per row of the last cgmodel_rows */
	struct store_cgroup *read;
	struct cgrows_state **state;
	struct cgroup_row *rows;
	unsigned *max_unknown;
	size_t caprows;
};

struct cgmodel *cgmodel_new(void)
{
	return calloc(1, sizeof(struct cgmodel));
}

static void cgm_free(struct cgm *g)
{
	if (!g)
		return;
	free(g->path);
	free((char *)g->st.name);
	free(g->ev);
	free(g);
}

void cgmodel_reset(struct cgmodel *m)
{
	for (size_t i = 0; i < m->n; i++)
		cgm_free(m->cg[i]);
	m->n = 0;
}

void cgmodel_free(struct cgmodel *m)
{
	if (!m)
		return;
	cgmodel_reset(m);
	free(m->cg);
	free(m->read);
	free(m->state);
	free(m->rows);
	free(m->max_unknown);
	free(m);
}

/* Binary search; *at is where it is or would go. */
static struct cgm *find(const struct cgmodel *m, const char *path, size_t *at)
{
	size_t lo = 0, hi = m->n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(m->cg[mid]->path, path);

		if (c == 0) {
			*at = mid;
			return m->cg[mid];
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	*at = lo;
	return NULL;
}

/* The entry of path, made when there is none; NULL: ENOMEM. */
static struct cgm *get(struct cgmodel *m, const char *path)
{
	size_t at;
	struct cgm *g = find(m, path, &at);
	char name[CGNAME_MAX];

	if (g)
		return g;
	if (m->n == m->cap) {
		size_t nc = m->cap ? m->cap * 2 : 64;
		struct cgm **p = realloc(m->cg, nc * sizeof(*p));

		if (!p)
			return NULL;
		m->cg = p;
		m->cap = nc;
	}
	cgname_of(path, name, sizeof(name));
	if (!(g = calloc(1, sizeof(*g))) || !(g->path = strdup(path)) ||
	    !(g->st.name = strdup(name))) {
		cgm_free(g);
		errno = ENOMEM;
		return NULL;
	}
	memmove(&m->cg[at + 1], &m->cg[at], (m->n - at) * sizeof(*m->cg));
	m->cg[at] = g;
	m->n++;
	return g;
}

void cgmodel_begin(struct cgmodel *m)
{
	m->gen++;
}

/* The entry of path (made when new), used in the sample; NULL: ENOMEM. */
static struct cgm *use(struct cgmodel *m, const char *path)
{
	struct cgm *g = get(m, path);

	if (g)
		g->gen = m->gen;
	return g;
}

int cgmodel_use(struct cgmodel *m, const char *path)
{
	return use(m, path) ? 0 : -1;
}

/* Whether reading c is of a row the sample makes. */
static bool wanted(const struct store_cgroup *c, const char *within)
{
	return c->path && (!within || cgname_within(c->path, within));
}

int cgmodel_prime(struct cgmodel *m, const struct store_cgroup *cg, size_t n,
		  const char *within)
{
	for (size_t i = 0; i < n; i++) {
		struct cgm *g;

		if (!wanted(&cg[i], within))
			continue;
		if (!(g = use(m, cg[i].path)))
			return -1;
		g->st.prev = cg[i].psi;
		g->st.have_prev = true;
	}
	return 0;
}

void cgmodel_sweep(struct cgmodel *m)
{
	size_t kept = 0;

	for (size_t i = 0; i < m->n; i++)
		if (m->cg[i]->gen == m->gen)
			m->cg[kept++] = m->cg[i];
		else
			cgm_free(m->cg[i]);
	m->n = kept;
}

size_t cgmodel_count(const struct cgmodel *m)
{
	return m ? m->n : 0;
}

const char *cgmodel_path(const struct cgmodel *m, size_t i)
{
	return m->cg[i]->path;
}

/* Room for n rows; -1 when out of memory. */
static int reserve(struct cgmodel *m, size_t n)
{
	if (m->caprows >= n)
		return 0;
	struct store_cgroup *c = realloc(m->read, n * sizeof(*c));
	if (c)
		m->read = c;
	struct cgrows_state **st = realloc(m->state, n * sizeof(*st));
	if (st)
		m->state = st;
	struct cgroup_row *r = realloc(m->rows, n * sizeof(*r));
	if (r)
		m->rows = r;
	unsigned *u = realloc(m->max_unknown, n * sizeof(*u));
	if (u)
		m->max_unknown = u;
	if (!c || !st || !r || !u)
		return -1;
	m->caprows = n;
	return 0;
}

int cgmodel_rows(struct cgmodel *m, const struct store_cgroup *cg, size_t n,
		 const struct row *rows, size_t nrows,
		 const struct row *exited, size_t nexited, double dt,
		 const char *within, struct cgroup_row **out, size_t *nout)
{
	size_t nr = 0;

	if (reserve(m, n + 1) < 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		struct cgm *g;

		if (!wanted(&cg[i], within))
			continue;
		if (!(g = use(m, cg[i].path)))
			return -1;
		m->read[nr] = cg[i];
		m->read[nr].path = g->path;
		m->state[nr++] = &g->st;
	}
	cgrows_build(m->read, m->state, nr, rows, nrows, exited, nexited, dt,
		     within, m->rows, m->max_unknown);
	*out = m->rows;
	*nout = nr;
	cgmodel_sweep(m);
	return 0;
}

bool cgmodel_why_have(const struct cgmodel *m, struct cgroup_row *g,
		      uint64_t round)
{
	size_t at;
	struct cgm *e = m && g && g->path ? find(m, g->path, &at) : NULL;

	if (!e || !e->ev || !rowev_have(e->ev, round))
		return false;
	g->why = &e->ev->why;
	return true;
}

int cgmodel_evidence(struct cgmodel *m, struct cgroup_row *g,
		     const struct store_evidence *cur,
		     const struct rowev_input *in)
{
	struct cgm *e = get(m, g->path);

	if (!e || (!e->ev && !(e->ev = calloc(1, sizeof(*e->ev)))))
		return -1;
	g->why = rowev_cgroup(e->ev, cur, in, g);
	return 0;
}
