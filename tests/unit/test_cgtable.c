/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The cgroup table (cgtable_build) over the fixture tree tests/fixtures/cgroup/
 * tree: task rows summed into their cgroup and every ancestor, a
 * sibling whose name only starts like another's kept apart, the average
 * rebuilt from summed delay over summed events (not an average of
 * averages), a count unknown in one row unknown in the sum, the max the
 * largest, the --cgroup subtree, each cgroup's own pressure (its
 * *.pressure files: none for a cgroup without them, a share from the
 * second build on) and cgroups nobody is in any more forgotten; tasks
 * that ended in the interval summed too, its throttling and memory
 * events as the kernel counts them (absent without the files), a longest wait known only where
 * every task's is, a dropped figure left out.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "live/cgtable.h"
#include "unit.h"

#define TREE FIXTURES "/cgroup/tree"

/* A pure v2 layout with its hierarchy at dir. */
static struct cgtable *table_at(const char *dir)
{
	char mountinfo[4096];
	struct cg_layout l;

	snprintf(mountinfo, sizeof(mountinfo),
		 "27 24 0:25 / %s rw - cgroup2 cgroup2 rw\n", dir);
	if (cg_layout_parse(mountinfo, &l) < 0)
		exit(99);
	return cgtable_new(&l);
}

/*
 * A task row in cgroup cg over an interval of DT seconds: cpu delay pct
 * with count events (0: the count is unknown, as from /proc), io delay
 * io_pct with 2 events, and a cpu max of max_ms.
 */
#define DT 2.0
static struct row task(pid_t pid, const char *cg, double pct, uint64_t count,
		       double io_pct, double max_ms)
{
	struct row r;
	memset(&r, 0, sizeof(r));
	r.pid = r.tgid = pid;
	r.cgroup = cg;
	struct cat_figure *f = &r.d[CAT_CPU];
	f->avail = true;
	f->pct = pct;
	f->have_count = count > 0;
	f->count = count;
	f->have_avg = count > 0;
	f->avg_ms = count ? pct / 100 * DT * 1000 / (double)count : 0;
	f->have_max = true;
	f->max_ms = max_ms;
	f = &r.d[CAT_IO];
	f->avail = true;
	f->pct = io_pct;
	f->have_count = true;
	f->count = 2;
	f->have_avg = true;
	f->avg_ms = io_pct / 100 * DT * 1000 / 2;
	r.total_pct = pct + io_pct;
	return r;
}

static const struct cgroup_row *find(const struct cgroup_row *rows, size_t n,
				     const char *path)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(rows[i].path, path) == 0)
			return &rows[i];
	return NULL;
}

/*
 * Four tasks: a (30 % cpu in 3 events: 200 ms each) and b (10 % in 10
 * events: 20 ms each) in /load.slice, c (20 % in 4) in its child
 * /load.slice/x, d (5 %, count unknown) in /load.slicex; e without a
 * cgroup. Over 2 s: a waited 600 ms, b 200 ms, c 400 ms, d 100 ms.
 */
static struct row rows[5];

static void make_rows(void)
{
	rows[0] = task(101, "/load.slice", 30, 3, 1, 50);
	rows[1] = task(102, "/load.slice", 10, 10, 2, 70);
	rows[2] = task(103, "/load.slice/x", 20, 4, 4, 90);
	rows[3] = task(104, "/load.slicex", 5, 0, 8, 10);
	rows[4] = task(105, NULL, 40, 40, 16, 500);
}

static void test_sums(void)
{
	struct cgtable *t = table_at(TREE);
	struct cgroup_row *out;
	size_t n;
	CHECK(t != NULL);
	if (!t)
		return;
	make_rows();
	CHECK(cgtable_build(t, rows, 5, NULL, 0, DT, NULL, &out, &n) == 0);
	CHECK_EQ_U(n, 4);

	/* by path, each with its depth */
	static const char *const paths[] = {
		"/", "/load.slice", "/load.slice/x", "/load.slicex",
	};
	static const int depth[] = { 0, 1, 2, 1 };
	/* and its name (model/cgname.h: here the last part of the path) */
	static const char *const names[] = { "/", "load.slice", "x", "load.slicex" };
	for (size_t i = 0; i < n && i < 4; i++) {
		CHECK_STR(out[i].path, paths[i]);
		CHECK(out[i].depth == depth[i]);
		CHECK_STR(out[i].name, names[i]);
	}

	const struct cgroup_row *root = find(out, n, "/"),
		*load = find(out, n, "/load.slice"),
		*x = find(out, n, "/load.slice/x"),
		*slicex = find(out, n, "/load.slicex");
	CHECK(root && load && x && slicex);
	if (!root || !load || !x || !slicex) {
		cgtable_free(t);
		return;
	}

	/* the kernel's counters where its files are: /load.slice's cpu.stat
	   and memory.events; none at all where there are none */
	CHECK(load->have_throttled && load->throttled_us == 2500000);
	CHECK(load->have_mem_high && load->mem_high == 12);
	CHECK(load->have_mem_max && load->mem_max == 3);
	CHECK(load->have_mem_oom_kill && load->mem_oom_kill == 1);
	CHECK(!x->have_throttled && !x->have_mem_high && !x->have_mem_max &&
	      !x->have_mem_oom_kill);

	/* /load.slice: a, b and, below it, c; not /load.slicex's d */
	CHECK_EQ_U(load->nr_tasks, 3);
	CHECK_NEAR(load->d[CAT_CPU].pct, 60, 1e-9);
	CHECK(load->d[CAT_CPU].have_count);
	CHECK_EQ_U(load->d[CAT_CPU].count, 17);
	/* (600 + 200 + 400) ms / 17 events, not the mean of 200, 20, 100 */
	CHECK(load->d[CAT_CPU].have_avg);
	CHECK_NEAR(load->d[CAT_CPU].avg_ms, 1200.0 / 17, 1e-9);
	CHECK(load->d[CAT_CPU].have_max);
	CHECK_NEAR(load->d[CAT_CPU].max_ms, 90, 1e-9);
	CHECK_NEAR(load->d[CAT_IO].pct, 7, 1e-9);
	CHECK_EQ_U(load->d[CAT_IO].count, 6);
	/* io: (20 + 40 + 80) ms / 6 events */
	CHECK_NEAR(load->d[CAT_IO].avg_ms, 140.0 / 6, 1e-9);
	CHECK_NEAR(load->total_pct, 67, 1e-9);
	CHECK(!load->d[CAT_SWAP].avail);

	/* the child: c alone */
	CHECK_EQ_U(x->nr_tasks, 1);
	CHECK_NEAR(x->d[CAT_CPU].pct, 20, 1e-9);
	CHECK_EQ_U(x->d[CAT_CPU].count, 4);
	CHECK_NEAR(x->d[CAT_CPU].avg_ms, 100, 1e-9);

	/* d's count is unknown: so are its cgroup's count and average */
	CHECK_EQ_U(slicex->nr_tasks, 1);
	CHECK_NEAR(slicex->d[CAT_CPU].pct, 5, 1e-9);
	CHECK(!slicex->d[CAT_CPU].have_count);
	CHECK(!slicex->d[CAT_CPU].have_avg);

	/* the root: every task with a cgroup, and an unknown count in it */
	CHECK_EQ_U(root->nr_tasks, 4);
	CHECK_NEAR(root->d[CAT_CPU].pct, 65, 1e-9);
	CHECK(!root->d[CAT_CPU].have_count);
	CHECK(!root->d[CAT_CPU].have_avg);
	CHECK_NEAR(root->d[CAT_CPU].max_ms, 90, 1e-9);
	CHECK_NEAR(root->d[CAT_IO].pct, 15, 1e-9);
	CHECK_EQ_U(root->d[CAT_IO].count, 8);
	CHECK_NEAR(root->d[CAT_IO].avg_ms, 300.0 / 8, 1e-9);
	CHECK_NEAR(root->total_pct, 80, 1e-9);

	/* their own pressure: from the files, a share only from a 2nd build */
	CHECK(root->have_psi && load->have_psi);
	CHECK(!x->have_psi && !slicex->have_psi);
	CHECK(load->psi.s[PSI_CPU][PSI_SOME].present);
	CHECK_NEAR(load->psi.s[PSI_CPU][PSI_SOME].avg10, 92.5, 1e-9);
	CHECK_NEAR(root->psi.s[PSI_CPU][PSI_SOME].avg10, 13.77, 1e-9);
	CHECK(!load->psi.s[PSI_CPU][PSI_SOME].have_pct);

	/* again, with b gone to /load.slicex and c ended: x is forgotten */
	rows[1].cgroup = "/load.slicex";
	CHECK(cgtable_build(t, rows, 2, NULL, 0, DT, NULL, &out, &n) == 0);
	CHECK_EQ_U(n, 3);
	CHECK(find(out, n, "/load.slice/x") == NULL);
	load = find(out, n, "/load.slice");
	slicex = find(out, n, "/load.slicex");
	CHECK(load && slicex);
	if (load) {
		CHECK_EQ_U(load->nr_tasks, 1);
		CHECK_NEAR(load->d[CAT_CPU].pct, 30, 1e-9);
		CHECK_NEAR(load->d[CAT_CPU].avg_ms, 200, 1e-9);
		/* the files did not change: no pressure in the interval */
		CHECK(load->psi.s[PSI_CPU][PSI_SOME].have_pct);
		CHECK_NEAR(load->psi.s[PSI_CPU][PSI_SOME].pct, 0, 1e-12);
	}
	if (slicex) {
		CHECK_EQ_U(slicex->nr_tasks, 1);
		CHECK_NEAR(slicex->d[CAT_CPU].pct, 10, 1e-9);
		CHECK_NEAR(slicex->d[CAT_CPU].avg_ms, 20, 1e-9);
	}
	cgtable_free(t);
}

/* --cgroup /load.slice: that subtree only, no ancestor, no look-alike. */
static void test_within(void)
{
	struct cgtable *t = table_at(TREE);
	struct cgroup_row *out;
	size_t n;
	CHECK(t != NULL);
	if (!t)
		return;
	make_rows();
	CHECK(cgtable_build(t, rows, 5, NULL, 0, DT, "/load.slice", &out, &n) == 0);
	CHECK_EQ_U(n, 2);
	if (n == 2) {
		CHECK_STR(out[0].path, "/load.slice");
		CHECK_STR(out[1].path, "/load.slice/x");
		CHECK_EQ_U(out[0].nr_tasks, 3);
		CHECK_NEAR(out[0].d[CAT_CPU].pct, 60, 1e-9);
		CHECK_NEAR(out[0].total_pct, 67, 1e-9);
		CHECK_EQ_U(out[1].nr_tasks, 1);
	}
	/* no task in it: no rows */
	CHECK(cgtable_build(t, rows, 5, NULL, 0, DT, "/nothing", &out, &n) == 0);
	CHECK_EQ_U(n, 0);
	cgtable_free(t);
}

static struct row ended_task(pid_t pid, const char *cgroup, double io_pct,
		       uint64_t io_count, bool have_max, double io_max)
{
	struct row r = { .pid = pid, .tgid = pid, .cgroup = cgroup };
	for (int c = 0; c < NCAT; c++) {
		r.d[c].avail = true;
		r.d[c].have_count = true;
	}
	r.d[CAT_IO].pct = io_pct;
	r.d[CAT_IO].count = io_count;
	r.d[CAT_IO].have_avg = io_count > 0;
	r.d[CAT_IO].avg_ms = io_count ? io_pct * 10.0 / (double)io_count : 0;
	r.d[CAT_IO].have_max = have_max;
	r.d[CAT_IO].max_ms = io_max;
	r.total_pct = io_pct;
	return r;
}

static void test_exited(void)
{
	/* no such root: no pressure files, the sums are what is tested */
	struct cgtable *t = table_at("/nonexistent-cgroup-root");
	CHECK(t != NULL);
	/* 1 s interval: 10 % = 100 ms */
	struct row live[] = {
		ended_task(10, "/a/b", 10, 4, true, 40),  /* 100 ms in 4 waits */
		ended_task(11, "/a", 5, 1, true, 50),     /* 50 ms in 1 wait */
		ended_task(12, "/c", 1, 1, true, 10),
	};
	struct row ended[] = {
		/* a short-lived task of /a/b: 200 ms in 1 wait */
		ended_task(20, "/a/b", 20, 1, true, 200),
	};
	struct cgroup_row *g;
	size_t n;
	CHECK(cgtable_build(t, live, 3, ended, 1, 1.0, NULL, &g, &n) == 0);
	CHECK_EQ_U(n, 4); /* / /a /a/b /c */
	const struct cgroup_row *ab = find(g, n, "/a/b");
	const struct cgroup_row *a = find(g, n, "/a");
	const struct cgroup_row *root = find(g, n, "/");
	CHECK(ab && a && root);
	if (!ab || !a || !root)
		return;
	/* the task that ended counts in its cgroup and every ancestor */
	CHECK_EQ_U(ab->nr_tasks, 2);
	CHECK_NEAR(ab->d[CAT_IO].pct, 30.0, 1e-9);
	CHECK_EQ_U(ab->d[CAT_IO].count, 5);
	/* 300 ms over 5 waits */
	CHECK(ab->d[CAT_IO].have_avg);
	CHECK_NEAR(ab->d[CAT_IO].avg_ms, 60.0, 1e-9);
	CHECK(ab->d[CAT_IO].have_max);
	CHECK_NEAR(ab->d[CAT_IO].max_ms, 200.0, 1e-9);
	CHECK_NEAR(ab->total_pct, 30.0, 1e-9);
	CHECK_EQ_U(a->nr_tasks, 3);
	CHECK_NEAR(a->d[CAT_IO].pct, 35.0, 1e-9);
	CHECK_NEAR(a->d[CAT_IO].avg_ms, 350.0 / 6, 1e-9);
	CHECK_EQ_U(root->nr_tasks, 4);
	CHECK_NEAR(root->d[CAT_IO].pct, 36.0, 1e-9);
	CHECK_EQ_U(root->depth, 0);
	CHECK_EQ_U(ab->depth, 2);

	/* a task whose longest wait is unknown: the cgroup's is unknown */
	live[0].d[CAT_IO].have_max = false;
	CHECK(cgtable_build(t, live, 3, ended, 1, 1.0, NULL, &g, &n) == 0);
	ab = find(g, n, "/a/b");
	CHECK(ab && !ab->d[CAT_IO].have_max);
	const struct cgroup_row *c = find(g, n, "/c");
	CHECK(c && c->d[CAT_IO].have_max);

	/* a dropped figure is not summed */
	ended[0].d[CAT_IO] = (struct cat_figure){ .dropped = true };
	ended[0].total_pct = 0;
	CHECK(cgtable_build(t, live, 3, ended, 1, 1.0, NULL, &g, &n) == 0);
	ab = find(g, n, "/a/b");
	CHECK(ab && ab->d[CAT_IO].count == 4);
	CHECK(ab && ab->d[CAT_IO].pct < 10.0 + 1e-9);

	/* within /a: its subtree only, no ancestor, no /c */
	CHECK(cgtable_build(t, live, 3, ended, 1, 1.0, "/a", &g, &n) == 0);
	CHECK_EQ_U(n, 2);
	CHECK(find(g, n, "/") == NULL && find(g, n, "/c") == NULL);
	cgtable_free(t);
}

int main(void)
{
	test_sums();
	test_within();
	test_exited();
	return unit_done();
}
