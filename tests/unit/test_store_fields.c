/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Every field of every table of the store's schema (store/schema.h:
 * tasks, threads, cgroups, system, evidence, disks) through a recording
 * and back: samples whose every member is given, with values of their
 * own that change from sample to sample, are written to a file by the
 * recorder (record_create, record_write: a key frame, then deltas, then
 * the next key frame) and read back as a replay reads them
 * (replay_set_store_read: in order, and by seeking), and each sample
 * read is held to the one written field by field, as the schema makes
 * its rows (schema_from_store of either): whether each field is known,
 * and its value, bit for bit.
 *
 * The test is driven by the schema's tables, not by a list of its own:
 * every field of every table must be known in some row of the samples
 * written, and must change between two samples of a delta frame, so
 * that a field added to the schema fails this test until the samples
 * here give it (the few that are never written any more, kept for the
 * files of before, are named below with why).
 */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "record/record.h"
#include "record/replay_set.h"
#include "store/schema.h"
#include "../lib/store_kvals.h"
#include "unit.h"

#define NS 70           /* samples: key frames at 0 and RECORD_KEY_EVERY */
#define NT 6            /* tasks */
#define NTH 4           /* thread readings */
#define NCG 3
#define NEV 4
#define NDISK 3
#define STR 64

_Static_assert(NS > RECORD_KEY_EVERY + 2, "a second key frame and deltas");

/*
 * Fields no sample written today has: each is read from older files
 * only (its value now written in another form).
 */
static const struct { int table; unsigned id; const char *why; } never[] = {
	{ SCHEMA_TASKS, 9, "age_us: read, not written (age_rel is)" },
	{ SCHEMA_THREADS, 9, "age_us: read, not written (age_rel is)" },
	{ SCHEMA_TASKS, 78, "like: a thread row's, written only there" },
	{ SCHEMA_EVIDENCE, 4, "when: written as when_rel" },
};

struct world {
	struct store_sample s;
	struct store_task tasks[NT], threads[NTH];
	struct store_cgroup cg[NCG];
	struct store_evidence ev[NEV];
	struct diskstats disks;
	struct diskstats_dev dev[NDISK];
	char str[NT + NTH][5][STR];
	char trigger[STR], evcg[STR];
};

static struct world w[NS];
static char err[1024];

/* The values of sample n: each call a new one, none alike in a sample. */
static uint64_t vn, vk;

static uint64_t nv(void)
{
	return vn * 10000019u + ++vk * 7u;
}

/* A double that is not a whole number of hundredths or microseconds. */
static double dv(void)
{
	return (double)nv() / 1024.0 + 1e-7;
}

/* A double of hundredths. */
static double cv(void)
{
	return (double)(nv() % 100000) / 100;
}

/* As the live monitor makes a time of a timespec. */
static double ts_time(uint64_t sec, uint64_t nsec)
{
	return (double)sec + (double)nsec / 1e9;
}

/*
 * PSI lines: present, the averages in hundredths or not (in blocks of
 * two samples, so that each form is in a delta of both); the irq's full
 * line absent in every other block.
 */
static void psi_line(struct psi_line *l, unsigned n)
{
	bool c = n / 2 % 2 == 0;

	l->present = true;
	l->avg10 = c ? cv() : dv();
	l->avg60 = c ? dv() : cv();
	l->avg300 = c ? cv() : dv();
	l->total_us = nv();
}

static void make_psi(struct psi_reading *p, unsigned n, double when)
{
	memset(p, 0, sizeof(*p));
	p->when = when;
	for (int r = 0; r < NPSI; r++)
		for (int k = 0; k < NPSI_KIND; k++)
			psi_line(&p->line[r][k], n);
}

/*
 * Task i of sample n. Tasks 0-2 (and 5's context) are as most tasks
 * are: read at the sample's common at and ctx_at, asked at its
 * query_start, their age at - born; task 3 is a thread of another
 * process, read and asked at times of its own, its age not whole
 * microseconds, its context at a time of whole nanoseconds; 4 and 5 are
 * two lives of one id and start, with ages in whole microseconds, 4's
 * context at a time that is not whole nanoseconds.
 */
static void make_task(struct world *x, struct store_task *k, int i, unsigned n,
		      char (*str)[STR])
{
	struct store_sample *s = &x->s;
	struct task_reading *r = &k->r;

	memset(k, 0, sizeof(*k));
	r->id = 1000 + 10 * (i == 5 ? 4 : i);
	r->tgid = i == 3 ? 999 - (int32_t)(n / 2 % 2) : r->id;
	r->start = 5000 + (i == 5 ? 4 : i);
	r->life = i == 5;
	r->asked_at = i == 3 ? s->query_start - dv() / 1e9 : s->query_start;
	r->at = i == 3 ? s->mono - 0.125 - n / 1024.0 : s->mono + 0.0007;
	r->born = 100.25 + i + n / 64.0;
	r->first_seen = 101.5 + i + n / 128.0;
	r->age = i == 3 ? 0.1 * (n + 1) + 1e-9 :
		 i >= 4 ? (double)(n * 10000003ull + (unsigned)i) / 1e6 :
		 r->at - r->born;
	r->run_ns = i % 2 ? nv() * 1000 : nv() * 1000 + 7;
	r->have = 0xff ^ (n % 2) << 6;
	r->have_max = 0xfe | (n % 2);
	r->have_max_at = 0x3c | (n % 2) << 1;
	r->no_count = 0x80 | (n % 2) << 4;
	r->cats = 0x7f ^ (n % 2) << 2;
	r->threads = (int32_t)(2 + i + n);
	r->flags = READING_ONE | (n % 2 ? READING_STEADY : 0) |
		   (i == 3 ? READING_OWN : 0);
	for (int c = 0; c < READING_NCAT; c++) {
		r->d[c].count = nv();
		r->d[c].total_ns = (c + i) % 2 ? nv() * 1000 : nv() * 1000 + 3;
		r->d[c].max_ns = nv();
		r->max_at[c] = 1.7e9 + dv();
	}
	k->have = 0xfff;
	if (i == 2 && n % 4 == 3)
		k->have &= ~(uint32_t)STORE_HAVE_WCHAN;
	k->uid = (uint32_t)nv();
	k->ppid = (int32_t)(nv() % 1000000);
	k->threads = r->threads;
	k->state = "RSDZ"[(n + (unsigned)i) % 4];
	k->nice = (int8_t)((int)((n + (unsigned)i) % 40) - 20);
	k->start_real = 1.7e9 + dv();
	k->rss_kib = (int64_t)nv();
	k->swap_kib = (int64_t)nv();
	k->read_bytes = nv();
	k->write_bytes = nv();
	k->majflt = nv();
	k->ctx_at = i == 3 ? ts_time(240 + 10 * n, 987654321 - n) :
		    i == 4 ? s->mono - 1.0 / 3 :
		    ts_time(250 + 10 * n, 123456789 + n);
	snprintf(k->wchan, sizeof(k->wchan), "wchan_%d_%u", i, n);
	snprintf(str[0], STR, "comm%d.%u", i, n);
	snprintf(str[1], STR, "/bin/task%d --sample %u", i, n);
	snprintf(str[2], STR, "user%d_%u", i, n);
	snprintf(str[3], STR, "/system.slice/t%d-%u.service", i, n);
	k->comm = str[0];
	k->cmdline = str[1];
	k->user = str[2];
	k->cgroup = str[3];
}

/* A process's own values (its IO, CPUs, memory, forks), not its cgroups' */
static bool own_kv(size_t k)
{
	return (k >= 31 && k < 44) || k == 50;
}

/*
 * The evidence of sample n: 0 a cgroup's; 1 and 2 processes (tasks 0
 * and 1) of the same cgroups, whose cgroups' and machine's parts are
 * one reading (2's marked the same as 1's), 2's IO bytes its task
 * row's; 3 a process (task 3) with every value its own. Their values
 * "max" and given change in blocks of two samples.
 */
static void make_evidence(struct world *x, unsigned n)
{
	uint64_t shared[NKV];
	struct evidence_reading *r1 = &x->ev[1].r;

	snprintf(x->evcg, STR, "0::/system.slice/e%u.service\n", n / 2);
	for (size_t k = 0; k < NKV; k++)
		shared[k] = nv();
	for (int i = 0; i < NEV; i++) {
		struct store_evidence *e = &x->ev[i];
		struct evidence_reading *r = &e->r;

		memset(e, 0, sizeof(*e));
		e->id = i ? x->tasks[i == 3 ? 3 : i - 1].r.id : 0;
		e->start = i ? x->tasks[i == 3 ? 3 : i - 1].r.start : 0;
		e->cgroup = i ? NULL : "/system.slice/cg.service";
		e->cgroups = i == 1 || i == 2 ? x->evcg : NULL;
		r->when = x->s.mono - 0.0001 * (i + 1) - n / 4096.0;
		if (i == 2) {
			/* the cgroups' and machine's part as 1's */
			*r = *r1;
			r->when = x->s.mono - 0.0003 - n / 4096.0;
			for (size_t k = 0; k < NKV; k++)
				if (own_kv(k))
					kval_at(r, kvals[k])->v = nv();
			if (n / 2 % 2)      /* one of the cgroups' own */
				r->cpu.quota_us.v = nv();
			r->tio.read_bytes.v = x->tasks[1].read_bytes;
			r->tio.write_bytes.v = x->tasks[1].write_bytes;
			snprintf(r->tcpu.allowed_list,
				 sizeof(r->tcpu.allowed_list), "0-%u,9", n);
			continue;
		}
		r->cpu.version = 1 + (int)(n / 2 % 2);
		r->mem.version = 2 - (int)(n / 2 % 2);
		r->io.version = 1 + (int)((n / 2 + (unsigned)i) % 2);
		r->states.source = (n / 2 + (unsigned)i) % 2 ? CGSTATS_KERNEL :
							     CGSTATS_PROC;
		for (size_t k = 0; k < NKV; k++) {
			struct kval *v = kval_at(r, kvals[k]);

			v->have = i != 0 || k % 3 != (n / 2) % 3;
			v->max = (k + n / 2 + (unsigned)i) % 7 == 0;
			v->v = v->max ? 0 : i == 1 && !own_kv(k) ? shared[k] : nv();
		}
		for (int c = 0; c < NPSI_KIND; c++) {
			psi_line(&r->cpu.pressure[c], n);
			psi_line(&r->mem.pressure[c], n);
			psi_line(&r->io.pressure[c], n);
		}
		r->io.ndev = CG_IO_DEVS - (i == 3 && n / 2 % 2);
		r->io.dropped = 1 + nv() % 100;
		for (unsigned d = 0; d < CG_IO_DEVS; d++) {
			struct cg_io_dev *dv_ = &r->io.dev[d];

			dv_->major = 8 + d + n / 2 % 2;
			dv_->minor = 16 * d + (unsigned)i + n / 2 % 3;
			for (size_t k = 0; k < NDKV; k++) {
				struct kval *v = kval_at(dv_, dev_kvals[k]);

				v->have = true;
				v->max = k < 4 && (d + k + n / 2) % 3 == 0;
				v->v = v->max ? 0 : nv();
			}
		}
		if (i)
			snprintf(r->tcpu.allowed_list,
				 sizeof(r->tcpu.allowed_list), "0-%u,%d", n, i);
	}
}

static void make_sample(struct world *x, unsigned n)
{
	struct store_sample *s = &x->s;

	vn = n + 1;
	vk = 0;
	memset(s, 0, sizeof(*s));
	s->time = 1.7e9 + 10.0 * n + 0.25;
	s->boot = 300.0 + 10 * n + 1.0 / 1024;
	s->mono = 250.0 + 10.0 * n + 0.001;
	s->real = s->time - 0.002;
	s->query_start = s->mono - 0.003 - n / 8192.0;
	s->delayacct = n / 2 % 2 ? STORE_DELAYACCT_ON : STORE_DELAYACCT_UNKNOWN;
	s->ts_version = 14 + n % 4;
	s->events_lost = nv();
	s->exit_records_lost = nv();
	s->threads = n / 2 % 2;
	s->thread_readings = n / 2 % 2 == 0;
	snprintf(x->trigger, STR, "cpu some %u/2000000", 100 + n);
	s->trigger = x->trigger;
	make_psi(&s->psi, n, s->mono - 0.004 - n / 2048.0);
	for (int i = 0; i < NT; i++)
		make_task(x, &x->tasks[i], i, n, x->str[i]);
	s->tasks = x->tasks;
	s->ntasks = NT;
	/*
	 * thread readings: 0 and 1 of tasks 0 and 1 (written as their
	 * difference from them), 0 with a name of its own and no cgroup,
	 * 1 with IO bytes of its own; 2 a thread of no task row
	 */
	for (int j = 0; j < NTH; j++) {
		struct store_task *t = &x->threads[j];

		if (j < 2) {
			*t = x->tasks[j];
			t->r.run_ns += nv();
			t->r.d[1].count += 1 + n;
			t->r.at += 1e-6 * (j + 1);
		} else {
			make_task(x, t, j == 2 ? 3 : 4, n, x->str[NT + j]);
			t->r.id = 2000 + j;
			t->r.tgid = 998 - (int32_t)(n / 2 % 2);
			t->r.life = j == 2;
			if (n / 2 % 2)
				t->have &= ~(uint32_t)STORE_HAVE_SWAP;
		}
		t->have &= ~(uint32_t)STORE_HAVE_THREADS;
		t->threads = 0;
	}
	snprintf(x->str[NT][0], STR, "thread0.%u", n);
	x->threads[0].comm = x->str[NT][0];
	if (n / 2 % 2)
		x->threads[0].cgroup = NULL;
	x->threads[1].read_bytes = nv();
	x->threads[1].majflt = nv();
	s->thread_tasks = x->threads;
	s->nthread_tasks = NTH;
	for (int i = 0; i < NCG; i++) {
		struct store_cgroup *g = &x->cg[i];

		memset(g, 0, sizeof(*g));
		g->path = i == 0 ? "/" : i == 1 ? "/system.slice" :
			  "/system.slice/cg.service";
		g->have = 0x1f ^ (i == 2 && n / 2 % 2 ? STORE_CG_OOM_KILL : 0);
		make_psi(&g->psi, n, i == 1 ? s->psi.when + 0.01 + n / 1024.0 :
			 s->psi.when);
		g->throttled_us = nv();
		g->mem_high = nv();
		g->mem_max = nv();
		g->mem_oom_kill = nv();
	}
	s->cgroups = x->cg;
	s->ncgroups = NCG;
	s->machine.have = STORE_M_LOAD | STORE_M_CPU | STORE_M_MEM |
			  (n / 2 % 2 ? STORE_M_SWAP : 0);
	for (int j = 0; j < 3; j++)
		s->machine.load[j] = (n / 2 + (unsigned)j) % 2 ? cv() : dv();
	s->machine.cpu_idle = nv();
	s->machine.cpu_total = nv();
	s->machine.mem_total = nv();
	s->machine.mem_available = nv();
	s->machine.swap_total = nv();
	s->machine.swap_free = nv();
	s->nprocs = nv();
	s->nthreads = nv();
	make_evidence(x, n);
	s->evidence = x->ev;
	s->nevidence = NEV;
	x->disks = (struct diskstats){ .when = s->mono - 0.0005 - n / 512.0,
				       .n = NDISK, .cap = NDISK, .dev = x->dev };
	for (unsigned d = 0; d < NDISK; d++) {
		struct diskstats_dev *v = &x->dev[d];

		memset(v, 0, sizeof(*v));
		v->major = d == 2 ? 253 : 8;
		v->minor = d == 2 ? 0 : 16 * d;
		snprintf(v->name, sizeof(v->name), "disk%u_%u", d, n);
		v->rd_ios = nv();
		v->rd_sectors = nv();
		v->wr_ios = nv();
		v->wr_sectors = nv();
		v->in_flight = nv();
		v->io_ticks_ms = nv();
		v->queue_ms = nv();
	}
	s->disks = &x->disks;
}

/* Field f of a row as text, for a message. */
static void field_text(const struct codec_table *t, const void *row,
		       const struct codec_field *f, char *buf, size_t size)
{
	const unsigned char *p = (const unsigned char *)row + f->offset;

	if (!codec_known(t, row, f->id)) {
		snprintf(buf, size, "unknown");
	} else if (f->type == CODEC_STRING) {
		const char *s;

		memcpy(&s, p, sizeof(s));
		snprintf(buf, size, "\"%s\"", s ? s : "(null)");
	} else {
		uint64_t u;
		double d;

		memcpy(&u, p, 8);
		memcpy(&d, p, 8);
		snprintf(buf, size, "%llu (%.17g)", (unsigned long long)u, d);
	}
}

/* Field f of two rows alike: both unknown, or both known and the same. */
static bool same_field(const struct codec_table *t, const void *a,
		       const void *b, const struct codec_field *f)
{
	const unsigned char *x = (const unsigned char *)a + f->offset;
	const unsigned char *y = (const unsigned char *)b + f->offset;
	bool ka = codec_known(t, a, f->id);

	if (ka != codec_known(t, b, f->id))
		return false;
	if (!ka)
		return true;
	if (f->type == CODEC_STRING) {
		const char *u, *v;

		memcpy(&u, x, sizeof(u));
		memcpy(&v, y, sizeof(v));
		return u && v && strcmp(u, v) == 0;
	}
	return memcmp(x, y, 8) == 0;
}

/* A known field with something in it (a number not 0, a string not ""). */
static bool given(const struct codec_table *t, const void *row,
		  const struct codec_field *f)
{
	const unsigned char *p = (const unsigned char *)row + f->offset;
	static const unsigned char zero[8];

	if (!codec_known(t, row, f->id))
		return false;
	if (f->type == CODEC_STRING) {
		const char *s;

		memcpy(&s, p, sizeof(s));
		return s && *s;
	}
	return memcmp(p, zero, 8) != 0;
}

static const void *row_at(const struct codec_rows *r,
			  const struct codec_table *t, size_t i)
{
	return (const unsigned char *)r->rows + i * t->size;
}

/*
 * Per table and field id: given in a row (known, not zero or ""); known
 * in a row of two samples of a delta frame and not the same.
 */
static bool seen[SCHEMA_NTABLES][CODEC_MAX_ID + 1];
static bool moved[SCHEMA_NTABLES][CODEC_MAX_ID + 1];

/* The rows of sample n as written, and of the one before (coverage). */
static struct schema_rows want[2];

static void cover(unsigned n)
{
	struct schema_rows *a = &want[n % 2], *b = &want[(n + 1) % 2];
	bool delta = n % RECORD_KEY_EVERY != 0;

	CHECK(schema_from_store(a, &w[n].s, NULL) == 0);
	for (int ti = 0; ti < SCHEMA_NTABLES; ti++) {
		const struct codec_table *t = &schema_store.tables[ti];
		const struct codec_rows *ra = &a->cs.tables[ti];
		const struct codec_rows *rb = &b->cs.tables[ti];

		CHECK(ra->n > 0);
		for (size_t i = 0; i < ra->n; i++)
			for (size_t f = 0; f < t->nfields; f++) {
				const struct codec_field *fd = &t->fields[f];

				if (given(t, row_at(ra, t, i), fd))
					seen[ti][fd->id] = true;
				/* the same row (the same count of the
				   same keys) in the sample before */
				if (delta && n && i < rb->n && ra->n == rb->n &&
				    codec_known(t, row_at(ra, t, i), fd->id) &&
				    codec_known(t, row_at(rb, t, i), fd->id) &&
				    !same_field(t, row_at(ra, t, i),
						row_at(rb, t, i), fd))
					moved[ti][fd->id] = true;
			}
	}
}

/*
 * Sample got (read back) against sample n as written, table by table,
 * row by row, field by field: the differences told, counted.
 */
static struct schema_rows a, b;

static int compare(unsigned n, const struct store_sample *got)
{
	int bad = 0;

	CHECK(schema_from_store(&a, &w[n].s, NULL) == 0);
	CHECK(schema_from_store(&b, got, NULL) == 0);
	if (memcmp(&got->time, &w[n].s.time, sizeof(got->time)) != 0) {
		fprintf(stderr, "sample %u: time %.17g, written %.17g\n", n,
			got->time, w[n].s.time);
		bad++;
	}
	for (int ti = 0; ti < SCHEMA_NTABLES; ti++) {
		const struct codec_table *t = &schema_store.tables[ti];
		const struct codec_rows *ra = &a.cs.tables[ti];
		const struct codec_rows *rb = &b.cs.tables[ti];

		if (ra->n != rb->n) {
			fprintf(stderr, "sample %u: %s: %zu rows, written %zu\n",
				n, t->name, rb->n, ra->n);
			bad++;
			continue;
		}
		for (size_t i = 0; i < ra->n; i++)
			for (size_t f = 0; f < t->nfields; f++) {
				const struct codec_field *fd = &t->fields[f];
				char x[256], y[256];

				if (same_field(t, row_at(ra, t, i),
					       row_at(rb, t, i), fd))
					continue;
				field_text(t, row_at(rb, t, i), fd, x, sizeof(x));
				field_text(t, row_at(ra, t, i), fd, y, sizeof(y));
				if (bad++ < 20)
					fprintf(stderr, "sample %u (%s): %s row "
						"%zu: %s (id %u) read %s, "
						"written %s\n", n, n %
						RECORD_KEY_EVERY ? "delta" :
						"key", t->name, i, fd->name,
						fd->id, x, y);
			}
	}
	return bad;
}

static bool exempt(int ti, unsigned id)
{
	for (size_t i = 0; i < sizeof(never) / sizeof(never[0]); i++)
		if (never[i].table == ti && never[i].id == id)
			return true;
	return false;
}

int main(void)
{
	char path[] = "/tmp/stalltop-fields-XXXXXX";
	const char *paths[1] = { path };
	struct recorder *rec;
	struct replay_set *set;
	int fd = mkstemp(path), bad = 0;
	/* read in order, then by seeking: back, forward past a key frame */
	static const unsigned order[] = { NS - 1, 1, RECORD_KEY_EVERY + 1,
					  RECORD_KEY_EVERY - 1, 0, 33 };

	if (fd < 0) {
		perror("mkstemp");
		return 99;
	}
	close(fd);
	unlink(path);
	for (unsigned n = 0; n < NS; n++) {
		make_sample(&w[n], n);
		cover(n);
	}
	/* every field of the schema given, and changed in a delta frame */
	for (int ti = 0; ti < SCHEMA_NTABLES; ti++) {
		const struct codec_table *t = &schema_store.tables[ti];

		for (size_t f = 0; f < t->nfields; f++) {
			const struct codec_field *fd = &t->fields[f];
			bool key = fd->flags & CODEC_KEY;

			if (exempt(ti, fd->id)) {
				/* ... or said here to be never written */
				CHECK(!seen[ti][fd->id]);
				continue;
			}
			CHECK(seen[ti][fd->id]);
			if (!seen[ti][fd->id])
				fprintf(stderr, "%s.%s (id %u): given by no "
					"sample of this test\n", t->name,
					fd->name, fd->id);
			if (key)
				continue;
			CHECK(moved[ti][fd->id]);
			if (!moved[ti][fd->id])
				fprintf(stderr, "%s.%s (id %u): changed in no "
					"delta of this test\n", t->name,
					fd->name, fd->id);
		}
	}

	rec = record_create(path, true, err, sizeof(err));
	CHECK(rec != NULL);
	if (!rec) {
		fprintf(stderr, "record_create: %s\n", err);
		return unit_done();
	}
	for (unsigned n = 0; n < NS; n++)
		CHECK(record_write(rec, &w[n].s) == 0);
	CHECK(record_close(rec) == 0);

	set = replay_set_open_cancel(paths, 1, NAN, NAN, -1, err, sizeof(err));
	CHECK(set != NULL);
	if (!set) {
		fprintf(stderr, "replay_set_open: %s\n", err);
		unlink(path);
		return unit_done();
	}
	CHECK_EQ_U(replay_set_count(set), NS);
	for (unsigned n = 0; n < NS + sizeof(order) / sizeof(order[0]); n++) {
		unsigned i = n < NS ? n : order[n - NS];
		struct store_sample got;
		size_t file, entry;

		CHECK(replay_set_store_pos(set, i, &file, &entry));
		CHECK(replay_set_store_read(set, file, entry, &got) == 1);
		bad += compare(i, &got);
	}
	CHECK_EQ_U(bad, 0);
	CHECK(!replay_set_damaged(set));
	replay_set_close(set);
	unlink(path);
	for (int i = 0; i < 2; i++)
		schema_free(&want[i]);
	schema_free(&a);
	schema_free(&b);
	return unit_done();
}
