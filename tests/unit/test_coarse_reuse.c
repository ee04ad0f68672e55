/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A pid reused inside one interval of -d: task A (pid 50) ends between
 * samples 1 and 2, and task B takes pid 50 before sample 2 is read;
 * -d 3 joins samples 1, 2 and 3 into one interval. The two lives must be
 * two rows of that interval: A among the exited rows, with what it did
 * from sample 0 to its end, and B a live row counted from zero; each
 * with the figures the plain samples 1, 2 and 3 give it, added up (a
 * share times its interval is the time it stands for). Held on both
 * ways a replay makes the interval: the model fed the joined sample
 * (record/coarse.c) and the player of the recording with -d 3. A
 * bystander, C (pid 60), lives through it all.
 *
 * The sums are of doubles made from whole nanoseconds: measured, they
 * differ from the joined interval's by at most 2e-16 of themselves (the
 * last bits); held within 1e-12.
 */
#include <config.h>

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/categories.h"
#include "model/engine.h"
#include "model/producer.h"
#include "record/coarse.h"
#include "record/player.h"
#include "record/storefile.h"
#include "unit.h"

#define NS 4
#define EVERY 3
#define T0 1.7e9
#define TOL 1e-12

/* One task life and its cumulative counters at each sample. */
struct life {
	const char *comm;
	int32_t id;
	uint64_t start;
	double born;
	int first, last;  /* the samples it is in; last: its exit's */
	bool ends;
	uint64_t run_ns[NS], cpu_ns[NS], cpu_n[NS], io_ns[NS], io_n[NS];
};

static struct life lives[] = {
	{ "aaa", 50, 100, 10.0, 0, 2, true,
	  { 100000000, 300000000, 450000000, 0 },
	  { 20000000, 70000000, 90000000, 0 }, { 4, 9, 11, 0 },
	  { 5000000, 5000000, 45000000, 0 }, { 1, 1, 3, 0 } },
	{ "bbb", 50, 200, 1001.5, 2, 3, false,
	  { 0, 0, 120000000, 520000000 },
	  { 0, 0, 30000000, 130000000 }, { 0, 0, 2, 7 },
	  { 0, 0, 0, 60000000 }, { 0, 0, 0, 2 } },
	{ "ccc", 60, 101, 10.0, 0, 3, false,
	  { 50000000, 250000000, 600000000, 610000000 },
	  { 1000000, 2000000, 40000000, 41000000 }, { 1, 2, 6, 7 },
	  { 9000000, 19000000, 29000000, 30000000 }, { 1, 2, 3, 4 } },
};
#define NLIVES (sizeof(lives) / sizeof(*lives))

static struct store_sample seq[NS];
static struct store_task tasks[NS][NLIVES];

static void make_sequence(void)
{
	for (int k = 0; k < NS; k++) {
		struct store_sample *s = &seq[k];
		double mono = 1000.0 + k;
		size_t n = 0;

		memset(s, 0, sizeof(*s));
		s->time = s->real = T0 + k;
		s->mono = mono;
		s->query_start = mono - 0.25;
		s->delayacct = STORE_DELAYACCT_ON;
		s->ts_version = 16;
		for (size_t i = 0; i < NLIVES; i++) {
			const struct life *l = &lives[i];
			struct store_task *t = &tasks[k][n];

			if (k < l->first || k > l->last)
				continue;
			memset(t, 0, sizeof(*t));
			t->r.id = l->id;
			t->r.tgid = l->id;
			t->r.start = l->start;
			t->r.asked_at = mono - 0.25;
			t->r.at = mono - 0.125;
			t->r.born = l->born;
			t->r.age = mono - l->born;
			t->r.first_seen = l->born;
			t->r.threads = 1;
			t->r.flags = READING_ONE | READING_STEADY;
			if (l->ends && k == l->last)
				t->r.flags |= READING_ENDED | READING_FINAL;
			t->r.have = t->r.cats = (1u << CAT_CPU) | (1u << CAT_IO);
			t->r.run_ns = l->run_ns[k];
			t->r.d[CAT_CPU].total_ns = l->cpu_ns[k];
			t->r.d[CAT_CPU].count = l->cpu_n[k];
			t->r.d[CAT_IO].total_ns = l->io_ns[k];
			t->r.d[CAT_IO].count = l->io_n[k];
			t->have = STORE_HAVE_PPID | STORE_HAVE_STATE |
				  STORE_HAVE_START;
			t->ppid = 1;
			t->state = 'S';
			t->start_real = T0 - 1000.0 + l->born;
			t->comm = t->cmdline = l->comm;
			t->user = "root";
			n++;
		}
		s->tasks = tasks[k];
		s->ntasks = s->nprocs = n;
	}
}

/* What the plain samples 1..3 gave a life, added up (shares times dt). */
struct sum {
	unsigned rows, exited;
	double cpu_s, d_s[NCAT];
	uint64_t count[NCAT];
};

static const struct row *find_row(const struct row *v, size_t n,
				  const struct life *l)
{
	for (size_t i = 0; i < n; i++)
		if (v[i].pid == l->id &&
		    v[i].info.start == T0 - 1000.0 + l->born)
			return &v[i];
	return NULL;
}

static void add(struct sum *m, const struct row *r, double dt)
{
	m->cpu_s += r->cpu_pct / 100.0 * dt;
	for (int c = 0; c < NCAT; c++) {
		if (!r->d[c].avail)
			continue;
		m->d_s[c] += r->d[c].pct / 100.0 * dt;
		m->count[c] += r->d[c].count;
	}
}

static void plain_sums(struct sum sums[NLIVES])
{
	struct engine *en = engine_new(NULL);
	struct sample out;

	memset(sums, 0, NLIVES * sizeof(*sums));
	CHECK(en != NULL);
	if (!en)
		return;
	engine_reset(en, false);
	CHECK(engine_baseline(en, &seq[0], true) == 0);
	for (int k = 1; k <= EVERY; k++) {
		CHECK(engine_sample(en, &seq[k], &out) == 0);
		for (size_t i = 0; i < NLIVES; i++) {
			const struct row *r = find_row(out.rows, out.nrows,
						       &lives[i]);
			const struct row *x = find_row(out.exited, out.nexited,
						       &lives[i]);

			if (r)
				add(&sums[i], r, 1.0);
			if (x)
				add(&sums[i], x, 1.0);
			sums[i].rows += r != NULL;
			sums[i].exited += x != NULL;
		}
	}
	/* the plain samples: A in 1, exited in 2; B from 2 on */
	CHECK_EQ_U(sums[0].rows, 1);
	CHECK_EQ_U(sums[0].exited, 1);
	CHECK_EQ_U(sums[1].rows, 2);
	CHECK_EQ_U(sums[1].exited, 0);
	engine_free(en);
}

static bool near(double x, double y)
{
	return fabs(x - y) <= TOL * fmax(fabs(x), fabs(y));
}

/* The joined interval: one row per life, as the plain ones add up. */
static void check_joined(const char *how, const struct sample *s,
			 const struct sum sums[NLIVES])
{
	double dt = EVERY;
	unsigned pid50 = 0;

	CHECK(fabs(s->time - (T0 + EVERY)) < 1e-6);
	for (size_t i = 0; i < s->nrows + s->nexited; i++) {
		const struct row *r = i < s->nrows ? &s->rows[i]
						   : &s->exited[i - s->nrows];
		pid50 += r->pid == 50;
	}
	if (pid50 != 2)
		fprintf(stderr, "%s: %u rows of pid 50, not 2\n", how, pid50);
	CHECK_EQ_U(pid50, 2);
	for (size_t i = 0; i < NLIVES; i++) {
		const struct life *l = &lives[i];
		const struct row *r = find_row(s->rows, s->nrows, l);
		const struct row *x = find_row(s->exited, s->nexited, l);
		const struct row *got = l->ends ? x : r;

		/* the ended one is exited, and only there; the others live */
		CHECK(got != NULL);
		CHECK(l->ends ? r == NULL : x == NULL);
		if (!got) {
			fprintf(stderr, "%s: no row of %s\n", how, l->comm);
			continue;
		}
		CHECK(strcmp(got->comm, l->comm) == 0);
		CHECK(!!(got->flags & ROW_EXITED) == l->ends);
		CHECK(got->have_cpu_pct);
		if (!near(got->cpu_pct / 100.0 * dt, sums[i].cpu_s))
			fprintf(stderr, "%s: %s ran %.9f s, the plain samples "
				"%.9f s\n", how, l->comm,
				got->cpu_pct / 100.0 * dt, sums[i].cpu_s);
		CHECK(near(got->cpu_pct / 100.0 * dt, sums[i].cpu_s));
		for (int c = 0; c < NCAT; c++) {
			if (c != CAT_CPU && c != CAT_IO)
				continue;
			CHECK(got->d[c].avail && got->d[c].have_count);
			if (!near(got->d[c].pct / 100.0 * dt, sums[i].d_s[c]) ||
			    got->d[c].count != sums[i].count[c])
				fprintf(stderr, "%s: %s category %d: %.9f s "
					"%llu, the plain samples %.9f s %llu\n",
					how, l->comm, c,
					got->d[c].pct / 100.0 * dt,
					(unsigned long long)got->d[c].count,
					sums[i].d_s[c],
					(unsigned long long)sums[i].count[c]);
			CHECK(near(got->d[c].pct / 100.0 * dt, sums[i].d_s[c]));
			CHECK_EQ_U(got->d[c].count, sums[i].count[c]);
		}
	}
}

/* The model fed the three samples joined (as player_store.c does). */
static void check_direct(const struct sum sums[NLIVES])
{
	struct engine *en = engine_new(NULL);
	struct coarse *co = coarse_new();
	struct store_sample merged;
	struct sample out;

	CHECK(en && co);
	if (!en || !co)
		goto out;
	engine_reset(en, false);
	CHECK(engine_baseline(en, &seq[0], true) == 0);
	coarse_begin(co);
	for (int j = 1; j < EVERY; j++)
		CHECK(coarse_add(co, &seq[j]) == 0);
	CHECK(coarse_end(co, &seq[EVERY], &merged) == 0);
	CHECK(engine_sample(en, &merged, &out) == 0);
	check_joined("model", &out, sums);
out:
	engine_free(en);
	coarse_free(co);
}

/* The player of the recording of the four samples, with -d 3. */
static void check_player(const struct sum sums[NLIVES])
{
	char path[] = "/tmp/stalltop-test-coarse-reuse-XXXXXX";
	char err[512] = "";
	int fd = mkstemp(path);
	struct storefile_writer *w;
	struct producer *p = NULL;
	struct sample out;

	if (fd < 0)
		exit(99);
	w = storefile_writer_open(fd, "stalltop test", 7, 0);
	CHECK(w != NULL);
	for (int k = 0; w && k < NS; k++)
		CHECK(storefile_write(w, &seq[k]) == 0);
	storefile_writer_free(w);
	close(fd);
	p = player_open_set(&(const char *){ path }, 1, NAN, NAN, false, NULL, -1,
			    err, sizeof(err));
	if (!p)
		fprintf(stderr, "player_open: %s\n", err);
	CHECK(p != NULL);
	if (p) {
		CHECK(producer_set_interval(p, EVERY) == 0);
		CHECK(producer_sample(p, &out) == 0);
		check_joined("player", &out, sums);
	}
	producer_free(p);
	unlink(path);
}

int main(void)
{
	struct sum sums[NLIVES];

	make_sequence();
	plain_sums(sums);
	check_direct(sums);
	check_player(sums);
	return unit_done();
}
