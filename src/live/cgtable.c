/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The cgroup table: per-cgroup PSI and counters, read, next to the sums
 * of task rows (model/cgrows.c).
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "live/cgdirs.h"
#include "live/cgtable.h"
#include "live/evidence_read.h"
#include "model/cgname.h"
#include "model/cgrows.h"

struct cg {
	char *path;
	char *name;                /* cgname_of(path), made once */
	struct psi_reading prev;   /* its pressure at the previous build */
	bool have_prev;
	unsigned long gen;         /* last build that used it */
};

struct cgtable {
	struct cg_layout layout;
	struct cg *cg;             /* sorted by path */
	size_t n, cap;
	struct cgroup_row *rows;
	unsigned *max_unknown;     /* per row, bit c: a task's longest wait
				      of category c is unknown */
	size_t caprows;
	unsigned long gen;
};

struct cgtable *cgtable_new(const struct cg_layout *layout)
{
	struct cgtable *t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->layout = *layout;
	return t;
}

void cgtable_free(struct cgtable *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->n; i++) {
		free(t->cg[i].path);
		free(t->cg[i].name);
	}
	free(t->cg);
	free(t->rows);
	free(t->max_unknown);
	free(t);
}

/* Binary search; *at is where it is or would go. */
static struct cg *find(struct cgtable *t, const char *path, size_t *at)
{
	size_t lo = 0, hi = t->n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(t->cg[mid].path, path);
		if (c == 0) {
			*at = mid;
			return &t->cg[mid];
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	*at = lo;
	return NULL;
}

static struct cg *get(struct cgtable *t, const char *path)
{
	size_t at;
	struct cg *g = find(t, path, &at);
	if (g)
		return g;
	if (t->n == t->cap) {
		size_t nc = t->cap ? t->cap * 2 : 64;
		struct cg *p = realloc(t->cg, nc * sizeof(*p));
		if (!p)
			return NULL;
		t->cg = p;
		t->cap = nc;
	}
	char name[CGNAME_MAX];
	cgname_of(path, name, sizeof(name));
	char *copy = strdup(path), *name_copy = strdup(name);
	if (!copy || !name_copy) {
		free(copy);
		free(name_copy);
		return NULL;
	}
	memmove(&t->cg[at + 1], &t->cg[at], (t->n - at) * sizeof(*t->cg));
	t->n++;
	g = &t->cg[at];
	memset(g, 0, sizeof(*g));
	g->path = copy;
	g->name = name_copy;
	return g;
}

/* Mark path and every ancestor as used in this build. */
static int use_with_ancestors(struct cgtable *t, const char *path)
{
	char buf[4096];
	size_t len = strlen(path);
	if (len >= sizeof(buf))
		return 0;
	memcpy(buf, path, len + 1);
	for (;;) {
		struct cg *g = get(t, buf);
		if (!g)
			return -1;
		g->gen = t->gen;
		char *slash = strrchr(buf, '/');
		if (!slash || slash == buf) {
			if (strcmp(buf, "/") != 0) {
				buf[0] = '/';
				buf[1] = '\0';
				continue;
			}
			return 0;
		}
		*slash = '\0';
	}
}

/* The live rows and the rows that ended, as one list. */
struct row_sets {
	const struct row *rows[2];
	size_t n[2];
};

static const struct row *row_at(const struct row_sets *rs, size_t i)
{
	return i < rs->n[0] ? &rs->rows[0][i] : &rs->rows[1][i - rs->n[0]];
}

/* A kernel counter into a row's figure: absent unless given. */
static void counter_of(const struct kval *k, uint64_t *v, bool *have)
{
	*have = k->have && !k->max;
	*v = *have ? k->v : 0;
}

/* The cgroup's throttling and memory events (sample.h). */
static void read_counters(const struct cg_layout *l, struct cgroup_row *r)
{
	struct evidence_dirs d = EVIDENCE_DIRS_NONE;
	struct cg_cpu cpu;
	struct cg_mem mem;

	cgdirs_open(l, r->path, &d);
	evidence_read_cgroup(&d, &cpu, &mem);
	cgdirs_close(&d);
	counter_of(&cpu.throttled_us, &r->throttled_us, &r->have_throttled);
	counter_of(&mem.ev_high, &r->mem_high, &r->have_mem_high);
	counter_of(mem.version == 1 ? &mem.failcnt : &mem.ev_max, &r->mem_max,
		   &r->have_mem_max);
	counter_of(&mem.ev_oom_kill, &r->mem_oom_kill, &r->have_mem_oom_kill);
}

int cgtable_build(struct cgtable *t, const struct row *rows, size_t n,
	      const struct row *exited, size_t nexited, double dt,
	      const char *within, struct cgroup_row **out, size_t *nout)
{
	const struct row_sets rs = { { rows, exited }, { n, exited ? nexited : 0 } };
	size_t all = rs.n[0] + rs.n[1];
	t->gen++;
	for (size_t i = 0; i < all; i++) {
		const char *p = row_at(&rs, i)->cgroup;
		if (!p || (within && !cgname_within(p, within)))
			continue;
		if (use_with_ancestors(t, p) < 0)
			return -1;
	}
	/* forget cgroups nobody is in any more */
	size_t kept = 0;
	for (size_t i = 0; i < t->n; i++) {
		if (t->cg[i].gen == t->gen) {
			t->cg[kept++] = t->cg[i];
		} else {
			free(t->cg[i].path);
			free(t->cg[i].name);
		}
	}
	t->n = kept;

	if (t->caprows < t->n) {
		struct cgroup_row *p = realloc(t->rows, t->n * sizeof(*p));
		if (p)
			t->rows = p;
		unsigned *u = realloc(t->max_unknown, t->n * sizeof(*u));
		if (u)
			t->max_unknown = u;
		if (!p || !u)
			return -1;
		t->caprows = t->n;
	}
	size_t nr = 0;
	for (size_t i = 0; i < t->n; i++) {
		struct cg *g = &t->cg[i];
		if (within && !cgname_within(g->path, within))
			continue; /* an ancestor of the subtree asked for */
		t->max_unknown[nr] = 0;
		struct cgroup_row *r = &t->rows[nr++];
		memset(r, 0, sizeof(*r));
		r->path = g->path;
		r->name = g->name;
		r->depth = cgrows_depth(g->path);
		struct psi_reading now;
		cgdirs_read_psi(&t->layout, g->path, &now);
		r->have_psi = false;
		for (int k = 0; k < NPSI; k++)
			for (int j = 0; j < NPSI_KIND; j++)
				r->have_psi |= now.line[k][j].present;
		psi_interval(g->have_prev ? &g->prev : NULL, &now, &r->psi);
		g->prev = now;
		g->have_prev = true;
		read_counters(&t->layout, r);
	}
	/* sum every row into its cgroup and each ancestor */
	for (size_t i = 0; i < all; i++) {
		const struct row *row = row_at(&rs, i);
		const char *p = row->cgroup;
		if (!p || (within && !cgname_within(p, within)))
			continue;
		for (size_t j = 0; j < nr; j++)
			if (cgname_within(p, t->rows[j].path))
				cgrows_add(&t->rows[j], &t->max_unknown[j], row,
					    dt);
	}
	*out = t->rows;
	*nout = nr;
	return 0;
}
