/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The table of cgroups (cgtable.h): which cgroups are rows, their
 * readings, and one entry per set of cgroups processes are in, with
 * their cgroups' evidence readings (a pointer array sorted by key, each
 * entry allocated on its own: processes point into entries while the
 * table grows). What is kept of each cgroup row is the model's
 * (model/cgmodel.h).
 */
#include <config.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "live/cgdirs.h"
#include "live/cgtable.h"
#include "live/evidence_read.h"
#include "model/cgmodel.h"
#include "model/cgname.h"

/* A set of cgroups processes are in. */
struct cg {
	char *key;                 /* the text of /proc/PID/cgroup */
	struct cgtable_members members;
};

struct cgtable {
	struct cg_layout layout;
	struct cgmodel *model;     /* what is kept of each cgroup row */
	struct cg **cg;            /* sorted by key */
	size_t n, cap;
	struct store_cgroup *read;  /* per row: what its files said */
	size_t capread;
	uint64_t reads;            /* readings of processes' cgroups */
};

/* The groups of evidence read from cgroups (not from the process). */
#define CG_GROUPS (EVIDENCE_WANT(EVIDENCE_CPU) | \
		   EVIDENCE_WANT(EVIDENCE_MEMORY) | \
		   EVIDENCE_WANT(EVIDENCE_IO) | EVIDENCE_WANT(EVIDENCE_STATES))

struct cgtable *cgtable_new(const struct cg_layout *layout)
{
	struct cgtable *t = calloc(1, sizeof(*t));
	if (!t || !(t->model = cgmodel_new())) {
		free(t);
		return NULL;
	}
	t->layout = *layout;
	return t;
}

static void cg_free(struct cg *g)
{
	if (!g)
		return;
	free(g->key);
	free(g);
}

void cgtable_free(struct cgtable *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->n; i++)
		cg_free(t->cg[i]);
	free(t->cg);
	cgmodel_free(t->model);
	free(t->read);
	free(t);
}

/* Binary search; *at is where it is or would go. */
static struct cg *find(const struct cgtable *t, const char *key, size_t *at)
{
	size_t lo = 0, hi = t->n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(t->cg[mid]->key, key);
		if (c == 0) {
			*at = mid;
			return t->cg[mid];
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	*at = lo;
	return NULL;
}

/* The entry of key, made (empty) when there is none. */
static struct cg *get(struct cgtable *t, const char *key)
{
	size_t at;
	struct cg *g = find(t, key, &at);

	if (g)
		return g;
	if (t->n == t->cap) {
		size_t nc = t->cap ? t->cap * 2 : 64;
		struct cg **p = realloc(t->cg, nc * sizeof(*p));
		if (!p)
			return NULL;
		t->cg = p;
		t->cap = nc;
	}
	if (!(g = calloc(1, sizeof(*g))) || !(g->key = strdup(key))) {
		cg_free(g);
		errno = ENOMEM;
		return NULL;
	}
	memmove(&t->cg[at + 1], &t->cg[at], (t->n - at) * sizeof(*t->cg));
	t->cg[at] = g;
	t->n++;
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
		if (cgmodel_use(t->model, buf) < 0)
			return -1;
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

/* A kernel counter of a cgroup: its bit in have where given. */
static void counter_of(const struct kval *k, uint64_t *v, uint32_t *have,
		       uint32_t bit)
{
	bool given = k->have && !k->max;
	*v = given ? k->v : 0;
	if (given)
		*have |= bit;
}

/* What the cgroup's files say: pressure, throttling, memory events. */
static void read_cgroup(const struct cg_layout *l, const char *path,
			struct store_cgroup *c)
{
	struct evidence_dirs d = EVIDENCE_DIRS_NONE;
	struct cg_cpu cpu;
	struct cg_mem mem;

	memset(c, 0, sizeof(*c));
	c->path = path;
	cgdirs_read_psi(l, path, &c->psi);
	for (int k = 0; k < NPSI; k++)
		for (int j = 0; j < NPSI_KIND; j++)
			if (c->psi.line[k][j].present)
				c->have |= STORE_CG_PSI;
	cgdirs_open(l, path, &d);
	evidence_read_cgroup(&d, &cpu, &mem);
	cgdirs_close(&d);
	counter_of(&cpu.throttled_us, &c->throttled_us, &c->have,
		   STORE_CG_THROTTLED);
	counter_of(&mem.ev_high, &c->mem_high, &c->have, STORE_CG_MEM_HIGH);
	counter_of(mem.version == 1 ? &mem.failcnt : &mem.ev_max, &c->mem_max,
		   &c->have, STORE_CG_MEM_MAX);
	counter_of(&mem.ev_oom_kill, &c->mem_oom_kill, &c->have,
		   STORE_CG_OOM_KILL);
}

int cgtable_build(struct cgtable *t, const struct row *rows, size_t n,
	      const struct row *exited, size_t nexited, double dt,
	      const char *within, struct cgroup_row **out, size_t *nout)
{
	const struct row_sets rs = { { rows, exited }, { n, exited ? nexited : 0 } };
	size_t all = rs.n[0] + rs.n[1];
	cgmodel_begin(t->model);
	for (size_t i = 0; i < all; i++) {
		const char *p = row_at(&rs, i)->cgroup;
		if (!p || (within && !cgname_within(p, within)))
			continue;
		if (use_with_ancestors(t, p) < 0)
			return -1;
	}
	/* forget cgroups nobody is in any more */
	cgmodel_sweep(t->model);
	size_t nr = 0, ncg = cgmodel_count(t->model);
	if (ncg > t->capread) {
		struct store_cgroup *c = realloc(t->read, ncg * sizeof(*c));
		if (!c)
			return -1;
		t->read = c;
		t->capread = ncg;
	}
	for (size_t i = 0; i < ncg; i++) {
		const char *path = cgmodel_path(t->model, i);
		if (within && !cgname_within(path, within))
			continue; /* an ancestor of the subtree asked for */
		read_cgroup(&t->layout, path, &t->read[nr++]);
	}
	return cgmodel_rows(t->model, t->read, nr, rows, n, exited, nexited,
			    dt, within, out, nout);
}

bool cgtable_why_have(struct cgtable *t, struct cgroup_row *g, uint64_t round)
{
	return t && cgmodel_why_have(t->model, g, round);
}

int cgtable_why_gather(struct cgtable *t, struct ts_client *ts,
		       struct cgroup_row *g, const struct evidence_dirs *d,
		       const struct evidence_reading *sys, uint64_t round,
		       double interval, const struct diskstats *disks_prev,
		       const struct diskstats *disks_cur,
		       struct store_evidence *read)
{
	struct store_evidence cur = { .cgroup = g ? g->path : NULL };
	struct rowev_input in = {
		.round = round,
		.interval = interval,
		.disks_prev = disks_prev,
		.disks_cur = disks_cur,
	};

	if (!t || !g || !g->path) {
		errno = EINVAL;
		return -1;
	}
	if (cgtable_why_have(t, g, round))
		return 0;
	evidence_read_with(d, ts, sys, &cur.r);
	if (cgmodel_evidence(t->model, g, &cur, &in) < 0)
		return -1;
	if (read)
		*read = cur;
	return 0;
}

/* The processes' entry of proc_cgroup, made if need be, or NULL (errno). */
static struct cgtable_members *members_of(struct cgtable *t,
					  const char *proc_cgroup)
{
	struct cg *e;

	if (!t || !proc_cgroup || proc_cgroup[0] == '/') {
		errno = EINVAL;
		return NULL;
	}
	return (e = get(t, proc_cgroup)) ? &e->members : NULL;
}

int cgtable_members_expect(struct cgtable *t, const char *proc_cgroup,
			   uint64_t round, unsigned want)
{
	struct cgtable_members *m = members_of(t, proc_cgroup);

	if (!m)
		return -1;
	if (m->want_round != round) {
		m->want = 0;
		m->want_round = round;
	}
	m->want |= want ? want : CG_GROUPS;
	return 0;
}

const struct cgtable_members *
cgtable_members_read(struct cgtable *t, struct ts_client *ts, int proc,
		     const char *proc_cgroup, uint64_t round, unsigned want)
{
	struct evidence_dirs d = EVIDENCE_DIRS_NONE;
	struct cgtable_members *m = members_of(t, proc_cgroup);
	unsigned missing;

	if (!m)
		return NULL;
	if (m->round != round) {
		/* a new round: this one's readings begin empty */
		memset(&m->cur, 0, sizeof(m->cur));
		m->cur_have = 0;
		m->round = round;
	}
	want = want ? want : CG_GROUPS;
	if (m->want_round == round)
		want |= m->want;
	missing = want & CG_GROUPS & ~m->cur_have;
	if (!missing)
		return m;
	cgdirs_open_task(&t->layout, proc_cgroup, &d);
	d.proc = proc;
	d.want = missing;
	evidence_read_cgroups(&d, ts, &m->cur);
	cgdirs_close(&d);
	m->cur_have |= missing;
	t->reads++;
	return m;
}

void cgtable_prune(struct cgtable *t, uint64_t round)
{
	size_t k = 0;

	if (!t)
		return;
	for (size_t i = 0; i < t->n; i++) {
		struct cg *g = t->cg[i];

		if (g->members.round + 1 >= round)
			t->cg[k++] = g;
		else
			cg_free(g);
	}
	t->n = k;
}

struct store_cgroup *cgtable_readings(const struct cgtable *t)
{
	return t->read;
}

size_t cgtable_count(const struct cgtable *t)
{
	return t ? t->n + cgmodel_count(t->model) : 0;
}

uint64_t cgtable_reads(const struct cgtable *t)
{
	return t ? t->reads : 0;
}
