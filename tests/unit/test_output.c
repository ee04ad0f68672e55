/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Batch writers: a small sample built by hand (one live row, one exited
 * row, categories partly unavailable, PSI partly absent, a hostile comm)
 * written as JSON, CSV and text and compared with the expected files in
 * tests/fixtures/output.
 */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <time.h>

#include "lib/numfmt.h"
#include "unit.h"
#include "view/output.h"

static struct row rows[1], exited[1];
static struct sample sample;

static void build(void)
{
	struct psi_sample *p = &sample.psi;
	struct row *r = &rows[0], *x = &exited[0];

	p->s[PSI_CPU][PSI_SOME] = (struct psi_stat){ true, 1.2, 0.8, 0.3, 123456, true, 2.1 };
	p->s[PSI_CPU][PSI_FULL] = (struct psi_stat){ true, 0, 0, 0, 4567, false, 0 };
	p->s[PSI_IO][PSI_SOME] = (struct psi_stat){ true, 0.5, 0.25, 0.1, 9876543210ULL, true, 0 };
	p->s[PSI_IRQ][PSI_FULL] = (struct psi_stat){ true, 0.1, 0.05, 0.01, 42, true, 0.4 };

	*r = (struct row){
		.pid = 1234, .tgid = 1234,
		.comm = "postgres",
		.cmdline = "postgres -D /var/lib/pg -c \"name=main, x\"",
		.uid = 106, .user = "postgres",
		.info = { .ppid = 1, .state = 'S', .threads = 4 },
		.have_cpu_pct = true, .cpu_pct = 37.5, .total_pct = 15.55,
	};
	/* next to its stall: all but the wait channel (it is not in D) */
	r->ctx = (struct task_ctx){
		.have = CTX_RSS | CTX_SWAP | CTX_NICE | CTX_READ | CTX_WRITE |
			CTX_MAJFLT,
		.rss_kib = 123456, .swap_kib = 0, .nice = -5,
		.read_bps = 1048576, .write_bps = 524288.5, .majflt_ps = 12.5,
	};
	r->d[CAT_CPU] = (struct cat_figure){ .avail = true, .pct = 12.5,
		.count = 40, .have_avg = true, .avg_ms = 3.125,
		.have_max = true, .max_ms = 9.8 };
	r->d[CAT_IO] = (struct cat_figure){ .avail = true, .pct = 3.0,
		.count = 7, .have_avg = true, .avg_ms = 4.2857142 };
	r->d[CAT_SWAP] = (struct cat_figure){ .avail = true, .have_max = true };
	r->d[CAT_RECLAIM] = (struct cat_figure){ .avail = true };
	/* thrashing and compact: not provided by this kernel */
	r->d[CAT_WPCOPY] = (struct cat_figure){ .avail = true, .pct = 0.05,
		.count = 3, .have_avg = true, .avg_ms = 1.0 / 6,
		.have_max = true, .max_ms = 0.3 };
	/* A figure that went wrong upstream must not print as nan. */
	r->d[CAT_IRQ] = (struct cat_figure){ .avail = true, .pct = NAN,
		.have_avg = true, .avg_ms = INFINITY };

	*x = (struct row){
		.pid = 4321, .tgid = 4321,
		.comm = "\x1b]0;pwned\x07", .cmdline = "",
		.uid = 1001, .user = "builduser1",
		.info = { .ppid = 1234, .state = '\0', .threads = -1 },
		.have_cpu_pct = false, .total_pct = 50,
		.flags = ROW_EXITED,
	};
	x->d[CAT_CPU] = (struct cat_figure){ .avail = true, .pct = 50,
		.count = 1, .have_avg = true, .avg_ms = 500, .have_max = true,
		.max_ms = 500 };
	x->d[CAT_IO] = (struct cat_figure){ .avail = true };
	/* the kernel said it waited longer than it lived: dropped */
	x->d[CAT_SWAP] = (struct cat_figure){ .dropped = true };

	for (int c = 0; c < NCAT; c++) {
		r->d[c].have_count = r->d[c].avail;
		x->d[c].have_count = x->d[c].avail;
	}
	/* a source that knows the delay but not the count (/proc) */
	r->d[CAT_RECLAIM].have_count = false;

	sample = (struct sample){
		.time = 1763740000.123, .interval = 1.002,
		.delayacct = true, .delayacct_known = true,
		.ts_version = 16, .events_lost = 2, .exit_records_lost = 1,
		.dropped = 1,
		.psi = sample.psi,
		.rows = rows, .nrows = 1, .exited = exited, .nexited = 1,
		.nprocs = 2, .nthreads = 5,
	};
}

/* Run the writer into memory; returns a malloc'd string. */
static char *run(struct out_opts *o)
{
	char *p = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&p, &n);

	if (!f)
		exit(99);
	output_write(f, o, &sample);
	fclose(f);
	return p;
}

static void compare(const char *got, const char *want, const char *what)
{
	unit_checks++;
	if (strcmp(got, want) != 0) {
		unit_failures++;
		fprintf(stderr, "%s differs; got:\n%s\nexpected:\n%s\n", what,
			got, want);
	}
}

static void test_json(void)
{
	struct out_opts o = { .format = OUT_JSON };
	char *want = unit_fixture("output/sample.json", NULL);
	char *got = run(&o);

	compare(got, want, "JSON");
	/* One line per sample. */
	CHECK(strchr(got, '\n') == got + strlen(got) - 1);
	free(got);

	/* Unknown switch and no taskstats are null, not false or 0. */
	sample.delayacct_known = false;
	sample.ts_version = 0;
	got = run(&o);
	CHECK(strstr(got, "\"delayacct\":null,\"taskstats_version\":null,") != NULL);
	free(got);
	sample.delayacct = false;
	sample.delayacct_known = true;
	got = run(&o);
	CHECK(strstr(got, "\"delayacct\":false,") != NULL);
	free(got);
	sample.delayacct = true;
	sample.ts_version = 16;
	/* How the sample was taken: -a and -H each say so on their own. */
	sample.accumulated = true;
	got = run(&o);
	CHECK(strstr(got, ",\"accumulated\":true,\"threads\":false,") != NULL);
	free(got);
	sample.accumulated = false;
	sample.threads = true;
	got = run(&o);
	CHECK(strstr(got, ",\"accumulated\":false,\"threads\":true,") != NULL);
	free(got);
	sample.threads = false;
	/* A parent nobody read is unknown; init's parent is the kernel, 0. */
	exited[0].info.ppid = 0;
	got = run(&o);
	CHECK(strstr(got, "\"ppid\":null,") != NULL);
	free(got);
	exited[0].tgid = exited[0].pid = 1;
	got = run(&o);
	CHECK(strstr(got, "\"ppid\":0,") != NULL);
	free(got);
	exited[0].tgid = exited[0].pid = 4321;
	exited[0].info.ppid = 1234;
	free(want);
}

/* The text of the "tasks" array of a JSON sample, malloc'd. */
static char *tasks_of(const char *json)
{
	const char *a = strstr(json, "\"tasks\":["), *b;

	if (!a || !(b = strstr(a, "],\"exited\":")))
		return strdup("(no tasks array)");
	a += strlen("\"tasks\":[");
	return strndup(a, (size_t)(b - a));
}

/*
 * The writer reuses the text of a row's figures when they are the same
 * as the row's before: each row's text must be what it is when written
 * alone. Each row differs from the one before in one member of its
 * figures (or in none), so a member the reuse failed to compare shows.
 */
static void test_json_repeats(void)
{
	enum { N = 12 };
	struct out_opts o = { .format = OUT_JSON };
	struct row many[N], *keep_rows = sample.rows;
	size_t keep_n = sample.nrows, keep_x = sample.nexited;
	char *alone[N], *want, *got, *all;
	size_t len = 0;

	for (int i = 0; i < N; i++) {
		many[i] = rows[0];
		many[i].pid = many[i].tgid = 100 + i;
		for (int c = 0; c < NCAT; c++)
			many[i].d[c] = (struct cat_figure){ .avail = true,
				.have_count = true };
	}
	/* each row the one before with one member of every category changed */
	for (int i = 1; i < N; i++) {
		for (int c = 0; c < NCAT; c++) {
			struct cat_figure *f = &many[i].d[c];

			*f = many[i - 1].d[c];
			switch (i) {
			case 2: f->pct = 1.5; break;
			case 3: f->count = 3; break;
			case 4: f->have_avg = true; break;
			case 5: f->avg_ms = 2.5; break;
			case 6: f->have_max = true; break;
			case 7: f->max_ms = 4.25; break;
			case 8: f->have_count = false; break;
			case 9: f->avail = false; break;
			case 10: f->avail = true; break;
			}
		}
	}
	/* and in one category only */
	many[11].d[CAT_IO].pct = 0.001;

	sample.exited = NULL;
	sample.nexited = 0;
	sample.nrows = 1;
	for (int i = 0; i < N; i++) {
		sample.rows = &many[i];
		got = run(&o);
		alone[i] = tasks_of(got);
		len += strlen(alone[i]) + 1;
		free(got);
	}
	want = calloc(1, len + 1);
	for (int i = 0; i < N; i++) {
		if (i)
			strcat(want, ",");
		strcat(want, alone[i]);
		free(alone[i]);
	}
	sample.rows = many;
	sample.nrows = N;
	all = run(&o);
	got = tasks_of(all);
	compare(got, want, "JSON rows written together");
	free(got);
	free(all);
	free(want);
	sample.rows = keep_rows;
	sample.nrows = keep_n;
	sample.exited = exited;
	sample.nexited = keep_x;
}

static void test_csv(void)
{
	struct out_opts o = { .format = OUT_CSV, .cmdline = true };
	char *want = unit_fixture("output/sample.csv", NULL);
	char *got = run(&o);

	compare(got, want, "CSV");
	CHECK(o.header_done);
	free(got);
	/* The header is written once per run. */
	got = run(&o);
	compare(got, strchr(want, '\n') + 1, "CSV without header");
	free(got);
	free(want);
}

static void test_text(void)
{
	struct out_opts o = { .format = OUT_TEXT };
	char *want = unit_fixture("output/sample.txt", NULL);
	char *got = run(&o);

	compare(got, want, "text");
	/* Nothing a process controls reaches the output raw. */
	CHECK(strchr(got, 0x1b) == NULL && strchr(got, 0x07) == NULL);
	free(got);
	free(want);

	/* -c: the command line, [comm] when there is none. */
	o.cmdline = true;
	got = run(&o);
	CHECK(strstr(got, " postgres -D /var/lib/pg -c \"name=main, x\"\n") != NULL);
	CHECK(strstr(got, " [\\e]0;pwned\\x07]\n") != NULL);
	free(got);
	o.cmdline = false;

	/* Thread rows, figures since start, no PSI at all, unknown switch. */
	struct psi_sample psi = sample.psi;
	memset(&sample.psi, 0, sizeof(sample.psi));
	sample.threads = true;
	sample.accumulated = true;
	sample.delayacct_known = false;
	sample.ts_version = 0;
	sample.events_lost = 0;
	sample.dropped = 0;
	sample.nthreads = 0;
	got = run(&o);
	const char *head = "stalltop - 15:46:40  accumulated 1.002s  2 processes  "
		"delayacct unknown  no taskstats\nPSI not available\n\n"
		"    TID USER ";
	CHECK(strncmp(got, head, strlen(head)) == 0);
	free(got);
	sample.psi = psi;
	sample.threads = sample.accumulated = false;
	sample.delayacct_known = true;
	sample.ts_version = 16;
	sample.events_lost = 2;
	sample.dropped = 1;
	sample.nthreads = 5;
}

static void test_fixed(void)
{
	char buf[64];

	CHECK(numfmt_fixed(buf, sizeof(buf), 1.5, 3));
	CHECK_STR(buf, "1.500");
	CHECK(numfmt_fixed(buf, sizeof(buf), -0.0001, 3));
	CHECK_STR(buf, "0.000");
	CHECK(numfmt_fixed(buf, sizeof(buf), -2.25, 1));
	CHECK_STR(buf, "-2.3");
	CHECK(numfmt_fixed(buf, sizeof(buf), 0.0625, 2));
	CHECK_STR(buf, "0.06");
	CHECK(numfmt_fixed(buf, sizeof(buf), 1763740000.123, 3));
	CHECK_STR(buf, "1763740000.123");
	CHECK(numfmt_fixed(buf, sizeof(buf), 42.7, 0));
	CHECK_STR(buf, "43");
	CHECK(numfmt_fixed(buf, sizeof(buf), 1e20, 3));
	CHECK_STR(buf, "100000000000000000000");
	CHECK(!numfmt_fixed(buf, sizeof(buf), NAN, 3));
	CHECK_STR(buf, "");
	CHECK(!numfmt_fixed(buf, sizeof(buf), -INFINITY, 3));
}

int main(void)
{
	setenv("TZ", "UTC", 1);
	tzset();
	build();
	test_fixed();
	test_json();
	test_json_repeats();
	test_csv();
	test_text();
	return unit_done();
}
