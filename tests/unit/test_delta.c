/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Interval maths: rates, averages, the max, wrap-around of 32-bit counts,
 * saturation, absent data.
 */
#include <config.h>

#include "delta.h"
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

static void test_rates(void)
{
	struct ts_reading a = reading(10, 1000000000, 5, 0);
	struct ts_reading b = reading(30, 1500000000, 9, 200000000);
	/* the longest io wait grew from 5 ms to 9 ms in the interval */
	a.d[CAT_IO].max_ns = 5000000;
	b.d[CAT_IO].max_ns = 9000000;
	a.run_real_ns = 0;
	b.run_real_ns = 250000000;
	struct row r;
	delta_row(&a, &b, 2.0, ALL, &r);
	CHECK(r.d[CAT_CPU].avail);
	CHECK_NEAR(r.d[CAT_CPU].pct, 25.0, 1e-9);        /* 0.5 s of 2 s */
	CHECK_EQ_U(r.d[CAT_CPU].count, 20);
	CHECK(r.d[CAT_CPU].have_avg);
	CHECK_NEAR(r.d[CAT_CPU].avg_ms, 25.0, 1e-9);     /* 500 ms / 20 */
	CHECK_NEAR(r.d[CAT_IO].pct, 10.0, 1e-9);
	CHECK_EQ_U(r.d[CAT_IO].count, 4);
	CHECK_NEAR(r.d[CAT_IO].avg_ms, 50.0, 1e-9);
	CHECK(r.d[CAT_IO].have_max);
	CHECK_NEAR(r.d[CAT_IO].max_ms, 9.0, 1e-9);      /* the new max, not 5 */
	CHECK(r.have_cpu_pct);
	CHECK_NEAR(r.cpu_pct, 12.5, 1e-9);
	CHECK_NEAR(r.total_pct, 35.0, 1e-9);
	/* no events: no average, but a true 0 % */
	CHECK(r.d[CAT_SWAP].avail);
	CHECK(!r.d[CAT_SWAP].have_avg);
	CHECK_NEAR(r.d[CAT_SWAP].pct, 0.0, 0);
}

static void test_absent(void)
{
	struct ts_reading a = reading(1, 1, 1, 1), b = reading(2, 2, 2, 2);
	b.have &= ~(1u << CAT_IRQ);     /* an older kernel */
	b.have_max = 0;                 /* version < 16 */
	struct row r;
	delta_row(&a, &b, 1.0, ALL, &r);
	CHECK(!r.d[CAT_IRQ].avail);
	CHECK(!r.d[CAT_IO].have_max);
	/* delay accounting off for this task: only cpu */
	delta_row(&a, &b, 1.0, 1u << CAT_CPU, &r);
	CHECK(r.d[CAT_CPU].avail);
	for (int c = 1; c < NCAT; c++)
		CHECK(!r.d[c].avail);
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
	delta_row(&a, &b, 1.0, ALL, &r);
	CHECK_EQ_U(r.d[CAT_IO].count, 5);
	/* a total that went backwards (the kernel saturates to 0) is no figure */
	b.d[CAT_IO].total_ns = 0;
	delta_row(&a, &b, 1.0, ALL, &r);
	CHECK(!r.d[CAT_IO].avail);
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
	delta_row(&a, &b, 2.0, ALL, &r);
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
	delta_row(NULL, &b, 1.0, ALL, &r);
	CHECK_NEAR(r.d[CAT_CPU].pct, 40.0, 1e-9);
	CHECK_EQ_U(r.d[CAT_CPU].count, 4);
	/* zero-length interval: nothing is made up */
	delta_row(NULL, &b, 0.0, ALL, &r);
	CHECK(!r.d[CAT_CPU].avail);
	CHECK(!r.have_cpu_pct);
}

int main(void)
{
	test_rates();
	test_absent();
	test_wrap();
	test_count_reset();
	test_from_zero();
	return unit_done();
}
