/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The series table of the metrics (om_series.h): hash tables of tasks,
 * workload groups and cgroups, and what one sample adds to them.
 */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/escape.h"
#include "lib/nls.h"
#include "view/om_series.h"

/* ---- label values ---- */

char *om_series_label(const char *raw)
{
	size_t len = strlen(raw), n = 4 * len + 1;
	char *text = malloc(n);
	char *out = malloc(2 * n);
	if (!text || !out) {
		free(text);
		free(out);
		return NULL;
	}
	escape_text(raw, text, n);
	char *o = out;
	for (const char *p = text; *p; p++) {
		if (*p == '\\' || *p == '"') {
			*o++ = '\\';
			*o++ = *p;
		} else if (*p == '\n') {
			*o++ = '\\';
			*o++ = 'n';
		} else {
			*o++ = *p;
		}
	}
	*o = '\0';
	free(text);
	return out;
}

/* ---- group rules ---- */

static void tasks_forget_rules(struct om_series *t);

void om_series_set_rules(struct om_series *t, const struct om_rule *rules,
			 size_t n)
{
	free(t->rule_told);
	t->rule_told = n ? calloc(n, sizeof(*t->rule_told)) : NULL;
	t->rules = rules;
	t->nrules = n;
	t->spent_told = false;
	tasks_forget_rules(t);
}

void om_series_on_note(struct om_series *t,
		       void (*fn)(const char *text, void *arg), void *arg)
{
	t->note = fn;
	t->note_arg = arg;
}

static void note(const struct om_series *t, const char *text)
{
	if (t->note)
		t->note(text, t->note_arg);
}

/* FNV-1a of a task's comm and command line, which decide its rule. */
static uint64_t subject_key(const char *comm, const char *cmdline)
{
	uint64_t h = 14695981039346656037u;
	for (const char *p = comm; *p; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211u;
	h = (h ^ 0xff) * 1099511628211u; /* no UTF-8 byte: a separator */
	for (const char *p = cmdline; *p; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211u;
	return h;
}

/* Rule i reached a limit on the task of row r: said once per rule. */
static void note_limit(struct om_series *t, size_t i, const struct row *r)
{
	if (!t->rule_told || t->rule_told[i])
		return;
	t->rule_told[i] = true;
	const struct om_rule *u = &t->rules[i];
	char *text = NULL;
	if (asprintf(&text, _("group rule '%s': matching the %s of task %d "
			      "reached %s (at most %d steps, depth %d, %d KiB); "
			      "the rule does not hold for that task (said once "
			      "per rule)"),
		     u->text, u->cmdline ? _("command line") : "comm",
		     (int)r->pid, om_rule_matcher_limit_name(t->matcher),
		     OM_RULE_MATCH_LIMIT, OM_RULE_DEPTH_LIMIT,
		     OM_RULE_HEAP_LIMIT) < 0)
		return;
	note(t, text);
	free(text);
}

static void note_spent(struct om_series *t)
{
	if (t->spent_told)
		return;
	t->spent_told = true;
	char *text = NULL;
	if (asprintf(&text, _("group rules: a sample's matching took its "
			      "%d ms; the tasks not matched yet count in the "
			      "group of their comm for that sample and are "
			      "matched at the next (said once)"),
		     OM_RULE_SAMPLE_MS) < 0)
		return;
	note(t, text);
	free(text);
}

/*
 * The rule of a row's task (its index), -1 when none holds or, this
 * sample, when the time to match ran out before one was found.
 */
static int task_rule(struct om_series *t, struct om_task *e,
		     const struct row *r)
{
	if (!t->nrules)
		return -1;
	const char *comm = r->comm ? r->comm : "";
	const char *cmd = r->cmdline && *r->cmdline ? r->cmdline : comm;
	uint64_t key = subject_key(comm, cmd);
	if (key != e->rules_key) {
		e->rules_key = key;
		e->rules_done = false;
		e->rules_tried = 0;
		e->rule = -1;
	}
	for (size_t i = e->rules_tried; !e->rules_done && i < t->nrules; i++) {
		const struct om_rule *u = &t->rules[i];
		switch (om_rule_match(t->matcher, u, u->cmdline ? cmd : comm)) {
		case OM_RULE_SPENT:
			note_spent(t);
			return -1;
		case OM_RULE_MATCH:
			e->rule = (int)i;
			e->rules_done = true;
			break;
		case OM_RULE_LIMIT:
			note_limit(t, i, r);
			break;
		case OM_RULE_NOMATCH:
			break;
		}
		e->rules_tried = (unsigned)i + 1;
	}
	e->rules_done = true;
	return e->rule;
}

/* ---- the tables ---- */

static size_t task_hash(pid_t pid, size_t nbuckets)
{
	return ((size_t)(unsigned)pid * 2654435761u) % nbuckets;
}

static size_t str_hash(const char *s, size_t nbuckets)
{
	size_t h = 5381;
	for (; *s; s++)
		h = h * 33 + (unsigned char)*s;
	return h % nbuckets;
}

/* Double the buckets when the chains grow long; failure is harmless. */
#define GROW(fn, type, field, nfield, hashexpr)                         \
	static void fn(struct om_series *t)                             \
	{                                                               \
		size_t n = t->nfield * 2;                               \
		type **b = calloc(n, sizeof(*b));                       \
		if (!b)                                                 \
			return;                                         \
		for (size_t i = 0; i < t->nfield; i++) {                \
			type *e = t->field[i], *next;                   \
			for (; e; e = next) {                           \
				next = e->next;                         \
				size_t h = hashexpr;                    \
				e->next = b[h];                         \
				b[h] = e;                               \
			}                                               \
		}                                                       \
		free(t->field);                                         \
		t->field = b;                                           \
		t->nfield = n;                                          \
	}

GROW(tasks_grow, struct om_task, tasks, ntask_buckets, task_hash(e->pid, n))
GROW(groups_grow, struct om_group, groups, ngroup_buckets, str_hash(e->name, n))
GROW(cgs_grow, struct om_cgroup, cgs, ncg_buckets, str_hash(e->path, n))

static void task_free(struct om_task *e)
{
	free(e->comm);
	free(e->comm_label);
	free(e);
}

static void group_free(struct om_group *g)
{
	free(g->name);
	free(g->label);
	free(g);
}

static void cg_free(struct om_cgroup *g)
{
	free(g->path);
	free(g->id_label);
	free(g->name_label);
	free(g);
}

/* Every task's rule to be found again (the rules changed). */
static void tasks_forget_rules(struct om_series *t)
{
	for (size_t i = 0; t->tasks && i < t->ntask_buckets; i++)
		for (struct om_task *e = t->tasks[i]; e; e = e->next) {
			e->rules_done = false;
			e->rules_tried = 0;
			e->rule = -1;
		}
}

/* The series of (pid, start), made when new; NULL when out of memory. */
static struct om_task *task_get(struct om_series *t, const struct row *r)
{
	double start = r->info.start > 0 ? r->info.start : 0;
	size_t h = task_hash(r->pid, t->ntask_buckets);
	struct om_task *e = t->tasks[h];

	for (; e; e = e->next)
		if (e->pid == r->pid && e->start == start)
			break;
	if (!e) {
		e = calloc(1, sizeof(*e));
		if (!e)
			return NULL;
		e->pid = r->pid;
		e->start = start;
		e->rule = -1;
		e->next = t->tasks[h];
		t->tasks[h] = e;
		if (++t->ntasks > 2 * t->ntask_buckets)
			tasks_grow(t);
	}
	const char *comm = r->comm ? r->comm : "";
	if (!e->comm || strcmp(e->comm, comm) != 0) {
		char *c = strdup(comm), *l = om_series_label(comm);
		if (!c || !l) {
			free(c);
			free(l);
			return e->comm ? e : NULL;
		}
		free(e->comm);
		free(e->comm_label);
		e->comm = c;
		e->comm_label = l;
	}
	return e;
}

static struct om_group *group_find(const struct om_series *t, const char *name)
{
	struct om_group *g = t->groups[str_hash(name, t->ngroup_buckets)];
	for (; g; g = g->next)
		if (strcmp(g->name, name) == 0)
			return g;
	return NULL;
}

/* The group NAME, made when new and there is room (else "other"). */
static struct om_group *group_get(struct om_series *t, const char *name)
{
	struct om_group *g = group_find(t, name);
	if (g)
		return g;
	/* the last place is kept for "other" */
	if (t->ngroups >= OM_SERIES_GROUPS - 1 &&
	    strcmp(name, OM_SERIES_OTHER) != 0)
		return group_get(t, OM_SERIES_OTHER);
	g = calloc(1, sizeof(*g));
	if (!g)
		return NULL;
	g->name = strdup(name);
	g->label = om_series_label(name);
	if (!g->name || !g->label) {
		group_free(g);
		return NULL;
	}
	size_t h = str_hash(name, t->ngroup_buckets);
	g->next = t->groups[h];
	t->groups[h] = g;
	if (++t->ngroups > 2 * t->ngroup_buckets)
		groups_grow(t);
	return g;
}

/*
 * The name of a row's group: the first rule that matches, or its comm;
 * a kernel thread's comm up to its first '/' ("kworker/0:1-events" and
 * "kworker/u8:2" are "kworker"), since the kernel names them per CPU and
 * per work item. buf: room for a comm cut short.
 */
static const char *group_name(struct om_series *t, struct om_task *e,
			      const struct row *r, char *buf, size_t size)
{
	const char *comm = r->comm ? r->comm : "";
	int rule = task_rule(t, e, r);
	if (rule >= 0)
		return t->rules[rule].group;
	const char *slash = strchr(comm, '/');
	bool kthread = r->pid == 2 || r->info.ppid == 2 || r->tgid == 2;
	if (kthread && slash && slash > comm) {
		snprintf(buf, size, "%.*s", (int)(slash - comm), comm);
		return buf;
	}
	return comm;
}

static struct om_cgroup *cg_get(struct om_series *t, const struct cgroup_row *row)
{
	size_t h = str_hash(row->path, t->ncg_buckets);
	struct om_cgroup *g = t->cgs[h];

	for (; g; g = g->next)
		if (strcmp(g->path, row->path) == 0)
			return g;
	g = calloc(1, sizeof(*g));
	if (!g)
		return NULL;
	g->path = strdup(row->path);
	g->id_label = om_series_label(row->path);
	g->name_label = om_series_label(row->name ? row->name : row->path);
	g->depth = row->depth;
	if (!g->path || !g->id_label || !g->name_label) {
		cg_free(g);
		return NULL;
	}
	g->next = t->cgs[h];
	t->cgs[h] = g;
	if (++t->ncgs > 2 * t->ncg_buckets)
		cgs_grow(t);
	return g;
}

struct om_series *om_series_new(size_t top)
{
	struct om_series *t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->top = top;
	t->ntask_buckets = 256;
	t->ngroup_buckets = 64;
	t->ncg_buckets = 64;
	t->tasks = calloc(t->ntask_buckets, sizeof(*t->tasks));
	t->groups = calloc(t->ngroup_buckets, sizeof(*t->groups));
	t->cgs = calloc(t->ncg_buckets, sizeof(*t->cgs));
	t->matcher = om_rule_matcher_new();
	if (!t->tasks || !t->groups || !t->cgs || !t->matcher) {
		om_series_free(t);
		errno = ENOMEM;
		return NULL;
	}
	return t;
}

void om_series_free(struct om_series *t)
{
	if (!t)
		return;
	for (size_t i = 0; t->tasks && i < t->ntask_buckets; i++) {
		struct om_task *e = t->tasks[i], *next;
		for (; e; e = next) {
			next = e->next;
			task_free(e);
		}
	}
	for (size_t i = 0; t->groups && i < t->ngroup_buckets; i++) {
		struct om_group *g = t->groups[i], *next;
		for (; g; g = next) {
			next = g->next;
			group_free(g);
		}
	}
	for (size_t i = 0; t->cgs && i < t->ncg_buckets; i++) {
		struct om_cgroup *g = t->cgs[i], *next;
		for (; g; g = next) {
			next = g->next;
			cg_free(g);
		}
	}
	free(t->tasks);
	free(t->groups);
	free(t->cgs);
	free(t->shown);
	free(t->rule_told);
	om_rule_matcher_free(t->matcher);
	free(t);
}

/* ---- adding a sample ---- */

/*
 * One interval's figures into the sums: seconds from the share of the
 * interval, events from the count. Accumulated figures (-a) already are
 * the totals; a total never goes down.
 */
static void add_figures(struct om_sum *sum, const struct cat_figure *d,
			double interval, bool accumulated)
{
	for (int c = 0; c < NCAT; c++) {
		const struct cat_figure *fig = &d[c];
		struct om_sum *s = &sum[c];

		if (!fig->avail || fig->dropped)
			continue;
		if (isfinite(fig->pct) && fig->pct >= 0 && isfinite(interval) &&
		    interval > 0 && isfinite(s->sec + fig->pct / 100 * interval)) {
			/* (a sum that overflows would be no number at all) */
			double sec = fig->pct / 100 * interval;
			if (!accumulated)
				s->sec += sec;
			else if (sec > s->sec)
				s->sec = sec;
			s->have_sec = true;
		}
		if (fig->have_count) {
			if (!accumulated)
				s->count += fig->count;
			else if (fig->count > s->count)
				s->count = fig->count;
			s->have_count = true;
		}
	}
}

static void add_stall(struct om_stall *s, double total_pct, double interval,
		      bool accumulated)
{
	if (!isfinite(total_pct) || total_pct < 0 || !isfinite(interval) ||
	    interval <= 0 || !isfinite(s->sec + total_pct / 100 * interval))
		return;
	double sec = total_pct / 100 * interval;
	if (!accumulated)
		s->sec += sec;
	else if (sec > s->sec)
		s->sec = sec;
	s->have = true;
}

/* What a task's sums grew by (after - before) into its group's. */
static void add_growth(struct om_group *g, const struct om_task *before,
		       const struct om_task *after)
{
	for (int c = 0; c < NCAT; c++) {
		const struct om_sum *b = &before->sum[c], *a = &after->sum[c];
		struct om_sum *s = &g->sum[c];
		if (a->have_sec) {
			double d = a->sec - (b->have_sec ? b->sec : 0);
			if (d > 0 && isfinite(s->sec + d))
				s->sec += d;
			s->have_sec = true;
		}
		if (a->have_count) {
			s->count += a->count - (b->have_count ? b->count : 0);
			s->have_count = true;
		}
	}
	if (after->stall.have) {
		double d = after->stall.sec -
			   (before->stall.have ? before->stall.sec : 0);
		if (d > 0 && isfinite(g->stall.sec + d))
			g->stall.sec += d;
		g->stall.have = true;
	}
}

/* The tasks of the sample and what they stalled, to rank them. */
struct ranked {
	const struct row *r;
	struct om_task *e;
};

static int cmp_ranked(const void *pa, const void *pb)
{
	const struct ranked *a = pa, *b = pb;
	double va = a->r->total_pct, vb = b->r->total_pct;
	bool ha = isfinite(va), hb = isfinite(vb);

	if (ha != hb)
		return ha ? -1 : 1;
	if (ha && va != vb)
		return va > vb ? -1 : 1;
	return (a->r->pid > b->r->pid) - (a->r->pid < b->r->pid);
}

static void add_rows(struct om_series *t, const struct sample *s,
		     const struct row *rows, size_t n, bool exited,
		     struct ranked *ranked, size_t *nranked)
{
	for (size_t i = 0; i < n; i++) {
		const struct row *r = &rows[i];
		struct om_task *e = task_get(t, r);

		if (!e)
			continue; /* out of memory: the row is left out */
		struct om_task before = *e;
		add_figures(e->sum, r->d, s->interval, s->accumulated);
		add_stall(&e->stall, r->total_pct, s->interval, s->accumulated);
		char buf[64];
		struct om_group *g = group_get(t, group_name(t, e, r, buf,
							      sizeof(buf)));
		if (g) {
			add_growth(g, &before, e);
			g->seen = t->nsample;
			if (!exited && !(r->flags & ROW_EXITED))
				g->ntasks++;
		}
		e->seen = t->nsample;
		if (exited || (r->flags & ROW_EXITED))
			e->ended = true;
		if (ranked)
			ranked[(*nranked)++] = (struct ranked){ r, e };
	}
}

/* Before the next sample: the ended and the long unseen are forgotten. */
static void prune(struct om_series *t)
{
	for (size_t i = 0; i < t->ntask_buckets; i++) {
		struct om_task **pp = &t->tasks[i];
		while (*pp) {
			struct om_task *e = *pp;
			if (e->ended || e->seen + OM_SERIES_STALE < t->nsample) {
				*pp = e->next;
				task_free(e);
				t->ntasks--;
			} else {
				pp = &e->next;
			}
		}
	}
	for (size_t i = 0; i < t->ngroup_buckets; i++) {
		struct om_group **pp = &t->groups[i];
		while (*pp) {
			struct om_group *g = *pp;
			g->ntasks = 0; /* counted again in each sample */
			if (g->seen + OM_SERIES_GROUP_STALE < t->nsample) {
				*pp = g->next;
				group_free(g);
				t->ngroups--;
			} else {
				pp = &g->next;
			}
		}
	}
	for (size_t i = 0; i < t->ncg_buckets; i++) {
		struct om_cgroup **pp = &t->cgs[i];
		while (*pp) {
			struct om_cgroup *g = *pp;
			if (g->seen + OM_SERIES_STALE < t->nsample) {
				*pp = g->next;
				cg_free(g);
				t->ncgs--;
			} else {
				pp = &g->next;
			}
		}
	}
}

/* The top N of the ranked rows become the shown tasks. */
static void choose_shown(struct om_series *t, struct ranked *ranked, size_t n)
{
	t->nshown = 0;
	if (n > 1)
		qsort(ranked, n, sizeof(*ranked), cmp_ranked);
	if (n > t->top)
		n = t->top;
	if (n > t->cap_shown) {
		struct om_task **p = realloc(t->shown, n * sizeof(*p));
		if (!p)
			return;
		t->shown = p;
		t->cap_shown = n;
	}
	for (size_t i = 0; i < n; i++)
		t->shown[t->nshown++] = ranked[i].e;
}

void om_series_add(struct om_series *t, const struct sample *s)
{
	if (t->nsample)
		prune(t); /* what the last write showed for the last time */
	t->nsample++;
	t->nshown = 0;
	om_rule_matcher_begin(t->matcher);

	/* only with per-task series are the rows ranked */
	size_t nrows = s->nrows + s->nexited, nranked = 0;
	struct ranked *ranked = t->top && nrows ?
				malloc(nrows * sizeof(*ranked)) : NULL;
	add_rows(t, s, s->rows, s->nrows, false, ranked, &nranked);
	add_rows(t, s, s->exited, s->nexited, true, ranked, &nranked);
	if (ranked)
		choose_shown(t, ranked, nranked);
	free(ranked);

	for (size_t i = 0; i < s->ncgroups; i++) {
		const struct cgroup_row *g = &s->cgroups[i];
		struct om_cgroup *c = g->path ? cg_get(t, g) : NULL;

		if (!c)
			continue;
		add_figures(c->sum, g->d, s->interval, s->accumulated);
		add_stall(&c->stall, g->total_pct, s->interval, s->accumulated);
		c->seen = t->nsample;
		c->have_psi = g->have_psi;
		c->psi = g->psi;
		c->have_throttled = g->have_throttled;
		c->throttled_us = g->throttled_us;
		c->have_mem_high = g->have_mem_high;
		c->mem_high = g->mem_high;
		c->have_mem_max = g->have_mem_max;
		c->mem_max = g->mem_max;
		c->have_mem_oom_kill = g->have_mem_oom_kill;
		c->mem_oom_kill = g->mem_oom_kill;
	}
	t->dropped += s->dropped;
	t->time = s->time;
	t->psi = s->psi;
	t->events_lost = s->events_lost;
	t->exit_records_lost = s->exit_records_lost;
	t->delayacct = s->delayacct;
	t->delayacct_known = s->delayacct_known;
	t->nprocs = s->nprocs;
}

/* ---- the lists a writer shows ---- */

static int cmp_group(const void *pa, const void *pb)
{
	const struct om_group *a = *(const struct om_group *const *)pa;
	const struct om_group *b = *(const struct om_group *const *)pb;

	return strcmp(a->name, b->name);
}

static int cmp_cg(const void *pa, const void *pb)
{
	const struct om_cgroup *a = *(const struct om_cgroup *const *)pa;
	const struct om_cgroup *b = *(const struct om_cgroup *const *)pb;

	return strcmp(a->path, b->path);
}

struct om_group **om_series_groups(const struct om_series *t, size_t *n)
{
	*n = 0;
	if (!t->ngroups)
		return NULL;
	struct om_group **v = malloc(t->ngroups * sizeof(*v));
	if (!v)
		return NULL;
	for (size_t i = 0; i < t->ngroup_buckets; i++)
		for (struct om_group *g = t->groups[i]; g; g = g->next)
			v[(*n)++] = g;
	qsort(v, *n, sizeof(*v), cmp_group);
	return v;
}

struct om_cgroup **om_series_cgroups(const struct om_series *t, size_t *n)
{
	*n = 0;
	if (!t->ncgs)
		return NULL;
	struct om_cgroup **v = malloc(t->ncgs * sizeof(*v));
	if (!v)
		return NULL;
	for (size_t i = 0; i < t->ncg_buckets; i++)
		for (struct om_cgroup *g = t->cgs[i]; g; g = g->next)
			if (g->seen == t->nsample)
				v[(*n)++] = g;
	qsort(v, *n, sizeof(*v), cmp_cg);
	return v;
}
