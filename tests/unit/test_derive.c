/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A task's figures from a sequence of readings alone (model/derive.h):
 * a plain interval, a counter that went back, a reading carried over
 * unasked, an exit record, -a over several readings, a thread bound by
 * its age, and the bound of a thread's previous wait. Every expected
 * figure is worked out by hand next to it.
 */
#include <config.h>

#include <string.h>

#include "model/categories.h"
#include "model/derive.h"
#include "unit.h"

static const uint32_t ALL = (1u << NCAT) - 1;

/* A reading of task 42 with every category given and true. */
static struct task_reading reading(unsigned flags, double asked_at, double at)
{
	struct task_reading r;
	memset(&r, 0, sizeof(r));
	r.id = 42;
	r.tgid = 42;
	r.start = 1234;
	r.asked_at = asked_at;
	r.at = at;
	r.first_seen = 50.0;
	r.have = ALL;
	r.have_max = ALL;
	r.cats = ALL;
	r.flags = flags;
	return r;
}

static void set(struct task_reading *r, enum cat c, uint64_t count,
		uint64_t total_ns, uint64_t max_ns)
{
	r->d[c].count = count;
	r->d[c].total_ns = total_ns;
	r->d[c].max_ns = max_ns;
}

/* A window of dt seconds ending at now, the previous sample at now - dt. */
static struct derive_window window(uint64_t round, double now, double dt)
{
	struct derive_window w = { .round = round, .now = now, .dt = dt,
				   .prev_time = now - dt };
	return w;
}

static void test_plain(void)
{
	struct derive_state s = { 0 };
	struct task_reading r0 = reading(0, 99.9, 100.0);
	set(&r0, CAT_CPU, 10, 1000000000, 0);
	set(&r0, CAT_IO, 5, 0, 0);
	struct delta iv;
	struct derive_window w = window(2, 102.0, 2.0);

	/* the first reading is a base only: nothing to show yet */
	CHECK(!derive_interval(&s, &r0, &w, &iv));
	derive_rebase(&s, &r0);
	CHECK(s.have_prev);
	CHECK_NEAR(s.prev_at, 99.9, 0);

	struct task_reading r1 = reading(0, 101.9, 102.0);
	set(&r1, CAT_CPU, 30, 1500000000, 0);
	set(&r1, CAT_IO, 9, 200000000, 0);
	r1.run_ns = 250000001;
	CHECK(derive_interval(&s, &r1, &w, &iv));
	struct row row;
	memset(&row, 0, sizeof(row));
	CHECK_EQ_U(derive_figures(&iv, &r1, &w, &row), 0);
	/* cpu: 0.5 s of delay in 2 s = 25 %, 20 waits, 500 ms / 20 = 25 ms */
	CHECK(row.d[CAT_CPU].avail);
	CHECK_NEAR(row.d[CAT_CPU].pct, 25.0, 1e-9);
	CHECK_EQ_U(row.d[CAT_CPU].count, 20);
	CHECK_NEAR(row.d[CAT_CPU].avg_ms, 25.0, 1e-9);
	/* io: 0.2 s in 2 s = 10 %, 4 waits of 50 ms */
	CHECK_NEAR(row.d[CAT_IO].pct, 10.0, 1e-9);
	CHECK_EQ_U(row.d[CAT_IO].count, 4);
	CHECK_NEAR(row.d[CAT_IO].avg_ms, 50.0, 1e-9);
	/* a process record's max is one thread's: no max */
	CHECK(!row.d[CAT_IO].have_max);
	/* run: 250000001 ns of 2 s = 12.50000005 % */
	CHECK(row.have_cpu_pct);
	CHECK_NEAR(row.cpu_pct, 12.50000005, 1e-9);
	/* TOTAL: cpu + io = 35, no cap (threads unknown) */
	CHECK_NEAR(row.total_pct, 35.0, 1e-9);
	/* first seen at 50: 52 s old, not new */
	CHECK_NEAR(row.age, 52.0, 1e-9);
	CHECK(!(row.flags & ROW_NEW));

	/*
	 * The same process, its 2 threads steady, 0.25 s old: they lived
	 * 2 x 0.25 = 0.5 s of the 2, 25 %, which caps TOTAL (35 -> 25);
	 * first seen at 101, after the previous sample (100): new, 1 s old.
	 */
	struct derive_state s2 = { 0 };
	derive_rebase(&s2, &r0);
	r1.flags = READING_STEADY;
	r1.threads = 2;
	r1.age = 0.25;
	r1.first_seen = 101.0;
	CHECK(derive_interval(&s2, &r1, &w, &iv));
	memset(&row, 0, sizeof(row));
	CHECK_EQ_U(derive_figures(&iv, &r1, &w, &row), 0);
	CHECK_NEAR(row.total_pct, 25.0, 1e-9);
	CHECK(row.flags & ROW_NEW);
	CHECK_NEAR(row.age, 1.0, 1e-9);
	/* the count unknown to have stayed: no cap, TOTAL 35 again */
	r1.flags = 0;
	memset(&row, 0, sizeof(row));
	derive_figures(&iv, &r1, &w, &row);
	CHECK_NEAR(row.total_pct, 35.0, 1e-9);
	derive_free(&s);
	derive_free(&s2);
}

static void test_went_back(void)
{
	struct derive_state s = { 0 };
	struct task_reading r0 = reading(0, 9.9, 10.0);
	set(&r0, CAT_CPU, 10, 1000000000, 0);
	set(&r0, CAT_IO, 5, 200000000, 0);
	derive_rebase(&s, &r0);

	/* io's total went back (2e8 -> 1e8): no figure, counted as dropped */
	struct task_reading r1 = reading(0, 11.9, 12.0);
	set(&r1, CAT_CPU, 12, 1100000000, 0);
	set(&r1, CAT_IO, 6, 100000000, 0);
	struct derive_window w = window(2, 12.0, 2.0);
	struct delta iv;
	struct row row;
	memset(&row, 0, sizeof(row));
	CHECK(derive_interval(&s, &r1, &w, &iv));
	CHECK_EQ_U(derive_figures(&iv, &r1, &w, &row), 1);
	CHECK(row.d[CAT_IO].dropped);
	CHECK(!row.d[CAT_IO].avail);
	/* cpu still stands: 0.1 s of 2 s = 5 %, 2 waits */
	CHECK(row.d[CAT_CPU].avail);
	CHECK_NEAR(row.d[CAT_CPU].pct, 5.0, 1e-9);
	CHECK_EQ_U(row.d[CAT_CPU].count, 2);
	/* the dropped figure counts for nothing in TOTAL: 5 */
	CHECK_NEAR(row.total_pct, 5.0, 1e-9);
	derive_free(&s);
}

static void test_carried(void)
{
	struct derive_state s = { 0 };
	unsigned thread = READING_OWN | READING_ONE;
	struct task_reading r0 = reading(thread, 9.9, 10.0);
	set(&r0, CAT_CPU, 3, 30000000, 0);
	set(&r0, CAT_SWAP, 1, 5000000, 5000000);
	r0.run_ns = 7000000;
	derive_rebase(&s, &r0);

	/* not asked: its counters are not repeated (zero here) */
	struct task_reading r1 = reading(thread | READING_CARRIED, 11.9, 12.0);
	r1.cats = ALL & ~(1u << CAT_IRQ); /* irq not true for it */
	struct derive_window w = window(2, 12.0, 2.0);
	struct delta iv;
	struct row row;
	memset(&row, 0, sizeof(row));
	CHECK(derive_interval(&s, &r1, &w, &iv));
	CHECK_EQ_U(derive_figures(&iv, &r1, &w, &row), 0);
	/* nothing moved: true zeros, never a difference from the zeros */
	CHECK(row.d[CAT_CPU].avail);
	CHECK_NEAR(row.d[CAT_CPU].pct, 0.0, 0);
	CHECK_EQ_U(row.d[CAT_CPU].count, 0);
	CHECK(row.d[CAT_SWAP].avail && row.d[CAT_SWAP].have_count);
	CHECK_NEAR(row.d[CAT_SWAP].pct, 0.0, 0);
	CHECK(!row.d[CAT_IRQ].avail);
	CHECK(row.have_cpu_pct);
	CHECK_NEAR(row.cpu_pct, 0.0, 0);
	/* and the base stands; only when it was read moves */
	derive_rebase(&s, &r1);
	CHECK_EQ_U(s.prev.d[CAT_CPU].count, 3);
	CHECK_EQ_U(s.prev.d[CAT_SWAP].total_ns, 5000000);
	CHECK_EQ_U(s.prev.run_ns, 7000000);
	CHECK_NEAR(s.prev_at, 11.9, 0);
	derive_free(&s);
}

static void test_exit_record(void)
{
	struct derive_state s = { 0 };
	unsigned thread = READING_OWN | READING_ONE;
	struct task_reading r0 = reading(thread, 9.9, 10.0);
	set(&r0, CAT_CPU, 2, 100000000, 0);
	set(&r0, CAT_IO, 0, 0, 0);
	derive_rebase(&s, &r0);

	/*
	 * It ended half a second after it began (its record's elapsed
	 * time: age 0.5), the record read at 10.7. In it: 4 more cpu waits
	 * of 0.4 s, one io wait of 0.2 s that set its lifetime max.
	 */
	struct task_reading r1 = reading(thread | READING_FINAL | READING_ENDED,
					 10.7, 10.7);
	r1.age = 0.5;
	set(&r1, CAT_CPU, 6, 500000000, 0);
	set(&r1, CAT_IO, 1, 200000000, 200000000);
	struct derive_window w = window(2, 12.0, 2.0);
	struct delta iv;
	struct row row;
	memset(&row, 0, sizeof(row));
	CHECK(derive_interval(&s, &r1, &w, &iv));
	CHECK_EQ_U(derive_figures(&iv, &r1, &w, &row), 0);
	/* cpu: 0.4 s of 2 = 20 %; io 0.2 s = 10 %, its max 200 ms */
	CHECK_NEAR(row.d[CAT_CPU].pct, 20.0, 1e-9);
	CHECK_EQ_U(row.d[CAT_CPU].count, 4);
	CHECK_NEAR(row.d[CAT_IO].pct, 10.0, 1e-9);
	CHECK(row.d[CAT_IO].have_max);
	CHECK_NEAR(row.d[CAT_IO].max_ms, 200.0, 1e-9);
	/*
	 * TOTAL: cpu + io = 30, but the thread lived 0.5 s of the 2 s
	 * window, 25 %: held to 25
	 */
	CHECK_NEAR(row.total_pct, 25.0, 1e-9);
	/* its wait dated: ended after the previous reading began (9.9) */
	CHECK_NEAR(s.wait_lo[CAT_IO], 9.9, 0);
	/* the record is the base from now on, whatever was asked of it */
	derive_rebase(&s, &r1);
	CHECK_EQ_U(s.prev.d[CAT_CPU].count, 6);
	CHECK(s.prev.kind == TS_KIND_PID);
	derive_free(&s);
}

static void test_accumulate(void)
{
	struct derive_state s = { 0 };
	struct task_reading r = reading(0, 99.9, 100.0);
	set(&r, CAT_CPU, 10, 1000000000, 0);
	derive_rebase(&s, &r);

	struct derive_window w = window(2, 102.0, 2.0);
	w.accumulate = true;
	w.start = 100.0;
	struct delta iv;
	struct row row;

	/* round 2: 2 waits, 0.2 s */
	r = reading(0, 101.9, 102.0);
	set(&r, CAT_CPU, 12, 1200000000, 0);
	CHECK(derive_interval(&s, &r, &w, &iv));
	CHECK_EQ_U(iv.d[CAT_CPU].count, 2);
	/* asked again in the same round: added once only */
	CHECK(derive_interval(&s, &r, &w, &iv));
	CHECK_EQ_U(iv.d[CAT_CPU].count, 2);
	CHECK_EQ_U(iv.d[CAT_CPU].total_ns, 200000000);
	derive_rebase(&s, &r);

	/* round 3: no reading (vanished for now): the window stands */
	w = window(3, 104.0, 2.0);
	w.accumulate = true;
	w.start = 100.0;
	CHECK(derive_interval(&s, NULL, &w, &iv));
	CHECK_EQ_U(iv.d[CAT_CPU].count, 2);

	/* round 4: 3 more waits, 0.6 s */
	w = window(4, 106.0, 2.0);
	w.accumulate = true;
	w.start = 100.0;
	r = reading(0, 105.9, 106.0);
	set(&r, CAT_CPU, 15, 1800000000, 0);
	CHECK(derive_interval(&s, &r, &w, &iv));
	memset(&row, 0, sizeof(row));
	CHECK_EQ_U(derive_figures(&iv, &r, &w, &row), 0);
	/*
	 * the window: 100 to 106, 6 s; 5 waits, 0.8 s: 13.33 %, 160 ms
	 * each (the interval's 2 s are not what it is divided by)
	 */
	CHECK_EQ_U(row.d[CAT_CPU].count, 5);
	CHECK_NEAR(row.d[CAT_CPU].pct, 0.8 / 6.0 * 100.0, 1e-9);
	CHECK_NEAR(row.d[CAT_CPU].avg_ms, 160.0, 1e-9);
	derive_rebase(&s, &r);

	/* another task: io goes back, dropped, and stays so in the window */
	struct derive_state s2 = { 0 };
	r = reading(0, 99.9, 100.0);
	set(&r, CAT_IO, 3, 300000000, 0);
	derive_rebase(&s2, &r);
	w = window(2, 102.0, 2.0);
	w.accumulate = true;
	w.start = 100.0;
	set(&r, CAT_IO, 3, 100000000, 0);
	CHECK(derive_interval(&s2, &r, &w, &iv));
	CHECK(iv.d[CAT_IO].flags & DELTA_DROPPED);
	derive_rebase(&s2, &r);
	w = window(3, 104.0, 2.0);
	w.accumulate = true;
	w.start = 100.0;
	set(&r, CAT_IO, 4, 200000000, 0);
	CHECK(derive_interval(&s2, &r, &w, &iv));
	memset(&row, 0, sizeof(row));
	CHECK_EQ_U(derive_figures(&iv, &r, &w, &row), 1);
	CHECK(row.d[CAT_IO].dropped);
	derive_free(&s);
	derive_free(&s2);
}

/* One io wait of total_ns by a thread of that age: dropped? */
static unsigned one_io_wait(double age, unsigned flags, uint64_t total_ns)
{
	struct derive_state s = { 0 };
	struct task_reading r = reading(flags, 9.9, 10.0);
	derive_rebase(&s, &r);
	r = reading(flags, 11.9, 12.0);
	r.age = age;
	set(&r, CAT_IO, 1, total_ns, total_ns);
	struct derive_window w = window(2, 12.0, 2.0);
	struct delta iv;
	struct row row;
	memset(&row, 0, sizeof(row));
	CHECK(derive_interval(&s, &r, &w, &iv));
	unsigned dropped = derive_figures(&iv, &r, &w, &row);
	if (!dropped)
		CHECK_NEAR(row.d[CAT_IO].pct, (double)total_ns / 2e9 * 100, 1e-9);
	derive_free(&s);
	return dropped;
}

static void test_age_bound(void)
{
	unsigned thread = READING_OWN | READING_ONE;
	/*
	 * A thread 1 s old waits at most (1 x 1.01 + 0.002) s = 1.012 s
	 * (delta.c's slack for the clocks): 1.5 s is impossible...
	 */
	CHECK_EQ_U(one_io_wait(1.0, thread, 1500000000), 1);
	/* ... and 1.011 s is not */
	CHECK_EQ_U(one_io_wait(1.0, thread, 1011000000), 0);
	/* 3 s old: 1.5 s passes, 75 % of the 2 s window */
	CHECK_EQ_U(one_io_wait(3.0, thread, 1500000000), 0);
}

static void test_since_bound(void)
{
	unsigned thread = READING_OWN | READING_ONE;
	struct derive_state s = { 0 };
	struct task_reading r = reading(thread, 10.0, 10.1);
	derive_rebase(&s, &r);

	/* one io wait of 0.5 s counted in the reading at 12 */
	r = reading(thread, 11.9, 12.0);
	set(&r, CAT_IO, 1, 500000000, 500000000);
	struct derive_window w = window(2, 12.0, 2.0);
	struct delta iv;
	CHECK(derive_interval(&s, &r, &w, &iv));
	CHECK(iv.d[CAT_IO].flags & DELTA_AVAIL);
	/* it ended after the previous reading's query began, at 10.0 */
	CHECK_NEAR(s.wait_lo[CAT_IO], 10.0, 0);
	derive_rebase(&s, &r);

	/*
	 * The next io wait began after that one ended, after 10.0: at the
	 * reading at 14.0 it can have lasted (4.0 x 1.01 + 0.002) s =
	 * 4.042 s at most, whatever the thread's age (unknown here).
	 */
	struct derive_state keep = s;
	r = reading(thread, 13.9, 14.0);
	set(&r, CAT_IO, 2, 500000000 + 4500000000ull, 4500000000ull);
	w = window(3, 14.0, 2.0);
	CHECK(derive_interval(&s, &r, &w, &iv));
	CHECK(iv.d[CAT_IO].flags & DELTA_DROPPED);
	/* a dropped wait dates nothing */
	CHECK_NEAR(s.wait_lo[CAT_IO], 10.0, 0);
	/* 4.0 s fits, and dates the next wait: after 11.9 */
	s = keep;
	set(&r, CAT_IO, 2, 500000000 + 4000000000ull, 4000000000ull);
	CHECK(derive_interval(&s, &r, &w, &iv));
	CHECK(iv.d[CAT_IO].flags & DELTA_AVAIL);
	CHECK_EQ_U(iv.d[CAT_IO].total_ns, 4000000000ull);
	CHECK_NEAR(s.wait_lo[CAT_IO], 11.9, 0);
	/* a process's threads wait side by side: no such bound, 4.5 s passes */
	s = keep;
	r.flags = 0;
	set(&r, CAT_IO, 2, 500000000 + 4500000000ull, 4500000000ull);
	CHECK(derive_interval(&s, &r, &w, &iv));
	CHECK(iv.d[CAT_IO].flags & DELTA_AVAIL);
	derive_free(&s);
}

int main(void)
{
	test_plain();
	test_went_back();
	test_carried();
	test_exit_record();
	test_accumulate();
	test_age_bound();
	test_since_bound();
	return unit_done();
}
