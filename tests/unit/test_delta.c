/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Interval maths: rates, averages, wrap-around, saturation, absent data,
 * impossible figures, interval maxima, accumulation, TOTAL, and which
 * tasks delay accounting measured.
 */
#include <config.h>

#include <math.h>
#include <string.h>

#include "model/cgrows.h"
#include "model/delta.h"
#include "unit.h"

static const unsigned ALL = (1u << NCAT) - 1;

static struct ts_reading reading(uint64_t cpu_count, uint64_t cpu_ns,
				 uint64_t io_count, uint64_t io_ns)
{
	struct ts_reading r = { 0 };
	r.version = 16;
	r.have = ALL;
	r.have_max = ALL;
	r.d[CAT_CPU].count = cpu_count;
	r.d[CAT_CPU].total_ns = cpu_ns;
	r.d[CAT_IO].count = io_count;
	r.d[CAT_IO].total_ns = io_ns;
	r.d[CAT_IO].max_ns = 7000000;
	return r;
}

/* A process's readings (TGID), no age known: nothing to check against. */
/* One interval's figures, delta_interval + delta_figures; a thread's
 * (b->thread) lived time is the window, or its age if less. */
static int delta_row(const struct ts_reading *prev, const struct ts_reading *cur,
		     double dt, const struct delta_bounds *b, struct row *row)
{
	struct delta iv;
	int dropped = delta_interval(prev, cur, b, &iv);
	double lived = b->age > 0 && b->age < dt ? b->age : dt;
	delta_figures(&iv, dt, b->thread ? lived : 0, row);
	return dropped;
}

static const struct delta_bounds PROC = { .cats = (1u << NCAT) - 1 };

static void test_rates(void)
{
	struct ts_reading a = reading(10, 1000000000, 5, 0);
	struct ts_reading b = reading(30, 1500000000, 9, 200000000);
	a.run_ns = 0;
	b.run_ns = 250000001;
	struct row r;
	CHECK(delta_row(&a, &b, 2.0, &PROC, &r) == 0);
	CHECK(r.d[CAT_CPU].avail);
	CHECK_NEAR(r.d[CAT_CPU].pct, 25.0, 1e-9);        /* 0.5 s of 2 s */
	CHECK_EQ_U(r.d[CAT_CPU].count, 20);
	CHECK(r.d[CAT_CPU].have_avg);
	CHECK_NEAR(r.d[CAT_CPU].avg_ms, 25.0, 1e-9);     /* 500 ms / 20 */
	CHECK_NEAR(r.d[CAT_IO].pct, 10.0, 1e-9);
	CHECK_EQ_U(r.d[CAT_IO].count, 4);
	CHECK_NEAR(r.d[CAT_IO].avg_ms, 50.0, 1e-9);
	/* a process record's max is one thread's: not the process's */
	CHECK(!r.d[CAT_IO].have_max);
	/* CPU% from the scheduler's nanoseconds, not ticks */
	CHECK(r.have_cpu_pct);
	CHECK_NEAR(r.cpu_pct, 12.50000005, 1e-9);
	CHECK_NEAR(r.total_pct, 35.0, 1e-9);
	/* no events: no average, but a true 0 % */
	CHECK(r.d[CAT_SWAP].avail);
	CHECK(!r.d[CAT_SWAP].have_avg);
	CHECK(!r.d[CAT_SWAP].have_max);
	CHECK_NEAR(r.d[CAT_SWAP].pct, 0.0, 0);
}

static void test_absent(void)
{
	struct ts_reading a = reading(1, 1, 1, 1), b = reading(2, 2, 3, 2);
	b.have &= ~(1u << CAT_IRQ);     /* an older kernel */
	b.have_max = 0;                 /* version < 16 */
	struct row r;
	delta_row(&a, &b, 1.0, &PROC, &r);
	CHECK(!r.d[CAT_IRQ].avail);
	CHECK(!r.d[CAT_IRQ].dropped);
	CHECK(!r.d[CAT_IO].have_max);
	/* delay accounting off for this task: only cpu */
	struct delta_bounds cpu_only = PROC;
	cpu_only.cats = 1u << CAT_CPU;
	delta_row(&a, &b, 1.0, &cpu_only, &r);
	CHECK(r.d[CAT_CPU].avail);
	for (int c = 1; c < NCAT; c++)
		CHECK(!r.d[c].avail && !r.d[c].dropped);
	CHECK_NEAR(r.total_pct, r.d[CAT_CPU].pct, 1e-12);
}

static void test_wrap(void)
{
	/* 32-bit counts wrap in the kernel */
	CHECK_EQ_U(delta_count(0xfffffff0ULL, 0x10ULL, 1), 0x20);
	CHECK_EQ_U(delta_count(5, 9, 1), 4);
	/* a 64-bit count never goes backwards: no giant delta */
	CHECK_EQ_U(delta_count(9, 5, 0), 0);
	struct ts_reading a = reading(1, 0, 0xfffffffeULL, 100);
	struct ts_reading b = reading(2, 1000, 3, 300);
	struct row r;
	delta_row(&a, &b, 1.0, &PROC, &r);
	CHECK_EQ_U(r.d[CAT_IO].count, 5);
	/* a 32-bit count that was reset while the total rose */
	b.d[CAT_IO].count = 2;
	delta_row(&a, &b, 1.0, &PROC, &r);
	CHECK_EQ_U(r.d[CAT_IO].count, 4);
	/* a total that went backwards (the kernel saturates to 0): dropped */
	b.d[CAT_IO].total_ns = 0;
	CHECK(delta_row(&a, &b, 1.0, &PROC, &r) == 1);
	CHECK(!r.d[CAT_IO].avail);
	CHECK(r.d[CAT_IO].dropped);
	CHECK(r.d[CAT_CPU].avail);
	CHECK(r.total_pct < 1.0);
}

/*
 * The kernel keeps the non-cpu counts of a task in 32 bits: past
 * 0xffffffff a count starts again from 0 while its delay total goes on
 * rising. The events of the interval are the distance across the wrap,
 * not 0 (a count that only "went backwards") and not a 64-bit distance
 * of some 18e18 events; the average uses that count.
 */
/*
 * More events than a row's figure holds (CAT_COUNT_MAX: one a nanosecond
 * for 18 years) is no true count: dropped and counted, not cut short;
 * the most it holds stays a number; a sum above it is unknown.
 */
static void test_count_max(void)
{
	struct ts_reading a = reading(0, 0, 0, 0);
	struct ts_reading b = reading(CAT_COUNT_MAX + 1, 1000000, 0, 0);
	struct row r;
	CHECK(delta_row(&a, &b, 1.0, &PROC, &r) == 1);
	CHECK(r.d[CAT_CPU].dropped && !r.d[CAT_CPU].avail);
	b = reading(CAT_COUNT_MAX, 1000000, 0, 0);
	CHECK(delta_row(&a, &b, 1.0, &PROC, &r) == 0);
	CHECK(r.d[CAT_CPU].avail);
	CHECK_EQ_U(r.d[CAT_CPU].count, CAT_COUNT_MAX);
	/* a cgroup's sum of rows above it: its count unknown, not cut */
	struct cgroup_row g = { .path = "/" };
	unsigned max_unknown = 0;
	cgrows_add(&g, &max_unknown, &r, 1.0);
	CHECK(g.d[CAT_CPU].have_count);
	CHECK_EQ_U(g.d[CAT_CPU].count, CAT_COUNT_MAX);
	r.d[CAT_CPU].count = 1;
	cgrows_add(&g, &max_unknown, &r, 1.0);
	CHECK(g.d[CAT_CPU].avail && !g.d[CAT_CPU].have_count &&
	      !g.d[CAT_CPU].have_avg);
}

static void test_count_reset(void)
{
	CHECK_EQ_U(delta_count(0xffffffffULL, 0, 1), 1);
	CHECK_EQ_U(delta_count(0xfffffffaULL, 4, 1), 10);
	/*
	 * a process's count is the sum of its threads' 32-bit counts and may
	 * pass 2^32; one thread's wrap takes 2^32 off the sum
	 */
	CHECK_EQ_U(delta_count(0x100000005ULL, 0x100000009ULL, 1), 4);
	CHECK_EQ_U(delta_count(0x100000005ULL, 0x9ULL, 1), 4);

	/* through a row: io count 0xfffffff6 -> 6 (16 events), 0.8 s more */
	struct ts_reading a = reading(100, 1000000000, 0xfffffff6ULL, 1000000000);
	struct ts_reading b = reading(100, 1000000000, 6, 1800000000);
	struct row r;
	delta_row(&a, &b, 2.0, &PROC, &r);
	CHECK(r.d[CAT_IO].avail);
	CHECK(r.d[CAT_IO].have_count);
	CHECK_EQ_U(r.d[CAT_IO].count, 16);
	CHECK_NEAR(r.d[CAT_IO].pct, 40.0, 1e-9);        /* 0.8 s of 2 s */
	CHECK(r.d[CAT_IO].have_avg);
	CHECK_NEAR(r.d[CAT_IO].avg_ms, 50.0, 1e-9);     /* 800 ms / 16 */
	CHECK_NEAR(r.total_pct, 40.0, 1e-9);
}

static void test_from_zero(void)
{
	/* a task that started after the previous reading counts from zero */
	struct ts_reading b = reading(4, 400000000, 0, 0);
	struct row r;
	delta_row(NULL, &b, 1.0, &PROC, &r);
	CHECK_NEAR(r.d[CAT_CPU].pct, 40.0, 1e-9);
	CHECK_EQ_U(r.d[CAT_CPU].count, 4);
	/* zero-length interval: nothing is made up */
	delta_row(NULL, &b, 0.0, &PROC, &r);
	CHECK(!r.d[CAT_CPU].avail);
	CHECK(!r.have_cpu_pct);
}

/* rmdir on 6.18: one IO wait as long as the machine's uptime. */
static void test_impossible(void)
{
	struct ts_reading a = reading(1, 100000, 0, 0);
	struct ts_reading b = reading(2, 200000, 1, 10064521000000000ULL);
	b.d[CAT_IO].max_ns = b.d[CAT_IO].total_ns;
	struct delta_bounds t = { .cats = ALL, .age = 0.0016, .thread = true };
	struct row r;
	CHECK(delta_row(&a, &b, 1.0, &t, &r) == 1);
	CHECK(r.d[CAT_IO].dropped);
	CHECK(!r.d[CAT_IO].avail);
	CHECK(r.d[CAT_CPU].avail);            /* the rest stays */
	CHECK(!r.d[CAT_CPU].dropped);
	/* not summed */
	CHECK_NEAR(r.total_pct, r.d[CAT_CPU].pct, 1e-12);

	/* the same for a process: Δdelay > Δcount × age */
	struct delta_bounds p = { .cats = ALL, .age = 0.0016, .threads = 1 };
	CHECK(delta_row(&a, &b, 1.0, &p, &r) == 1);
	CHECK(r.d[CAT_IO].dropped);

	/* a long wait that ends now is true, even above 100 % */
	struct ts_reading c = reading(2, 200000, 1, 5000000000ULL); /* 5 s */
	c.d[CAT_IO].max_ns = 5000000000ULL;
	struct delta_bounds old = { .cats = ALL, .age = 3600, .thread = true };
	CHECK(delta_row(&a, &c, 1.0, &old, &r) == 0);
	CHECK(r.d[CAT_IO].avail);
	CHECK_NEAR(r.d[CAT_IO].pct, 500.0, 1e-9);
	/* ... but not for a thread 2 s old */
	old.age = 2;
	CHECK(delta_row(&a, &c, 1.0, &old, &r) == 1);

	/* a process may wait in several threads at once: 3 × 1 s of 1.5 s */
	struct ts_reading d = reading(1, 100000, 3, 3000000000ULL);
	struct delta_bounds proc = { .cats = ALL, .age = 1.5, .threads = 3 };
	CHECK(delta_row(&a, &d, 1.0, &proc, &r) == 0);
	CHECK_NEAR(r.d[CAT_IO].pct, 300.0, 1e-9);
	/* one thread cannot */
	proc.thread = true;
	CHECK(delta_row(&a, &d, 1.0, &proc, &r) == 1);

	/* delay without an event cannot be (but cpu: a migrated wait) */
	struct ts_reading e = reading(1, 900000000, 0, 500000);
	e.d[CAT_IO].max_ns = 0;
	struct delta_bounds young = { .cats = ALL, .age = 1.0, .thread = true };
	CHECK(delta_row(&a, &e, 1.0, &young, &r) == 1);
	CHECK(r.d[CAT_IO].dropped);
	CHECK(r.d[CAT_CPU].avail);

	/* a lifetime max that rose above the age: that wait is impossible */
	struct ts_reading f = reading(1, 100000, 2, 1000000);
	f.d[CAT_IO].max_ns = 9000000000ULL;
	CHECK(delta_row(&a, &f, 1.0, &young, &r) == 1);
	CHECK(r.d[CAT_IO].dropped);
	/*
	 * A thread's waits follow one another: 50 s of IO cannot end within
	 * 1.4 s of its previous IO wait, however old the thread (a kernel
	 * that measures each wait from a stale stamp does this).
	 */
	struct delta_bounds seq = { .cats = ALL, .age = 3600, .thread = true };
	seq.since[CAT_IO] = 1.4;
	struct ts_reading g = reading(1, 100000, 3, 50000000000ULL);
	g.d[CAT_IO].max_ns = 7000000;
	CHECK(delta_row(&a, &g, 0.7, &seq, &r) == 1);
	CHECK(r.d[CAT_IO].dropped);
	/* ... while 1.2 s can (a wait that began just after the last) */
	g.d[CAT_IO].total_ns = 1200000000ULL;
	CHECK(delta_row(&a, &g, 0.7, &seq, &r) == 0);
	CHECK_NEAR(r.d[CAT_IO].pct, 1200.0 / 7, 1e-6);
	/* nor can one wait of 60 s that set a new maximum */
	g.d[CAT_IO].total_ns = 61000000000ULL;
	g.d[CAT_IO].max_ns = 60000000000ULL;
	seq.since[CAT_IO] = 100;
	CHECK(delta_row(&a, &g, 0.7, &seq, &r) == 0);
	seq.since[CAT_IO] = 30;
	CHECK(delta_row(&a, &g, 0.7, &seq, &r) == 1);
	/* a process's threads wait side by side: no such rule */
	seq.thread = false;
	seq.threads = 4;
	CHECK(delta_row(&a, &g, 0.7, &seq, &r) == 0);

	/*
	 * A 32-bit count that went backwards (not a wrap: 4e9 events in
	 * 1 ms of delay cannot be), whatever the age.
	 */
	struct ts_reading h0 = reading(1, 0, 10, 1000000);
	struct ts_reading h1 = reading(1, 0, 5, 2000000);
	struct delta_bounds any = { .cats = ALL };
	CHECK(delta_row(&h0, &h1, 1.0, &any, &r) == 1);
	CHECK(r.d[CAT_IO].dropped);
	/* a true wrap: 16 events, 800 ms */
	h0.d[CAT_IO].count = 0xfffffff6ULL;
	h1.d[CAT_IO].count = 6;
	h1.d[CAT_IO].total_ns = 801000000ULL;
	CHECK(delta_row(&h0, &h1, 1.0, &any, &r) == 0);
	CHECK_EQ_U(r.d[CAT_IO].count, 16);
	/*
	 * Totals are read in whole microseconds (TS_TIME_RES_NS): 999
	 * waits of a nanosecond or so can leave the total where it was,
	 * 1,000 cannot.
	 */
	h0 = reading(1, 0, 10, 1000000);
	h1 = reading(1, 0, 10 + 999, 1000000);
	CHECK(delta_row(&h0, &h1, 1.0, &any, &r) == 0);
	CHECK_EQ_U(r.d[CAT_IO].count, 999);
	CHECK(r.d[CAT_IO].avail && r.d[CAT_IO].pct == 0);
	h1.d[CAT_IO].count = 10 + 1000;
	CHECK(delta_row(&h0, &h1, 1.0, &any, &r) == 1);
	CHECK(r.d[CAT_IO].dropped);

	/* unknown age: nothing to check against, the figure stays */
	young.age = 0;
	CHECK(delta_row(&a, &b, 1.0, &young, &r) == 0);
}

/*
 * The io delay of /proc (stat's field 42, in ticks) has no count: each
 * of the task's threads waited at most as long as the task lived. Linux
 * 6.18 gives a task 4 ticks old about the machine's uptime there.
 */
static void test_impossible_uncounted(void)
{
	struct ts_reading a = { 0 }, b = { 0 };
	a.have = b.have = (1u << CAT_CPU) | (1u << CAT_IO);
	a.no_count = b.no_count = 1u << CAT_IO;
	b.d[CAT_IO].total_ns = 235000000000ULL; /* 235 s */
	struct row r;
	/* a process of one thread, 40 ms old */
	struct delta_bounds p = { .cats = ALL, .age = 0.04, .threads = 1 };
	CHECK(delta_row(&a, &b, 1.0, &p, &r) == 1);
	CHECK(r.d[CAT_IO].dropped);
	CHECK(!r.d[CAT_IO].avail);
	CHECK(r.d[CAT_CPU].avail);
	/* the same as a thread */
	struct delta_bounds t = { .cats = ALL, .age = 0.04, .thread = true };
	CHECK(delta_row(&a, &b, 1.0, &t, &r) == 1);
	/* 4 s of a 2 s old process of 3 threads can be (at the edge, 1 % + 2 ms) */
	b.d[CAT_IO].total_ns = 4000000000ULL;
	struct delta_bounds three = { .cats = ALL, .age = 2.0, .threads = 3 };
	CHECK(delta_row(&a, &b, 1.0, &three, &r) == 0);
	CHECK_NEAR(r.d[CAT_IO].pct, 400.0, 1e-9);
	b.d[CAT_IO].total_ns = 6065000000ULL; /* within 3 × (2 s + 1 % + 2 ms) = 6.066 s */
	CHECK(delta_row(&a, &b, 1.0, &three, &r) == 0);
	b.d[CAT_IO].total_ns = 6067000000ULL;
	CHECK(delta_row(&a, &b, 1.0, &three, &r) == 1);
	/* a long wait of an old task that ends now is true */
	b.d[CAT_IO].total_ns = 5000000000ULL;
	struct delta_bounds old = { .cats = ALL, .age = 3600, .threads = 1 };
	CHECK(delta_row(&a, &b, 1.0, &old, &r) == 0);
	CHECK_NEAR(r.d[CAT_IO].pct, 500.0, 1e-9);
	/* its threads unknown: nothing to bound it with */
	old.threads = 0;
	p.threads = 0;
	b.d[CAT_IO].total_ns = 235000000000ULL;
	CHECK(delta_row(&a, &b, 1.0, &p, &r) == 0);
}

/*
 * The slack of the age bound, at its edges: a wait may last the task's
 * age + 1 % + 2 ms (the two clocks), not a nanosecond-scale step more.
 * Each figure sits 0.5 ms inside or outside the limit, so a slack that
 * grows (1.01 to 1.02, or 2 ms to 3 ms) keeps a figure it must drop.
 */
static void test_age_slack(void)
{
	struct ts_reading a = reading(1, 100000, 0, 0), b;
	struct delta_bounds t = { .cats = ALL, .age = 10, .thread = true };
	struct row r;

	/* a thread 10 s old: one IO wait of at most 10.102 s */
	b = reading(2, 200000, 1, 10101500000ULL);
	CHECK(delta_row(&a, &b, 1.0, &t, &r) == 0);
	CHECK(r.d[CAT_IO].avail && !r.d[CAT_IO].dropped);
	CHECK_NEAR(r.d[CAT_IO].pct, 1010.15, 1e-9);
	b.d[CAT_IO].total_ns = 10102500000ULL;
	CHECK(delta_row(&a, &b, 1.0, &t, &r) == 1);
	CHECK(r.d[CAT_IO].dropped && !r.d[CAT_IO].avail);

	/* 0.1 s old: the 2 ms count, 0.103 s */
	t.age = 0.1;
	b.d[CAT_IO].total_ns = 102500000ULL;
	CHECK(delta_row(&a, &b, 1.0, &t, &r) == 0);
	CHECK(r.d[CAT_IO].avail);
	b.d[CAT_IO].total_ns = 103500000ULL;
	CHECK(delta_row(&a, &b, 1.0, &t, &r) == 1);
	CHECK(r.d[CAT_IO].dropped);

	/* its previous IO wait ended within 5 s: at most 5.052 s since */
	t.age = 3600;
	t.since[CAT_IO] = 5;
	b.d[CAT_IO].total_ns = 5051500000ULL;
	CHECK(delta_row(&a, &b, 1.0, &t, &r) == 0);
	CHECK(r.d[CAT_IO].avail);
	b.d[CAT_IO].total_ns = 5052500000ULL;
	CHECK(delta_row(&a, &b, 1.0, &t, &r) == 1);
	CHECK(r.d[CAT_IO].dropped);

	/* a process 10 s old, two waits: at most 2 x 10.102 s */
	struct delta_bounds p = { .cats = ALL, .age = 10, .threads = 1 };
	b = reading(2, 200000, 2, 20203500000ULL);
	CHECK(delta_row(&a, &b, 1.0, &p, &r) == 0);
	CHECK(r.d[CAT_IO].avail);
	b.d[CAT_IO].total_ns = 20204500000ULL;
	CHECK(delta_row(&a, &b, 1.0, &p, &r) == 1);
	CHECK(r.d[CAT_IO].dropped);
}

static void test_max(void)
{
	struct delta_bounds t = { .cats = ALL, .age = 100, .thread = true };
	struct ts_reading a = reading(1, 0, 10, 100000000);
	a.d[CAT_IO].max_ns = 5000000;                     /* 5 ms */
	struct ts_reading b = reading(1, 0, 14, 200000000);
	b.d[CAT_IO].max_ns = 9000000;                     /* rose: 9 ms */
	struct row r;
	delta_row(&a, &b, 1.0, &t, &r);
	CHECK(r.d[CAT_IO].have_max);
	CHECK_NEAR(r.d[CAT_IO].max_ms, 9.0, 1e-9);
	/* did not rise: the interval's longest wait is unknown */
	b.d[CAT_IO].max_ns = 5000000;
	delta_row(&a, &b, 1.0, &t, &r);
	CHECK(!r.d[CAT_IO].have_max);
	/* one wait in the interval: it is the whole delay */
	b.d[CAT_IO].count = 11;
	delta_row(&a, &b, 1.0, &t, &r);
	CHECK(r.d[CAT_IO].have_max);
	CHECK_NEAR(r.d[CAT_IO].max_ms, 100.0, 1e-9);
	/* no wait: no max, whatever the lifetime max */
	b = a;
	delta_row(&a, &b, 1.0, &t, &r);
	CHECK(!r.d[CAT_IO].have_max);

	/*
	 * A process record (TGID) carries the newest live thread's lifetime
	 * max: a rise there says nothing about the process's interval.
	 */
	struct ts_reading p = reading(1, 0, 14, 200000000);
	p.d[CAT_IO].max_ns = 9000000;
	delta_row(&a, &p, 1.0, &PROC, &r);
	CHECK(!r.d[CAT_IO].have_max);

	/* version 17: a time stamp inside the window makes it known */
	struct ts_reading v = reading(1, 0, 14, 200000000);
	v.d[CAT_IO].max_ns = 5000000;
	v.d[CAT_IO].max_at = 1000.5;
	v.have_max_at = 1u << CAT_IO;
	struct delta_bounds w = t;
	w.from = 1000.0;
	w.to = 1001.0;
	delta_row(&a, &v, 1.0, &w, &r);
	CHECK(r.d[CAT_IO].have_max);
	CHECK_NEAR(r.d[CAT_IO].max_ms, 5.0, 1e-9);
	/* ... and outside it, not */
	v.d[CAT_IO].max_at = 999.0;
	delta_row(&a, &v, 1.0, &w, &r);
	CHECK(!r.d[CAT_IO].have_max);
}

static void test_accumulate(void)
{
	struct delta_bounds t = { .cats = ALL, .age = 100, .thread = true };
	struct ts_reading r0 = reading(0, 0, 0, 0);
	r0.d[CAT_IO].max_ns = 0;
	struct ts_reading r1 = reading(1, 0, 2, 30000000);
	r1.d[CAT_IO].max_ns = 20000000;                    /* 20 ms, rose */
	struct ts_reading r2 = reading(1, 0, 5, 60000000);
	r2.d[CAT_IO].max_ns = 20000000;                    /* did not rise */
	struct delta acc, iv;
	delta_interval(&r0, &r1, &t, &iv);
	delta_accumulate(&acc, true, &iv);
	delta_interval(&r1, &r2, &t, &iv);
	delta_accumulate(&acc, false, &iv);
	struct row r;
	delta_figures(&acc, 2.0, 0, &r);
	CHECK_EQ_U(r.d[CAT_IO].count, 5);
	CHECK_NEAR(r.d[CAT_IO].pct, 3.0, 1e-9);           /* 60 ms of 2 s */
	/* the lifetime max rose in the window: it is the window's */
	CHECK(r.d[CAT_IO].have_max);
	CHECK_NEAR(r.d[CAT_IO].max_ms, 20.0, 1e-9);

	/* an impossible interval is not summed: the window has no figure */
	struct ts_reading r3 = reading(1, 0, 6, 60000000 + 9000000000000ULL);
	delta_interval(&r2, &r3, &t, &iv);
	CHECK(iv.d[CAT_IO].flags & DELTA_DROPPED);
	delta_accumulate(&acc, false, &iv);
	struct ts_reading r4 = reading(1, 0, 7, 70000000 + 9000000000000ULL);
	r4.d[CAT_IO].max_ns = r3.d[CAT_IO].max_ns;
	delta_interval(&r3, &r4, &t, &iv);
	CHECK(!(iv.d[CAT_IO].flags & DELTA_DROPPED));
	delta_accumulate(&acc, false, &iv);
	delta_figures(&acc, 4.0, 0, &r);
	CHECK(r.d[CAT_IO].dropped);
	CHECK(!r.d[CAT_IO].avail);
	CHECK(r.d[CAT_CPU].avail);
}

/* Figures of one row: cpu, irq, io, swap, reclaim, compact, wpcopy,
 * thrashing in %; -1: absent. */
struct stall_case {
	const char *what;
	double cpu, irq, io, swap, reclaim, compact, wpcopy, thrashing;
	double run;    /* R, cpu_pct; -1: unknown */
	double lived;  /* L, %; 0: unknown */
	double lo, hi, est;
};

static const struct stall_case stall_cases[] = {
	/* measured (one thread of wl_mem -a 200 in a 64 MiB memory cgroup
	 * with swap): alone on an idle CPU; its memory work is all running */
	{ "reclaim alone", 0.6, -1, 0, 13.4, 57.8, 0, 0, 0, 99.4, 100,
	  71.2, 71.8, 0.6 + 71.2 * 99.4 / 100.0 },
	/* the same beside a spinner on its CPU: the old rule said 107.2;
	 * its cgroup's PSI said cpu 49.5, memory 57.4 */
	{ "reclaim with a competitor", 50.0, -1, 0, 6.7, 57.2, 0, 0, 0, 50.1,
	  100, 63.9, 100, 50.0 + 63.9 * 50.1 / 100.1 },
	/* the idle-machine sample: CPU% 99.6 beside RECLAIM 74 */
	{ "reclaim 74 %, cpu 99.6 %", 0.4, -1, 0, 0, 74.0, 0, 0, 0, 99.6, 100,
	  74.0, 74.4, 0.4 + 74.0 * 99.6 / 100.0 },
	/* page-cache thrashing (why_mem.sh's workload): the refault waits
	 * are block IO sleeps; reclaim runs */
	{ "file thrashing", 0.5, -1, 35.0, 0, 9.0, 0, 0, 28.0, 50.0, 100,
	  35.5, 72.5, 35.5 + 9.0 * 50.0 / 50.5 },
	/* total_nested.sh: a swap-in's IO is block IO, refaults inside */
	{ "nested IO", 1.0, -1, 90.0, 0.1, 0.5, 0, 0, 80.0, 8.0, 100,
	  91.0, 100, 91.0 + 0.6 * 8.0 / 9.0 },
	/* a plain sum of the categories far over 100: capped at L */
	{ "capped at the life", 10.0, 1.0, 60.0, 70.0, 0, 0, 0, 50.0, 20.0, 100,
	  71.0, 100, 100 },
	/* run time unknown: the memory work is taken as running */
	{ "no run time", 10.0, -1, 0, 0, 30.0, 0, 0, 0, -1, 0,
	  30.0, 40.0, 40.0 },
	/* a copy-on-write fault that reclaims inside: nested, not added */
	{ "cow around reclaim", 0, -1, 0, 0, 20.0, 0, 30.0, 0, 100, 100,
	  30.0, 50.0, 30.0 },
	/* reclaim and compaction take turns: added */
	{ "reclaim then compact", 0, -1, 0, 0, 20.0, 15.0, 0, 0, 100, 100,
	  35.0, 35.0, 35.0 },
	/* a process of 4 threads: up to 400 %, but no more */
	{ "four threads", 300.0, -1, 80.0, 0, 50.0, 0, 0, 0, 20.0, 400,
	  380.0, 400, 380.0 + 50.0 * 20.0 / 320.0 },
	/* a wait that began before the window and ended in it: io 500 %
	 * of the window, but the thread lived only the window */
	{ "long wait", 0, -1, 500.0, 0, 0, 0, 0, 0, 0, 100, 100, 100, 100 },
	/* irq time is stolen on the CPU: apart from run and cpu delay */
	{ "irq", 20.0, 5.0, 0, 0, 50.0, 0, 0, 0, 75.0, 100,
	  50.0, 75.0, 25.0 + 50.0 * 75.0 / 100.0 },
	/* nothing */
	{ "idle", 0, 0, 0, 0, 0, 0, 0, 0, 1.0, 100, 0, 0, 0 },
	/* absent categories count for nothing */
	{ "absent", 12.0, -1, -1, -1, -1, -1, -1, -1, 88.0, 100,
	  12.0, 12.0, 12.0 },
};

static void stall_figures(const struct stall_case *k, struct cat_figure d[NCAT])
{
	const double v[NCAT] = {
		[CAT_CPU] = k->cpu, [CAT_IRQ] = k->irq, [CAT_IO] = k->io,
		[CAT_SWAP] = k->swap, [CAT_RECLAIM] = k->reclaim,
		[CAT_COMPACT] = k->compact, [CAT_WPCOPY] = k->wpcopy,
		[CAT_THRASHING] = k->thrashing,
	};
	memset(d, 0, NCAT * sizeof(d[0]));
	for (int c = 0; c < NCAT; c++) {
		d[c].avail = v[c] >= 0;
		d[c].pct = v[c] >= 0 ? v[c] : 0;
	}
}

static void test_total(void)
{
	struct cat_figure d[NCAT];
	for (size_t i = 0; i < sizeof(stall_cases) / sizeof(stall_cases[0]); i++) {
		const struct stall_case *k = &stall_cases[i];
		struct delta_stall s;
		stall_figures(k, d);
		delta_stall(d, k->run >= 0, k->run, k->lived, &s);
		if (fabs(s.lo - k->lo) > 1e-9 || fabs(s.hi - k->hi) > 1e-9 ||
		    fabs(s.est - k->est) > 1e-9)
			fprintf(stderr, "case %s: lo %g hi %g est %g\n", k->what,
				s.lo, s.hi, s.est);
		CHECK_NEAR(s.lo, k->lo, 1e-9);
		CHECK_NEAR(s.hi, k->hi, 1e-9);
		CHECK_NEAR(s.est, k->est, 1e-9);
		CHECK(s.lo <= s.est && s.est <= s.hi);
		/* never above the time it lived */
		if (k->lived > 0)
			CHECK(s.est <= k->lived);
		CHECK_NEAR(delta_total(d, k->run >= 0, k->run, k->lived), s.est,
			   1e-12);
	}
	/* a dropped category counts for nothing */
	stall_figures(&stall_cases[1], d);
	d[CAT_RECLAIM].avail = false;
	d[CAT_RECLAIM].dropped = true;
	CHECK_NEAR(delta_total(d, true, 50.1, 100), 50.0 + 6.7 * 50.1 / 100.1,
		   1e-9);
	/* a row: a thread lives at most the window; a process with
	 * unknown threads has no cap */
	struct delta iv;
	memset(&iv, 0, sizeof(iv));
	iv.have_run = true;
	iv.run_ns = 100000000;
	iv.d[CAT_IO].flags = DELTA_AVAIL;
	iv.d[CAT_IO].total_ns = 3000000000ULL;  /* 3 s: a long wait ended */
	struct row r;
	memset(&r, 0, sizeof(r));
	delta_figures(&iv, 1.0, 1.0, &r);
	CHECK_NEAR(r.d[CAT_IO].pct, 300.0, 1e-9);
	CHECK_NEAR(r.total_pct, 100.0, 1e-9);
	delta_figures(&iv, 1.0, 0.5, &r);   /* born half-way */
	CHECK_NEAR(r.total_pct, 50.0, 1e-9);
	delta_figures(&iv, 1.0, 0, &r);
	CHECK_NEAR(r.total_pct, 300.0, 1e-9);
}

static void test_cats(void)
{
	const unsigned cpu = 1u << CAT_CPU;
	/* on: every category the kernel collects */
	CHECK_EQ_U(delta_cats(ALL, true), ALL);
	/* off: cpu only (the scheduler times run-queue waits anyway) */
	CHECK_EQ_U(delta_cats(ALL, false), cpu);
	/* what the kernel lacks stays out */
	CHECK_EQ_U(delta_cats(ALL & ~(1u << CAT_IRQ), true),
		   ALL & ~(1u << CAT_IRQ));
}

/*
 * The interval in which delay accounting came on: a wait begun while it
 * was off is measured from a stale start, so what moved is dropped, but
 * cpu and irq (stamped otherwise) and what did not move stay.
 */
static void test_unstamped(void)
{
	struct ts_reading a = reading(1, 100000, 4, 1000000);
	struct ts_reading b = reading(3, 300000, 6, 900000000ULL);
	a.d[CAT_IRQ].count = 1;
	b.d[CAT_IRQ].count = 2;
	b.d[CAT_IRQ].total_ns = 5000;
	struct delta_bounds u = { .cats = ALL, .age = 3600, .threads = 1,
				  .unstamped = true };
	struct row r;
	CHECK(delta_row(&a, &b, 1.0, &u, &r) == 1);
	CHECK(r.d[CAT_IO].dropped && !r.d[CAT_IO].avail);
	CHECK(r.d[CAT_CPU].avail && !r.d[CAT_CPU].dropped);
	CHECK_NEAR(r.d[CAT_CPU].pct, 0.02, 1e-9);
	CHECK(r.d[CAT_IRQ].avail && !r.d[CAT_IRQ].dropped);
	CHECK(r.d[CAT_SWAP].avail && r.d[CAT_SWAP].pct == 0); /* did not move */
	/* the next interval, from a base read after: the same figure is true */
	u.unstamped = false;
	CHECK(delta_row(&a, &b, 1.0, &u, &r) == 0);
	CHECK(r.d[CAT_IO].avail);
	CHECK_NEAR(r.d[CAT_IO].pct, 89.9, 1e-9);
}

static void test_zombie(void)
{
	struct ts_reading before = reading(5, 5000, 3, 3000);
	struct ts_reading zero = { 0 };
	zero.version = 16;
	zero.have = ALL;
	CHECK(delta_zombie_reply(&before, &zero));
	/* a task that never did anything answers zeros truly */
	CHECK(!delta_zombie_reply(&zero, &zero));
	CHECK(!delta_zombie_reply(&before, &before));
	zero.run_ns = 1;
	CHECK(!delta_zombie_reply(&before, &zero));
}

static void test_moved(void)
{
	struct ts_reading a = reading(5, 5000, 3, 3000), b = a;
	CHECK(!delta_moved(&a, &b));
	/* a max or its time stamp alone is no movement: both come with a wait */
	b.d[CAT_IO].max_ns += 7;
	CHECK(!delta_moved(&a, &b));
	b = a;
	b.run_ns++;
	CHECK(delta_moved(&a, &b));
	b = a;
	b.d[CAT_IRQ].count++;
	CHECK(delta_moved(&a, &b));
	b = a;
	b.d[CAT_WPCOPY].total_ns++;
	CHECK(delta_moved(&a, &b));
	/* delay accounting switched: what is present changed */
	b = a;
	b.have &= ~(1u << CAT_SWAP);
	CHECK(delta_moved(&a, &b));
}

/*
 * A reading carried over unasked: delta_still must be what delta_interval
 * gives for the two equal readings, for every mix of categories present,
 * without counts, asked for, and for a thread with bounds that would drop
 * any movement.
 */
static void test_still(void)
{
	const struct delta_bounds thread = {
		.cats = ALL, .age = 0.5, .thread = true,
		.since = { [CAT_IO] = 0.001 }, .threads = 1,
	};
	for (unsigned have = 0; have <= ALL; have += 37) {
		for (unsigned nc = 0; nc <= ALL; nc += 53) {
			struct ts_reading r = reading(5, 5000, 3, 3000), e;
			r.have = have;
			r.no_count = nc;
			r.run_ns = 123456789;
			struct ts_base b;
			delta_base_of(&r, &b);
			delta_base_reading(&b, &e);
			for (unsigned cats = 0; cats <= ALL; cats += 85) {
				const struct delta_bounds *bs[] = { &PROC, &thread };
				for (int i = 0; i < 2; i++) {
					struct delta_bounds bb = *bs[i];
					bb.cats = cats;
					struct delta want, got;
					delta_interval(&e, &e, &bb, &want);
					delta_still(&b, cats, &got);
					CHECK(memcmp(&want, &got, sizeof(want)) == 0);
				}
			}
		}
	}
}

int main(void)
{
	test_rates();
	test_absent();
	test_wrap();
	test_count_max();
	test_count_reset();
	test_from_zero();
	test_impossible();
	test_impossible_uncounted();
	test_age_slack();
	test_max();
	test_accumulate();
	test_total();
	test_cats();
	test_unstamped();
	test_zombie();
	test_moved();
	test_still();
	return unit_done();
}
