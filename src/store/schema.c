/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The codec schema of a store sample: its tables, the values in the
 * form that stays the same, the system and the cgroups, and the
 * conversion's entry points (schema.h says what is stored how; tasks
 * and threads are schema_task.c's, the evidence and disks schema_ev.c's).
 */
#include <config.h>

#include "store/schema.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/schema_impl.h"

/* --- the tables --- */

#define F(s, id, ty, fl, m) { id, ty, fl, offsetof(struct s, m), #m }
#define FS(s, id, m) { id, CODEC_STRING, 0, offsetof(struct s, m), #m }
#define FA(s, id, ty, fl, m, i, name) \
	{ id, ty, fl, offsetof(struct s, m) + (i) * 8, name }
#define CAT8(s, base, ty, fl, m) \
	FA(s, base, ty, fl, m, 0, #m "0"), FA(s, base + 1, ty, fl, m, 1, #m "1"), \
	FA(s, base + 2, ty, fl, m, 2, #m "2"), FA(s, base + 3, ty, fl, m, 3, #m "3"), \
	FA(s, base + 4, ty, fl, m, 4, #m "4"), FA(s, base + 5, ty, fl, m, 5, #m "5"), \
	FA(s, base + 6, ty, fl, m, 6, #m "6"), FA(s, base + 7, ty, fl, m, 7, #m "7")

/*
 * PSI line L of member m (an array of struct schema_psi) at ids
 * base + 8 L .. base + 6 + 8 L: of a cgroup and the system, base 32 and
 * L = resource * 2 + kind
 */
#define PSIF(s, a, base, l, j, ty, fl, m, name) \
	{ (base) + 8u * (l) + (j), ty, fl, offsetof(struct s, a) + \
	  (l) * sizeof(struct schema_psi) + offsetof(struct schema_psi, m), \
	  name }
#define PSI_LINE(s, a, base, l) \
	PSIF(s, a, base, l, 0, CODEC_U64, CODEC_COUNTER, total_us, \
	     "psi_total_us"), \
	PSIF(s, a, base, l, 1, CODEC_U64, 0, avg_c[0], "psi_avg10_c"), \
	PSIF(s, a, base, l, 2, CODEC_U64, 0, avg_c[1], "psi_avg60_c"), \
	PSIF(s, a, base, l, 3, CODEC_U64, 0, avg_c[2], "psi_avg300_c"), \
	PSIF(s, a, base, l, 4, CODEC_DOUBLE, 0, avg[0], "psi_avg10"), \
	PSIF(s, a, base, l, 5, CODEC_DOUBLE, 0, avg[1], "psi_avg60"), \
	PSIF(s, a, base, l, 6, CODEC_DOUBLE, 0, avg[2], "psi_avg300")
#define PSI_ALL(s) \
	PSI_LINE(s, psi, PSI_BASE, 0), PSI_LINE(s, psi, PSI_BASE, 1), \
	PSI_LINE(s, psi, PSI_BASE, 2), PSI_LINE(s, psi, PSI_BASE, 3), \
	PSI_LINE(s, psi, PSI_BASE, 4), PSI_LINE(s, psi, PSI_BASE, 5), \
	PSI_LINE(s, psi, PSI_BASE, 6), PSI_LINE(s, psi, PSI_BASE, 7)

static const struct codec_field task_fields[] = {
	F(schema_task, 1, CODEC_U64, CODEC_KEY, id),
	F(schema_task, 2, CODEC_U64, CODEC_KEY, start),
	F(schema_task, T_TGID, CODEC_U64, 0, tgid),
	F(schema_task, T_ASKED_AT, CODEC_DOUBLE, CODEC_COUNTER, asked_at),
	F(schema_task, T_AT, CODEC_DOUBLE, CODEC_COUNTER, at),
	F(schema_task, 6, CODEC_DOUBLE, 0, born),
	F(schema_task, 7, CODEC_DOUBLE, 0, first_seen),
	F(schema_task, T_AGE, CODEC_DOUBLE, 0, age),
	F(schema_task, T_AGE_US, CODEC_U64, CODEC_COUNTER, age_us),
	F(schema_task, 10, CODEC_U64, CODEC_COUNTER, run_ns),
	F(schema_task, 11, CODEC_U64, 0, have),
	F(schema_task, 12, CODEC_U64, 0, have_max),
	F(schema_task, 13, CODEC_U64, 0, have_max_at),
	F(schema_task, 14, CODEC_U64, 0, no_count),
	F(schema_task, 15, CODEC_U64, 0, cats),
	F(schema_task, 16, CODEC_U64, 0, flags),
	F(schema_task, 17, CODEC_S64, 0, rthreads),
	CAT8(schema_task, T_COUNT, CODEC_U64, CODEC_COUNTER, count),
	CAT8(schema_task, T_TOTAL, CODEC_U64, CODEC_COUNTER, total_ns),
	CAT8(schema_task, T_MAX, CODEC_U64, CODEC_COUNTER, max_ns),
	CAT8(schema_task, T_MAX_AT, CODEC_DOUBLE, 0, max_at),
	F(schema_task, T_UID, CODEC_U64, 0, uid),
	F(schema_task, T_PPID, CODEC_S64, 0, ppid),
	F(schema_task, T_THREADS, CODEC_S64, 0, threads),
	F(schema_task, T_STATE, CODEC_S64, 0, state),
	F(schema_task, T_NICE, CODEC_S64, 0, nice),
	F(schema_task, T_START_REAL, CODEC_DOUBLE, 0, start_real),
	F(schema_task, T_CTX_AT, CODEC_DOUBLE, CODEC_COUNTER, ctx_at),
	F(schema_task, T_RSS, CODEC_S64, 0, rss_kib),
	F(schema_task, T_SWAP, CODEC_S64, 0, swap_kib),
	F(schema_task, T_READ, CODEC_U64, CODEC_COUNTER, read_bytes),
	F(schema_task, T_WRITE, CODEC_U64, CODEC_COUNTER, write_bytes),
	F(schema_task, T_MAJFLT, CODEC_U64, CODEC_COUNTER, majflt),
	FS(schema_task, 72, comm),
	FS(schema_task, 73, user),
	FS(schema_task, T_WCHAN, wchan),
	FS(schema_task, 75, cmdline),
	FS(schema_task, T_CGROUP, cgroup),
	F(schema_task, T_SHAVE, CODEC_U64, 0, shave),
	F(schema_task, T_LIKE, CODEC_U64, 0, like),
	F(schema_task, T_AGE_REL, CODEC_S64, CODEC_COUNTER, age_rel),
	F(schema_task, T_CTX_NS, CODEC_S64, 0, ctx_ns),
	F(schema_task, T_RUN_US, CODEC_U64, CODEC_COUNTER, run_us),
	CAT8(schema_task, T_TOTAL_US, CODEC_U64, CODEC_COUNTER, total_us),
	F(schema_task, T_LIFE, CODEC_U64, CODEC_KEY | CODEC_KEY_ZERO, life),
};

static const struct codec_field cgroup_fields[] = {
	{ 1, CODEC_STRING, CODEC_KEY, offsetof(struct schema_cgroup, path),
	  "path" },
	F(schema_cgroup, 2, CODEC_U64, 0, have),
	F(schema_cgroup, C_PSI_WHEN, CODEC_DOUBLE, CODEC_COUNTER, psi_when),
	F(schema_cgroup, 4, CODEC_U64, CODEC_COUNTER, throttled_us),
	F(schema_cgroup, 5, CODEC_U64, CODEC_COUNTER, mem_high),
	F(schema_cgroup, 6, CODEC_U64, CODEC_COUNTER, mem_max),
	F(schema_cgroup, 7, CODEC_U64, CODEC_COUNTER, mem_oom_kill),
	PSI_ALL(schema_cgroup),
};

static const struct codec_field system_fields[] = {
	F(schema_system, 1, CODEC_DOUBLE, CODEC_COUNTER, boot),
	F(schema_system, 2, CODEC_DOUBLE, CODEC_COUNTER, mono),
	F(schema_system, 3, CODEC_DOUBLE, CODEC_COUNTER, real),
	F(schema_system, 4, CODEC_DOUBLE, CODEC_COUNTER, query_start),
	F(schema_system, S_PSI_WHEN, CODEC_DOUBLE, CODEC_COUNTER, psi_when),
	F(schema_system, 6, CODEC_S64, 0, delayacct),
	F(schema_system, 7, CODEC_U64, 0, ts_version),
	F(schema_system, 8, CODEC_U64, CODEC_COUNTER, events_lost),
	F(schema_system, 9, CODEC_U64, CODEC_COUNTER, exit_records_lost),
	F(schema_system, 10, CODEC_U64, 0, threads),
	FS(schema_system, S_TRIGGER, trigger),
	F(schema_system, 12, CODEC_U64, 0, mhave),
	FA(schema_system, S_LOAD_C, CODEC_U64, 0, load_c, 0, "load1_c"),
	FA(schema_system, S_LOAD_C + 1, CODEC_U64, 0, load_c, 1, "load5_c"),
	FA(schema_system, S_LOAD_C + 2, CODEC_U64, 0, load_c, 2, "load15_c"),
	FA(schema_system, S_LOAD, CODEC_DOUBLE, 0, load, 0, "load1"),
	FA(schema_system, S_LOAD + 1, CODEC_DOUBLE, 0, load, 1, "load5"),
	FA(schema_system, S_LOAD + 2, CODEC_DOUBLE, 0, load, 2, "load15"),
	F(schema_system, S_CPU_IDLE, CODEC_U64, CODEC_COUNTER, cpu_idle),
	F(schema_system, S_CPU_IDLE + 1, CODEC_U64, CODEC_COUNTER, cpu_total),
	F(schema_system, S_MEM_TOTAL, CODEC_U64, 0, mem_total),
	F(schema_system, S_MEM_TOTAL + 1, CODEC_U64, 0, mem_available),
	F(schema_system, S_SWAP_TOTAL, CODEC_U64, 0, swap_total),
	F(schema_system, S_SWAP_TOTAL + 1, CODEC_U64, 0, swap_free),
	F(schema_system, 25, CODEC_U64, 0, nprocs),
	F(schema_system, 26, CODEC_U64, 0, nthreads),
	F(schema_system, 27, CODEC_U64, 0, thread_readings),
	F(schema_system, S_DISKS_WHEN, CODEC_DOUBLE, CODEC_COUNTER, disks_when),
	F(schema_system, S_AT, CODEC_DOUBLE, CODEC_COUNTER, at),
	F(schema_system, S_CTX_AT, CODEC_DOUBLE, CODEC_COUNTER, ctx_at),
	PSI_ALL(schema_system),
};

#define EV_FIELD(name, m) \
	{ E_KV + EVK_##name, CODEC_U64, CODEC_COUNTER, \
	  offsetof(struct schema_evidence, kv) + EVK_##name * 8, #name },
#define DEVF(d, k, m, name) \
	{ E_DEV_ID(d, k), CODEC_U64, (k) < 3 ? 0 : CODEC_COUNTER, \
	  offsetof(struct schema_evidence, dev) + \
	  (d) * sizeof(struct schema_evdev) + \
	  offsetof(struct schema_evdev, m), name }
#define DEV(d) \
	DEVF(d, 0, major, "dev_major"), DEVF(d, 1, minor, "dev_minor"), \
	DEVF(d, 2, max, "dev_max"), DEVF(d, 3, kv[0], "dev_rbps"), \
	DEVF(d, 4, kv[1], "dev_wbps"), DEVF(d, 5, kv[2], "dev_riops"), \
	DEVF(d, 6, kv[3], "dev_wiops"), DEVF(d, 7, kv[4], "dev_rbytes"), \
	DEVF(d, 8, kv[5], "dev_wbytes"), DEVF(d, 9, kv[6], "dev_rios"), \
	DEVF(d, 10, kv[7], "dev_wios")
_Static_assert(CG_IO_DEVS == 16, "the schema has 16 devices");

static const struct codec_field evidence_fields[] = {
	F(schema_evidence, 1, CODEC_U64, CODEC_KEY, id),
	F(schema_evidence, 2, CODEC_U64, CODEC_KEY, start),
	{ 3, CODEC_STRING, CODEC_KEY, offsetof(struct schema_evidence, owner),
	  "owner" },
	F(schema_evidence, E_WHEN, CODEC_DOUBLE, CODEC_COUNTER, when),
	FS(schema_evidence, E_CGROUPS, cgroups),
	FS(schema_evidence, E_ALLOWED, allowed_list),
	F(schema_evidence, 7, CODEC_S64, 0, cpu_version),
	F(schema_evidence, 8, CODEC_S64, 0, mem_version),
	F(schema_evidence, 9, CODEC_S64, 0, io_version),
	F(schema_evidence, 10, CODEC_S64, 0, states_source),
	F(schema_evidence, 11, CODEC_U64, 0, ndev),
	F(schema_evidence, 12, CODEC_U64, 0, dropped),
	F(schema_evidence, 13, CODEC_U64, 0, max),
	F(schema_evidence, E_SAME_KV, CODEC_U64, 0, same_kv),
	F(schema_evidence, E_SAME_PART, CODEC_U64, 0, same_part),
	EV_KVALS(EV_FIELD)
	PSI_LINE(schema_evidence, psi, E_PSI, 0),
	PSI_LINE(schema_evidence, psi, E_PSI, 1),
	PSI_LINE(schema_evidence, psi, E_PSI, 2),
	PSI_LINE(schema_evidence, psi, E_PSI, 3),
	PSI_LINE(schema_evidence, psi, E_PSI, 4),
	PSI_LINE(schema_evidence, psi, E_PSI, 5),
	DEV(0), DEV(1), DEV(2), DEV(3), DEV(4), DEV(5), DEV(6), DEV(7),
	DEV(8), DEV(9), DEV(10), DEV(11), DEV(12), DEV(13), DEV(14), DEV(15),
	F(schema_evidence, E_WHEN_REL, CODEC_S64, CODEC_COUNTER, when_rel),
};

static const struct codec_field disk_fields[] = {
	F(schema_disk, 1, CODEC_U64, CODEC_KEY, major),
	F(schema_disk, 2, CODEC_U64, CODEC_KEY, minor),
	FS(schema_disk, 3, name),
	F(schema_disk, 4, CODEC_U64, CODEC_COUNTER, rd_ios),
	F(schema_disk, 5, CODEC_U64, CODEC_COUNTER, rd_sectors),
	F(schema_disk, 6, CODEC_U64, CODEC_COUNTER, wr_ios),
	F(schema_disk, 7, CODEC_U64, CODEC_COUNTER, wr_sectors),
	F(schema_disk, 8, CODEC_U64, CODEC_COUNTER, in_flight),
	F(schema_disk, 9, CODEC_U64, CODEC_COUNTER, io_ticks_ms),
	F(schema_disk, 10, CODEC_U64, CODEC_COUNTER, queue_ms),
};

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define TABLE(id, name, s, f, max) \
	{ id, name, sizeof(struct s), offsetof(struct s, known), \
	  sizeof(((struct s *)0)->known), max, f, N(f) }

const struct codec_table schema_tables[SCHEMA_NTABLES] = {
	TABLE(1, "tasks", schema_task, task_fields, 1u << 22),
	TABLE(2, "threads", schema_task, task_fields, 1u << 22),
	TABLE(3, "cgroups", schema_cgroup, cgroup_fields, 1u << 20),
	TABLE(4, "system", schema_system, system_fields, 1),
	TABLE(5, "evidence", schema_evidence, evidence_fields, 1u << 22),
	TABLE(6, "disks", schema_disk, disk_fields, 1u << 16),
};

const struct codec_schema schema_store = { schema_tables, SCHEMA_NTABLES };

/* --- values in the form that stays the same --- */

bool schema_same(double a, double b)
{
	return memcmp(&a, &b, sizeof(a)) == 0;
}

/* v as a whole number of 1/scale when that gives v back exactly */
bool schema_whole(double v, double scale, uint64_t *n)
{
	if (!(v >= 0 && v < 1e15) || signbit(v))
		return false;
	double r = round(v * scale);

	if (!schema_same(r / scale, v))
		return false;
	*n = (uint64_t)r;
	return true;
}

/* A string as stored: NULL (never given) as "" */
const char *schema_str(const char *s)
{
	return s ? s : "";
}

/* A PSI line whose fields begin at id id0. */
void schema_put_psi(const struct codec_table *t, void *row,
		    struct schema_psi *out, const struct psi_line *in,
		    unsigned id0)
{
	if (!in->present)
		return;
	out->total_us = in->total_us;
	codec_set_known(t, row, id0, true);
	const double avg[3] = { in->avg10, in->avg60, in->avg300 };

	for (unsigned j = 0; j < 3; j++) {
		bool c = schema_whole(avg[j], 100, &out->avg_c[j]);

		if (!c)
			out->avg[j] = avg[j];
		codec_set_known(t, row, id0 + (c ? 1 + j : 4 + j), true);
	}
}

void schema_get_psi(const struct codec_table *t, const void *row,
		    const struct schema_psi *in, struct psi_line *out,
		    unsigned id0)
{
	memset(out, 0, sizeof(*out));
	if (!codec_known(t, row, id0))
		return;
	out->present = true;
	out->total_us = in->total_us;
	double *avg[3] = { &out->avg10, &out->avg60, &out->avg300 };

	for (unsigned j = 0; j < 3; j++)
		*avg[j] = codec_known(t, row, id0 + 1 + j) ?
			  (double)in->avg_c[j] / 100 : in->avg[j];
}



void schema_set(const struct codec_table *t, void *row, unsigned id, bool on)
{
	codec_set_known(t, row, id, on);
}

/* a numeric member at f's offset, as its 8 bytes */
uint64_t schema_bits_at(const void *row, const struct codec_field *f)
{
	uint64_t v;

	memcpy(&v, (const unsigned char *)row + f->offset, 8);
	return v;
}

void schema_bits_put(void *row, const struct codec_field *f, uint64_t v)
{
	memcpy((unsigned char *)row + f->offset, &v, 8);
}

const char *schema_str_of(const void *row, const struct codec_field *f)
{
	const char *s;

	memcpy(&s, (const unsigned char *)row + f->offset, sizeof(s));
	return s;
}

/* A number as it reads back: its bits where known, else zero. */
uint64_t schema_value_of(const struct codec_table *t, const void *row,
			 const struct codec_field *f)
{
	return codec_known(t, row, f->id) ? schema_bits_at(row, f) : 0;
}

void *schema_grow(void *p, size_t *cap, size_t n, size_t size)
{
	if (n <= *cap)
		return p;
	void *q = realloc(p, n * size);

	if (q)
		*cap = n;
	return q;
}

static void put_psi_all(const struct codec_table *t, void *row,
			struct schema_psi psi[NPSI][NPSI_KIND],
			const struct psi_reading *in)
{
	for (unsigned r = 0; r < NPSI; r++)
		for (unsigned k = 0; k < NPSI_KIND; k++)
			schema_put_psi(t, row, &psi[r][k], &in->line[r][k],
				PSI_ID(r * NPSI_KIND + k, 0));
}

static void get_psi_all(const struct codec_table *t, const void *row,
			const struct schema_psi psi[NPSI][NPSI_KIND],
			struct psi_reading *out)
{
	for (unsigned r = 0; r < NPSI; r++)
		for (unsigned k = 0; k < NPSI_KIND; k++)
			schema_get_psi(t, row, &psi[r][k], &out->line[r][k],
				PSI_ID(r * NPSI_KIND + k, 0));
}

/* --- cgroups and the system --- */

static int cgroups_in(struct schema_rows *r, const struct store_sample *in)
{
	const struct codec_table *t = &schema_tables[SCHEMA_CGROUPS];

	if (in->ncgroups > r->capcg) {
		void *p = realloc(r->cg, in->ncgroups * sizeof(*r->cg));

		if (!p)
			return -1;
		r->cg = p;
		r->capcg = in->ncgroups;
	}
	for (size_t i = 0; i < in->ncgroups; i++) {
		const struct store_cgroup *g = &in->cgroups[i];
		struct schema_cgroup *o = &r->cg[i];

		memset(o, 0, sizeof(*o));
		o->path = schema_str(g->path);
		o->have = g->have;
		o->throttled_us = g->throttled_us;
		o->mem_high = g->mem_high;
		o->mem_max = g->mem_max;
		o->mem_oom_kill = g->mem_oom_kill;
		for (unsigned id = 1; id <= 7; id++)
			schema_set(t, o, id, id != C_PSI_WHEN);
		o->psi_when = g->psi.when;
		schema_set(t, o, C_PSI_WHEN, !schema_same(g->psi.when, in->psi.when));
		put_psi_all(t, o, o->psi, &g->psi);
	}
	r->rows[SCHEMA_CGROUPS].rows = r->cg;
	r->rows[SCHEMA_CGROUPS].n = in->ncgroups;
	return 0;
}

static void system_in(struct schema_rows *r, const struct store_sample *in)
{
	const struct codec_table *t = &schema_tables[SCHEMA_SYSTEM];
	struct schema_system *o = &r->sys;
	const struct store_machine *m = &in->machine;

	memset(o, 0, sizeof(*o));
	for (size_t f = 0; f < t->nfields; f++)
		if (t->fields[f].id < 32)
			schema_set(t, o, t->fields[f].id, true);
	o->boot = in->boot;
	o->mono = in->mono;
	o->real = in->real;
	o->query_start = in->query_start;
	o->psi_when = in->psi.when;
	o->delayacct = in->delayacct;
	o->ts_version = in->ts_version;
	o->events_lost = in->events_lost;
	o->exit_records_lost = in->exit_records_lost;
	o->threads = in->threads;
	o->thread_readings = in->thread_readings;
	o->trigger = in->trigger;
	schema_set(t, o, S_TRIGGER, in->trigger != NULL);
	o->mhave = m->have;
	for (unsigned j = 0; j < 3; j++) {
		bool c = schema_whole(m->load[j], 100, &o->load_c[j]);

		o->load[j] = m->load[j];
		schema_set(t, o, S_LOAD_C + j, c);
		schema_set(t, o, S_LOAD + j, !c);
	}
	o->cpu_idle = m->cpu_idle;
	o->cpu_total = m->cpu_total;
	o->mem_total = m->mem_total;
	o->mem_available = m->mem_available;
	o->swap_total = m->swap_total;
	o->swap_free = m->swap_free;
	o->nprocs = in->nprocs;
	o->nthreads = in->nthreads;
	put_psi_all(t, o, o->psi, &in->psi);
	r->rows[SCHEMA_SYSTEM].rows = o;
	r->rows[SCHEMA_SYSTEM].n = 1;
}

/*
 * The value most of the n doubles at base + i * size + off are, bit for
 * bit (Boyer and Moore's majority vote: the majority when there is one),
 * or dflt for none.
 */
static double most(const void *base, size_t n, size_t size, size_t off,
		   double dflt)
{
	double v = dflt;
	size_t votes = 0;

	for (size_t i = 0; i < n; i++) {
		double x;

		memcpy(&x, (const unsigned char *)base + i * size + off, sizeof(x));
		if (!votes)
			v = x;
		votes = schema_same(x, v) ? votes + 1 : votes - 1;
	}
	return v;
}

/* The same of the ctx_at of the tasks that have one. */
static double most_ctx(const struct store_task *k, size_t n, double dflt)
{
	double v = dflt;
	size_t votes = 0;

	for (size_t i = 0; i < n; i++) {
		if (!(k[i].have & STORE_HAVE_CTX_AT))
			continue;
		if (!votes)
			v = k[i].ctx_at;
		votes = schema_same(k[i].ctx_at, v) ? votes + 1 : votes - 1;
	}
	return v;
}

int schema_from_store(struct schema_rows *r, const struct store_sample *in,
		      const struct schema_rows *prev)
{
	const size_t at_off = offsetof(struct store_task, r) +
			      offsetof(struct task_reading, at);

	r->at0 = most(in->tasks, in->ntasks, sizeof(*in->tasks), at_off,
		      most(in->thread_tasks, in->nthread_tasks,
			   sizeof(*in->thread_tasks), at_off, in->mono));
	r->ctx0 = most_ctx(in->tasks, in->ntasks, in->mono);
	if (schema_task_in(r, SCHEMA_TASKS, in->tasks, in->ntasks, in, prev) < 0 ||
	    schema_task_in(r, SCHEMA_THREADS, in->thread_tasks, in->nthread_tasks,
		     in, prev) < 0 || schema_task_like(r) < 0 ||
	    cgroups_in(r, in) < 0 || schema_ev_in(r, in) < 0) {
		errno = ENOMEM;
		return -1;
	}
	system_in(r, in);
	r->sys.at = r->at0;
	r->sys.ctx_at = r->ctx0;
	const struct codec_table *ts = &schema_tables[SCHEMA_SYSTEM];

	schema_set(ts, &r->sys, S_AT, !schema_same(r->at0, in->mono));
	schema_set(ts, &r->sys, S_CTX_AT, !schema_same(r->ctx0, in->mono));
	if (schema_ev_disks_in(r, in) < 0) {
		errno = ENOMEM;
		return -1;
	}
	r->cs.time = in->time;
	r->cs.tables = r->rows;
	return 0;
}

/* --- back --- */

static int cgroups_out(struct schema_rows *r, const struct codec_rows *in,
		       struct store_sample *out)
{
	const struct codec_table *t = &schema_tables[SCHEMA_CGROUPS];

	if (!in->n)
		return 0;
	struct store_cgroup *g = schema_grow(r->outcg, &r->capoutcg, in->n,
					     sizeof(*g));

	if (!g)
		return -1;
	r->outcg = g;
	for (size_t i = 0; i < in->n; i++) {
		const struct schema_cgroup *o = (const struct schema_cgroup *)in->rows + i;

		memset(&g[i], 0, sizeof(g[i]));
		g[i].path = o->path;
		g[i].have = (uint32_t)o->have;
		g[i].throttled_us = o->throttled_us;
		g[i].mem_high = o->mem_high;
		g[i].mem_max = o->mem_max;
		g[i].mem_oom_kill = o->mem_oom_kill;
		get_psi_all(t, o, o->psi, &g[i].psi);
		g[i].psi.when = codec_known(t, o, C_PSI_WHEN) ? o->psi_when :
				out->psi.when;
	}
	out->cgroups = in->n ? g : NULL;
	out->ncgroups = in->n;
	return 0;
}

static void system_out(const struct schema_system *o, struct store_sample *out)
{
	const struct codec_table *t = &schema_tables[SCHEMA_SYSTEM];
	struct store_machine *m = &out->machine;

	out->boot = o->boot;
	out->mono = o->mono;
	out->real = o->real;
	out->query_start = o->query_start;
	out->delayacct = (int32_t)o->delayacct;
	out->ts_version = (uint32_t)o->ts_version;
	out->events_lost = o->events_lost;
	out->exit_records_lost = o->exit_records_lost;
	out->threads = o->threads != 0;
	out->thread_readings = o->thread_readings != 0;
	out->trigger = codec_known(t, o, S_TRIGGER) ? o->trigger : NULL;
	get_psi_all(t, o, o->psi, &out->psi);
	out->psi.when = o->psi_when;
	m->have = (uint32_t)o->mhave;
	for (unsigned j = 0; j < 3; j++)
		m->load[j] = codec_known(t, o, S_LOAD_C + j) ?
			     (double)o->load_c[j] / 100 : o->load[j];
	m->cpu_idle = o->cpu_idle;
	m->cpu_total = o->cpu_total;
	m->mem_total = o->mem_total;
	m->mem_available = o->mem_available;
	m->swap_total = o->swap_total;
	m->swap_free = o->swap_free;
	out->nprocs = o->nprocs;
	out->nthreads = o->nthreads;
}

int schema_to_store(struct schema_rows *r, const struct codec_sample *cs,
		    struct store_sample *out)
{
	static const struct schema_system none;

	memset(out, 0, sizeof(*out));
	out->time = cs->time;
	const struct schema_system *sys = cs->tables[SCHEMA_SYSTEM].n ?
					  cs->tables[SCHEMA_SYSTEM].rows : &none;
	const struct codec_table *ts = &schema_tables[SCHEMA_SYSTEM];

	system_out(sys, out);
	r->at0 = codec_known(ts, sys, S_AT) ? sys->at : out->mono;
	r->ctx0 = codec_known(ts, sys, S_CTX_AT) ? sys->ctx_at : out->mono;
	if (schema_task_out(r, SCHEMA_TASKS, &cs->tables[SCHEMA_TASKS],
		      &cs->tables[SCHEMA_TASKS], out) < 0 ||
	    schema_task_out(r, SCHEMA_THREADS, &cs->tables[SCHEMA_THREADS],
		      &cs->tables[SCHEMA_TASKS], out) < 0 ||
	    cgroups_out(r, &cs->tables[SCHEMA_CGROUPS], out) < 0 ||
	    schema_ev_out(r, &cs->tables[SCHEMA_EVIDENCE],
			  &cs->tables[SCHEMA_TASKS], out) < 0 ||
	    schema_ev_disks_out(r, cs, out) < 0) {
		errno = ENOMEM;
		return -1;
	}
	out->tasks = cs->tables[SCHEMA_TASKS].n ? r->out[SCHEMA_TASKS] : NULL;
	out->ntasks = cs->tables[SCHEMA_TASKS].n;
	out->thread_tasks = cs->tables[SCHEMA_THREADS].n ?
			    r->out[SCHEMA_THREADS] : NULL;
	out->nthread_tasks = cs->tables[SCHEMA_THREADS].n;
	return 0;
}

void schema_free(struct schema_rows *r)
{
	for (int i = 0; i < 2; i++) {
		free(r->task[i]);
		free(r->out[i]);
	}
	free(r->like);
	free(r->cg);
	free(r->outcg);
	free(r->ev);
	free(r->evdec);
	free(r->outev);
	free(r->disk);
	free(r->outdisks.dev);
	memset(r, 0, sizeof(*r));
}
