/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The evidence readings and the disks of a store sample as the schema's
 * rows and back (schema.h says what is stored how).
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/schema.h"
#include "store/schema_impl.h"

#define EV_OFF(name, m) offsetof(struct evidence_reading, m),
static const size_t ev_kval_off[] = { EV_KVALS(EV_OFF) };

#define DEV_OFF(m) offsetof(struct cg_io_dev, m),
static const size_t dev_kval_off[] = { DEV_KVALS(DEV_OFF) };
_Static_assert(sizeof(dev_kval_off) / sizeof(dev_kval_off[0]) ==
	       SCHEMA_EV_DEV_NKV, "schema.h counts a device's values");

static const struct kval *kval_at(const void *base, size_t off)
{
	return (const struct kval *)(const void *)
	       ((const unsigned char *)base + off);
}

static struct kval *kval_of(void *base, size_t off)
{
	return (struct kval *)(void *)((unsigned char *)base + off);
}

/* The values of n kvals at base + off[i] into kv[], their ids from id0. */
static uint64_t kvals_in(const struct codec_table *t, void *row,
			 uint64_t *kv, const void *base, const size_t *off,
			 size_t n, unsigned id0)
{
	uint64_t max = 0;

	for (size_t i = 0; i < n; i++) {
		const struct kval *k = kval_at(base, off[i]);

		kv[i] = k->v;
		schema_set(t, row, id0 + (unsigned)i, k->have);
		if (k->max)
			max |= 1ull << i;
	}
	return max;
}

static void kvals_out(const struct codec_table *t, const void *row,
		      const uint64_t *kv, uint64_t max, void *base,
		      const size_t *off, size_t n, unsigned id0)
{
	for (size_t i = 0; i < n; i++) {
		struct kval *k = kval_of(base, off[i]);
		bool have = codec_known(t, row, id0 + (unsigned)i);

		/* member by member: the padding stays as it was (zero) */
		k->have = have;
		k->max = (max >> i) & 1;
		k->v = have ? kv[i] : 0;
	}
}

/* A double's bits. */
static uint64_t bits(double v)
{
	uint64_t u;

	memcpy(&u, &v, sizeof(u));
	return u;
}

static void evidence_one_in(const struct codec_table *t,
			    struct schema_evidence *o,
			    const struct store_evidence *e, double mono)
{
	const struct evidence_reading *r = &e->r;
	const struct psi_line *psi[3] = { r->cpu.pressure, r->mem.pressure,
					  r->io.pressure };

	memset(o, 0, sizeof(*o));
	o->id = (uint64_t)(int64_t)e->id;
	o->start = e->start;
	o->owner = schema_str(e->cgroup);
	o->when = r->when;
	o->cgroups = e->cgroups;
	o->allowed_list = r->tcpu.allowed_list;
	o->cpu_version = r->cpu.version;
	o->mem_version = r->mem.version;
	o->io_version = r->io.version;
	o->states_source = r->states.source;
	o->ndev = r->io.ndev < CG_IO_DEVS ? r->io.ndev : CG_IO_DEVS;
	o->dropped = r->io.dropped;
	for (unsigned id = 1; id <= 4; id++)
		schema_set(t, o, id, true);
	schema_set(t, o, E_CGROUPS, e->cgroups != NULL);
	schema_set(t, o, E_ALLOWED, r->tcpu.allowed_list[0] != '\0');
	for (unsigned id = 7; id <= 12; id++)
		schema_set(t, o, id, true);
	/* read a few ms after the sample's mono: a few bytes a sample */
	o->when_rel = (int64_t)(bits(r->when) - bits(mono));
	schema_set(t, o, E_WHEN, false);
	schema_set(t, o, E_WHEN_REL, true);
	o->max = kvals_in(t, o, o->kv, r, ev_kval_off, SCHEMA_EV_NKV, E_KV);
	schema_set(t, o, 13, o->max != 0);
	for (unsigned g = 0; g < 3; g++)
		for (unsigned k = 0; k < NPSI_KIND; k++)
			schema_put_psi(t, o, &o->psi[g][k], &psi[g][k],
				E_PSI + 8 * (g * NPSI_KIND + k));
	for (unsigned d = 0; d < o->ndev; d++) {
		const struct cg_io_dev *in = &r->io.dev[d];
		struct schema_evdev *od = &o->dev[d];

		od->major = in->major;
		od->minor = in->minor;
		schema_set(t, o, E_DEV_ID(d, 0), true);
		schema_set(t, o, E_DEV_ID(d, 1), true);
		od->max = kvals_in(t, o, od->kv, in, dev_kval_off,
				   SCHEMA_EV_DEV_NKV, E_DEV_ID(d, 3));
		schema_set(t, o, E_DEV_ID(d, 2), od->max != 0);
	}
}

static int ev_cmp(const void *a, const void *b)
{
	const struct schema_evidence *x = a, *y = b;

	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return strcmp(x->owner, y->owner);
}

/* The row row i refers to (same_kv, same_part), or -1 for none. */
static long ev_ref(const struct codec_table *t,
		   const struct schema_evidence *e, size_t i)
{
	if (!i)
		return -1;
	if (codec_known(t, &e[i], E_CGROUPS))
		for (size_t j = 0; j < i; j++)
			if (codec_known(t, &e[j], E_CGROUPS) &&
			    strcmp(e[j].cgroups, e[i].cgroups) == 0)
				return (long)j;
	return 0;
}

/* The first field of t (in the order of ids) with an id of lo or more. */
static size_t first_field(const struct codec_table *t, unsigned lo)
{
	size_t a = 0, b = t->nfields;

	while (a < b) {
		size_t m = a + (b - a) / 2;

		if (t->fields[m].id < lo)
			a = m + 1;
		else
			b = m;
	}
	return a;
}

/* Field ids lo..hi of a and b the same (known alike, the same bits). */
static bool ev_same(const struct codec_table *t,
		    const struct schema_evidence *a,
		    const struct schema_evidence *b, unsigned lo, unsigned hi)
{
	for (size_t i = first_field(t, lo);
	     i < t->nfields && t->fields[i].id <= hi; i++) {
		const struct codec_field *f = &t->fields[i];
		bool k = codec_known(t, a, f->id);

		if (k != codec_known(t, b, f->id) ||
		    (k && schema_bits_at(a, f) != schema_bits_at(b, f)))
			return false;
	}
	return true;
}

/* Field ids lo..hi of o as in ref (known alike, the same bits). */
static void ev_copy(const struct codec_table *t, struct schema_evidence *o,
		    const struct schema_evidence *ref, unsigned lo,
		    unsigned hi, bool forget)
{
	for (size_t i = first_field(t, lo);
	     i < t->nfields && t->fields[i].id <= hi; i++) {
		const struct codec_field *f = &t->fields[i];

		if (forget) {
			schema_set(t, o, f->id, false);
			continue;
		}
		schema_bits_put(o, f, schema_bits_at(ref, f));
		schema_set(t, o, f->id, codec_known(t, ref, f->id));
	}
}

/* The parts of evidence row o that a mask says are as in ref. */
static const struct { unsigned lo, hi; } ev_parts[8] = {
	{ E_PSI, E_PSI + 6 }, { E_PSI + 8, E_PSI + 14 },
	{ E_PSI + 16, E_PSI + 22 }, { E_PSI + 24, E_PSI + 30 },
	{ E_PSI + 32, E_PSI + 38 }, { E_PSI + 40, E_PSI + 46 },
	{ 7, 10 },                      /* versions, the states' source */
	{ 11, 12 },                     /* ndev, dropped; and E_DEV.. */
};

static unsigned ev_part_hi(unsigned part)
{
	return part == SAME_DEVS ? E_DEV_ID(CG_IO_DEVS - 1, 15) :
	       ev_parts[part].hi;
}

/*
 * What o has as ref has, not written: marked in same_kv and same_part
 * (ref as given, before its own marking).
 */
static void ev_mark(const struct codec_table *t, struct schema_evidence *o,
		    const struct schema_evidence *ref)
{
	for (unsigned k = 0; k < SCHEMA_EV_NKV; k++)
		if (ev_same(t, o, ref, E_KV + k, E_KV + k) &&
		    ((o->max ^ ref->max) >> k & 1) == 0) {
			o->same_kv |= 1ull << k;
			o->max &= ~(1ull << k);
			schema_set(t, o, E_KV + k, false);
		}
	for (unsigned part = 0; part < 8; part++) {
		unsigned lo = ev_parts[part].lo, hi = ev_part_hi(part);

		if (part == SAME_DEVS && !ev_same(t, o, ref, E_DEV, hi))
			continue;
		if (!ev_same(t, o, ref, lo, ev_parts[part].hi))
			continue;
		o->same_part |= 1ull << part;
		ev_copy(t, o, ref, lo, ev_parts[part].hi, true);
		if (part == SAME_DEVS)
			ev_copy(t, o, ref, E_DEV, hi, true);
	}
	schema_set(t, o, E_MAX, o->max != 0);
	schema_set(t, o, E_SAME_KV, o->same_kv != 0);
	schema_set(t, o, E_SAME_PART, o->same_part != 0);
}

/* o's marked parts back from ref (resolved already). */
static void ev_unmark(const struct codec_table *t, struct schema_evidence *o,
		      const struct schema_evidence *ref)
{
	for (unsigned k = 0; k < SCHEMA_EV_NKV; k++)
		if (o->same_kv >> k & 1) {
			ev_copy(t, o, ref, E_KV + k, E_KV + k, false);
			o->max |= ref->max & (1ull << k);
		}
	for (unsigned part = 0; part < 8; part++) {
		if (!(o->same_part >> part & 1))
			continue;
		ev_copy(t, o, ref, ev_parts[part].lo, ev_parts[part].hi, false);
		if (part == SAME_DEVS)
			ev_copy(t, o, ref, E_DEV, ev_part_hi(part), false);
	}
}

/* The task IO values that may be the task row's, as it names them. */
static const struct { unsigned part, kv, task_id; } task_io[] = {
	{ SAME_TASK_READ, EVK_task_read_bytes, T_READ },
	{ SAME_TASK_WRITE, EVK_task_write_bytes, T_WRITE },
};

static uint64_t task_io_value(const struct schema_task *p, unsigned id)
{
	return id == T_READ ? p->read_bytes : p->write_bytes;
}

/*
 * A process's IO bytes that its task row (of the n in tasks) has too,
 * both from one reading: marked in same_part, not written. Run after
 * ev_mark: what that marked is unknown here.
 */
static void task_io_mark(const struct codec_table *t, struct schema_evidence *o,
			 const struct schema_task *tasks, size_t n)
{
	const struct codec_table *tt = &schema_tables[SCHEMA_TASKS];
	const struct schema_task *p;

	if (o->owner[0] || !(p = schema_task_find(tasks, n, o->id, o->start)))
		return;
	for (size_t i = 0; i < sizeof(task_io) / sizeof(task_io[0]); i++) {
		unsigned k = task_io[i].kv, id = E_KV + k;

		if (!codec_known(t, o, id) || (o->max >> k & 1) ||
		    !codec_known(tt, p, task_io[i].task_id) ||
		    task_io_value(p, task_io[i].task_id) != o->kv[k])
			continue;
		o->same_part |= 1ull << task_io[i].part;
		schema_set(t, o, id, false);
	}
	schema_set(t, o, E_SAME_PART, o->same_part != 0);
}

/* o's task IO values marked by task_io_mark back from its task row. */
static void task_io_unmark(const struct codec_table *t,
			   struct schema_evidence *o,
			   const struct codec_rows *tasks)
{
	const struct codec_table *tt = &schema_tables[SCHEMA_TASKS];
	const struct schema_task *p = NULL;

	for (size_t i = 0; i < sizeof(task_io) / sizeof(task_io[0]); i++) {
		unsigned k = task_io[i].kv;

		if (!(o->same_part >> task_io[i].part & 1))
			continue;
		if (!p && !(p = schema_task_find(tasks->rows, tasks->n, o->id,
						 o->start)))
			return;         /* damage: the values stay unknown */
		if (!codec_known(tt, p, task_io[i].task_id))
			continue;
		o->kv[k] = task_io_value(p, task_io[i].task_id);
		schema_set(t, o, E_KV + k, true);
	}
}

int schema_ev_in(struct schema_rows *r, const struct store_sample *in)
{
	const struct codec_table *t = &schema_tables[SCHEMA_EVIDENCE];

	if (in->nevidence > r->capev) {
		void *p = realloc(r->ev, in->nevidence * sizeof(*r->ev));

		if (!p)
			return -1;
		r->ev = p;
		r->capev = in->nevidence;
	}
	for (size_t i = 0; i < in->nevidence; i++)
		evidence_one_in(t, &r->ev[i], &in->evidence[i], in->mono);
	if (in->nevidence)
		qsort(r->ev, in->nevidence, sizeof(*r->ev), ev_cmp);
	/* from the last: the rows referred to are as given when marked */
	for (size_t i = in->nevidence; i-- > 1;) {
		long ref = ev_ref(t, r->ev, i);

		if (ref >= 0)
			ev_mark(t, &r->ev[i], &r->ev[ref]);
	}
	for (size_t i = 0; i < in->nevidence; i++)
		task_io_mark(t, &r->ev[i], r->task[SCHEMA_TASKS],
			     r->rows[SCHEMA_TASKS].n);
	r->rows[SCHEMA_EVIDENCE].rows = r->ev;
	r->rows[SCHEMA_EVIDENCE].n = in->nevidence;
	return 0;
}

int schema_ev_disks_in(struct schema_rows *r, const struct store_sample *in)
{
	const struct codec_table *t = &schema_tables[SCHEMA_DISKS];
	size_t n = in->disks ? in->disks->n : 0;

	schema_set(&schema_tables[SCHEMA_SYSTEM], &r->sys, S_DISKS_WHEN,
		   in->disks != NULL);
	r->sys.disks_when = in->disks ? in->disks->when : 0;
	if (n > r->capdisk) {
		void *p = realloc(r->disk, n * sizeof(*r->disk));

		if (!p)
			return -1;
		r->disk = p;
		r->capdisk = n;
	}
	for (size_t i = 0; i < n; i++) {
		const struct diskstats_dev *d = &in->disks->dev[i];
		struct schema_disk *o = &r->disk[i];

		memset(o, 0, sizeof(*o));
		o->major = d->major;
		o->minor = d->minor;
		o->name = d->name;
		o->rd_ios = d->rd_ios;
		o->rd_sectors = d->rd_sectors;
		o->wr_ios = d->wr_ios;
		o->wr_sectors = d->wr_sectors;
		o->in_flight = d->in_flight;
		o->io_ticks_ms = d->io_ticks_ms;
		o->queue_ms = d->queue_ms;
		for (size_t f = 0; f < t->nfields; f++)
			schema_set(t, o, t->fields[f].id, true);
	}
	r->rows[SCHEMA_DISKS].rows = r->disk;
	r->rows[SCHEMA_DISKS].n = n;
	return 0;
}

/* A number of the file as one of a few: v when it is one, else dflt. */
static int one_of(int64_t v, const int *ok, size_t n, int dflt)
{
	for (size_t i = 0; i < n; i++)
		if (v == ok[i])
			return ok[i];
	return dflt;
}

static double when_out(const struct codec_table *t,
		       const struct schema_evidence *o, double mono)
{
	uint64_t u = bits(mono) + (uint64_t)o->when_rel;
	double v;

	if (!codec_known(t, o, E_WHEN_REL))
		return o->when;
	memcpy(&v, &u, sizeof(v));
	return v;
}

static void evidence_one_out(const struct codec_table *t,
			     const struct schema_evidence *o,
			     struct store_evidence *e, double mono)
{
	static const int versions[] = { 0, 1, 2 };
	static const int sources[] = { CGSTATS_NONE, CGSTATS_KERNEL,
				       CGSTATS_PROC };
	struct evidence_reading *r = &e->r;
	struct psi_line *psi[3] = { r->cpu.pressure, r->mem.pressure,
				    r->io.pressure };

	memset(e, 0, sizeof(*e));
	e->id = (int32_t)o->id;
	e->start = o->start;
	e->cgroup = o->owner[0] ? o->owner : NULL;
	e->cgroups = codec_known(t, o, E_CGROUPS) ? o->cgroups : NULL;
	r->when = when_out(t, o, mono);
	if (codec_known(t, o, E_ALLOWED))
		snprintf(r->tcpu.allowed_list, sizeof(r->tcpu.allowed_list),
			 "%s", o->allowed_list);
	r->cpu.version = one_of(o->cpu_version, versions, 3, 0);
	r->mem.version = one_of(o->mem_version, versions, 3, 0);
	r->io.version = one_of(o->io_version, versions, 3, 0);
	r->states.source = (enum cgstats_source)
			   one_of(o->states_source, sources, 3, CGSTATS_NONE);
	r->io.ndev = o->ndev < CG_IO_DEVS ? (size_t)o->ndev : CG_IO_DEVS;
	r->io.dropped = (size_t)o->dropped;
	kvals_out(t, o, o->kv, o->max, r, ev_kval_off, SCHEMA_EV_NKV, E_KV);
	for (unsigned g = 0; g < 3; g++)
		for (unsigned k = 0; k < NPSI_KIND; k++)
			schema_get_psi(t, o, &o->psi[g][k], &psi[g][k],
				E_PSI + 8 * (g * NPSI_KIND + k));
	for (unsigned d = 0; d < r->io.ndev; d++) {
		struct cg_io_dev *od = &r->io.dev[d];

		od->major = (unsigned)o->dev[d].major;
		od->minor = (unsigned)o->dev[d].minor;
		kvals_out(t, o, o->dev[d].kv, o->dev[d].max, od, dev_kval_off,
			  SCHEMA_EV_DEV_NKV, E_DEV_ID(d, 3));
	}
}

int schema_ev_out(struct schema_rows *r, const struct codec_rows *in,
		  const struct codec_rows *tasks, struct store_sample *out)
{
	if (!in->n)
		return 0;
	const struct codec_table *t = &schema_tables[SCHEMA_EVIDENCE];
	struct store_evidence *e = schema_grow(r->outev, &r->capoutev, in->n,
					sizeof(*e));
	struct schema_evidence *o;

	if (!e)
		return -1;
	r->outev = e;
	if (!(o = schema_grow(r->evdec, &r->capevdec, in->n, sizeof(*o))))
		return -1;
	r->evdec = o;
	memcpy(o, in->rows, in->n * sizeof(*o));
	for (size_t i = 0; i < in->n; i++) {
		long ref = ev_ref(t, o, i);

		if (ref >= 0)
			ev_unmark(t, &o[i], &o[ref]);
		task_io_unmark(t, &o[i], tasks);
		evidence_one_out(t, &o[i], &e[i], out->mono);
	}
	out->evidence = e;
	out->nevidence = in->n;
	return 0;
}

int schema_ev_disks_out(struct schema_rows *r, const struct codec_sample *cs,
			struct store_sample *out)
{
	const struct codec_table *ts = &schema_tables[SCHEMA_SYSTEM];
	const struct codec_table *t = &schema_tables[SCHEMA_DISKS];
	const struct codec_rows *in = &cs->tables[SCHEMA_DISKS];
	const struct schema_system *sys = cs->tables[SCHEMA_SYSTEM].n ?
					  cs->tables[SCHEMA_SYSTEM].rows : NULL;
	struct diskstats *ds = &r->outdisks;

	if (!sys || !codec_known(ts, sys, S_DISKS_WHEN))
		return 0;
	struct diskstats_dev *d = schema_grow(ds->dev, &ds->cap, in->n, sizeof(*d));

	if (!d && in->n)
		return -1;
	ds->dev = d;
	ds->n = in->n;
	ds->when = sys->disks_when;
	for (size_t i = 0; i < in->n; i++) {
		const struct schema_disk *o = (const struct schema_disk *)in->rows + i;

		memset(&d[i], 0, sizeof(d[i]));
		d[i].major = (unsigned)o->major;
		d[i].minor = (unsigned)o->minor;
		if (codec_known(t, o, 3))
			snprintf(d[i].name, sizeof(d[i].name), "%s", o->name);
		d[i].rd_ios = o->rd_ios;
		d[i].rd_sectors = o->rd_sectors;
		d[i].wr_ios = o->wr_ios;
		d[i].wr_sectors = o->wr_sectors;
		d[i].in_flight = o->in_flight;
		d[i].io_ticks_ms = o->io_ticks_ms;
		d[i].queue_ms = o->queue_ms;
	}
	out->disks = ds;
	return 0;
}

