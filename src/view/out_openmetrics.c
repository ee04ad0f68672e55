/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The metrics as text: the series of om_series.c written in the
 * OpenMetrics text format (--format openmetrics: one exposition per
 * sample, each ending with "# EOF") or in the Prometheus text format
 * 0.0.4 (--textfile, for node_exporter's textfile collector; a scrape).
 *
 *   stalltop_build_info{version}                         (info)
 *   stalltop_last_sample_timestamp_seconds               (gauge)
 *   stalltop_delay_accounting                            (gauge, 1 or 0)
 *   stalltop_tasks                                       (gauge)
 *   stalltop_cgroup_delay_seconds_total{id,name,depth,category}
 *   stalltop_cgroup_delays_total{id,name,depth,category}
 *   stalltop_cgroup_stall_seconds_total{id,name,depth}
 *   stalltop_cgroup_pressure_{waiting,stalled}_seconds_total{id,name,depth,resource}
 *   stalltop_cgroup_cpu_throttled_seconds_total{id,name,depth}
 *   stalltop_cgroup_memory_events_total{id,name,depth,event}
 *   stalltop_group_delay_seconds_total{group,category}
 *   stalltop_group_delays_total{group,category}
 *   stalltop_group_stall_seconds_total{group}
 *   stalltop_group_tasks{group}                          (gauge)
 *   stalltop_task_delay_seconds_total{pid,start,comm,category}   (--top N)
 *   stalltop_task_delays_total{pid,start,comm,category}          (--top N)
 *   stalltop_task_stall_seconds_total{pid,start,comm}            (--top N)
 *   stalltop_pressure_{waiting,stalled}_seconds_total{resource}  (asked)
 *   stalltop_events_lost_total, stalltop_exit_records_lost_total,
 *   stalltop_dropped_figures_total
 *
 * id and name are a cgroup's path and name as cAdvisor labels a
 * container; depth is its level (0 for the root): a cgroup's figures
 * include those below it, so a sum over the cgroups of one depth counts
 * each task once. Waiting and stalled are PSI's some and full, named as
 * cAdvisor names them; those are the kernel's own totals. The host's PSI
 * is node_exporter's node_pressure_*: written only when asked. A stall
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
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/numfmt.h"
#include "model/categories.h"
#include "view/om_series.h"
#include "view/out_openmetrics.h"

struct out_openmetrics {
	struct om_series *t;
	bool host_psi;
};

struct out_openmetrics *out_openmetrics_new(size_t top)
{
	struct out_openmetrics *m = calloc(1, sizeof(*m));
	if (!m)
		return NULL;
	m->t = om_series_new(top);
	if (!m->t) {
		free(m);
		errno = ENOMEM;
		return NULL;
	}
	return m;
}

void out_openmetrics_free(struct out_openmetrics *m)
{
	if (!m)
		return;
	om_series_free(m->t);
	free(m);
}

void out_openmetrics_set_rules(struct out_openmetrics *m,
			       const struct om_rule *rules, size_t n)
{
	om_series_set_rules(m->t, rules, n);
}

void out_openmetrics_on_note(struct out_openmetrics *m,
			     void (*fn)(const char *text, void *arg),
			     void *arg)
{
	om_series_on_note(m->t, fn, arg);
}

void out_openmetrics_set_host_psi(struct out_openmetrics *m, bool on)
{
	m->host_psi = on;
}

void out_openmetrics_add(struct out_openmetrics *m, const struct sample *s)
{
	om_series_add(m->t, s);
}

/* ---- writing ---- */

const char *out_openmetrics_content_type(enum out_openmetrics_format fmt)
{
	return fmt == OUT_OPENMETRICS_OM ?
	       "application/openmetrics-text; version=1.0.0; charset=utf-8" :
	       "text/plain; version=0.0.4; charset=utf-8";
}

enum kind { COUNTER, GAUGE, INFO };

/*
 * The HELP and TYPE lines of a family and in OpenMetrics its UNIT when
 * NAME ends with one ("_seconds"). A counter's samples are NAME_total:
 * OpenMetrics names the family without the _total, Prometheus 0.0.4
 * with it (as promtool and node_exporter read it). An info's samples
 * are NAME_info: an info family in OpenMetrics, a gauge in 0.0.4.
 */
static void family(FILE *f, enum out_openmetrics_format fmt, const char *name,
		   enum kind kind, const char *help)
{
	bool om = fmt == OUT_OPENMETRICS_OM;
	const char *suffix = om ? "" : kind == COUNTER ? "_total" :
				       kind == INFO ? "_info" : "";
	const char *type = kind == COUNTER ? "counter" :
			   kind == INFO && om ? "info" : "gauge";
	size_t n = strlen(name);

	fprintf(f, "# HELP %s%s %s\n# TYPE %s%s %s\n", name, suffix, help,
		name, suffix, type);
	if (om && n > 8 && strcmp(name + n - 8, "_seconds") == 0)
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
static void task_labels(FILE *f, const struct om_task *t, int c)
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

static void cg_labels(FILE *f, const struct om_cgroup *g)
{
	char buf[NUMFMT_INT_SIZE];

	label(f, true, "id", g->id_label);
	label(f, false, "name", g->name_label);
	numfmt_i64(buf, g->depth);
	label(f, false, "depth", buf);
}

/* What a family is written over: the series and their labels. */
enum over { TASKS, GROUPS, CGROUPS };

struct lists {
	const struct om_series *t;
	struct om_group **groups;
	size_t ngroups;
	struct om_cgroup **cgs;
	size_t ncgs;
};

static size_t count_of(const struct lists *l, enum over over)
{
	return over == TASKS ? l->t->nshown : over == GROUPS ? l->ngroups : l->ncgs;
}

static void labels_of(FILE *f, const struct lists *l, enum over over, size_t i)
{
	if (over == TASKS)
		task_labels(f, l->t->shown[i], -1);
	else if (over == GROUPS)
		label(f, true, "group", l->groups[i]->label);
	else
		cg_labels(f, l->cgs[i]);
}

static const struct om_sum *sums_of(const struct lists *l, enum over over,
				    size_t i)
{
	return over == TASKS ? l->t->shown[i]->sum :
	       over == GROUPS ? l->groups[i]->sum : l->cgs[i]->sum;
}

static const struct om_stall *stall_of(const struct lists *l, enum over over,
				       size_t i)
{
	return over == TASKS ? &l->t->shown[i]->stall :
	       over == GROUPS ? &l->groups[i]->stall : &l->cgs[i]->stall;
}

static const char *const over_name[] = {
	[TASKS] = "task", [GROUPS] = "group", [CGROUPS] = "cgroup",
};

static const char *const over_help[] = {
	[TASKS] = "a task (top tasks only)",
	[GROUPS] = "the tasks of a workload group, ended and live",
	[CGROUPS] = "the tasks of a cgroup and below",
};

/* The delay seconds (or counts) per category of every series of OVER. */
static void write_delays(FILE *f, enum out_openmetrics_format fmt,
			 const struct lists *l, enum over over, bool count)
{
	size_t n = count_of(l, over);
	char name[64], help[160];

	if (!n)
		return;
	snprintf(name, sizeof(name), "stalltop_%s_%s", over_name[over],
		 count ? "delays" : "delay_seconds");
	snprintf(help, sizeof(help), "%s %s, by category.",
		 count ? "Delays waited through by" : "Seconds waited by",
		 over_help[over]);
	family(f, fmt, name, COUNTER, help);
	for (size_t i = 0; i < n; i++) {
		const struct om_sum *sum = sums_of(l, over, i);
		for (int c = 0; c < NCAT; c++) {
			const struct om_sum *s = &sum[c];
			if (count ? !s->have_count : !s->have_sec)
				continue;
			counter(f, name);
			putc('{', f);
			labels_of(f, l, over, i);
			label(f, false, "category", categories[c].key);
			if (count)
				value_count(f, s->count);
			else
				value_sec(f, s->sec);
		}
	}
}

static void write_stall(FILE *f, enum out_openmetrics_format fmt,
			const struct lists *l, enum over over)
{
	size_t n = count_of(l, over);
	char name[64], help[200];

	if (!n)
		return;
	snprintf(name, sizeof(name), "stalltop_%s_stall_seconds", over_name[over]);
	snprintf(help, sizeof(help), "Seconds stalled by %s: cpu + irq + the "
		 "largest other category.", over_help[over]);
	family(f, fmt, name, COUNTER, help);
	for (size_t i = 0; i < n; i++) {
		const struct om_stall *s = stall_of(l, over, i);
		if (!s->have)
			continue;
		counter(f, name);
		putc('{', f);
		labels_of(f, l, over, i);
		value_sec(f, s->sec);
	}
}

static void write_group_tasks(FILE *f, enum out_openmetrics_format fmt,
			      const struct lists *l)
{
	const char *name = "stalltop_group_tasks";

	if (!l->ngroups)
		return;
	family(f, fmt, name, GAUGE,
	       "Tasks of the workload group in the last sample.");
	for (size_t i = 0; i < l->ngroups; i++) {
		fputs(name, f);
		putc('{', f);
		label(f, true, "group", l->groups[i]->label);
		value_count(f, l->groups[i]->ntasks);
	}
}

/*
 * A counter family of the cgroups: n values of each (a resource, an
 * event), told apart by the label key (none when n is 1); get says
 * whether a cgroup has the kth and what it is.
 */
struct cg_family {
	const char *name;
	const char *help;
	const char *key;            /* NULL: one value, no label */
	const char *const *values;  /* the key's value of each of the n */
	size_t n;
	bool us;                    /* microseconds, written as seconds;
				       else a count */
	bool always;                /* HELP and TYPE even when no cgroup
				       has a value */
	bool (*get)(const struct om_cgroup *g, int arg, size_t k,
		    uint64_t *v);
	int arg;
};

static bool cg_family_any(const struct lists *l, const struct cg_family *fam)
{
	uint64_t v;

	for (size_t i = 0; i < l->ncgs; i++)
		for (size_t k = 0; k < fam->n; k++)
			if (fam->get(l->cgs[i], fam->arg, k, &v))
				return true;
	return false;
}

static void write_cgroup_family(FILE *f, enum out_openmetrics_format fmt,
				const struct lists *l,
				const struct cg_family *fam)
{
	if (!l->ncgs || !(fam->always || cg_family_any(l, fam)))
		return;
	family(f, fmt, fam->name, COUNTER, fam->help);
	for (size_t i = 0; i < l->ncgs; i++) {
		for (size_t k = 0; k < fam->n; k++) {
			uint64_t v;
			if (!fam->get(l->cgs[i], fam->arg, k, &v))
				continue;
			counter(f, fam->name);
			putc('{', f);
			cg_labels(f, l->cgs[i]);
			if (fam->key)
				label(f, false, fam->key, fam->values[k]);
			fputs("} ", f);
			if (fam->us)
				put_us(f, v);
			else
				put_u64(f, v);
			putc('\n', f);
		}
	}
}

static const char *const psi_metric[NPSI_KIND] = {
	[PSI_SOME] = "waiting", [PSI_FULL] = "stalled",
};

/* Its PSI totals of the resource r are the kernel's, read in the last
   sample. */
static bool cg_psi(const struct om_cgroup *g, int kind, size_t r,
		   uint64_t *v)
{
	if (!g->have_psi || !g->psi.s[r][kind].present)
		return false;
	*v = g->psi.s[r][kind].total_us;
	return true;
}

static void write_cgroup_psi(FILE *f, enum out_openmetrics_format fmt,
			     const struct lists *l, int kind)
{
	char name[64];

	snprintf(name, sizeof(name), "stalltop_cgroup_pressure_%s_seconds",
		 psi_metric[kind]);
	const struct cg_family fam = {
		.name = name,
		.help = kind == PSI_SOME
			? "Seconds some tasks of the cgroup were stalled on "
			  "the resource (PSI some)."
			: "Seconds all tasks of the cgroup were stalled on "
			  "the resource (PSI full).",
		.key = "resource", .values = psi_res_name, .n = NPSI,
		.us = true, .always = true, .get = cg_psi, .arg = kind,
	};
	write_cgroup_family(f, fmt, l, &fam);
}

/*
 * The WHY of a cgroup as the kernel counts it: time throttled by its CPU
 * quota, times its memory hit a limit. Its own totals, as read.
 */
static bool cg_throttled(const struct om_cgroup *g, int arg, size_t k,
			 uint64_t *v)
{
	(void)arg;
	(void)k;
	*v = g->throttled_us;
	return g->have_throttled;
}

static const char *const mem_event[] = { "high", "max", "oom_kill" };

static bool cg_mem_event(const struct om_cgroup *g, int arg, size_t k,
			 uint64_t *v)
{
	const bool have[] = {
		g->have_mem_high, g->have_mem_max, g->have_mem_oom_kill,
	};
	const uint64_t value[] = { g->mem_high, g->mem_max, g->mem_oom_kill };

	(void)arg;
	*v = value[k];
	return have[k];
}

static void write_cgroup_why(FILE *f, enum out_openmetrics_format fmt,
			     const struct lists *l)
{
	static const struct cg_family throttled = {
		.name = "stalltop_cgroup_cpu_throttled_seconds",
		.help = "Seconds the tasks of the cgroup were throttled by its "
			"CPU quota (cpu.stat).",
		.n = 1, .us = true, .get = cg_throttled,
	};
	static const struct cg_family mem_events = {
		.name = "stalltop_cgroup_memory_events",
		.help = "Times the memory of the cgroup and below hit "
			"memory.high (high), memory.max (max; v1: failcnt), "
			"and OOM kills (oom_kill).",
		.key = "event", .values = mem_event,
		.n = sizeof(mem_event) / sizeof(mem_event[0]),
		.get = cg_mem_event,
	};

	write_cgroup_family(f, fmt, l, &throttled);
	write_cgroup_family(f, fmt, l, &mem_events);
}

static void write_psi(FILE *f, enum out_openmetrics_format fmt,
		      const struct om_series *t, int kind)
{
	char name[64];

	snprintf(name, sizeof(name), "stalltop_pressure_%s_seconds",
		 psi_metric[kind]);
	family(f, fmt, name, COUNTER, kind == PSI_SOME ?
	       "Seconds some tasks were stalled on the resource (PSI some)." :
	       "Seconds all non-idle tasks were stalled on the resource (PSI full).");
	for (int r = 0; r < NPSI; r++) {
		if (!t->psi.s[r][kind].present)
			continue;
		counter(f, name);
		putc('{', f);
		label(f, true, "resource", psi_res_name[r]);
		fputs("} ", f);
		put_us(f, t->psi.s[r][kind].total_us);
		putc('\n', f);
	}
}

/* A family of one sample without labels: a counter's or a gauge's. */
static void single(FILE *f, enum out_openmetrics_format fmt, const char *name,
		   enum kind kind, const char *help, uint64_t v)
{
	family(f, fmt, name, kind, help);
	if (kind == COUNTER)
		counter(f, name);
	else
		fputs(name, f);
	putc(' ', f);
	put_u64(f, v);
	putc('\n', f);
}

/* What tells "no stalls" from "no stalltop" and from "not measured". */
static void write_state(FILE *f, enum out_openmetrics_format fmt,
			const struct om_series *t)
{
	char *version = om_series_label(VERSION);

	family(f, fmt, "stalltop_build", INFO,
	       "The version of stalltop writing these metrics; always 1.");
	fprintf(f, "stalltop_build_info{version=\"%s\"} 1\n",
		version ? version : "");
	free(version);
	if (!t->nsample)
		return;
	family(f, fmt, "stalltop_last_sample_timestamp_seconds", GAUGE,
	       "When the last sample was taken, seconds since the epoch.");
	fputs("stalltop_last_sample_timestamp_seconds ", f);
	put_sec(f, t->time);
	putc('\n', f);
	if (t->delayacct_known)
		single(f, fmt, "stalltop_delay_accounting", GAUGE,
		       "1 when the kernel's delay accounting was on at the last "
		       "sample; 0: the delay counters cannot grow.",
		       t->delayacct ? 1 : 0);
	single(f, fmt, "stalltop_tasks", GAUGE,
	       "Processes known at the last sample.", t->nprocs);
}

int out_openmetrics_write(FILE *f, const struct out_openmetrics *m,
			  enum out_openmetrics_format fmt)
{
	const struct om_series *t = m->t;
	struct lists l = { .t = t };

	write_state(f, fmt, t);
	l.cgs = om_series_cgroups(t, &l.ncgs);
	l.groups = om_series_groups(t, &l.ngroups);
	write_delays(f, fmt, &l, CGROUPS, false);
	write_delays(f, fmt, &l, CGROUPS, true);
	write_stall(f, fmt, &l, CGROUPS);
	write_cgroup_psi(f, fmt, &l, PSI_SOME);
	write_cgroup_psi(f, fmt, &l, PSI_FULL);
	write_cgroup_why(f, fmt, &l);
	write_delays(f, fmt, &l, GROUPS, false);
	write_delays(f, fmt, &l, GROUPS, true);
	write_stall(f, fmt, &l, GROUPS);
	write_group_tasks(f, fmt, &l);
	write_delays(f, fmt, &l, TASKS, false);
	write_delays(f, fmt, &l, TASKS, true);
	write_stall(f, fmt, &l, TASKS);
	free(l.cgs);
	free(l.groups);

	if (m->host_psi) {
		write_psi(f, fmt, t, PSI_SOME);
		write_psi(f, fmt, t, PSI_FULL);
	}
	single(f, fmt, "stalltop_events_lost", COUNTER,
	       "Fork, exit and exit-record notifications lost since stalltop started.",
	       t->events_lost);
	single(f, fmt, "stalltop_exit_records_lost", COUNTER,
	       "Exit records lost since stalltop started.", t->exit_records_lost);
	single(f, fmt, "stalltop_dropped_figures", COUNTER,
	       "Figures dropped as impossible, summed over the samples.",
	       t->dropped);
	if (fmt == OUT_OPENMETRICS_OM)
		fputs("# EOF\n", f);
	return ferror(f) ? -1 : 0;
}
