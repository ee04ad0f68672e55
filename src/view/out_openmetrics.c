/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Batch metrics: the counters of every sample so far, written in the
 * OpenMetrics text format (--format openmetrics: one exposition per
 * sample, each ending with "# EOF") or in the Prometheus text format
 * 0.0.4 (--textfile, for node_exporter's textfile collector).
 *
 *   stalltop_task_delay_seconds_total{pid,start,comm,category}
 *   stalltop_task_delays_total{pid,start,comm,category}
 *   stalltop_task_stall_seconds_total{pid,start,comm}
 *   stalltop_cgroup_delay_seconds_total{cgroup,category}
 *   stalltop_cgroup_delays_total{cgroup,category}
 *   stalltop_cgroup_stall_seconds_total{cgroup}
 *   stalltop_cgroup_pressure_{waiting,stalled}_seconds_total{cgroup,resource}
 *   stalltop_pressure_{waiting,stalled}_seconds_total{resource}
 *   stalltop_events_lost_total, stalltop_exit_records_lost_total,
 *   stalltop_dropped_figures_total
 *
 * Samples carry the figures of an interval; counters must be cumulative,
 * so the writer keeps a sum per series and adds every row of every sample
 * to it, not only the rows it shows: a task that leaves the top N and
 * comes back continues where it was. A task is its id and its start time
 * (a reused pid is another task, hence another series). A task that ended
 * adds its last interval once and is forgotten; so is one not seen for
 * STALE samples (its end was lost). With -a the figures are already
 * cumulative and are taken as they are. A figure dropped as impossible is
 * never added, and a category the kernel does not give has no series at
 * all (absent, not 0). Waiting and stalled are PSI's some and full, named
 * as cAdvisor names them; those are the kernel's own totals. A stall
 * counter adds up TOTAL (cpu + irq + the largest other category, as the
 * screen has it): the kernel nests waits, so a sum over the categories
 * would count one wait twice.
 *
 * The two formats differ only in the lines around the series (see
 * family()). HELP texts are part of the format, like the names, and are
 * not translated.
 */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/escape.h"
#include "lib/numfmt.h"
#include "model/categories.h"
#include "view/out_openmetrics.h"

/* Samples after which a series no sample mentioned is forgotten. */
#define STALE 60

struct cat_sum {
	bool have_sec, have_count;
	double sec;
	uint64_t count;
};

/* TOTAL, summed: seconds stalled by the rule of delta_total. */
struct stall_sum {
	bool have;
	double sec;
};

struct task_series {
	struct task_series *next;  /* hash chain */
	pid_t pid;
	double start;              /* 0: unknown (no label) */
	char *comm;                /* as the row has it */
	char *comm_label;          /* escaped for a label value */
	struct cat_sum sum[NCAT];
	struct stall_sum stall;
	unsigned long seen;        /* the last sample that had it */
	bool ended;
};

struct cg_series {
	struct cg_series *next;
	char *path;
	char *label;
	struct cat_sum sum[NCAT];
	struct stall_sum stall;
	unsigned long seen;
	bool have_psi;             /* its PSI totals, read in the last sample */
	struct psi_sample psi;
};

struct shown {
	const struct row *r;
	struct task_series *t;
};

struct out_openmetrics {
	size_t top;
	unsigned long nsample;
	uint64_t dropped;
	struct task_series **tasks;   /* hash buckets */
	size_t ntask_buckets, ntasks;
	struct cg_series **cgs;
	size_t ncg_buckets, ncgs;
	struct shown *shown;
	size_t cap_shown, nshown;
	/* of the last sample added */
	struct psi_sample psi;
	uint64_t events_lost, exit_records_lost;
};

/* ---- label values ---- */

/*
 * A name as a label value: first escape_text (so invalid UTF-8 and
 * control bytes become \xHH text and the value is valid UTF-8 without
 * line breaks), then the exposition's escapes for \, " and newline.
 */
static char *label_of(const char *raw)
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
static void tasks_grow(struct out_openmetrics *m)
{
	size_t n = m->ntask_buckets * 2;
	struct task_series **b = calloc(n, sizeof(*b));
	if (!b)
		return;
	for (size_t i = 0; i < m->ntask_buckets; i++) {
		struct task_series *t = m->tasks[i], *next;
		for (; t; t = next) {
			next = t->next;
			size_t h = task_hash(t->pid, n);
			t->next = b[h];
			b[h] = t;
		}
	}
	free(m->tasks);
	m->tasks = b;
	m->ntask_buckets = n;
}

static void cgs_grow(struct out_openmetrics *m)
{
	size_t n = m->ncg_buckets * 2;
	struct cg_series **b = calloc(n, sizeof(*b));
	if (!b)
		return;
	for (size_t i = 0; i < m->ncg_buckets; i++) {
		struct cg_series *g = m->cgs[i], *next;
		for (; g; g = next) {
			next = g->next;
			size_t h = str_hash(g->path, n);
			g->next = b[h];
			b[h] = g;
		}
	}
	free(m->cgs);
	m->cgs = b;
	m->ncg_buckets = n;
}

static void task_free(struct task_series *t)
{
	free(t->comm);
	free(t->comm_label);
	free(t);
}

static void cg_free(struct cg_series *g)
{
	free(g->path);
	free(g->label);
	free(g);
}

/* The series of (pid, start), made when new; NULL when out of memory. */
static struct task_series *task_get(struct out_openmetrics *m,
				    const struct row *r)
{
	double start = r->info.start > 0 ? r->info.start : 0;
	size_t h = task_hash(r->pid, m->ntask_buckets);
	struct task_series *t = m->tasks[h];

	for (; t; t = t->next)
		if (t->pid == r->pid && t->start == start)
			break;
	if (!t) {
		t = calloc(1, sizeof(*t));
		if (!t)
			return NULL;
		t->pid = r->pid;
		t->start = start;
		t->next = m->tasks[h];
		m->tasks[h] = t;
		if (++m->ntasks > 2 * m->ntask_buckets)
			tasks_grow(m);
	}
	const char *comm = r->comm ? r->comm : "";
	if (!t->comm || strcmp(t->comm, comm) != 0) {
		char *c = strdup(comm), *l = label_of(comm);
		if (!c || !l) {
			free(c);
			free(l);
			return t->comm ? t : NULL;
		}
		free(t->comm);
		free(t->comm_label);
		t->comm = c;
		t->comm_label = l;
	}
	return t;
}

static struct cg_series *cg_get(struct out_openmetrics *m, const char *path)
{
	size_t h = str_hash(path, m->ncg_buckets);
	struct cg_series *g = m->cgs[h];

	for (; g; g = g->next)
		if (strcmp(g->path, path) == 0)
			return g;
	g = calloc(1, sizeof(*g));
	if (!g)
		return NULL;
	g->path = strdup(path);
	g->label = label_of(path);
	if (!g->path || !g->label) {
		cg_free(g);
		return NULL;
	}
	g->next = m->cgs[h];
	m->cgs[h] = g;
	if (++m->ncgs > 2 * m->ncg_buckets)
		cgs_grow(m);
	return g;
}

struct out_openmetrics *out_openmetrics_new(size_t top)
{
	struct out_openmetrics *m = calloc(1, sizeof(*m));
	if (!m)
		return NULL;
	m->top = top;
	m->ntask_buckets = 256;
	m->ncg_buckets = 64;
	m->tasks = calloc(m->ntask_buckets, sizeof(*m->tasks));
	m->cgs = calloc(m->ncg_buckets, sizeof(*m->cgs));
	if (!m->tasks || !m->cgs) {
		out_openmetrics_free(m);
		errno = ENOMEM;
		return NULL;
	}
	return m;
}

void out_openmetrics_free(struct out_openmetrics *m)
{
	if (!m)
		return;
	for (size_t i = 0; m->tasks && i < m->ntask_buckets; i++) {
		struct task_series *t = m->tasks[i], *next;
		for (; t; t = next) {
			next = t->next;
			task_free(t);
		}
	}
	for (size_t i = 0; m->cgs && i < m->ncg_buckets; i++) {
		struct cg_series *g = m->cgs[i], *next;
		for (; g; g = next) {
			next = g->next;
			cg_free(g);
		}
	}
	free(m->tasks);
	free(m->cgs);
	free(m->shown);
	free(m);
}

/* ---- adding a sample ---- */

/*
 * One interval's figures into the sums: seconds from the share of the
 * interval, events from the count. Accumulated figures (-a) already are
 * the totals; a total never goes down.
 */
static void add_figures(struct cat_sum *sum, const struct cat_figure *d,
			double interval, bool accumulated)
{
	for (int c = 0; c < NCAT; c++) {
		const struct cat_figure *fig = &d[c];
		struct cat_sum *s = &sum[c];

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

static void add_stall(struct stall_sum *s, double total_pct, double interval,
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

static void push_shown(struct out_openmetrics *m, const struct row *r,
		       struct task_series *t)
{
	if (m->nshown == m->cap_shown) {
		size_t n = m->cap_shown ? m->cap_shown * 2 : 256;
		struct shown *p = realloc(m->shown, n * sizeof(*p));
		if (!p)
			return;
		m->shown = p;
		m->cap_shown = n;
	}
	m->shown[m->nshown++] = (struct shown){ r, t };
}

static void add_rows(struct out_openmetrics *m, const struct sample *s,
		     const struct row *rows, size_t n, bool exited)
{
	for (size_t i = 0; i < n; i++) {
		const struct row *r = &rows[i];
		struct task_series *t = task_get(m, r);

		if (!t)
			continue; /* out of memory: the row is left out */
		add_figures(t->sum, r->d, s->interval, s->accumulated);
		add_stall(&t->stall, r->total_pct, s->interval, s->accumulated);
		t->seen = m->nsample;
		if (exited || (r->flags & ROW_EXITED))
			t->ended = true;
		push_shown(m, r, t); /* or it cannot be among the top */
	}
}

/* By the interval's total stall, largest first; absent last; then pid. */
static int cmp_shown(const void *pa, const void *pb)
{
	const struct shown *a = pa, *b = pb;
	double va = a->r->total_pct, vb = b->r->total_pct;
	bool ha = isfinite(va), hb = isfinite(vb);

	if (ha != hb)
		return ha ? -1 : 1;
	if (ha && va != vb)
		return va > vb ? -1 : 1;
	return (a->r->pid > b->r->pid) - (a->r->pid < b->r->pid);
}

static void prune(struct out_openmetrics *m);

void out_openmetrics_add(struct out_openmetrics *m, const struct sample *s)
{
	if (m->nsample)
		prune(m); /* what the last write showed for the last time */
	m->nsample++;
	m->nshown = 0;
	add_rows(m, s, s->rows, s->nrows, false);
	add_rows(m, s, s->exited, s->nexited, true);
	if (m->nshown > 1)
		qsort(m->shown, m->nshown, sizeof(*m->shown), cmp_shown);
	if (m->nshown > m->top)
		m->nshown = m->top;
	for (size_t i = 0; i < s->ncgroups; i++) {
		const struct cgroup_row *g = &s->cgroups[i];
		struct cg_series *c = g->path ? cg_get(m, g->path) : NULL;

		if (!c)
			continue;
		add_figures(c->sum, g->d, s->interval, s->accumulated);
		add_stall(&c->stall, g->total_pct, s->interval, s->accumulated);
		c->seen = m->nsample;
		c->have_psi = g->have_psi;
		c->psi = g->psi;
	}
	m->dropped += s->dropped;
	m->psi = s->psi;
	m->events_lost = s->events_lost;
	m->exit_records_lost = s->exit_records_lost;
	/* the rows are the sample's: the shown keep only their series */
	for (size_t i = 0; i < m->nshown; i++)
		m->shown[i].r = NULL;
}

/* Before the next sample: the ended and the long unseen are forgotten. */
static void prune(struct out_openmetrics *m)
{
	for (size_t i = 0; i < m->ntask_buckets; i++) {
		struct task_series **pp = &m->tasks[i];
		while (*pp) {
			struct task_series *t = *pp;
			if (t->ended || t->seen + STALE < m->nsample) {
				*pp = t->next;
				task_free(t);
				m->ntasks--;
			} else {
				pp = &t->next;
			}
		}
	}
	for (size_t i = 0; i < m->ncg_buckets; i++) {
		struct cg_series **pp = &m->cgs[i];
		while (*pp) {
			struct cg_series *g = *pp;
			if (g->seen + STALE < m->nsample) {
				*pp = g->next;
				cg_free(g);
				m->ncgs--;
			} else {
				pp = &g->next;
			}
		}
	}
}

/* ---- writing ---- */

const char *out_openmetrics_content_type(enum out_openmetrics_format fmt)
{
	return fmt == OUT_OPENMETRICS_OM ?
	       "application/openmetrics-text; version=1.0.0; charset=utf-8" :
	       "text/plain; version=0.0.4; charset=utf-8";
}

/*
 * The HELP and TYPE lines of a counter whose samples are NAME_total, and
 * in OpenMetrics its UNIT when NAME ends with one ("_seconds"). OpenMetrics
 * names the family without the _total of its samples, Prometheus 0.0.4
 * with it (as promtool and node_exporter read it).
 */
static void family(FILE *f, enum out_openmetrics_format fmt, const char *name,
		   const char *help)
{
	const char *total = fmt == OUT_OPENMETRICS_OM ? "" : "_total";
	size_t n = strlen(name);

	fprintf(f, "# HELP %s%s %s\n# TYPE %s%s counter\n", name, total, help,
		name, total);
	if (fmt == OUT_OPENMETRICS_OM && n > 8 &&
	    strcmp(name + n - 8, "_seconds") == 0)
		fprintf(f, "# UNIT %s seconds\n", name);
}

/* The start of a counter's sample: its name with _total. */
static void counter(FILE *f, const char *name)
{
	fputs(name, f);
	fputs("_total", f);
}

static void label(FILE *f, bool first, const char *key, const char *value)
{
	if (!first)
		putc(',', f);
	fputs(key, f);
	fputs("=\"", f);
	fputs(value, f);
	putc('"', f);
}

static void put_u64(FILE *f, uint64_t v)
{
	char buf[NUMFMT_INT_SIZE];

	fwrite(buf, 1, numfmt_u64(buf, v), f);
}

/* Seconds, to the microsecond. */
static void put_sec(FILE *f, double v)
{
	char buf[64];

	fwrite(buf, 1, numfmt_fixed_len(buf, sizeof(buf), v, 6), f);
}

/* Microseconds as seconds, exactly. */
static void put_us(FILE *f, uint64_t us)
{
	char buf[NUMFMT_INT_SIZE];
	uint64_t frac = us % 1000000;

	put_u64(f, us / 1000000);
	putc('.', f);
	size_t n = numfmt_u64(buf, frac);
	for (size_t i = n; i < 6; i++)
		putc('0', f);
	fwrite(buf, 1, n, f);
}

static void value_sec(FILE *f, double v)
{
	fputs("} ", f);
	put_sec(f, v);
	putc('\n', f);
}

static void value_count(FILE *f, uint64_t v)
{
	fputs("} ", f);
	put_u64(f, v);
	putc('\n', f);
}

/* pid, start and comm; with c >= 0 the category too. */
static void task_labels(FILE *f, const struct task_series *t, int c)
{
	char buf[NUMFMT_INT_SIZE];

	numfmt_i64(buf, t->pid);
	label(f, true, "pid", buf);
	if (t->start > 0) {
		char start[64];
		numfmt_fixed(start, sizeof(start), t->start, 2);
		label(f, false, "start", start);
	}
	label(f, false, "comm", t->comm_label);
	if (c >= 0)
		label(f, false, "category", categories[c].key);
}

static void write_task_stall(FILE *f, const struct out_openmetrics *m,
			     enum out_openmetrics_format fmt)
{
	const char *name = "stalltop_task_stall_seconds";

	family(f, fmt, name, "Seconds a task stalled: cpu + irq + the largest other "
	       "category (top tasks only).");
	for (size_t i = 0; i < m->nshown; i++) {
		const struct task_series *t = m->shown[i].t;
		if (!t->stall.have)
			continue;
		counter(f, name);
		putc('{', f);
		task_labels(f, t, -1);
		value_sec(f, t->stall.sec);
	}
}

static void write_tasks(FILE *f, const struct out_openmetrics *m, bool count,
			enum out_openmetrics_format fmt)
{
	const char *name = count ? "stalltop_task_delays" :
				   "stalltop_task_delay_seconds";

	family(f, fmt, name, count ?
	       "Delays a task waited through, by category (top tasks only)." :
	       "Seconds a task waited, by category (top tasks only).");
	for (size_t i = 0; i < m->nshown; i++) {
		const struct task_series *t = m->shown[i].t;
		for (int c = 0; c < NCAT; c++) {
			const struct cat_sum *s = &t->sum[c];
			if (count ? !s->have_count : !s->have_sec)
				continue;
			counter(f, name);
			putc('{', f);
			task_labels(f, t, c);
			if (count)
				value_count(f, s->count);
			else
				value_sec(f, s->sec);
		}
	}
}

/* The cgroups in the order of their paths, for a stable text. */
static int cmp_cg(const void *pa, const void *pb)
{
	const struct cg_series *a = *(const struct cg_series *const *)pa;
	const struct cg_series *b = *(const struct cg_series *const *)pb;

	return strcmp(a->path, b->path);
}

static struct cg_series **cgroups_seen(const struct out_openmetrics *m,
				       size_t *n)
{
	struct cg_series **v = malloc((m->ncgs ? m->ncgs : 1) * sizeof(*v));
	*n = 0;
	if (!v)
		return NULL;
	for (size_t i = 0; i < m->ncg_buckets; i++)
		for (struct cg_series *g = m->cgs[i]; g; g = g->next)
			if (g->seen == m->nsample)
				v[(*n)++] = g;
	qsort(v, *n, sizeof(*v), cmp_cg);
	return v;
}

static void write_cgroups(FILE *f, struct cg_series **v, size_t n, bool count,
			  enum out_openmetrics_format fmt)
{
	const char *name = count ? "stalltop_cgroup_delays" :
				   "stalltop_cgroup_delay_seconds";

	family(f, fmt, name, count ?
	       "Delays the tasks of a cgroup and below waited through, by category." :
	       "Seconds the tasks of a cgroup and below waited, by category.");
	for (size_t i = 0; i < n; i++) {
		for (int c = 0; c < NCAT; c++) {
			const struct cat_sum *s = &v[i]->sum[c];
			if (count ? !s->have_count : !s->have_sec)
				continue;
			counter(f, name);
			putc('{', f);
			label(f, true, "cgroup", v[i]->label);
			label(f, false, "category", categories[c].key);
			if (count)
				value_count(f, s->count);
			else
				value_sec(f, s->sec);
		}
	}
}

static void write_cgroup_stall(FILE *f, struct cg_series **v, size_t n,
			       enum out_openmetrics_format fmt)
{
	const char *name = "stalltop_cgroup_stall_seconds";

	family(f, fmt, name, "Seconds the tasks of a cgroup and below stalled: cpu "
	       "+ irq + the largest other category.");
	for (size_t i = 0; i < n; i++) {
		if (!v[i]->stall.have)
			continue;
		counter(f, name);
		putc('{', f);
		label(f, true, "cgroup", v[i]->label);
		value_sec(f, v[i]->stall.sec);
	}
}

static const char *const psi_metric[NPSI_KIND] = {
	[PSI_SOME] = "waiting", [PSI_FULL] = "stalled",
};

static void write_cgroup_psi(FILE *f, struct cg_series **v, size_t n,
			     int kind, enum out_openmetrics_format fmt)
{
	char name[64];

	snprintf(name, sizeof(name), "stalltop_cgroup_pressure_%s_seconds",
		 psi_metric[kind]);
	family(f, fmt, name, kind == PSI_SOME ?
	       "Seconds some tasks of the cgroup were stalled on the resource (PSI some)." :
	       "Seconds all tasks of the cgroup were stalled on the resource (PSI full).");
	for (size_t i = 0; i < n; i++) {
		/* its PSI totals are the kernel's, read in this sample */
		const struct cg_series *g = v[i];
		if (!g->have_psi)
			continue;
		for (int r = 0; r < NPSI; r++) {
			if (!g->psi.s[r][kind].present)
				continue;
			counter(f, name);
			putc('{', f);
			label(f, true, "cgroup", v[i]->label);
			label(f, false, "resource", psi_res_name[r]);
			fputs("} ", f);
			put_us(f, g->psi.s[r][kind].total_us);
			putc('\n', f);
		}
	}
}

static void write_psi(FILE *f, const struct out_openmetrics *m, int kind,
		      enum out_openmetrics_format fmt)
{
	char name[64];

	snprintf(name, sizeof(name), "stalltop_pressure_%s_seconds",
		 psi_metric[kind]);
	family(f, fmt, name, kind == PSI_SOME ?
	       "Seconds some tasks were stalled on the resource (PSI some)." :
	       "Seconds all non-idle tasks were stalled on the resource (PSI full).");
	for (int r = 0; r < NPSI; r++) {
		if (!m->psi.s[r][kind].present)
			continue;
		counter(f, name);
		putc('{', f);
		label(f, true, "resource", psi_res_name[r]);
		fputs("} ", f);
		put_us(f, m->psi.s[r][kind].total_us);
		putc('\n', f);
	}
}

static void single(FILE *f, enum out_openmetrics_format fmt, const char *name,
		   const char *help, uint64_t v)
{
	family(f, fmt, name, help);
	counter(f, name);
	putc(' ', f);
	put_u64(f, v);
	putc('\n', f);
}

int out_openmetrics_write(FILE *f, const struct out_openmetrics *m,
			  enum out_openmetrics_format fmt)
{
	write_tasks(f, m, false, fmt);
	write_tasks(f, m, true, fmt);
	write_task_stall(f, m, fmt);

	size_t ncg = 0;
	struct cg_series **cg = cgroups_seen(m, &ncg);
	if (cg && ncg) {
		write_cgroups(f, cg, ncg, false, fmt);
		write_cgroups(f, cg, ncg, true, fmt);
		write_cgroup_stall(f, cg, ncg, fmt);
		write_cgroup_psi(f, cg, ncg, PSI_SOME, fmt);
		write_cgroup_psi(f, cg, ncg, PSI_FULL, fmt);
	}
	free(cg);

	write_psi(f, m, PSI_SOME, fmt);
	write_psi(f, m, PSI_FULL, fmt);
	single(f, fmt, "stalltop_events_lost",
	       "Fork, exit and exit-record notifications lost since stalltop started.",
	       m->events_lost);
	single(f, fmt, "stalltop_exit_records_lost",
	       "Exit records lost since stalltop started.", m->exit_records_lost);
	single(f, fmt, "stalltop_dropped_figures",
	       "Figures dropped as impossible, summed over the samples.",
	       m->dropped);
	if (fmt == OUT_OPENMETRICS_OM)
		fputs("# EOF\n", f);
	return ferror(f) ? -1 : 0;
}
