/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The cgroup table: every row is summed into its cgroup and each
 * ancestor, tasks that ended in the interval included; averages are
 * rebuilt from summed delay over summed events; a longest wait is known
 * only where every task's is; the subtree filter keeps ancestors out.
 */
#include <config.h>

#include <string.h>

#include "cgview.h"
#include "unit.h"

static struct row task(pid_t pid, const char *cgroup, double io_pct,
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

static const struct cgroup_row *find(const struct cgroup_row *g, size_t n,
				     const char *path)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(g[i].path, path) == 0)
			return &g[i];
	return NULL;
}

static void test_sums(void)
{
	/* no such root: no pressure files, the sums are what is tested */
	struct cgtable *t = cgt_new("/nonexistent-cgroup-root");
	CHECK(t != NULL);
	/* 1 s interval: 10 % = 100 ms */
	struct row live[] = {
		task(10, "/a/b", 10, 4, true, 40),  /* 100 ms in 4 waits */
		task(11, "/a", 5, 1, true, 50),     /* 50 ms in 1 wait */
		task(12, "/c", 1, 1, true, 10),
	};
	struct row ended[] = {
		/* a short-lived task of /a/b: 200 ms in 1 wait */
		task(20, "/a/b", 20, 1, true, 200),
	};
	struct cgroup_row *g;
	size_t n;
	CHECK(cgt_build(t, live, 3, ended, 1, 1.0, NULL, &g, &n) == 0);
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
	CHECK(cgt_build(t, live, 3, ended, 1, 1.0, NULL, &g, &n) == 0);
	ab = find(g, n, "/a/b");
	CHECK(ab && !ab->d[CAT_IO].have_max);
	const struct cgroup_row *c = find(g, n, "/c");
	CHECK(c && c->d[CAT_IO].have_max);

	/* a dropped figure is not summed */
	ended[0].d[CAT_IO] = (struct cat_figure){ .dropped = true };
	ended[0].total_pct = 0;
	CHECK(cgt_build(t, live, 3, ended, 1, 1.0, NULL, &g, &n) == 0);
	ab = find(g, n, "/a/b");
	CHECK(ab && ab->d[CAT_IO].count == 4);
	CHECK(ab && ab->d[CAT_IO].pct < 10.0 + 1e-9);

	/* within /a: its subtree only, no ancestor, no /c */
	CHECK(cgt_build(t, live, 3, ended, 1, 1.0, "/a", &g, &n) == 0);
	CHECK_EQ_U(n, 2);
	CHECK(find(g, n, "/") == NULL && find(g, n, "/c") == NULL);
	cgt_free(t);
}

int main(void)
{
	test_sums();
	return unit_done();
}
