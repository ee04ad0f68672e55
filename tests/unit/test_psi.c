/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * PSI: parsing of saved /proc/pressure files (complete, old-kernel, odd)
 * and the interval share maths.
 */
#include <config.h>

#include <locale.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <time.h>

#include "kernel/psi.h"
#include "model/delta.h"
#include "unit.h"

#define LINE_EQ(l, a10, a60, a300, tot) do { \
	CHECK((l).present); \
	CHECK((l).avg10 == (a10)); \
	CHECK((l).avg60 == (a60)); \
	CHECK((l).avg300 == (a300)); \
	CHECK_EQ_U((l).total_us, (tot)); \
} while (0)

static void test_names(void)
{
	CHECK_STR(psi_res_name[PSI_CPU], "cpu");
	CHECK_STR(psi_res_name[PSI_MEMORY], "memory");
	CHECK_STR(psi_res_name[PSI_IO], "io");
	CHECK_STR(psi_res_name[PSI_IRQ], "irq");
	CHECK_STR(psi_kind_name[PSI_SOME], "some");
	CHECK_STR(psi_kind_name[PSI_FULL], "full");
}

static void test_read_full(void)
{
	struct psi_reading r;
	struct timespec ts;
	double now;

	psi_read_dir(FIXTURES "/psi/full", "", &r);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	now = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
	CHECK(r.when > 0 && r.when <= now);

	LINE_EQ(r.line[PSI_CPU][PSI_SOME], 1.23, 0.45, 0.06, 123456789);
	LINE_EQ(r.line[PSI_CPU][PSI_FULL], 0.50, 0.20, 0.01, 4567);
	LINE_EQ(r.line[PSI_MEMORY][PSI_SOME], 12.00, 7.89, 2.34, 9876543210ULL);
	LINE_EQ(r.line[PSI_MEMORY][PSI_FULL], 10.50, 6.00, 1.99, 8765432109ULL);
	LINE_EQ(r.line[PSI_IO][PSI_SOME], 0.00, 0.45, 0.98, 6325197);
	LINE_EQ(r.line[PSI_IO][PSI_FULL], 0.00, 0.45, 0.97, 6178978);
	CHECK(!r.line[PSI_IRQ][PSI_SOME].present);
	LINE_EQ(r.line[PSI_IRQ][PSI_FULL], 0.10, 0.05, 0.01, 42);
}

/* Copy the fixture file src to dst. */
static void copy(const char *src, const char *dst)
{
	char buf[512];
	FILE *in = fopen(src, "r"), *out = fopen(dst, "w");
	size_t n;

	if (!in || !out)
		exit(99);
	n = fread(buf, 1, sizeof(buf), in);
	if (fwrite(buf, 1, n, out) != n || fclose(out) != 0)
		exit(99);
	fclose(in);
}

/*
 * Files kept open read what they hold at each reading: the pressure of
 * one fixture, then, written over the same files, another's; a file
 * missing at the opening stays absent.
 */
static void test_read_open(void)
{
	const char *tmp = getenv("TMPDIR");
	char dir[256], path[300], from[300];
	struct psi_files f;
	struct psi_reading r;

	snprintf(dir, sizeof(dir), "%s/stalltop-psi-XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir))
		exit(99);
	for (int i = 0; i < PSI_IRQ; i++) {
		snprintf(from, sizeof(from), FIXTURES "/psi/full/%s",
			 psi_res_name[i]);
		snprintf(path, sizeof(path), "%s/%s", dir, psi_res_name[i]);
		copy(from, path);
	}
	psi_open(dir, "", &f);
	CHECK(f.fd[PSI_CPU] >= 0 && f.fd[PSI_IRQ] == -1);
	psi_read_open(&f, &r);
	LINE_EQ(r.line[PSI_CPU][PSI_SOME], 1.23, 0.45, 0.06, 123456789);
	LINE_EQ(r.line[PSI_IO][PSI_FULL], 0.00, 0.45, 0.97, 6178978);
	CHECK(!r.line[PSI_IRQ][PSI_FULL].present);
	for (int i = 0; i < PSI_IRQ; i++) {
		snprintf(from, sizeof(from), FIXTURES "/psi/noirq/%s",
			 psi_res_name[i]);
		snprintf(path, sizeof(path), "%s/%s", dir, psi_res_name[i]);
		copy(from, path);
	}
	psi_read_open(&f, &r);
	LINE_EQ(r.line[PSI_CPU][PSI_SOME], 3.30, 0.89, 0.47, 3220379);
	CHECK(!r.line[PSI_CPU][PSI_FULL].present);
	psi_close(&f);
	CHECK(f.fd[PSI_CPU] == -1);
	for (int i = 0; i < PSI_IRQ; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, psi_res_name[i]);
		unlink(path);
	}
	rmdir(dir);
}

static void test_read_noirq(void)
{
	struct psi_reading r;

	psi_read_dir(FIXTURES "/psi/noirq", "", &r);
	LINE_EQ(r.line[PSI_CPU][PSI_SOME], 3.30, 0.89, 0.47, 3220379);
	CHECK(!r.line[PSI_CPU][PSI_FULL].present);
	LINE_EQ(r.line[PSI_MEMORY][PSI_SOME], 0, 0, 0, 0);
	LINE_EQ(r.line[PSI_MEMORY][PSI_FULL], 0, 0, 0, 0);
	LINE_EQ(r.line[PSI_IO][PSI_SOME], 100.00, 99.99, 50.00, 1);
	LINE_EQ(r.line[PSI_IO][PSI_FULL], 0, 0, 0, 0);
	CHECK(!r.line[PSI_IRQ][PSI_SOME].present);
	CHECK(!r.line[PSI_IRQ][PSI_FULL].present);
}

static void test_read_odd(void)
{
	struct psi_reading r;

	psi_read_dir(FIXTURES "/psi/odd", "", &r);
	/* Only the good full line survives the garbage; unknown field ok. */
	CHECK(!r.line[PSI_CPU][PSI_SOME].present);
	LINE_EQ(r.line[PSI_CPU][PSI_FULL], 2.50, 1.25, 0.75, 777);
	/* 2^64-1 fits, 2^64 does not. */
	LINE_EQ(r.line[PSI_MEMORY][PSI_SOME], 0, 0, 0, UINT64_MAX);
	CHECK(!r.line[PSI_MEMORY][PSI_FULL].present);
	/* The truncated last line is dropped, the one before it kept. */
	LINE_EQ(r.line[PSI_IO][PSI_SOME], 0.25, 0.50, 0.75, 1000);
	CHECK(!r.line[PSI_IO][PSI_FULL].present);
	CHECK(!r.line[PSI_IRQ][PSI_FULL].present);
}

static void test_read_missing_dir(void)
{
	struct psi_reading r;

	psi_read_dir(FIXTURES "/psi/does-not-exist", "", &r);
	CHECK(r.when > 0);
	for (int i = 0; i < NPSI; i++)
		for (int k = 0; k < NPSI_KIND; k++)
			CHECK(!r.line[i][k].present);
}

static int parse1(const char *text, struct psi_line l[NPSI_KIND])
{
	return psi_parse(text, l);
}

static void test_parse_strings(void)
{
	struct psi_line l[NPSI_KIND];

	CHECK(parse1("", l) == 0);
	CHECK(parse1(NULL, l) == 0);
	CHECK(!l[0].present && !l[1].present);

	/* No trailing newline, CRLF, extra blanks, fields in another order. */
	CHECK(parse1("some avg10=1.00 avg60=2.00 avg300=3.00 total=4", l) == 1);
	LINE_EQ(l[PSI_SOME], 1.0, 2.0, 3.0, 4);
	CHECK(parse1("full  total=9\tavg300=0.3 avg60=0.2 avg10=0.1\r\n", l) == 1);
	LINE_EQ(l[PSI_FULL], 0.1, 0.2, 0.3, 9);
	CHECK(!l[PSI_SOME].present);
	/* Integers and more decimals than the kernel prints are fine. */
	CHECK(parse1("some avg10=7 avg60=0.125 avg300=99.999 total=0\n", l) == 1);
	LINE_EQ(l[PSI_SOME], 7.0, 0.125, 99.999, 0);

	/* Each of these spoils its line. */
	static const char *const bad[] = {
		"some avg10=1.00 avg60=2.00 avg300=3.00",             /* no total */
		"some avg10=1.00 avg60=2.00 avg300=3.00 total=",
		"some avg10=1.00 avg60=2.00 avg300=3.00 total=12x",
		"some avg10=1.00 avg60=2.00 avg300=3.00 total=+1",
		"some avg10=1. avg60=2.00 avg300=3.00 total=1",
		"some avg10=.5 avg60=2.00 avg300=3.00 total=1",
		"some avg10=-1.00 avg60=2.00 avg300=3.00 total=1",
		"some avg10=1.0.0 avg60=2.00 avg300=3.00 total=1",
		"some avg10=nan avg60=2.00 avg300=3.00 total=1",
		"some avg10=1e3 avg60=2.00 avg300=3.00 total=1",
		"some avg10=12345678901234567890 avg60=2 avg300=3 total=1",
		"some avg10=1 avg10=1 avg60=2.00 avg300=3.00 total=1", /* twice */
		"some avg10=1 avg60=2.00 avg300=3.00 total=1 junk",    /* no = */
		"some avg10=1 avg60=2.00 avg300=3.00 total=1 =x",      /* no key */
		"Some avg10=1 avg60=2.00 avg300=3.00 total=1",
		"somefull avg10=1 avg60=2.00 avg300=3.00 total=1",
		"avg10=1 avg60=2.00 avg300=3.00 total=1",
		"some avg10 = 1 avg60=2.00 avg300=3.00 total=1",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int n = parse1(bad[i], l);

		CHECK(n == 0);
		if (n)
			fprintf(stderr, "  accepted: %s\n", bad[i]);
	}

	/* A bad line does not spoil a good one of the other kind. */
	CHECK(parse1("some total=1\nfull avg10=0.01 avg60=0.02 avg300=0.03 total=5\n",
		     l) == 1);
	CHECK(!l[PSI_SOME].present);
	LINE_EQ(l[PSI_FULL], 0.01, 0.02, 0.03, 5);
}

static struct psi_reading reading(double when, uint64_t cpu_some, bool cpu_full)
{
	struct psi_reading r = { .when = when };

	r.line[PSI_CPU][PSI_SOME] = (struct psi_line){ true, 1.5, 1.0, 0.5, cpu_some };
	r.line[PSI_CPU][PSI_FULL] = (struct psi_line){ cpu_full, 0, 0, 0, 1000 };
	return r;
}

static void test_interval(void)
{
	struct psi_reading a, b;
	struct psi_sample s;

	/* 0.5 s stalled in 2 s: 25 %. */
	a = reading(100.0, 1000000, true);
	b = reading(102.0, 1500000, true);
	delta_psi(&a, &b, &s);
	CHECK(s.s[PSI_CPU][PSI_SOME].present);
	CHECK(s.s[PSI_CPU][PSI_SOME].have_pct);
	CHECK_NEAR(s.s[PSI_CPU][PSI_SOME].pct, 25.0, 1e-9);
	CHECK(s.s[PSI_CPU][PSI_SOME].avg10 == 1.5);
	CHECK(s.s[PSI_CPU][PSI_SOME].avg60 == 1.0);
	CHECK(s.s[PSI_CPU][PSI_SOME].avg300 == 0.5);
	CHECK_EQ_U(s.s[PSI_CPU][PSI_SOME].total_us, 1500000);
	/* Unchanged total: 0 %, but known. */
	CHECK(s.s[PSI_CPU][PSI_FULL].have_pct);
	CHECK(s.s[PSI_CPU][PSI_FULL].pct == 0.0);
	/* Absent in both. */
	CHECK(!s.s[PSI_IO][PSI_SOME].present);
	CHECK(!s.s[PSI_IO][PSI_SOME].have_pct);

	/* More stall than wall time (rounding between reads): clamped. */
	b = reading(101.0, 4000000, true);
	delta_psi(&a, &b, &s);
	CHECK(s.s[PSI_CPU][PSI_SOME].have_pct);
	CHECK(s.s[PSI_CPU][PSI_SOME].pct == 100.0);

	/* A total that went backwards (a wrap, a reset): unknown. */
	b = reading(101.0, 999999, true);
	delta_psi(&a, &b, &s);
	CHECK(s.s[PSI_CPU][PSI_SOME].present);
	CHECK(!s.s[PSI_CPU][PSI_SOME].have_pct);
	a = reading(100.0, UINT64_MAX - 10, true);
	b = reading(101.0, 5, true);
	delta_psi(&a, &b, &s);
	CHECK(!s.s[PSI_CPU][PSI_SOME].have_pct);
	CHECK_EQ_U(s.s[PSI_CPU][PSI_SOME].total_us, 5);

	/* Huge totals close to 2^64 still give the right share. */
	a = reading(100.0, UINT64_MAX - 3000000, true);
	b = reading(104.0, UINT64_MAX - 1000000, true);
	delta_psi(&a, &b, &s);
	CHECK(s.s[PSI_CPU][PSI_SOME].have_pct);
	CHECK_NEAR(s.s[PSI_CPU][PSI_SOME].pct, 50.0, 1e-9);

	/* Time did not advance (or went back). */
	a = reading(100.0, 1000, true);
	b = reading(100.0, 2000, true);
	delta_psi(&a, &b, &s);
	CHECK(!s.s[PSI_CPU][PSI_SOME].have_pct);
	b.when = 99.0;
	delta_psi(&a, &b, &s);
	CHECK(!s.s[PSI_CPU][PSI_SOME].have_pct);

	/* A line that appears or disappears between readings. */
	a = reading(100.0, 1000, false);
	b = reading(101.0, 2000, true);
	delta_psi(&a, &b, &s);
	CHECK(s.s[PSI_CPU][PSI_FULL].present);
	CHECK(!s.s[PSI_CPU][PSI_FULL].have_pct);
	delta_psi(&b, &a, &s);
	CHECK(!s.s[PSI_CPU][PSI_FULL].present);
	CHECK(!s.s[PSI_CPU][PSI_FULL].have_pct);

	/* First reading: no previous one. */
	delta_psi(NULL, &b, &s);
	CHECK(s.s[PSI_CPU][PSI_SOME].present);
	CHECK(!s.s[PSI_CPU][PSI_SOME].have_pct);

	/* Two real reads of the same files: 0 % (the totals did not move). */
	psi_read_dir(FIXTURES "/psi/full", "", &a);
	psi_read_dir(FIXTURES "/psi/full", "", &b);
	b.when = a.when + 1.0;
	delta_psi(&a, &b, &s);
	CHECK(s.s[PSI_IRQ][PSI_FULL].have_pct);
	CHECK(s.s[PSI_IRQ][PSI_FULL].pct == 0.0);
	CHECK(!s.s[PSI_IRQ][PSI_SOME].present);
}

int main(void)
{
	test_names();
	test_read_full();
	test_read_noirq();
	test_read_open();
	test_read_odd();
	test_read_missing_dir();
	test_parse_strings();
	test_interval();
	/* Parsing must not follow LC_NUMERIC (a decimal comma locale). */
	if (setlocale(LC_ALL, "de_DE.UTF-8") || setlocale(LC_ALL, "fr_FR.UTF-8")) {
		test_read_full();
		test_parse_strings();
	}
	return unit_done();
}
