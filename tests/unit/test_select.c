/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Sorting and filtering of rows; parsing of numbers from the user. */
#include <config.h>

#include <stdio.h>
#include <string.h>

#include "lib/numparse.h"
#include "model/layouts.h"
#include "model/select.h"
#include "unit.h"

static struct row mk(pid_t pid, const char *comm, double cpu, double io,
		     bool io_avail, uid_t uid)
{
	struct row r = { 0 };
	r.pid = r.tgid = pid;
	r.comm = comm;
	r.cmdline = comm;
	r.uid = uid;
	r.d[CAT_CPU].avail = true;
	r.d[CAT_CPU].pct = cpu;
	r.d[CAT_IO].avail = io_avail;
	r.d[CAT_IO].pct = io;
	r.total_pct = cpu + (io_avail ? io : 0);
	r.have_cpu_pct = true;
	r.cpu_pct = cpu;
	return r;
}

static void test_sort(void)
{
	struct row rows[4] = {
		mk(10, "a", 1, 50, true, 0),
		mk(20, "b", 30, 0, true, 0),
		mk(30, "c", 5, 0, false, 1000),
		mk(40, "d", 0, 10, true, 1000),
	};
	struct select_opts o = { .sort = CAT_IO };
	size_t n = select_rows(rows, 4, &o, 1.0);
	CHECK_EQ_U(n, 4);
	CHECK_EQ_U(rows[0].pid, 10);
	CHECK_EQ_U(rows[1].pid, 40);
	CHECK_EQ_U(rows[2].pid, 20);
	CHECK_EQ_U(rows[3].pid, 30); /* absent sorts last */
	o.reverse = true;
	select_rows(rows, 4, &o, 1.0);
	CHECK_EQ_U(rows[0].pid, 20);
	CHECK_EQ_U(rows[2].pid, 10);
	CHECK_EQ_U(rows[3].pid, 30); /* absent still last */

	o = (struct select_opts){ .sort = FIELD_TOTAL };
	select_rows(rows, 4, &o, 1.0);
	CHECK_EQ_U(rows[0].pid, 10);
	CHECK_EQ_U(rows[1].pid, 20);
	o = (struct select_opts){ .sort = FIELD_PID };
	select_rows(rows, 4, &o, 1.0);
	CHECK_EQ_U(rows[0].pid, 10);
	CHECK_EQ_U(rows[3].pid, 40);
	o.reverse = true;
	select_rows(rows, 4, &o, 1.0);
	CHECK_EQ_U(rows[0].pid, 40);
	o = (struct select_opts){ .sort = FIELD_COMM, .limit = 2 };
	n = select_rows(rows, 4, &o, 1.0);
	CHECK_EQ_U(n, 2);
	CHECK_STR(rows[0].comm, "a");
	CHECK_STR(rows[1].comm, "b");

	/* a field's absent value sorts after every number */
	rows[0] = mk(10, "a", 1, 50, true, 0);
	rows[1] = mk(20, "b", 30, 0, true, 0);
	rows[2] = mk(30, "c", 5, 0, false, 1000);
	rows[3] = mk(40, "d", 0, 10, true, 1000);
	rows[1].have_cpu_pct = false;
	o = (struct select_opts){ .sort = FIELD_CPU_PCT };
	select_rows(rows, 4, &o, 1.0);
	CHECK_EQ_U(rows[0].pid, 30);
	CHECK_EQ_U(rows[2].pid, 40);
	CHECK_EQ_U(rows[3].pid, 20);
	/* reversed, the smallest first, and the absent value still last */
	o.reverse = true;
	select_rows(rows, 4, &o, 1.0);
	CHECK_EQ_U(rows[0].pid, 40);
	CHECK_EQ_U(rows[1].pid, 10);
	CHECK_EQ_U(rows[2].pid, 30);
	CHECK_EQ_U(rows[3].pid, 20);
	/* nice ascending, unknown last */
	for (int i = 0; i < 4; i++) {
		rows[i].ctx.have = i == 2 ? 0 : CTX_NICE;
		rows[i].ctx.nice = 10 - 5 * i;
	}
	o = (struct select_opts){ .sort = FIELD_NICE };
	select_rows(rows, 4, &o, 1.0);
	CHECK(!(rows[3].ctx.have & CTX_NICE));
	CHECK_EQ_U(rows[0].ctx.nice + 5, 0);
	CHECK_EQ_U(rows[2].ctx.nice, 10);
	/* reversed: descending, unknown still last */
	o.reverse = true;
	select_rows(rows, 4, &o, 1.0);
	CHECK_EQ_U(rows[0].ctx.nice, 10);
	CHECK_EQ_U(rows[2].ctx.nice + 5, 0);
	CHECK(!(rows[3].ctx.have & CTX_NICE));
}

/* Sort the three cgroups of g as o says: their paths then, one space apart. */
static void cg_order(struct cgroup_row g[3], const struct select_opts *o,
		     const char *want)
{
	char got[16];

	select_cgroups(g, 3, o);
	snprintf(got, sizeof(got), "%s %s %s", g[0].path, g[1].path, g[2].path);
	CHECK_STR(got, want);
}

/* Cgroups by a category or a field; an absent figure last either way. */
static void test_cgroups(void)
{
	struct cgroup_row g[3] = {
		{ .path = "/a", .have_psi = true },
		{ .path = "/b" },
		{ .path = "/c", .have_psi = true },
	};
	g[0].d[CAT_IO].avail = g[2].d[CAT_IO].avail = true;
	g[0].d[CAT_IO].pct = 5;
	g[2].d[CAT_IO].pct = 40;
	for (int i = 0; i < 3; i += 2) {
		struct psi_stat *st = &g[i].psi.s[PSI_CPU][PSI_SOME];
		st->present = st->have_pct = true;
		st->pct = i ? 1 : 3;
	}
	struct select_opts o = { .sort = CAT_IO };
	cg_order(g, &o, "/c /a /b");
	o.reverse = true;
	cg_order(g, &o, "/a /c /b");
	o = (struct select_opts){ .sort = FIELD_CG_CPU_P };
	cg_order(g, &o, "/a /c /b");
	o.reverse = true;
	cg_order(g, &o, "/c /a /b");
}

static void test_filter(void)
{
	struct row rows[4] = {
		mk(10, "alpha", 1, 50, true, 0),
		mk(20, "beta", 0, 0, true, 0),
		mk(30, "gamma", 5, 0, false, 1000),
		mk(40, "alphabet", 0, 10, true, 1000),
	};
	struct select_opts o = { .sort = FIELD_PID, .only_stalled = true };
	CHECK_EQ_U(select_rows(rows, 4, &o, 1.0), 3);
	o = (struct select_opts){ .sort = FIELD_PID, .have_uid = true, .uid = 1000 };
	CHECK_EQ_U(select_rows(rows, 4, &o, 1.0), 2);
	CHECK_EQ_U(rows[0].pid, 30);
	pid_t pids[] = { 20, 40 };
	o = (struct select_opts){ .sort = FIELD_PID, .pids = pids, .npids = 2 };
	CHECK_EQ_U(select_rows(rows, 4, &o, 1.0), 2);
	CHECK_EQ_U(rows[0].pid, 20);
	CHECK_EQ_U(rows[1].pid, 40);
	o = (struct select_opts){ .sort = FIELD_PID, .name = "alpha" };
	CHECK_EQ_U(select_rows(rows, 4, &o, 1.0), 2);
	/* the name filter matches in any case */
	o = (struct select_opts){ .sort = FIELD_PID, .name = "ALPHABET" };
	CHECK_EQ_U(select_rows(rows, 4, &o, 1.0), 1);
	CHECK_EQ_U(rows[0].pid, 40);
	o = (struct select_opts){ .sort = FIELD_PID, .name = "GaMmA" };
	CHECK_EQ_U(select_rows(rows, 4, &o, 1.0), 1);
	CHECK_EQ_U(rows[0].pid, 30);
}

static void test_keys(void)
{
	for (int c = 0; c < NCAT; c++)
		CHECK(fields_sort_by_name(categories[c].key) == FIELD_CAT + c);
	CHECK(fields_sort_by_name("total") == FIELD_TOTAL);
	CHECK(fields_sort_by_name("cpu_pct") == FIELD_CPU_PCT);
	CHECK(fields_sort_by_name("pid") == FIELD_PID);
	CHECK(fields_sort_by_name("comm") == FIELD_COMM);
	CHECK(fields_sort_by_name("state") == FIELD_STATE);
	CHECK(fields_sort_by_name("bogus") == -1);
	for (int k = 0; k < NFIELD; k++)
		if (fields_get(k)->flags & FIELD_SORT)
			CHECK(fields_sort_by_name(fields_sort_name(k)) == k);
}

/* Do two values of a field say the same (strings by their text)? */
static bool same_value(const struct field_value *a, const struct field_value *b)
{
	if (a->have != b->have)
		return false;
	if (!a->have)
		return true;
	if ((a->str == NULL) != (b->str == NULL) ||
	    (a->str && strcmp(a->str, b->str) != 0))
		return false;
	return a->i == b->i && (a->num == b->num || (a->num != a->num &&
						     b->num != b->num));
}

/*
 * FIELD_DETAIL marks exactly the fields whose value is the row's
 * task_info, which is read only for the rows a view shows: a view that
 * sorts by such a field reads it for every row first. Every task field
 * is read from one row twice, with nothing known of its task and with
 * everything known; a field whose value changed must carry the flag, and
 * every field carrying it must change. A field of task_info added
 * without the flag fails here.
 */
static void test_detail_flag(void)
{
	struct row r = mk(42, "worker", 10, 5, true, 0);
	struct field_ctx c = { .fmt = FIELD_FMT_JSON, .interval = 1 };
	struct field_value before, after;

	r.info = TASK_INFO_UNKNOWN;
	struct row known = r;
	known.info.ppid = 7;
	known.info.state = 'D';
	known.info.threads = 3;
	known.info.start = 1763740000.5;
	known.ctx.have = CTX_RSS | CTX_SWAP | CTX_NICE | CTX_READ |
			      CTX_WRITE | CTX_MAJFLT | CTX_WCHAN;
	known.ctx.rss_kib = 1024;
	known.ctx.swap_kib = 64;
	known.ctx.nice = 5;
	known.ctx.read_bps = 4096;
	known.ctx.write_bps = 8192;
	known.ctx.majflt_ps = 2;
	known.ctx.wchan = "io_schedule";
	int ndetail = 0;
	for (int id = 0; id < NFIELD; id++) {
		const struct field *f = fields_get(id);
		if (!f->get)
			continue;
		fields_row_value(id, &r, &c, &before);
		fields_row_value(id, &known, &c, &after);
		bool detail = (f->flags & FIELD_DETAIL) != 0;
		bool changed = !same_value(&before, &after);
		ndetail += detail;
		unit_checks++;
		if (detail != changed) {
			unit_failures++;
			fprintf(stderr, "field %d (%s): its value %s with the "
				"task's details but it is %s FIELD_DETAIL\n",
				id, f->key ? f->key : "?",
				changed ? "changes" : "does not change",
				detail ? "marked" : "not marked");
		}
	}
	/* the test itself: some field did change */
	CHECK(ndetail > 0);
}

/* A field a layout shows lacks something it needs: say which. */
static void layout_check(const char *layout, int id, const char *what,
			 bool ok)
{
	unit_checks++;
	if (ok)
		return;
	unit_failures++;
	fprintf(stderr, "field %d (%s) in the %s layout has no %s\n", id,
		fields_get(id)->key ? fields_get(id)->key : "?", layout, what);
}

/*
 * A field added by half fails here: every layout's fields carry what
 * that view or format needs, and every field of the table is in one.
 */
static void test_layouts(void)
{
	bool shown[NFIELD] = { false };
	const int *ids;
	int n;

	ids = layouts_fields(FIELD_LAYOUT_TASKS, &n);
	for (int i = 0; i < n; i++) {
		const struct field *f = fields_get(ids[i]);

		layout_check("tasks", ids[i], "header", f->header != NULL);
		layout_check("tasks", ids[i], "help", f->help != NULL);
		layout_check("tasks", ids[i], "getter", f->get != NULL);
		shown[ids[i]] = true;
	}
	ids = layouts_fields(FIELD_LAYOUT_CGROUPS, &n);
	for (int i = 0; i < n; i++) {
		const struct field *f = fields_get(ids[i]);

		layout_check("cgroups", ids[i], "header", f->header != NULL);
		layout_check("cgroups", ids[i], "help",
			     f->help || f->cg_help);
		layout_check("cgroups", ids[i], "getter", f->cg_get != NULL);
		shown[ids[i]] = true;
	}
	ids = layouts_fields(FIELD_LAYOUT_CSV, &n);
	for (int i = 0; i < n; i++) {
		const struct field *f = fields_get(ids[i]);

		layout_check("csv", ids[i], "key", f->key != NULL);
		layout_check("csv", ids[i], "getter", f->get != NULL);
		shown[ids[i]] = true;
	}
	ids = layouts_fields(FIELD_LAYOUT_JSON, &n);
	for (int i = 0; i < n; i++) {
		const struct field *f = fields_get(ids[i]);

		layout_check("json", ids[i], "key", f->key != NULL);
		layout_check("json", ids[i], "getter", f->get != NULL);
		layout_check("json", ids[i], "setter", f->set != NULL);
		shown[ids[i]] = true;
	}
	for (int id = 0; id < NFIELD; id++) {
		const struct field *f = fields_get(id);

		/* an id with no row in the table has no flags */
		layout_check("table", id, "row",
			     f->flags & (FIELD_TASK | FIELD_CGROUP_ROW));
		layout_check("every", id, "place", shown[id]);
		if (f->flags & FIELD_SORT)
			layout_check("sort", id, "compare or key",
				     f->cmp && (f->key || f->sort_name));
	}
}

static void test_numbers(void)
{
	double d;
	unsigned long u;
	pid_t p;
	CHECK(numparse_positive_double("0.5", 10, &d) == 0 && d == 0.5);
	CHECK(numparse_positive_double("2", 10, &d) == 0 && d == 2);
	CHECK(numparse_positive_double(".25", 10, &d) == 0 && d == 0.25);
	const char *bad_d[] = { "", "0", "0.0", "-1", "0.5x", " 1", "1e3", "inf",
				"nan", "0x10", "1..2", ".", "11" };
	for (size_t i = 0; i < sizeof(bad_d) / sizeof(bad_d[0]); i++)
		CHECK(numparse_positive_double(bad_d[i], 10, &d) < 0);
	CHECK(numparse_ulong("42", 1, 100, &u) == 0 && u == 42);
	const char *bad_u[] = { "", "0", "-1", "+1", "101", "4x", " 4",
				"99999999999999999999999" };
	for (size_t i = 0; i < sizeof(bad_u) / sizeof(bad_u[0]); i++)
		CHECK(numparse_ulong(bad_u[i], 1, 100, &u) < 0);
	CHECK(numparse_pid("1", &p) == 0 && p == 1);
	CHECK(numparse_pid("0", &p) < 0);
	CHECK(numparse_pid("4194305", &p) < 0);
}

/* --limit N: N rows per sample, live and exited together, best first. */
static void test_sample_limit(void)
{
	struct row live[] = { mk(1, "a", 10, 0, true, 0), mk(2, "b", 50, 0, true, 0),
			      mk(3, "c", 1, 0, true, 0) };
	struct row ended[] = { mk(4, "d", 5, 0, true, 0), mk(5, "e", 30, 0, true, 0) };
	struct select_opts o = { .sort = FIELD_TOTAL, .limit = 3 };
	size_t n = 3, ne = 2;
	select_sample_rows(live, &n, ended, &ne, &o, 1.0);
	CHECK_EQ_U(n, 2);
	CHECK_EQ_U(ne, 1);
	CHECK_EQ_U(live[0].pid, 2);
	CHECK_EQ_U(live[1].pid, 1);
	CHECK_EQ_U(ended[0].pid, 5);
	/* reversed: the smallest first */
	o.reverse = true;
	n = 3, ne = 2;
	select_sample_rows(live, &n, ended, &ne, &o, 1.0);
	CHECK_EQ_U(n, 2);
	CHECK_EQ_U(ne, 1);
	CHECK_EQ_U(live[0].pid, 3);
	CHECK_EQ_U(ended[0].pid, 4);
	/* no limit: everything */
	o.limit = 0;
	n = 3, ne = 2;
	select_sample_rows(live, &n, ended, &ne, &o, 1.0);
	CHECK_EQ_U(n + ne, 5);
}

int main(void)
{
	test_sort();
	test_sample_limit();
	test_cgroups();
	test_filter();
	test_keys();
	test_detail_flag();
	test_layouts();
	test_numbers();
	return unit_done();
}
