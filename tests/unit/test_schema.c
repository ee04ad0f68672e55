/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The store's schema (src/store/schema.c): it passes codec_schema_check;
 * store samples through the schema, the codec and back come out bit for
 * bit as given (every clock, counter, flag, string and PSI line; a
 * carried reading with the counters that stand, its task's in the sample
 * before where that holds them, READING_STANDING saying so, in key
 * frames too, else zero; times given as the sample's,
 * ages as at - born, in whole microseconds or neither; averages in
 * hundredths or not; unknown members unknown), over key and delta
 * frames; and what stays the same costs nothing: a delta of 100 idle
 * tasks whose clocks move with the sample's (the queries' times, ages
 * as at - born) and of carried readings is a few bytes.
 */
#include <config.h>

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/codec.h"
#include "store/frame.h"
#include "store/schema.h"
#include "../lib/storetest.h"
#include "../lib/store_kvals.h"
#include "unit.h"

#define NTASK 100
#define NCG 3
#define NSAMPLES 60

#define rnd storetest_rnd
#define chance storetest_chance

static bool bits_eq(double a, double b)
{
	return memcmp(&a, &b, sizeof(a)) == 0;
}

static char names[NTASK][3][40];
static const char *const paths[NCG] = { "/", "/system.slice", "/user.slice" };

/* Task i of sample n: counters that move, clocks of the sample. */
static void make_task(struct store_task *k, size_t i, unsigned n,
		      const struct store_sample *s, bool idle)
{
	struct task_reading *r = &k->r;

	memset(k, 0, sizeof(*k));
	r->id = (int32_t)(1000 + i);
	/* a thread of another process now and then */
	r->tgid = i % 4 == 3 ? 999 : r->id;
	r->start = 5000 + i;
	r->asked_at = chance(10) && !idle ? s->query_start - 0.25 : s->query_start;
	/* the queries' end for most (not the sample's mono), else another */
	r->at = chance(10) && !idle ? s->mono - 0.125 : s->mono + 0.0007;
	r->born = i % 7 ? 100.0 + (double)i / 3 : 0;
	r->first_seen = 101.5;
	switch (idle ? 0 : rnd() % 3) {
	case 0:
		r->age = r->born > 0 && r->at > r->born ? r->at - r->born : 0;
		break;
	case 1:
		r->age = (double)(n * 10000000ull + i) / 1e6;
		break;
	default:
		r->age = 0.1 * (double)(rnd() % 1000) + 1e-9;
	}
	r->have = 0xff;
	r->have_max = 0x0f;
	r->have_max_at = i % 2 ? 0x3 : 0;
	r->no_count = 0x80;
	r->cats = 0x7f;
	r->threads = 1 + (int32_t)(i % 4);
	r->flags = READING_ONE | (idle || chance(30) ? READING_CARRIED : 0);
	if (!(r->flags & READING_CARRIED)) {
		r->run_ns = (uint64_t)n * 1000003 * (i + 1);
		for (int c = 0; c < READING_NCAT; c++) {
			r->d[c].count = n * (uint64_t)c + i;
			r->d[c].total_ns = (uint64_t)n * 777 * (uint64_t)(c + 1);
			r->d[c].max_ns = c == 1 ? UINT64_MAX : 4096u * (uint64_t)c;
			r->max_at[c] = c < 2 ? 1.7e9 + n : 0;
		}
	}
	k->have = (uint32_t)(rnd() & 0x1fff);
	if (idle)
		k->have = STORE_HAVE_UID | STORE_HAVE_STATE | STORE_HAVE_CTX_AT;
	k->uid = (uint32_t)i;
	k->ppid = 1;
	k->threads = r->threads;
	k->state = idle ? 'S' : "RSDZ"[rnd() % 4];
	k->nice = (int8_t)((int)(i % 40) - 20);
	k->start_real = 1.7e9 + (double)i;
	k->rss_kib = 1024 + (int64_t)i;
	k->swap_kib = 0;
	k->read_bytes = (uint64_t)n * 4096;
	k->write_bytes = UINT64_MAX - n;
	k->majflt = n;
	k->ctx_at = idle || chance(50) ? s->mono : s->mono - 1;
	if (k->have & STORE_HAVE_WCHAN)
		snprintf(k->wchan, sizeof(k->wchan), "do_wait%zu", i % 3);
	k->comm = names[i][0];
	k->cmdline = names[i][1];
	k->user = i % 5 ? names[i][2] : "";
	k->cgroup = i % 9 ? paths[i % NCG] : NULL;
}

static void make_psi(struct psi_reading *p, unsigned n, bool odd)
{
	memset(p, 0, sizeof(*p));
	p->when = 200.0 + n;
	for (int r = 0; r < NPSI; r++)
		for (int k = 0; k < NPSI_KIND; k++) {
			struct psi_line *l = &p->line[r][k];

			if (r == PSI_IRQ)
				continue;       /* absent */
			l->present = true;
			l->avg10 = (double)((n * 37 + (unsigned)r) % 10000) / 100;
			l->avg60 = odd ? 1.0 / 3 : 12.34;
			l->avg300 = odd ? -0.0 : 0.05;
			l->total_us = (uint64_t)n * 1000 * (unsigned)(r + 1);
		}
}

static bool same_str(const char *a, const char *b)
{
	if (!a || !b)
		return a == b;
	return strcmp(a, b) == 0;
}

#define NEV 3
#define NDISK 3

struct world {
	struct store_sample s;
	struct store_task tasks[NTASK], threads[2];
	struct store_cgroup cg[NCG];
	struct store_evidence ev[NEV];
	struct diskstats disks;
	struct diskstats_dev dev[NDISK];
};

static void psi_lines(struct psi_line *l, unsigned n, unsigned salt)
{
	for (int k = 0; k < NPSI_KIND; k++) {
		l[k].present = true;
		l[k].avg10 = 0.01 * (n + salt);
		l[k].avg60 = 1.0 / (3 + k);     /* not in hundredths */
		l[k].avg300 = 2.5;
		l[k].total_us = 1000000ull * n + salt + (unsigned)k;
	}
}

/*
 * Evidence reading i at sample n, every value given: counters that grow
 * with n, limits of which some are "max", every device of its cgroup's
 * IO, its pressure, its CPUs' list and its cgroups' text; i 0 is a
 * cgroup row's (id 0), the others processes'.
 */
static void make_evidence(struct store_evidence *e, size_t i, unsigned n)
{
	struct evidence_reading *r = &e->r;

	memset(e, 0, sizeof(*e));
	e->id = i ? (int32_t)(100 + i) : 0;
	e->start = i ? 5000 + i : 0;
	e->cgroup = i ? NULL : "/system.slice/x\x1b.service";
	e->cgroups = i == 2 ? NULL : "0::/system.slice/x.service\n";
	r->when = 250.0 + 10.0 * n + 0.000123 * (double)i;
	r->cpu.version = 2;
	r->mem.version = i == 2 ? 1 : 2;
	r->io.version = 2;
	r->states.source = i == 2 ? CGSTATS_KERNEL : CGSTATS_PROC;
	for (size_t k = 0; k < NKV; k++) {
		struct kval *v = kval_at(r, kvals[k]);

		v->have = true;
		v->max = k % 7 == 0;
		/* the process's own values (IO, CPUs, memory, forks) its
		 * own; its cgroups' and the machine's as every row's */
		v->v = v->max ? 0 : (uint64_t)n * (k + 1) * 1000003 +
		       ((k >= 31 && k < 44) || k == 50 ? i : 0);
	}
	kval_at(r, kvals[3])->v = UINT64_MAX - 1;       /* a wrap ahead */
	psi_lines(r->cpu.pressure, n, 1);
	psi_lines(r->mem.pressure, n, 2);
	psi_lines(r->io.pressure, n, 3);
	r->io.ndev = CG_IO_DEVS;
	r->io.dropped = i == 2 ? 2 : 1;
	for (unsigned d = 0; d < CG_IO_DEVS; d++) {
		struct cg_io_dev *dv = &r->io.dev[d];

		dv->major = 8 + d;
		dv->minor = 16 * d;
		for (size_t k = 0; k < NDKV; k++) {
			struct kval *v = kval_at(dv, dev_kvals[k]);

			v->have = true;
			v->max = k < 4 && (d + k) % 3 == 0;
			v->v = v->max ? 0 : (uint64_t)n * 4096 * (k + 1) + d;
		}
	}
	snprintf(r->tcpu.allowed_list, sizeof(r->tcpu.allowed_list), "0-%zu,7",
		 i + 1);
}

static void make_disks(struct world *w, unsigned n)
{
	w->disks = (struct diskstats){ .when = 250.0 + 10.0 * n + 0.0005,
				       .n = NDISK, .cap = NDISK, .dev = w->dev };
	for (unsigned d = 0; d < NDISK; d++) {
		struct diskstats_dev *v = &w->dev[d];

		memset(v, 0, sizeof(*v));
		v->major = d == 2 ? 253 : 8;
		v->minor = d == 2 ? 0 : 16 * d;
		snprintf(v->name, sizeof(v->name), d == 2 ? "dm-0" : "sd%c",
			 'a' + d);
		v->rd_ios = 100ull * n + d;
		v->rd_sectors = 8000ull * n;
		v->wr_ios = 50ull * n;
		v->wr_sectors = 4000ull * n + d;
		v->in_flight = n % 3;
		v->io_ticks_ms = 900ull * n;
		v->queue_ms = 1200ull * n;
	}
}

static void make_sample(struct world *w, unsigned n, bool idle)
{
	struct store_sample *s = &w->s;

	memset(s, 0, sizeof(*s));
	s->time = 1.7e9 + 10.0 * n;
	s->boot = 300.0 + 10 * n;
	s->mono = 250.0 + 10.0 * n + 0.001;
	s->real = s->time - 0.002;
	s->query_start = s->mono - 0.003;
	s->delayacct = n % 2 || idle ? STORE_DELAYACCT_ON : STORE_DELAYACCT_UNKNOWN;
	s->ts_version = 16;
	s->events_lost = n / 10;
	s->exit_records_lost = n / 20;
	s->threads = n % 5 == 0;
	s->thread_readings = !idle && n % 2;
	s->trigger = !idle && n % 4 == 0 ? "cpu some 500/2000" : NULL;
	make_psi(&s->psi, idle ? 0 : n, !idle && n % 3 == 0);
	for (size_t i = 0; i < NTASK; i++)
		make_task(&w->tasks[i], i, idle ? 1 : n, s, idle);
	s->tasks = w->tasks;
	s->ntasks = NTASK - (idle ? 0 : n % 3);
	if (!idle && n % 2) {
		make_task(&w->threads[0], 7, n, s, false);
		make_task(&w->threads[1], 8, n, s, false);
		/* as a thread view's reading: its process's cgroup, when
		   its context was read, not known */
		w->threads[0].cgroup = NULL;
		w->threads[1].have &= ~(uint32_t)STORE_HAVE_CTX_AT;
		s->thread_tasks = w->threads;
		s->nthread_tasks = 2;
	}
	for (size_t i = 0; i < NCG; i++) {
		struct store_cgroup *g = &w->cg[i];

		memset(g, 0, sizeof(*g));
		g->path = paths[i];
		g->have = STORE_CG_PSI | STORE_CG_THROTTLED;
		make_psi(&g->psi, idle ? 0 : n + (unsigned)i, i == 2);
		if (i == 1)
			g->psi.when += 0.01;
		g->throttled_us = idle ? 0 : n * 100;
		g->mem_high = i;
	}
	s->cgroups = w->cg;
	s->ncgroups = NCG;
	s->machine.have = STORE_M_LOAD | STORE_M_CPU | STORE_M_MEM;
	s->machine.load[0] = idle ? 0.5 : 0.01 * n;
	s->machine.load[1] = 1.0 / 7;
	s->machine.load[2] = 3.25;
	s->machine.cpu_idle = idle ? 1 : n * 150;
	s->machine.cpu_total = idle ? 2 : n * 200;
	s->machine.mem_total = 1ull << 34;
	s->machine.mem_available = idle ? 1ull << 33 : (1ull << 33) - n;
	s->nprocs = NTASK;
	s->nthreads = idle ? 300 : 300 + n;
	if (idle)
		return;
	/* in key order: (id, start, cgroup path or "") */
	for (size_t i = 0; i < NEV; i++)
		make_evidence(&w->ev[i], i, n);
	s->evidence = w->ev;
	s->nevidence = n % 4 == 3 ? 0 : NEV;
	make_disks(w, n);
	s->disks = n % 5 == 4 ? NULL : &w->disks;
	if (n % 5 == 1)
		w->disks.n = 0;         /* read, no disks */
}

/* Two evidence readings the same, bit for bit. */
static bool same_evidence(const struct store_evidence *g,
			  const struct store_evidence *w, size_t i)
{
	if (g->id != w->id || g->start != w->start ||
	    !same_str(g->cgroup, w->cgroup) || !same_str(g->cgroups, w->cgroups)) {
		fprintf(stderr, "evidence %zu: owner %d/%llu/%s/%s, expected "
			"%d/%llu/%s/%s\n", i, (int)g->id,
			(unsigned long long)g->start, g->cgroup ? g->cgroup : "-",
			g->cgroups ? g->cgroups : "-", (int)w->id,
			(unsigned long long)w->start, w->cgroup ? w->cgroup : "-",
			w->cgroups ? w->cgroups : "-");
		return false;
	}
	const unsigned char *a = (const void *)&g->r, *b = (const void *)&w->r;

	for (size_t k = 0; k < sizeof(g->r); k++)
		if (a[k] != b[k]) {
			fprintf(stderr, "evidence %zu: byte %zu of its reading "
				"is %u, expected %u\n", i, k, a[k], b[k]);
			return false;
		}
	return true;
}

static void check_evidence(const struct store_sample *g,
			   const struct store_sample *w)
{
	CHECK_EQ_U(g->nevidence, w->nevidence);
	CHECK(!g->nevidence || g->evidence);
	for (size_t i = 0; i < w->nevidence && i < g->nevidence; i++)
		CHECK(same_evidence(&g->evidence[i], &w->evidence[i], i));
	CHECK(!g->disks == !w->disks);
	if (!g->disks || !w->disks)
		return;
	CHECK(bits_eq(g->disks->when, w->disks->when));
	CHECK_EQ_U(g->disks->n, w->disks->n);
	for (size_t d = 0; d < w->disks->n && d < g->disks->n; d++)
		CHECK(memcmp(&g->disks->dev[d], &w->disks->dev[d],
			     sizeof(w->disks->dev[d])) == 0);
}

static int same_task(const struct store_task *g, const struct store_task *w)
{
	const struct task_reading *a = &g->r, *b = &w->r;
	int bad = 0;

	bad |= a->id != b->id || a->tgid != b->tgid || a->start != b->start;
	bad |= !bits_eq(a->asked_at, b->asked_at) || !bits_eq(a->at, b->at);
	bad |= !bits_eq(a->born, b->born) || !bits_eq(a->age, b->age);
	bad |= !bits_eq(a->first_seen, b->first_seen);
	bad |= a->run_ns != b->run_ns || a->have != b->have;
	bad |= a->have_max != b->have_max || a->have_max_at != b->have_max_at;
	bad |= a->no_count != b->no_count || a->cats != b->cats;
	bad |= a->threads != b->threads || a->flags != b->flags;
	bad |= memcmp(a->d, b->d, sizeof(a->d)) != 0;
	bad |= memcmp(a->max_at, b->max_at, sizeof(a->max_at)) != 0;
	bad |= g->have != w->have;
	uint32_t h = w->have;
	bad |= (h & STORE_HAVE_UID) && g->uid != w->uid;
	bad |= (h & STORE_HAVE_PPID) && g->ppid != w->ppid;
	bad |= (h & STORE_HAVE_THREADS) && g->threads != w->threads;
	bad |= (h & STORE_HAVE_STATE) && g->state != w->state;
	bad |= (h & STORE_HAVE_NICE) && g->nice != w->nice;
	bad |= (h & STORE_HAVE_START) && !bits_eq(g->start_real, w->start_real);
	bad |= (h & STORE_HAVE_RSS) && g->rss_kib != w->rss_kib;
	bad |= (h & STORE_HAVE_SWAP) && g->swap_kib != w->swap_kib;
	bad |= (h & STORE_HAVE_IO) && (g->read_bytes != w->read_bytes ||
				       g->write_bytes != w->write_bytes);
	bad |= (h & STORE_HAVE_MAJFLT) && g->majflt != w->majflt;
	bad |= (h & STORE_HAVE_CTX_AT) && !bits_eq(g->ctx_at, w->ctx_at);
	bad |= memcmp(g->wchan, w->wchan, sizeof(w->wchan)) != 0;
	bad |= !same_str(g->comm, w->comm) || !same_str(g->cmdline, w->cmdline);
	bad |= !same_str(g->user, w->user) || !same_str(g->cgroup, w->cgroup);
	if (bad)
		fprintf(stderr, "task %d (start %llu) differs\n", b->id,
			(unsigned long long)b->start);
	return !bad;
}

static int same_psi(const struct psi_reading *a, const struct psi_reading *b)
{
	if (!bits_eq(a->when, b->when))
		return 0;
	for (int r = 0; r < NPSI; r++)
		for (int k = 0; k < NPSI_KIND; k++) {
			const struct psi_line *x = &a->line[r][k], *y = &b->line[r][k];

			if (x->present != y->present)
				return 0;
			if (y->present && (x->total_us != y->total_us ||
					   !bits_eq(x->avg10, y->avg10) ||
					   !bits_eq(x->avg60, y->avg60) ||
					   !bits_eq(x->avg300, y->avg300)))
				return 0;
		}
	return 1;
}

static const struct store_task *find(const struct store_task *k, size_t n,
				     int32_t id)
{
	for (size_t i = 0; i < n; i++)
		if (k[i].r.id == id)
			return &k[i];
	return NULL;
}

/* The n tasks want are in got (by id), each the same. */
static void check_tasks(const struct store_task *got, size_t ngot,
			const struct store_task *want, size_t n)
{
	CHECK_EQ_U(ngot, n);
	for (size_t i = 0; i < n; i++) {
		const struct store_task *t = find(got, ngot, want[i].r.id);

		CHECK(t && same_task(t, &want[i]));
	}
}

static void check_same(const struct store_sample *g, const struct store_sample *w)
{
	CHECK(bits_eq(g->time, w->time) && bits_eq(g->boot, w->boot));
	CHECK(bits_eq(g->mono, w->mono) && bits_eq(g->real, w->real));
	CHECK(bits_eq(g->query_start, w->query_start));
	CHECK(g->delayacct == w->delayacct && g->ts_version == w->ts_version);
	CHECK(g->events_lost == w->events_lost);
	CHECK(g->exit_records_lost == w->exit_records_lost);
	CHECK(g->threads == w->threads && same_str(g->trigger, w->trigger));
	CHECK(g->thread_readings == w->thread_readings);
	CHECK(same_psi(&g->psi, &w->psi));
	check_tasks(g->tasks, g->ntasks, w->tasks, w->ntasks);
	check_tasks(g->thread_tasks, g->nthread_tasks, w->thread_tasks,
		    w->nthread_tasks);
	CHECK_EQ_U(g->ncgroups, w->ncgroups);
	for (size_t i = 0; i < w->ncgroups && i < g->ncgroups; i++) {
		/* the codec gives them in key (path) order, as given here */
		CHECK_STR(g->cgroups[i].path, w->cgroups[i].path);
		CHECK(same_psi(&g->cgroups[i].psi, &w->cgroups[i].psi));
		CHECK(g->cgroups[i].have == w->cgroups[i].have);
		CHECK(g->cgroups[i].throttled_us == w->cgroups[i].throttled_us);
		CHECK(g->cgroups[i].mem_high == w->cgroups[i].mem_high);
	}
	CHECK(g->machine.have == w->machine.have);
	for (int j = 0; j < 3; j++)
		CHECK(bits_eq(g->machine.load[j], w->machine.load[j]));
	CHECK(g->machine.cpu_idle == w->machine.cpu_idle);
	CHECK(g->machine.cpu_total == w->machine.cpu_total);
	CHECK(g->machine.mem_available == w->machine.mem_available);
	CHECK(g->nprocs == w->nprocs && g->nthreads == w->nthreads);
	check_evidence(g, w);
}

/*
 * What the carried readings of k[0..n-1] read back as: the counters of
 * the task's reading in the sample before (before[0..nbefore-1], as read
 * back) where that holds them, with READING_STANDING; else zero, as
 * given.
 */
static void standing(struct store_task *k, size_t n,
		     const struct store_task *before, size_t nbefore)
{
	for (size_t i = 0; i < n; i++) {
		struct task_reading *r = &k[i].r;
		const struct store_task *p = find(before, nbefore, r->id);

		if (!(r->flags & READING_CARRIED) || !p ||
		    p->r.start != r->start ||
		    ((p->r.flags & READING_CARRIED) &&
		     !(p->r.flags & READING_STANDING)))
			continue;
		r->flags |= READING_STANDING;
		r->run_ns = p->r.run_ns;
		memcpy(r->d, p->r.d, sizeof(r->d));
		memcpy(r->max_at, p->r.max_at, sizeof(r->max_at));
	}
}

/* Samples through the schema, the codec and back. */
static void test_round_trip(void)
{
	static struct world w;
	static struct store_task before[NTASK], tbefore[2];
	size_t nbefore = 0, ntbefore = 0, nstanding = 0, nkeystanding = 0;
	static struct schema_rows enc[2], dec;
	struct codec_enc *e = codec_enc_new(&schema_store, 7, 0);
	struct codec_dec *d = codec_dec_new(&schema_store);
	char err[256];

	CHECK(e && d);
	for (unsigned n = 1; n <= NSAMPLES; n++) {
		struct schema_rows *cur = &enc[n % 2], *prev = &enc[(n + 1) % 2];
		const unsigned char *p;
		size_t len;
		int type;
		struct store_sample got;

		make_sample(&w, n, false);
		CHECK(schema_from_store(cur, &w.s, n > 1 ? prev : NULL) == 0);
		CHECK(codec_enc_sample(e, &cur->cs, &p, &len, &type) == 0);
		CHECK_EQ_U(codec_dec_frame(d, type, w.s.time, p, len, err,
					   sizeof(err)), 1);
		CHECK(schema_to_store(&dec, codec_dec_sample(d), &got) == 0);
		standing(w.tasks, w.s.ntasks, before, nbefore);
		standing(w.threads, w.s.nthread_tasks, tbefore, ntbefore);
		check_same(&got, &w.s);
		for (size_t i = 0; i < w.s.ntasks; i++)
			if (w.tasks[i].r.flags & READING_STANDING) {
				nstanding++;
				nkeystanding += type == FRAME_KEY;
			}
		memcpy(before, w.tasks, w.s.ntasks * sizeof(*before));
		nbefore = w.s.ntasks;
		memcpy(tbefore, w.threads, w.s.nthread_tasks * sizeof(*tbefore));
		ntbefore = w.s.nthread_tasks;
	}
	/* carried readings with their counters, in key frames too */
	CHECK(nstanding > 0 && nkeystanding > 0);
	codec_enc_free(e);
	codec_dec_free(d);
	schema_free(&enc[0]);
	schema_free(&enc[1]);
	schema_free(&dec);
}

/*
 * 100 idle tasks: the sample's clocks move, nothing else. The delta is
 * the sequence number and the system table (its clocks: 5 doubles of 9
 * bytes, the PSI time, the table's header) and nothing per task:
 * measured 44 bytes; at most 100 (one byte per task would be 144).
 */
static void test_idle_costs_nothing(void)
{
	static struct world w;
	static struct schema_rows r[2];
	struct codec_enc *e = codec_enc_new(&schema_store, 0, 0);
	const unsigned char *p;
	size_t len = 0, key = 0;
	int type;

	for (unsigned n = 1; n <= 3; n++) {
		make_sample(&w, n, true);
		CHECK(schema_from_store(&r[n % 2], &w.s,
					n > 1 ? &r[(n + 1) % 2] : NULL) == 0);
		CHECK(codec_enc_sample(e, &r[n % 2].cs, &p, &len, &type) == 0);
		if (n == 1)
			key = len;
	}
	CHECK_EQ_U(type, FRAME_DELTA);
	if (len > 100)
		fprintf(stderr, "a delta of %d idle tasks is %zu bytes (key frame %zu)\n",
			NTASK, len, key);
	CHECK(len <= 100);
	codec_enc_free(e);
	schema_free(&r[0]);
	schema_free(&r[1]);
}

/* A time as the live monitor reads its clocks (timespec to double). */
static double ts_time(int64_t sec, int64_t nsec)
{
	return (double)sec + (double)nsec / 1e9;
}

/*
 * When a task's context was read, where it is not the sample's: stored
 * as nanoseconds from the sample's where that gives it back exactly,
 * else as the double it is. Both read back bit for bit, the edges of a
 * second (0 and 999,999,999 ns) included; and a delta in which idle
 * tasks' contexts were read anew a few milliseconds after the sample
 * costs at most 6 bytes a task for it (a field's tag and at most four
 * bytes of nanoseconds below 268 ms; measured: 2.3 bytes a task, 11.0
 * when the double's bits were written).
 */
static void test_ctx_ns(void)
{
	static struct world w;
	static struct schema_rows enc[2], dec;
	static const int64_t nsecs[] = { 0, 1, 999999999, 500000000,
					 123456789, 999999000, 7 };
	size_t len[2] = { 0, 0 };

	for (int moving = 0; moving < 2; moving++) {
		struct codec_enc *e = codec_enc_new(&schema_store, 0, 0);
		struct codec_dec *d = codec_dec_new(&schema_store);
		char err[256];

		for (unsigned n = 1; n <= 2; n++) {
			const unsigned char *p;
			struct store_sample got;
			int type;

			make_sample(&w, n, true);
			w.s.mono = ts_time(250 + 10 * n, 1000000);
			for (size_t i = 0; i < w.s.ntasks; i++) {
				struct store_task *k = &w.tasks[i];

				k->ctx_at = w.s.mono;
				if (!moving)
					continue;
				/* a few ms after the sample, another each time */
				k->ctx_at = ts_time(250 + 10 * n, 1000000 +
					(int64_t)(((i * 7919 + n * 104729) *
						   2654435761u) % 9000000));
				if (i < (sizeof(nsecs) / sizeof(nsecs[0])))
					k->ctx_at = ts_time(240 + 10 * n, nsecs[i]);
				if (i == (sizeof(nsecs) / sizeof(nsecs[0])))
					k->ctx_at = w.s.mono - 1.0 / 3;
			}
			CHECK(schema_from_store(&enc[n % 2], &w.s,
						n > 1 ? &enc[(n + 1) % 2] : NULL) == 0);
			CHECK(codec_enc_sample(e, &enc[n % 2].cs, &p, &len[moving],
					       &type) == 0);
			CHECK_EQ_U(codec_dec_frame(d, type, w.s.time, p, len[moving],
						   err, sizeof(err)), 1);
			CHECK(schema_to_store(&dec, codec_dec_sample(d), &got) == 0);
			CHECK_EQ_U(got.ntasks, w.s.ntasks);
			for (size_t i = 0; i < got.ntasks && i < w.s.ntasks; i++) {
				const struct store_task *k = find(got.tasks, got.ntasks,
								  w.tasks[i].r.id);
				bool same = k && bits_eq(k->ctx_at, w.tasks[i].ctx_at);

				if (!same)
					fprintf(stderr, "task %d: context read at %.17g, "
						"read back %.17g\n", (int)w.tasks[i].r.id,
						w.tasks[i].ctx_at, k ? k->ctx_at : -1.0);
				CHECK(same);
			}
		}
		codec_enc_free(e);
		codec_dec_free(d);
	}
	size_t per = (len[1] - len[0] + NTASK - 1) / NTASK;
	if (len[1] < len[0] || per > 6)
		fprintf(stderr, "contexts read anew: a delta of %zu bytes, %zu "
			"without (%zu a task)\n", len[1], len[0], per);
	CHECK(len[1] >= len[0] && per <= 6);
	schema_free(&enc[0]);
	schema_free(&enc[1]);
	schema_free(&dec);
}

/*
 * Processes of one thread, their thread readings the same as theirs
 * (as the live monitor gives them when recording threads, once with
 * the process's cgroup and context, once without them, as the thread
 * view's readings come): the delta of a sample in which they all moved
 * is no longer with the thread readings than without them, since a
 * thread row is written as its difference from its process's, what it
 * lacks of the process's named in its like, which does not change.
 */
static void test_threads_like_processes(void)
{
	static struct world w;
	static struct store_task bare[8];
	size_t len[3];

	for (int with = 0; with < 3; with++) {
		static struct schema_rows r[2];
		struct codec_enc *e = codec_enc_new(&schema_store, 0, 0);
		const unsigned char *p;
		int type;

		storetest_seed(0x5eed);         /* the same samples each time */
		for (unsigned n = 1; n <= 2; n++) {
			make_sample(&w, n, false);
			w.s.ntasks = 8;
			for (size_t i = 0; i < 8; i++) {
				w.tasks[i].r.flags &= ~(uint32_t)READING_CARRIED;
				w.tasks[i].r.run_ns = 1000000007ull * n * (i + 1);
				/* its context read each sample, as for a row shown */
				w.tasks[i].have |= STORE_HAVE_CTX_AT;
				bare[i] = w.tasks[i];
				bare[i].cgroup = NULL;
				bare[i].have &= ~(uint32_t)STORE_HAVE_CTX_AT;
			}
			w.s.thread_tasks = with == 1 ? w.tasks : with ? bare : NULL;
			w.s.nthread_tasks = with ? 8 : 0;
			CHECK(schema_from_store(&r[n % 2], &w.s,
						n > 1 ? &r[(n + 1) % 2] : NULL) == 0);
			CHECK(codec_enc_sample(e, &r[n % 2].cs, &p, &len[with],
					       &type) == 0);
		}
		CHECK_EQ_U(type, FRAME_DELTA);
		codec_enc_free(e);
		schema_free(&r[0]);
		schema_free(&r[1]);
	}
	/* measured: the same bytes, with either kind of thread reading */
	for (int with = 1; with < 3; with++) {
		if (len[with] != len[0])
			fprintf(stderr, "delta with the thread readings (%s) %zu "
				"bytes, without %zu\n",
				with == 1 ? "whole" : "no cgroup, no context",
				len[with], len[0]);
		CHECK_EQ_U(len[with], len[0]);
	}
}

/* A sequence of samples through the schema, the codec and back. */
struct seq {
	struct schema_rows r[2], dec; /* sample n's rows are r[n % 2] */
	struct codec_enc *e;
	struct codec_dec *d;
	int type;                     /* the last frame's */
};

static void seq_open(struct seq *q)
{
	*q = (struct seq){ .type = 0 };
	q->e = codec_enc_new(&schema_store, 0, 0);
	q->d = codec_dec_new(&schema_store);
}

static void seq_close(struct seq *q)
{
	codec_dec_free(q->d);
	codec_enc_free(q->e);
	schema_free(&q->r[0]);
	schema_free(&q->r[1]);
	schema_free(&q->dec);
}

/*
 * Sample n (from 1) of the sequence, encoded against the one before from
 * the second on: the frame's length into *len, the sample decoded into
 * *back.
 */
static void seq_step(struct seq *q, const struct store_sample *s,
		     unsigned n, size_t *len, struct store_sample *back)
{
	const unsigned char *p;
	char err[256];

	CHECK(schema_from_store(&q->r[n % 2], s,
				n > 1 ? &q->r[(n + 1) % 2] : NULL) == 0);
	CHECK(codec_enc_sample(q->e, &q->r[n % 2].cs, &p, len, &q->type) == 0);
	CHECK_EQ_U(codec_dec_frame(q->d, q->type, s->time, p, *len, err,
				   sizeof(err)), 1);
	CHECK(schema_to_store(&q->dec, codec_dec_sample(q->d), back) == 0);
}

/*
 * Processes of one thread whose IO and major faults move each sample,
 * their thread readings' the same as at the first sample (a thread's
 * context is read when its row is shown, not with each reading): the
 * delta of the third sample is no longer with the thread readings than
 * without them (the second's holds the rows' change of form), since
 * such a thread row holds its own counters of its context (LIKE_OWN_CTX),
 * not their difference from its process's; and the sample reads back
 * whole.
 */
static void test_threads_own_context(void)
{
	static struct world w;
	static struct store_task th[8];
	size_t len[2];

	for (int with = 0; with < 2; with++) {
		struct seq q;

		seq_open(&q);

		storetest_seed(0x5eed);         /* the same samples each time */
		for (unsigned n = 1; n <= 3; n++) {
			make_sample(&w, n, false);
			w.s.ntasks = 8;
			for (size_t i = 0; i < 8; i++) {
				struct store_task *k = &w.tasks[i];

				k->r.flags &= ~(uint32_t)READING_CARRIED;
				k->r.run_ns = 1000000007ull * n * (i + 1);
				k->have |= STORE_HAVE_IO | STORE_HAVE_MAJFLT |
					   STORE_HAVE_CTX_AT;
				k->read_bytes = 40960ull * n * (i + 1);
				k->write_bytes = 8192ull * n * (i + 1);
				k->majflt = 3ull * n * (i + 1);
				th[i] = *k;
				th[i].read_bytes = 40960ull * (i + 1);
				th[i].write_bytes = 8192ull * (i + 1);
				th[i].majflt = 3ull * (i + 1);
			}
			w.s.thread_tasks = with ? th : NULL;
			w.s.nthread_tasks = with ? 8 : 0;
			struct store_sample back;

			seq_step(&q, &w.s, n, &len[with], &back);
			check_tasks(back.thread_tasks, back.nthread_tasks, th,
				    w.s.nthread_tasks);
		}
		CHECK_EQ_U(q.type, FRAME_DELTA);
		seq_close(&q);
	}
	if (len[1] != len[0])
		fprintf(stderr, "delta with the thread readings %zu bytes, "
			"without %zu\n", len[1], len[0]);
	CHECK_EQ_U(len[1], len[0]);
}

/*
 * Time totals of whole microseconds (as the live monitor reads them,
 * ts_decode.h) are stored as microseconds, others as nanoseconds: both
 * read back exactly, and the delta of tasks whose run time and delays
 * moved by whole microseconds is shorter than that of the same moves
 * a nanosecond off (measured: 1,243 against 1,318 bytes, the rest of
 * the sample the same in both).
 */
static void test_times_in_us(void)
{
	static struct world w;
	size_t len[2];

	for (int off = 0; off < 2; off++) {
		struct seq q;

		seq_open(&q);

		storetest_seed(0x5eed);
		for (unsigned n = 1; n <= 3; n++) {
			make_sample(&w, n, false);
			w.s.ntasks = 8;
			w.s.nthread_tasks = 0;
			for (size_t i = 0; i < 8; i++) {
				struct task_reading *k = &w.tasks[i].r;

				k->flags &= ~(uint32_t)READING_CARRIED;
				k->run_ns = 1000ull * (1234567 * n * (i + 1) +
						       (n * n * 7919) % 100003) + off;
				for (int c = 0; c < READING_NCAT; c++)
					if (k->have & (1u << c))
						k->d[c].total_ns = 1000ull *
							(4567 * n * (i + 1) +
							 (n * n * (c + 1) * 104729) % 9973) +
							off * (c + 1);
			}
			struct store_sample back;

			seq_step(&q, &w.s, n, &len[off], &back);
			check_tasks(back.tasks, back.ntasks, w.tasks,
				    w.s.ntasks);
		}
		CHECK_EQ_U(q.type, FRAME_DELTA);
		seq_close(&q);
	}
	fprintf(stderr, "delta of whole microseconds %zu bytes, a nanosecond "
		"off %zu\n", len[0], len[1]);
	CHECK(len[0] < len[1]);
}

/*
 * One sample through the schema, the codec and back, as a key frame and
 * then as a delta from before (a fresh encoder and decoder each time).
 */
static void through(const struct store_sample *before,
		    const struct store_sample *s, const char *what)
{
	static struct schema_rows enc[2], dec;
	struct codec_enc *e = codec_enc_new(&schema_store, 0, 0);
	struct codec_dec *d = codec_dec_new(&schema_store);
	const struct store_sample *in[2] = { before, s };
	struct store_sample got;
	char err[256];

	for (int k = 0; k < 2; k++) {
		const unsigned char *p;
		size_t len;
		int type;

		CHECK(schema_from_store(&enc[k], in[k], k ? &enc[0] : NULL) == 0);
		CHECK(codec_enc_sample(e, &enc[k].cs, &p, &len, &type) == 0);
		CHECK_EQ_U(type, k ? FRAME_DELTA : FRAME_KEY);
		CHECK_EQ_U(codec_dec_frame(d, type, in[k]->time, p, len, err,
					   sizeof(err)), 1);
		CHECK(schema_to_store(&dec, codec_dec_sample(d), &got) == 0);
	}
	unsigned before_fail = (unsigned)unit_failures;
	check_evidence(&got, s);
	if ((unsigned)unit_failures != before_fail)
		fprintf(stderr, "(%s)\n", what);
	codec_enc_free(e);
	codec_dec_free(d);
	schema_free(&enc[0]);
	schema_free(&enc[1]);
	schema_free(&dec);
}

/*
 * Evidence of processes in the same cgroups, read once for all of them:
 * a row writes what is as in the first of those cgroups only as a mark
 * (its cgroups' values, pressure, versions, devices), and its own
 * values whole; the machine's values as in the first row. Read back,
 * every row is as given (the round trip tests).
 */
static void test_evidence_shared(void)
{
	static struct world w;
	static struct schema_rows r;
	const struct codec_table *t = &schema_store.tables[SCHEMA_EVIDENCE];

	make_sample(&w, 8, false);
	CHECK(schema_from_store(&r, &w.s, NULL) == 0);
	CHECK_EQ_U(r.cs.tables[SCHEMA_EVIDENCE].n, NEV);
	const struct schema_evidence *e = r.cs.tables[SCHEMA_EVIDENCE].rows;

	/* rows 0 (the cgroup's) and 1 (a process in it) share the cgroups'
	 * text; row 2 has none: only the machine's part as row 0's */
	CHECK_EQ_U(e[0].same_kv, 0);
	CHECK_EQ_U(e[1].same_part, 0xff);
	for (unsigned k = 0; k < NKV; k++) {
		/* ("max" values are 0 in every row: the same) */
		bool own = ((k >= 31 && k < 44) || k == 50) && k % 7;

		if (((e[1].same_kv >> k) & 1) == own)
			fprintf(stderr, "value %u of row 1: %s\n", k,
				own ? "marked the same" : "written again");
		CHECK(((e[1].same_kv >> k) & 1) != own);
		CHECK(codec_known(t, &e[1], 16 + k) == own);
	}
	/* row 2: versions and devices its own, the machine's the same */
	CHECK_EQ_U(e[2].same_part & 0xc0, 0);
	CHECK_EQ_U(e[2].same_kv >> 23 & 0xff, 0xff);
	schema_free(&r);
}

/*
 * Tasks 0 and 1 of w made the processes of evidence rows 1 and 2, with
 * their IO bytes read (/proc/PID/io, read once for the row and its
 * evidence): both the same as the evidence's, but task 1's written bytes
 * 4 KiB more (another reading) where other is set.
 */
static void tasks_of_evidence(struct world *w, bool other)
{
	for (size_t i = 0; i < 2; i++) {
		struct store_task *k = &w->tasks[i];
		const struct store_evidence *e = &w->ev[i + 1];

		k->r.id = k->r.tgid = e->id;
		k->r.start = e->start;
		k->have |= STORE_HAVE_IO;
		k->read_bytes = e->r.tio.read_bytes.v;
		k->write_bytes = e->r.tio.write_bytes.v +
				 (i == 1 && other ? 4096 : 0);
	}
}

/*
 * A process's IO bytes in its evidence that its task row has too are
 * marked (same_part bits 8 and 9), not written: those that differ are
 * written, and so are those of a task row that did not read them or is
 * not there (a cgroup's row has none). Read back, every row is as given,
 * the values marked taken from the task row (the round trip).
 */
static void test_evidence_task_io(void)
{
	static struct world a, b;
	static struct schema_rows r;
	const struct codec_table *t = &schema_store.tables[SCHEMA_EVIDENCE];
	const unsigned rd = 16 + 33, wr = 16 + 34;     /* E_KV + their index */

	make_sample(&a, 6, false);
	make_sample(&b, 8, false);
	tasks_of_evidence(&a, false);
	tasks_of_evidence(&b, true);
	CHECK(schema_from_store(&r, &b.s, NULL) == 0);
	const struct schema_evidence *e = r.cs.tables[SCHEMA_EVIDENCE].rows;

	CHECK_EQ_U(r.cs.tables[SCHEMA_EVIDENCE].n, NEV);
	CHECK_EQ_U(e[0].same_part >> 8, 0);
	CHECK_EQ_U(e[1].same_part >> 8, 3);
	CHECK(!codec_known(t, &e[1], rd) && !codec_known(t, &e[1], wr));
	CHECK_EQ_U(e[2].same_part >> 8, 1);
	CHECK(!codec_known(t, &e[2], rd) && codec_known(t, &e[2], wr));
	for (size_t i = 3; i < NEV; i++)
		CHECK_EQ_U(e[i].same_part >> 8, 0);
	through(&a.s, &b.s, "IO bytes as the task row's");
	/* a delta where task 1's reading becomes the same, and back */
	tasks_of_evidence(&a, true);
	tasks_of_evidence(&b, false);
	through(&a.s, &b.s, "IO bytes the task row's from a delta on");
	/* the task row did not read them */
	b.tasks[0].have &= ~(uint32_t)STORE_HAVE_IO;
	CHECK(schema_from_store(&r, &b.s, NULL) == 0);
	e = r.cs.tables[SCHEMA_EVIDENCE].rows;
	CHECK_EQ_U(e[1].same_part >> 8, 0);
	through(&a.s, &b.s, "IO bytes its own, the task row's unknown");
	schema_free(&r);
}

/*
 * Each value of an evidence reading unknown in turn (of the reading, of
 * a device, a pressure line, the CPUs' list, the cgroups' text, the
 * versions): it reads back unknown, and every other value as it was.
 */
static void test_evidence_unknowns(void)
{
	static struct world a, b;
	char what[64];

	make_sample(&a, 6, false);
	make_sample(&b, 8, false);
	CHECK_EQ_U(b.s.nevidence, NEV);
	for (size_t k = 0; k < NKV; k++) {
		*kval_at(&b.ev[1].r, kvals[k]) = (struct kval){ 0 };
		snprintf(what, sizeof(what), "value %zu unknown", k);
		through(&a.s, &b.s, what);
		make_evidence(&b.ev[1], 1, 8);
	}
	for (size_t k = 0; k < NDKV; k++) {
		*kval_at(&b.ev[2].r.io.dev[k + 5], dev_kvals[k]) =
			(struct kval){ 0 };
		snprintf(what, sizeof(what), "device %zu, value %zu unknown",
			 k + 5, k);
		through(&a.s, &b.s, what);
		make_evidence(&b.ev[2], 2, 8);
	}
	b.ev[1].r.mem.pressure[PSI_FULL] = (struct psi_line){ 0 };
	memset(b.ev[1].r.tcpu.allowed_list, 0,
	       sizeof(b.ev[1].r.tcpu.allowed_list));
	b.ev[1].cgroups = NULL;
	b.ev[1].r.io.ndev = 3;
	memset(&b.ev[1].r.io.dev[3], 0,
	       (CG_IO_DEVS - 3) * sizeof(b.ev[1].r.io.dev[0]));
	b.ev[2].r.cpu.version = 0;
	b.ev[2].r.states.source = CGSTATS_NONE;
	through(&a.s, &b.s, "a pressure line, the CPUs, the cgroups unknown");
}

int main(void)
{
	char err[256];

	if (codec_schema_check(&schema_store, err, sizeof(err)) != 0)
		fprintf(stderr, "schema: %s\n", err);
	CHECK(codec_schema_check(&schema_store, err, sizeof(err)) == 0);
	for (size_t i = 0; i < NTASK; i++) {
		snprintf(names[i][0], sizeof(names[i][0]), "task\x1b%zu", i);
		snprintf(names[i][1], sizeof(names[i][1]), "/bin/task --n %zu", i);
		snprintf(names[i][2], sizeof(names[i][2]), "user%zu", i % 3);
	}
	test_round_trip();
	test_idle_costs_nothing();
	test_evidence_unknowns();
	test_threads_like_processes();
	test_threads_own_context();
	test_times_in_us();
	test_ctx_ns();
	test_evidence_shared();
	test_evidence_task_io();
	return unit_done();
}
