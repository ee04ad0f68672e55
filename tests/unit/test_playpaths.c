/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One sequence of samples of readings, two paths: fed to the model
 * (model/engine.h) as a producer hands them to it, and written to a
 * recording (storefile.h's writer: key frames, deltas) that the player
 * reads back, seeking to key frames on its way. Each sample the player
 * shows must hold the rows the model made from the same readings, figure
 * for figure (compared exactly: the recording holds times in whole
 * microseconds, and the sequence is made of such), in each mode: plain,
 * -a, -d 3 (several samples as one interval, record/coarse.c), -H (the
 * rows are threads) and with cgroups (their rows too). The generated
 * sequence has tasks beginning, ending (with their exit record), an exec
 * (a new name), a pid reused by a later task, readings carried (not
 * asked), over 60 samples a second apart, a key frame every 7.
 *
 * And what every sample must hold, on either path: no share above 100 %
 * of the time lived (every task has one thread) and none negative; under
 * -a, every task that ended in the window has its row in every sample
 * after, marked exited.
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
#include "model/producer.h"
#include "record/coarse.h"
#include "record/player.h"
#include "model/engine.h"
#include "record/storefile.h"
#include "../lib/storetest.h"
#include "unit.h"

#define NS 60
#define POOL 24
#define T0 1.7e9

static const char *const cgpaths[] = { "/", "/a", "/a/b", "/c" };
#define NCG (sizeof(cgpaths) / sizeof(*cgpaths))

/* One task life of the sequence. */
struct life {
	int32_t id;
	uint64_t start;
	double born;
	const char *comm;
	const char *cgroup;
	uint64_t run_ns, count[NCAT], total_ns[NCAT];
	bool alive;
};

static struct store_sample seq[NS];

static uint64_t us(uint64_t max_us)
{
	return (storetest_rnd() % (max_us + 1)) * 1000ull;
}

static void reading(struct store_task *t, const struct life *l, double mono,
		    bool threads)
{
	memset(t, 0, sizeof(*t));
	t->r.id = l->id;
	t->r.tgid = threads ? 100 + l->id % 3 : l->id;
	t->r.start = l->start;
	t->r.asked_at = mono - 0.25;
	t->r.at = mono - 0.125;
	t->r.born = l->born;
	t->r.age = mono - l->born;
	t->r.first_seen = l->born;
	t->r.threads = 1;
	t->r.flags = READING_ONE | READING_STEADY | (threads ? READING_OWN : 0);
	t->r.have = t->r.cats = (1u << CAT_CPU) | (1u << CAT_IO);
	t->r.have_max = 1u << CAT_CPU;
	t->r.run_ns = l->run_ns;
	for (int c = 0; c < NCAT; c++) {
		t->r.d[c].count = l->count[c];
		t->r.d[c].total_ns = l->total_ns[c];
		t->r.d[c].max_ns = c == CAT_CPU && l->count[c] ? 1000000 : 0;
	}
	t->have = STORE_HAVE_PPID | STORE_HAVE_STATE | STORE_HAVE_START;
	t->ppid = 1;
	t->state = 'S';
	t->start_real = T0 - 1000.0 + l->born;
	t->comm = l->comm;
	t->cmdline = l->comm;
	t->user = "root";
	t->cgroup = l->cgroup;
}

/* What a life did in an interval of one second: within it, as lived. */
static void advance(struct life *l)
{
	l->run_ns += us(300000);
	for (int c = 0; c < NCAT; c++) {
		if (c != CAT_CPU && c != CAT_IO)
			continue;
		uint64_t n = storetest_rnd() % 3;
		l->count[c] += n;
		l->total_ns[c] += n ? us(100000 * n) : 0;
	}
}

static void make_sequence(bool threads, bool cgroups)
{
	struct life pool[POOL];
	int32_t next_id = 10, gone[POOL];
	size_t ngone = 0;
	uint64_t ticks = 500;
	const char *names[] = { "alpha", "beta", "gamma", "delta", "eps" };

	storetest_seed(threads * 2 + cgroups + 1);
	memset(pool, 0, sizeof(pool));
	for (size_t i = 0; i < 6; i++) {
		pool[i] = (struct life){ .id = next_id++, .start = ticks++,
					 .born = 10.0, .alive = true,
					 .comm = names[i % 5],
					 .cgroup = cgroups ? cgpaths[i % NCG]
							   : NULL };
	}
	for (unsigned k = 0; k < NS; k++) {
		struct store_sample *s = &seq[k];
		double mono = 1000.0 + k;
		struct store_task *v = calloc(POOL, sizeof(*v));
		size_t n = 0;

		memset(s, 0, sizeof(*s));
		s->time = s->real = T0 + k;
		s->mono = mono;
		s->query_start = mono - 0.25;
		s->delayacct = STORE_DELAYACCT_ON;
		s->ts_version = 16;
		s->threads = threads;
		/* a few begin after the sample before's queries */
		for (size_t i = 0; k > 0 && i < POOL; i++) {
			if (pool[i].alive || !storetest_chance(8))
				continue;
			int32_t id = next_id++;
			if (ngone && storetest_chance(40))
				id = gone[--ngone]; /* a pid reused */
			pool[i] = (struct life){
				.id = id, .start = ticks++, .born = mono - 0.5,
				.alive = true, .comm = names[storetest_rnd() % 5],
				.cgroup = cgroups ? cgpaths[storetest_rnd() % NCG]
						  : NULL };
		}
		for (size_t i = 0; i < POOL; i++) {
			struct life *l = &pool[i];
			bool carried = k > 0 && storetest_chance(10);
			bool ends = k > 0 && storetest_chance(6);

			if (!l->alive)
				continue;
			if (k > 0 && storetest_chance(4))
				l->comm = "exec'd"; /* an exec: a new name */
			if (ends || !carried)
				advance(l);
			reading(&v[n], l, mono, threads);
			if (ends) {
				v[n].r.flags |= READING_ENDED | READING_FINAL;
				l->alive = false;
				if (ngone < POOL)
					gone[ngone++] = l->id;
			} else if (carried) {
				v[n].r.flags |= READING_CARRIED;
				v[n].r.run_ns = 0;
				memset(v[n].r.d, 0, sizeof(v[n].r.d));
			}
			n++;
		}
		s->tasks = v;
		s->ntasks = n;
		s->nprocs = n;
		for (int r = 0; r < NPSI; r++) {
			s->psi.line[r][0].present = true;
			s->psi.line[r][0].total_us = 1000000ull * k + 1000ull * k * r;
		}
		s->psi.when = mono;
		if (!cgroups)
			continue;
		s->cgroups = calloc(NCG, sizeof(*s->cgroups));
		s->ncgroups = NCG;
		for (size_t c = 0; c < NCG; c++) {
			struct store_cgroup *g = &s->cgroups[c];

			g->path = cgpaths[c];
			g->have = STORE_CG_PSI;
			g->psi.when = mono;
			for (int r = 0; r < NPSI; r++) {
				g->psi.line[r][0].present = true;
				g->psi.line[r][0].total_us =
					(100000ull + 1000ull * c) * k;
			}
		}
	}
}

static void free_sequence(void)
{
	for (unsigned k = 0; k < NS; k++) {
		free(seq[k].tasks);
		free(seq[k].cgroups);
	}
}

static char path[] = "/tmp/stalltop-test-playpaths-XXXXXX";

static void write_file(void)
{
	int fd;

	strcpy(path + strlen(path) - 6, "XXXXXX");
	fd = mkstemp(path);
	if (fd < 0)
		exit(99);
	struct storefile_writer *w = storefile_writer_open(fd, "stalltop test",
							   7, 0);
	CHECK(w != NULL);
	for (unsigned k = 0; w && k < NS; k++)
		CHECK(storefile_write(w, &seq[k]) == 0);
	storefile_writer_free(w);
	close(fd);
}

/*
 * Whether two numbers are the same: exactly (tol 0), or within tol of
 * each other relatively (a cgroup's sums, added in another order).
 */
static bool near(double x, double y, double tol)
{
	return x == y || fabs(x - y) <= tol * fmax(fabs(x), fabs(y));
}

/* The figures that are there (a value without its have_ bit is none). */
static bool same_figures(const struct cat_figure *x, const struct cat_figure *y,
			 double tol)
{
	return x->avail == y->avail && x->have_avg == y->have_avg &&
	       x->have_max == y->have_max && x->have_count == y->have_count &&
	       x->dropped == y->dropped && near(x->pct, y->pct, tol) &&
	       (!x->have_avg || near(x->avg_ms, y->avg_ms, tol)) &&
	       (!x->have_max || x->max_ms == y->max_ms) &&
	       (!x->have_count || x->count == y->count);
}

static bool same_row(const struct row *a, const struct row *b)
{
	if (a->pid != b->pid || a->tgid != b->tgid || a->flags != b->flags ||
	    a->total_pct != b->total_pct || a->cpu_pct != b->cpu_pct ||
	    a->age != b->age || strcmp(a->comm, b->comm) != 0 ||
	    a->info.ppid != b->info.ppid || a->info.state != b->info.state ||
	    a->info.start != b->info.start ||
	    !a->cgroup != !b->cgroup ||
	    (a->cgroup && strcmp(a->cgroup, b->cgroup) != 0))
		return false;
	for (int c = 0; c < NCAT; c++)
		if (!same_figures(&a->d[c], &b->d[c], 0))
			return false;
	return true;
}

/* Rows by id, start and whether ended: a recording keeps them by key. */
static int by_key(const void *x, const void *y)
{
	const struct row *a = x, *b = y;

	if (a->pid != b->pid)
		return (a->pid > b->pid) - (a->pid < b->pid);
	if (a->info.start != b->info.start)
		return (a->info.start > b->info.start) -
		       (a->info.start < b->info.start);
	return (int)(a->flags & ROW_EXITED) - (int)(b->flags & ROW_EXITED);
}

/* Says how the figures of category c differ. */
static void say_figures(int c, const struct cat_figure *x,
			const struct cat_figure *y)
{
	fprintf(stderr, "  category %d: pct %.17g/%.17g count %llu/%llu "
		"avg %.17g/%.17g max %g/%g\n", c, x->pct, y->pct,
		(unsigned long long)x->count, (unsigned long long)y->count,
		x->avg_ms, y->avg_ms, x->max_ms, y->max_ms);
}

static bool same_rows(struct row *a, size_t na, struct row *b, size_t nb,
		      unsigned k, const char *what)
{
	bool same = na == nb;
	size_t i = 0;

	if (na)
		qsort(a, na, sizeof(*a), by_key);
	if (nb)
		qsort(b, nb, sizeof(*b), by_key);
	for (; same && i < na; i++)
		same = same_row(&a[i], &b[i]);
	if (same)
		return true;
	fprintf(stderr, "sample %u: the %s differ (%zu, %zu rows)\n", k, what,
		na, nb);
	if (na == nb) {
		const struct row *x = &a[i - 1], *y = &b[i - 1];

		fprintf(stderr, "  pid %d/%d flags %x/%x total %.17g/%.17g "
			"age %.17g/%.17g comm %s/%s\n", x->pid, y->pid,
			x->flags, y->flags, x->total_pct, y->total_pct,
			x->age, y->age, x->comm, y->comm);
		for (int c = 0; c < NCAT; c++)
			if (!same_figures(&x->d[c], &y->d[c], 0))
				say_figures(c, &x->d[c], &y->d[c]);
	}
	return false;
}

/*
 * A cgroup's figures are sums of its tasks' rows, which a recording
 * keeps in another order: measured, they differ by at most 4.3e-16 of
 * themselves (the last bit); held within 1e-12.
 */
#define CG_TOL 1e-12

static bool same_cgroups(const struct sample *a, const struct sample *b,
			 unsigned k)
{
	bool same = a->ncgroups == b->ncgroups;
	size_t i = 0;

	for (; same && i < a->ncgroups; i++) {
		const struct cgroup_row *x = &a->cgroups[i], *y = &b->cgroups[i];

		same = strcmp(x->path, y->path) == 0 &&
		       near(x->total_pct, y->total_pct, CG_TOL) &&
		       x->nr_tasks == y->nr_tasks &&
		       x->have_psi == y->have_psi &&
		       memcmp(&x->psi, &y->psi, sizeof(x->psi)) == 0;
		for (int c = 0; same && c < NCAT; c++)
			same = same_figures(&x->d[c], &y->d[c], CG_TOL);
	}
	if (same)
		return true;
	fprintf(stderr, "sample %u: the cgroups differ\n", k);
	if (a->ncgroups == b->ncgroups) {
		const struct cgroup_row *x = &a->cgroups[i - 1],
					*y = &b->cgroups[i - 1];

		fprintf(stderr, "  %s/%s total %.17g/%.17g tasks %zu/%zu\n",
			x->path, y->path, x->total_pct, y->total_pct,
			x->nr_tasks, y->nr_tasks);
		for (int c = 0; c < NCAT; c++)
			if (!same_figures(&x->d[c], &y->d[c], CG_TOL))
				say_figures(c, &x->d[c], &y->d[c]);
	}
	return false;
}

/* The invariants of a sample's rows: shares of the time lived. */
static void check_bounds(const struct sample *s)
{
	for (size_t i = 0; i < s->nrows + s->nexited; i++) {
		const struct row *r = i < s->nrows ? &s->rows[i]
						   : &s->exited[i - s->nrows];

		CHECK(r->total_pct >= 0 && r->total_pct <= 100.0 + 1e-9);
		for (int c = 0; c < NCAT; c++) {
			const struct cat_figure *f = &r->d[c];

			if (!f->avail)
				continue;
			CHECK(f->pct >= 0 && f->pct <= 100.0 + 1e-9);
			CHECK(!f->have_avg || f->avg_ms >= 0);
			CHECK(!f->have_max || f->max_ms >= 0);
		}
	}
}

/*
 * Under -a from the first interval: a task that ended in sample j has
 * its row, exited, in every sample after.
 */
static void check_ended_kept(const struct sample *s, unsigned k)
{
	for (unsigned j = 1; j < k; j++) {
		for (size_t i = 0; i < seq[j].ntasks; i++) {
			const struct store_task *t = &seq[j].tasks[i];
			bool found = false;

			if (!(t->r.flags & READING_ENDED))
				continue;
			for (size_t r = 0; r < s->nrows && !found; r++)
				found = s->rows[r].pid == t->r.id &&
					(s->rows[r].flags & ROW_EXITED) &&
					s->rows[r].info.start ==
						t->start_real;
			CHECK(found);
		}
	}
}

/* The samples the model makes fed directly: every `every`-th. */
static void play_direct(struct engine *en, struct coarse *co, unsigned k,
			unsigned every, struct sample *out)
{
	struct store_sample merged = seq[k];

	if (every > 1) {
		coarse_begin(co);
		for (unsigned j = k - every + 1; j < k; j++)
			CHECK(coarse_add(co, &seq[j]) == 0);
		CHECK(coarse_end(co, &seq[k], &merged) == 0);
	}
	CHECK(engine_sample(en, &merged, out) == 0);
}

static void check_mode(const char *name, bool threads, bool cgroups,
		       bool accumulate, unsigned every)
{
	char err[512] = "";
	struct engine *en = engine_new(NULL);
	struct coarse *co = coarse_new();
	struct producer *p;
	struct sample direct, played;
	unsigned shown = 0;

	make_sequence(threads, cgroups);
	write_file();
	p = player_open_set(&(const char *){ path },
			    1, NAN, NAN, threads, NULL, -1, err, sizeof(err));
	if (!p)
		fprintf(stderr, "%s: player_open: %s\n", name, err);
	CHECK(p && en && co);
	if (!p || !en || !co)
		goto out;
	if (accumulate)
		CHECK(producer_set_accumulate(p, true) == 0);
	if (every > 1)
		CHECK(producer_set_interval(p, every) == 0);
	engine_reset(en, false);
	CHECK(engine_baseline(en, &seq[0], true) == 0);
	if (accumulate)
		engine_window(en, seq[0].mono);
	for (unsigned k = every; k < NS; k += every) {
		play_direct(en, co, k, every, &direct);
		CHECK(!producer_done(p));
		CHECK(producer_sample(p, &played) == 0);
		CHECK_EQ_U(lround(played.time - T0), k);
		CHECK(same_rows(direct.rows, direct.nrows, played.rows,
				played.nrows, k, "rows"));
		CHECK(same_rows(direct.exited, direct.nexited, played.exited,
				played.nexited, k, "exited rows"));
		if (cgroups)
			CHECK(direct.ncgroups > 0 &&
			      same_cgroups(&direct, &played, k));
		check_bounds(&direct);
		if (accumulate)
			check_ended_kept(&direct, k);
		shown++;
	}
	CHECK_EQ_U(shown, (NS - 1) / every);
	fprintf(stderr, "%s: %u samples compared\n", name, shown);
out:
	producer_free(p);
	engine_free(en);
	coarse_free(co);
	unlink(path);
	free_sequence();
}

int main(void)
{
	check_mode("plain", false, false, false, 1);
	check_mode("-a", false, false, true, 1);
	check_mode("-d 3", false, false, false, 3);
	check_mode("-H", true, false, false, 1);
	check_mode("-H -a", true, false, true, 1);
	check_mode("cgroups", false, true, false, 1);
	check_mode("cgroups -a", false, true, true, 1);
	storetest_strings_free();
	return unit_done();
}
