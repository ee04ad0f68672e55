/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a replay makes of the values and shapes of a recording's lines:
 * json_scan's verdict on a line (nesting, cut short, control bytes) and
 * its bound of json-c's memory, measured against json-c itself; the rows
 * json_read leaves out; every bound of rec_check, each side of it (a true
 * value passes, an impossible one is dropped, counted and marked).
 */
#include <config.h>

#include <malloc.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json.h>

#include "model/categories.h"
#include "model/rowwhy.h"
#include "record/json_read.h"
#include "record/json_scan.h"
#include "record/rec_check.h"
#include "unit.h"

/* --- json_scan --- */

static struct json_scan scan(const char *s)
{
	struct json_scan m;

	json_scan_line(s, strlen(s), &m);
	return m;
}

static void test_scan_shape(void)
{
	struct json_scan m;

	m = scan("{\"a\":[1,{\"b\":\"x}\"}],\"c\":\"\\\"\"}");
	CHECK(m.end == JSON_SCAN_WHOLE && m.depth == 3 && !m.control);
	CHECK_EQ_U(m.objects, 2);
	CHECK_EQ_U(m.arrays, 1);
	/* strings hide brackets; escapes are part of them */
	m = scan("{\"a\":\"]]]}}}\\\\\"}");
	CHECK(m.end == JSON_SCAN_WHOLE && m.depth == 1);
	/* cut short: in a string, in a container */
	CHECK(scan("{\"a\":\"xy").end == JSON_SCAN_OPEN);
	CHECK(scan("{\"a\":[1,2").end == JSON_SCAN_OPEN);
	CHECK(scan("{\"a\":\"x\\").end == JSON_SCAN_OPEN);
	/* not one object */
	CHECK(scan("[1,2]").end == JSON_SCAN_BAD);
	CHECK(scan("").end == JSON_SCAN_BAD);
	CHECK(scan("   ").end == JSON_SCAN_BAD);
	CHECK(scan("{} x").end == JSON_SCAN_BAD);
	CHECK(scan("{}{}").end == JSON_SCAN_BAD);
	CHECK(scan("{\"a\":[1}").end == JSON_SCAN_BAD);
	CHECK(scan("{\"a\":1]}").end == JSON_SCAN_BAD);
	CHECK(scan("}").end == JSON_SCAN_BAD);
	CHECK(scan(" {} \t\r").end == JSON_SCAN_WHOLE);
	/* a raw control byte anywhere; tab and CR only between tokens */
	CHECK(scan("{\"a\":\"\x01\"}").control);
	CHECK(scan("{\"a\":\"\t\"}").control);
	CHECK(scan("{\"a\":1,\x1b\"b\":2}").control);
	CHECK(!scan("{\t\"a\":1\r}").control);
	/* nesting: 16 is allowed, 17 is not (a sample nests 6) */
	char deep[64] = "";
	for (int i = 0; i < 17; i++)
		strcat(deep, i ? "[" : "{\"a\":");
	strcat(deep, "1");
	for (int i = 0; i < 16; i++)
		strcat(deep, "]");
	strcat(deep, "}");
	m = scan(deep);
	CHECK(m.end == JSON_SCAN_WHOLE);
	CHECK_EQ_U(m.depth, 17);
	/* deeper than the brackets it matches: counted, still judged */
	char *very = malloc(2 * 100 + 8);
	strcpy(very, "{\"a\":");
	for (int i = 0; i < 100; i++)
		strcat(very, "[");
	for (int i = 0; i < 100; i++)
		strcat(very, "]");
	strcat(very, "}");
	m = scan(very);
	CHECK(m.end == JSON_SCAN_WHOLE && m.depth == 101);
	free(very);
}

/* Bytes json-c takes to parse s, measured. */
static size_t measured(const char *s, size_t len)
{
	json_tokener *tok = json_tokener_new_ex(JSON_SCAN_DEPTH);
	struct mallinfo2 a = mallinfo2(), b;
	json_object *o = json_tokener_parse_ex(tok, s, (int)len);

	b = mallinfo2();
	CHECK(o != NULL);
	json_object_put(o);
	json_tokener_free(tok);
	return (b.uordblks + b.hblkhd) - (a.uordblks + a.hblkhd);
}

/* n copies of item, comma separated, in an array of an object. */
static char *repeated(const char *item, size_t n, size_t *len)
{
	size_t il = strlen(item);
	char *s = malloc(n * (il + 1) + 16);
	size_t k = 0;

	k += (size_t)sprintf(s, "{\"a\":[");
	for (size_t i = 0; i < n; i++) {
		if (i)
			s[k++] = ',';
		memcpy(s + k, item, il);
		k += il;
	}
	k += (size_t)sprintf(s + k, "]}");
	*len = k;
	return s;
}

/* Does mallinfo2() see malloc's blocks (glibc's allocator, not ASan's)? */
static bool can_measure(void)
{
	struct mallinfo2 a = mallinfo2(), b;
	char *p = malloc(1 << 20);

	b = mallinfo2();
	free(p);
	return (b.uordblks + b.hblkhd) - (a.uordblks + a.hblkhd) >= 1 << 20;
}

/*
 * The cost is an upper bound of what json-c takes, for the shapes that
 * cost it most per byte (empty objects: some 265 bytes a byte of text)
 * and for a sample's (some 15).
 */
static void test_scan_cost(void)
{
	if (!can_measure()) {
		/* a sanitizer's or valgrind's malloc: nothing to compare with */
		printf("json-c's memory cannot be measured with this malloc: "
		       "its bound is not checked\n");
		return;
	}
	static const char *items[] = {
		"{}", "[]", "1", "1.5", "null", "\"\"", "{\"a\":{}}",
		"{\"k\":1.25,\"s\":\"some text of a name\",\"n\":null}",
		"\"a string of forty characters, or so ...\"",
	};
	size_t len;

	for (size_t i = 0; i < sizeof(items) / sizeof(items[0]); i++) {
		char *s = repeated(items[i], 20000, &len);
		struct json_scan m;
		size_t got;
		uint64_t bound;

		json_scan_line(s, len, &m);
		got = measured(s, len) + len;
		bound = json_scan_cost(&m, len);
		CHECK(bound >= got);
		if (bound < got)
			fprintf(stderr, "%s: cost %llu, json-c took %zu\n",
				items[i], (unsigned long long)bound, got);
		free(s);
	}
	/*
	 * A recorded sample (its rows repeated): the bound, and not so
	 * loose that a sample near the line limit would be refused (it is
	 * 1.6 to 1.8 times what json-c takes, measured with samples of the
	 * demo recording and of 250,000 rows).
	 */
	size_t slen;
	char *text = unit_fixture("recordings/demo.ndjson", &slen);
	char *l2 = strchr(text, '\n') + 1;
	*strchr(l2, '\n') = '\0';
	struct json_scan m;
	json_scan_line(l2, strlen(l2), &m);
	size_t got = measured(l2, strlen(l2)) + strlen(l2);
	uint64_t bound = json_scan_cost(&m, strlen(l2));
	CHECK(bound >= got && bound <= 2 * got);
	if (bound < got || bound > 2 * got)
		fprintf(stderr, "a sample: cost %llu, json-c took %zu\n",
			(unsigned long long)bound, got);
	free(text);
}

/* --- rows json_read leaves out --- */

static int read_sample(const char *line, struct json_read *rp,
		       struct sample *s, json_object **o)
{
	json_tokener *tok = json_read_tokener();

	*o = json_read_line(tok, line, strlen(line));
	json_tokener_free(tok);
	CHECK(*o != NULL);
	if (!*o)
		return -1;
	return json_read_sample(rp, *o, s);
}

static void test_rows(void)
{
	struct json_read rp = { 0 };
	struct sample s;
	json_object *o;

	/* a number, a string, null, no pid, pid 0, a pid above the limit */
	CHECK(read_sample("{\"time\":1,\"interval\":1,\"tasks\":[1,\"x\",null,"
			  "{\"tgid\":5},{\"pid\":0,\"tgid\":0},"
			  "{\"pid\":4194305,\"tgid\":4194305},"
			  "{\"pid\":7,\"tgid\":7,\"comm\":\"ok\"},[]],"
			  "\"exited\":[{\"pid\":-3,\"tgid\":1},"
			  "{\"pid\":4194304,\"tgid\":1}]}",
			  &rp, &s, &o) == 0);
	CHECK_EQ_U(s.nrows, 1);
	CHECK(s.nrows == 1 && s.rows[0].pid == 7);
	CHECK_EQ_U(s.nexited, 1);
	CHECK(s.nexited == 1 && s.exited[0].pid == 4194304);
	CHECK_EQ_U(rp.rows_skipped, 8);
	CHECK_EQ_U(s.nprocs, 1);
	json_object_put(o);

	/* cgroups: an object with a path, else skipped */
	CHECK(read_sample("{\"time\":1,\"tasks\":[],\"cgroups\":[7,{},"
			  "{\"path\":\"/a\"},{\"path\":3}]}",
			  &rp, &s, &o) == 0);
	CHECK_EQ_U(s.ncgroups, 1);
	CHECK_EQ_U(rp.rows_skipped, 3);
	json_object_put(o);

	/* evidence: a negative rate or interval is dropped and counted */
	CHECK(read_sample("{\"time\":1,\"tasks\":[{\"pid\":1,\"tgid\":1,"
			  "\"why\":{\"interval_s\":-2,\"disks\":["
			  "{\"device\":\"8:0\",\"name\":\"sda\",\"util_pct\":-1,"
			  "\"queue\":0.5},{\"device\":\"8:16\",\"name\":\"sdb\","
			  "\"util_pct\":50,\"queue\":0.25}]}}]}",
			  &rp, &s, &o) == 0);
	CHECK(s.nrows == 1 && s.rows[0].why);
	if (s.nrows == 1 && s.rows[0].why) {
		CHECK_EQ_U(s.rows[0].why->ev.n_disks, 1);
		CHECK_STR(s.rows[0].why->ev.disks[0].name, "sdb");
		CHECK(s.rows[0].why->ev.interval_s == 0);
	}
	CHECK_EQ_U(rp.values_dropped, 2);
	CHECK_EQ_U(s.dropped, 2);
	json_object_put(o);
	json_read_free(&rp);
}

/* --- rec_check --- */

/* A sample at a plausible time, one interval of 1 s, no rows. */
static struct sample base(void)
{
	return (struct sample){ .time = 1763740000.0, .interval = 1.0 };
}

/* A process row with one category's figure. */
static struct row task(pid_t pid, double start, double pct)
{
	struct row r = { .pid = pid, .tgid = pid, .info = { .threads = 2,
		.start = start }, .total_pct = pct };

	r.d[CAT_IO] = (struct cat_figure){ .pct = pct, .count = 1, .avail = true,
					   .have_count = true };
	return r;
}

static void test_interval(void)
{
	struct sample s = base();

	CHECK_EQ_U(rec_check_sample(&s), 0);
	CHECK(s.interval == 1.0);
	s.interval = -5;
	CHECK_EQ_U(rec_check_sample(&s), 1);
	CHECK(isnan(s.interval) && s.dropped == 1);
	s = base();
	s.interval = 1e308;
	CHECK_EQ_U(rec_check_sample(&s), 1);
	CHECK(isnan(s.interval));
	s = base();
	s.interval = 0;
	CHECK_EQ_U(rec_check_sample(&s), 1);
	/* as long as the time since 1970: possible (-a of a long life) */
	s = base();
	s.interval = s.time;
	CHECK_EQ_U(rec_check_sample(&s), 0);
	s.interval = s.time + 1;
	CHECK_EQ_U(rec_check_sample(&s), 1);
	/* null stays null, and is no drop */
	s = base();
	s.interval = NAN;
	CHECK_EQ_U(rec_check_sample(&s), 0);
	CHECK_EQ_U(s.dropped, 0);
	/* ... and bounds the figures as a microsecond would */
	struct row r[2] = { task(7, 0, 1e6), task(8, 0, 1e308) };
	s.rows = r;
	s.nrows = 2;
	CHECK_EQ_U(rec_check_sample(&s), 2);
	CHECK(r[0].d[CAT_IO].avail && r[1].d[CAT_IO].dropped);
}

static void test_figures(void)
{
	struct sample s = base();
	struct row r[6];

	/* a wait that began a minute ago and ended now: 6000 % of 1 s */
	r[0] = task(10, s.time - 60, 6000);
	/* a process started 2 s before: one thread cannot, many can */
	r[1] = task(11, s.time - 2, 6000);
	/* negative, infinite, not a number (null: unknown, kept) */
	r[2] = task(12, 0, -1);
	r[3] = task(13, 0, INFINITY);
	r[4] = task(14, 0, NAN);
	/* 1e308 % of a second: more than any task since 1970 */
	r[5] = task(15, 0, 1e308);
	s.rows = r;
	s.nrows = 6;
	size_t n = rec_check_sample(&s);
	CHECK(r[0].d[CAT_IO].avail && !r[0].d[CAT_IO].dropped);
	CHECK(r[1].d[CAT_IO].avail);  /* a process: its threads add up */
	CHECK(!r[2].d[CAT_IO].avail && r[2].d[CAT_IO].dropped);
	CHECK(!r[3].d[CAT_IO].avail && r[3].d[CAT_IO].dropped);
	CHECK(r[4].d[CAT_IO].avail && isnan(r[4].d[CAT_IO].pct));
	CHECK(!r[5].d[CAT_IO].avail && r[5].d[CAT_IO].dropped);
	/* the totals likewise (-1, inf, 1e308) */
	CHECK(isnan(r[2].total_pct) && isnan(r[3].total_pct) &&
	      isnan(r[5].total_pct));
	CHECK(r[0].total_pct == 6000);
	CHECK_EQ_U(n, 6);
	CHECK_EQ_U(s.dropped, 6);

	/* a thread row lives one life: 6000 % of 1 s in a life of 2 s is not */
	s = base();
	r[0] = task(20, s.time - 2, 6000);
	r[1] = task(21, s.time - 2, 250);
	s.thread_rows = r;
	s.nthread_rows = 2;
	CHECK_EQ_U(rec_check_sample(&s), 2); /* r[0]'s figure and its total */
	CHECK(!r[0].d[CAT_IO].avail && r[0].d[CAT_IO].dropped);
	CHECK(r[1].d[CAT_IO].avail);
	/* ... and in -H the rows are threads */
	s = base();
	s.threads = true;
	r[0] = task(22, s.time - 2, 6000);
	s.rows = r;
	s.nrows = 1;
	CHECK(rec_check_sample(&s) >= 1 && r[0].d[CAT_IO].dropped);

	/* one wait longer than the task has lived */
	s = base();
	r[0] = task(30, s.time - 10, 5);
	r[0].d[CAT_IO].have_max = true;
	r[0].d[CAT_IO].max_ms = 9000;  /* 9 s: fine */
	r[1] = task(31, s.time - 10, 5);
	r[1].d[CAT_IO].have_avg = true;
	r[1].d[CAT_IO].avg_ms = 12000; /* 12 s of a 10 s life: no */
	s.rows = r;
	s.nrows = 2;
	CHECK_EQ_U(rec_check_sample(&s), 1);
	CHECK(r[0].d[CAT_IO].avail && r[1].d[CAT_IO].dropped);

	/* more waits than nanoseconds of delay (cpu aside) */
	s = base();
	r[0] = task(40, 0, 0.001);     /* 10 us: up to 10,000 waits */
	r[0].d[CAT_IO].count = 10000;
	r[1] = task(41, 0, 0.001);
	r[1].d[CAT_IO].count = 20000;  /* 15 us with the rounding: no */
	r[2] = task(42, 0, 0);
	r[2].d[CAT_CPU] = (struct cat_figure){ .pct = 0, .count = 1000000,
					       .avail = true, .have_count = true };
	r[2].d[CAT_IO].avail = false;
	s.rows = r;
	s.nrows = 3;
	CHECK_EQ_U(rec_check_sample(&s), 1);
	CHECK(r[0].d[CAT_IO].avail && r[1].d[CAT_IO].dropped &&
	      r[2].d[CAT_CPU].avail);

	/* more events than a figure holds (read as CAT_COUNT_MAX), cpu too */
	s = base();
	r[0] = task(43, 0, 50);
	r[0].d[CAT_CPU] = (struct cat_figure){ .pct = 50,
					       .count = CAT_COUNT_MAX - 1,
					       .avail = true, .have_count = true };
	r[1] = task(44, 0, 50);
	r[1].d[CAT_CPU] = (struct cat_figure){ .pct = 50, .count = CAT_COUNT_MAX,
					       .avail = true, .have_count = true };
	s.rows = r;
	s.nrows = 2;
	CHECK_EQ_U(rec_check_sample(&s), 1);
	CHECK(r[0].d[CAT_CPU].avail && r[1].d[CAT_CPU].dropped);

	/* CPU use, as a wait */
	s = base();
	r[0] = task(50, 0, 1);
	r[0].have_cpu_pct = true;
	r[0].cpu_pct = -0.5;
	r[1] = task(51, 0, 1);
	r[1].have_cpu_pct = true;
	r[1].cpu_pct = 1600;  /* 16 CPUs' worth: a process may */
	s.rows = r;
	s.nrows = 2;
	CHECK_EQ_U(rec_check_sample(&s), 1);
	CHECK(!r[0].have_cpu_pct && r[1].have_cpu_pct);
}

static void test_task_info(void)
{
	struct sample s = base();
	struct row r[4];

	r[0] = task(60, s.time + 0.5, 1);   /* start within the second */
	r[1] = task(61, s.time + 5, 1);     /* started after the sample */
	r[2] = task(62, 0, 1);
	r[2].info.ppid = 4194305;
	r[3] = task(63, 0, 1);
	r[3].info.threads = 5000000;
	s.rows = r;
	s.nrows = 4;
	CHECK_EQ_U(rec_check_sample(&s), 3);
	CHECK(r[0].info.start > 0 && r[1].info.start == 0);
	CHECK(r[2].info.ppid == 0 && r[3].info.threads == -1);
}

/* What stands next to a stall: the impossible dropped, the rest kept. */
static void test_task_ctx(void)
{
	struct sample s = base();
	struct row r[2];
	const unsigned all = CTX_RSS | CTX_SWAP | CTX_NICE | CTX_READ |
			     CTX_WRITE | CTX_MAJFLT;

	r[0] = task(70, 0, 1);
	r[0].ctx = (struct task_ctx){
		.have = all, .rss_kib = 1024, .swap_kib = 0, .nice = 19,
		.read_bps = 0, .write_bps = 4194304, .majflt_ps = 0.5,
	};
	r[1] = task(71, 0, 1);
	r[1].ctx = (struct task_ctx){
		.have = all, .rss_kib = -1, .swap_kib = 1LL << 60, .nice = 20,
		.read_bps = -1, .write_bps = NAN, .majflt_ps = INFINITY,
	};
	s.rows = r;
	s.nrows = 2;
	CHECK_EQ_U(rec_check_sample(&s), 6);
	CHECK(r[0].ctx.have == all);
	CHECK(r[1].ctx.have == 0);
}

static void test_psi(void)
{
	struct sample s = base();
	struct psi_stat *st = &s.psi.s[PSI_CPU][PSI_SOME];
	struct cgroup_row g = { .path = "/", .total_pct = -4 };

	*st = (struct psi_stat){ .present = true, .avg10 = 100, .avg60 = 100.5,
				 .avg300 = -1, .have_pct = true, .pct = 100 };
	s.psi.s[PSI_IO][PSI_FULL] = (struct psi_stat){ .present = true,
		.avg10 = NAN, .have_pct = true, .pct = 250 };
	g.have_psi = true;
	g.psi.s[PSI_MEMORY][PSI_SOME] = (struct psi_stat){ .present = true,
		.avg10 = 7, .have_pct = true, .pct = 12 };
	g.d[CAT_CPU] = (struct cat_figure){ .pct = -1, .avail = true };
	s.cgroups = &g;
	s.ncgroups = 1;
	CHECK_EQ_U(rec_check_sample(&s), 5);
	CHECK(st->avg10 == 100 && isnan(st->avg60) && isnan(st->avg300));
	CHECK(st->have_pct && st->pct == 100);
	CHECK(!s.psi.s[PSI_IO][PSI_FULL].have_pct);
	CHECK(g.psi.s[PSI_MEMORY][PSI_SOME].have_pct);
	CHECK(g.d[CAT_CPU].dropped && isnan(g.total_pct));
}

/* Checking twice drops nothing more: what passes, passes. */
static void test_idempotent(void)
{
	struct sample s = base();
	struct row r[2] = { task(70, 0, -3), task(71, s.time - 1, 1e6) };

	s.rows = r;
	s.nrows = 2;
	s.interval = -1;
	CHECK(rec_check_sample(&s) > 0);
	size_t dropped = s.dropped;
	CHECK_EQ_U(rec_check_sample(&s), 0);
	CHECK_EQ_U(s.dropped, dropped);
}

int main(void)
{
	test_scan_shape();
	test_scan_cost();
	test_rows();
	test_interval();
	test_figures();
	test_task_info();
	test_task_ctx();
	test_psi();
	test_idempotent();
	return unit_done();
}
