/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Pid reuse through the monitor's notification handlers: process A (pid
 * 500, known from a scan, read once) ends and process B takes its pid
 * two milliseconds later. Fork and exit events and exit records carry no
 * /proc start time and come on two sockets read in any order; whatever
 * the order, A's and B's figures must stay on two entries, each life's
 * exit record on its own. And tasks found together were first seen at
 * one time.
 *
 * The clocks: the boot clock is 5 s ahead of the monotonic one (the
 * machine slept), the wall clock read 1700000000 at boot.
 */
#include <config.h>

#include <stdlib.h>

#include "kernel/proc_conn.h"
#include "kernel/procinfo.h"
#include "live/monitor_int.h"
#include "live/tasktable.h"
#include "unit.h"

#define PID 500
#define SLEPT_MS 5000ULL
#define EPOCH 1700000000ULL

/* A starts at 100 s (boot clock) and ends at 110 s; B starts at 110.002 s. */
#define A_START 100000
#define A_END 110000
#define B_START 110002

/* cpu counts that tell whose figures an entry holds */
#define A_READ 10      /* A at its last reading */
#define A_FINAL 77     /* A's exit record */
#define B_FINAL 5      /* B's exit record */

static const uint64_t MS = 1000000ULL;

/* The clocks at boot-clock time ms. */
static void clocks_at(struct monitor *m, uint64_t ms)
{
	m->clk.boot_ns = ms * MS;
	m->clk.mono_ns = (ms - SLEPT_MS) * MS;
	m->clk.real_ns = (EPOCH * 1000 + ms) * MS;
}

static struct monitor *monitor_fake(void)
{
	struct monitor *m = calloc(1, sizeof(*m));
	m->procs = tasktable_new();
	m->delayacct = 1;
	m->kernel_cats = (1u << NCAT) - 1;
	return m;
}

static void monitor_fake_free(struct monitor *m)
{
	tasktable_free(m->procs);
	free(m);
}

/* The scan finds A; a reading has answered for it. */
static struct task *scan_a(struct monitor *m)
{
	struct pi_task a = { PID, PID,
			     (unsigned long long)A_START * procinfo_hertz() / 1000 };
	readings_on_scanned(m, &a, false);
	struct task *k = tasktable_find(m->procs, PID);
	CHECK(k != NULL);
	if (!k)
		exit(1);
	k->ds.prev.d[CAT_CPU].count = A_READ;
	k->ds.have_prev = true;
	k->answered = true;
	return k;
}

static void event(struct monitor *m, enum pc_type type, uint64_t ms)
{
	struct pc_event ev = { .type = type, .pid = PID, .tgid = PID,
			       .timestamp_ns = (ms - SLEPT_MS) * MS };
	events_on_event(m, &ev);
}

/* The exit record of a single-threaded process, as the kernel fills it. */
static void record(struct monitor *m, uint64_t start_ms, uint64_t end_ms,
		   uint64_t cpu_count)
{
	struct ts_reading r = { .kind = TS_KIND_PID, .id = PID, .version = 16,
				.flag = 0x20 /* AGROUP */, .pid = PID,
				.tgid = PID, .have_tgid = true,
				.have_basic = true };
	/* ac_btime: the wall clock's second at exit, less whole seconds lived */
	r.btime = EPOCH + end_ms / 1000 - (end_ms - start_ms) / 1000;
	r.etime_us = (end_ms - start_ms) * 1000;
	r.have = 1u << CAT_CPU;
	r.d[CAT_CPU].count = cpu_count;
	events_on_exit_record(m, &r);
}

struct count_ctx {
	size_t n;
	struct task *with[4];
};

static void collect(struct task *k, void *arg)
{
	struct count_ctx *c = arg;
	if (k->id == PID && c->n < 4)
		c->with[c->n] = k;
	c->n++;
}

/* The retired entry whose cpu count is count, or NULL. */
static struct task *retired_with(struct monitor *m, uint64_t count)
{
	struct count_ctx c = { 0 };
	tasktable_foreach_retired(m->procs, collect, &c);
	for (size_t i = 0; i < c.n && i < 4; i++)
		if (c.with[i] && c.with[i]->have_cur &&
		    c.with[i]->cur->d[CAT_CPU].count == count)
			return c.with[i];
	return NULL;
}

/* Fork event of B before A's exit record (with or without A's exit event). */
static void fork_first(bool exit_event)
{
	struct monitor *m = monitor_fake();
	clocks_at(m, 99000);
	struct task *a = scan_a(m);

	clocks_at(m, B_START + 1);
	if (exit_event)
		event(m, PC_EXIT, A_END);
	event(m, PC_FORK, B_START);
	struct task *b = tasktable_find(m->procs, PID);
	CHECK(b && b != a);
	CHECK(b && !b->exited && !b->have_cur);
	/* A is retired as exited with what it had */
	CHECK_EQ_U(tasktable_retired_count(m->procs), 1);
	CHECK(a->exited && a->have_cur && !a->have_final);
	CHECK_EQ_U(a->cur->d[CAT_CPU].count, A_READ);

	/* then A's exit record: A's, not B's */
	clocks_at(m, B_START + 2);
	record(m, A_START, A_END, A_FINAL);
	events_records_done(m);
	CHECK(a->have_final);
	CHECK_EQ_U(a->cur->d[CAT_CPU].count, A_FINAL);
	CHECK(tasktable_find(m->procs, PID) == b);
	CHECK(b && !b->exited && !b->have_cur);
	CHECK_EQ_U(tasktable_retired_count(m->procs), 1);

	/* B ends at 110.5 s: its record is B's own */
	clocks_at(m, 110600);
	record(m, B_START, 110500, B_FINAL);
	events_records_done(m);
	CHECK(tasktable_find(m->procs, PID) == NULL);
	CHECK_EQ_U(tasktable_retired_count(m->procs), 2);
	CHECK(retired_with(m, A_FINAL) == a);
	CHECK(retired_with(m, B_FINAL) == b);
	monitor_fake_free(m);
}

/* A's exit record, then B's fork event. */
static void record_first(void)
{
	struct monitor *m = monitor_fake();
	clocks_at(m, 99000);
	struct task *a = scan_a(m);

	clocks_at(m, A_END + 1);
	record(m, A_START, A_END, A_FINAL);
	events_records_done(m);
	CHECK(tasktable_find(m->procs, PID) == NULL);
	CHECK(a->have_final && a->exited);
	CHECK_EQ_U(a->cur->d[CAT_CPU].count, A_FINAL);

	clocks_at(m, B_START + 1);
	event(m, PC_EXIT, A_END);
	event(m, PC_FORK, B_START);
	struct task *b = tasktable_find(m->procs, PID);
	CHECK(b && b != a && !b->exited);
	CHECK_EQ_U(tasktable_retired_count(m->procs), 1);

	clocks_at(m, 110600);
	record(m, B_START, 110500, B_FINAL);
	events_records_done(m);
	CHECK(retired_with(m, A_FINAL) == a);
	CHECK(retired_with(m, B_FINAL) == b);
	CHECK_EQ_U(tasktable_retired_count(m->procs), 2);
	monitor_fake_free(m);
}

/*
 * B lives 8 ms; both exit records are read before the connector's
 * events: B's before A's (another CPU's socket first), or A's first.
 * B's start (its row's) is first bounded by its record, read 10 ms after
 * it ended, then by its fork event.
 */
static void new_record_before_its_fork(bool b_first)
{
	struct monitor *m = monitor_fake();
	clocks_at(m, 99000);
	struct task *a = scan_a(m);

	clocks_at(m, 110020);
	if (b_first) {
		record(m, B_START, 110010, B_FINAL);
		/* B's record is not A's: A is retired with what it had */
		CHECK(a->exited && !a->have_final);
		CHECK_EQ_U(a->cur->d[CAT_CPU].count, A_READ);
		record(m, A_START, A_END, A_FINAL);
	} else {
		record(m, A_START, A_END, A_FINAL);
		record(m, B_START, 110010, B_FINAL);
	}
	events_records_done(m);
	CHECK(a->have_final);
	CHECK_EQ_U(a->cur->d[CAT_CPU].count, A_FINAL);
	struct task *b = retired_with(m, B_FINAL);
	CHECK(b && b != a && b->have_final);
	CHECK(tasktable_find(m->procs, PID) == NULL);
	/* B began at most its elapsed time before its record was read */
	CHECK(b && b->born.hi == (110020 - (110010 - B_START)) * MS);

	/* the connector's events of both lives come last */
	clocks_at(m, 110021);
	event(m, PC_EXIT, A_END);
	event(m, PC_FORK, B_START);
	event(m, PC_EXIT, 110010);
	/* B's life is over: its fork event makes no live entry */
	CHECK(tasktable_find(m->procs, PID) == NULL);
	CHECK_EQ_U(tasktable_retired_count(m->procs), 2);
	CHECK(retired_with(m, A_FINAL) == a);
	CHECK(retired_with(m, B_FINAL) == b);
	/* its fork event, dated by the kernel, tells its start closer */
	CHECK(b && b->born.hi == B_START * MS);

	/* a third life after them is a new entry again */
	clocks_at(m, 120001);
	event(m, PC_FORK, 120000);
	struct task *c = tasktable_find(m->procs, PID);
	CHECK(c && c != a && c != b && !c->exited);
	monitor_fake_free(m);
}

/* A process's last thread's record, then its group's in the same message. */
static void group_record(void)
{
	struct monitor *m = monitor_fake();
	clocks_at(m, 99000);
	struct task *a = scan_a(m);
	clocks_at(m, B_START + 1);
	event(m, PC_EXIT, A_END);
	event(m, PC_FORK, B_START);
	struct task *b = tasktable_find(m->procs, PID);

	clocks_at(m, B_START + 2);
	/* thread 501 of A, which began at 105 s, ended last */
	struct ts_reading r = { .kind = TS_KIND_PID, .id = 501, .version = 16,
				.flag = 0x20, .pid = 501, .tgid = PID,
				.have_tgid = true, .have_basic = true };
	r.btime = EPOCH + 110 - 5;
	r.etime_us = 5000000;
	r.d[CAT_CPU].count = 3;
	events_on_exit_record(m, &r);
	struct ts_reading g = { .kind = TS_KIND_TGID, .id = PID, .version = 16 };
	g.d[CAT_CPU].count = A_FINAL;
	events_on_exit_record(m, &g);
	events_records_done(m);
	CHECK(a->have_final && a->cur->kind == TS_KIND_TGID);
	CHECK_EQ_U(a->cur->d[CAT_CPU].count, A_FINAL);
	CHECK(tasktable_find(m->procs, PID) == b && !b->have_cur);
	monitor_fake_free(m);
}

/* Scans only: the next scan finds the pid with B's start time. */
static void scan_finds_new_start(void)
{
	struct monitor *m = monitor_fake();
	clocks_at(m, 99000);
	struct task *a = scan_a(m);
	/*
	 * The last reading began at 110.004 s; B began at 110.005 s, in the
	 * same clock tick: its start in ticks alone says "before".
	 */
	m->prev_time = 1;
	m->prev_boot = 110.004;
	m->gen++;
	struct pi_task b = { PID, PID,
			     (unsigned long long)110000 * procinfo_hertz() / 1000 };
	readings_on_scanned(m, &b, false);
	struct task *k = tasktable_find(m->procs, PID);
	CHECK(k && k != a);
	/* A was read at the last reading: B began after it, from zero */
	CHECK(k && k->ds.have_prev && k->ds.prev.d[CAT_CPU].count == 0);
	/* A still shows its last interval, as exited, with what it had */
	CHECK(a->exited && a->have_cur && a->ds.have_prev);
	CHECK_EQ_U(a->cur->d[CAT_CPU].count, A_READ);
	CHECK_EQ_U(tasktable_retired_count(m->procs), 1);

	/* the same start again: the same task */
	readings_on_scanned(m, &b, false);
	CHECK(tasktable_find(m->procs, PID) == k);
	CHECK_EQ_U(tasktable_retired_count(m->procs), 1);
	monitor_fake_free(m);
}

/* A scan that found B before its fork event was read. */
static void scan_before_fork(void)
{
	struct monitor *m = monitor_fake();
	clocks_at(m, B_START + 40);
	struct pi_task b = { PID, PID,
			     (unsigned long long)B_START * procinfo_hertz() / 1000 };
	readings_on_scanned(m, &b, false);
	struct task *k = tasktable_find(m->procs, PID);
	event(m, PC_FORK, B_START);
	CHECK(tasktable_find(m->procs, PID) == k);
	CHECK(k && k->forked && !k->exited);
	CHECK_EQ_U(tasktable_retired_count(m->procs), 0);
	monitor_fake_free(m);
}

/*
 * Lives too close to tell apart by time: a scan found A in the same clock
 * tick as B's fork. The connector tells A's exit before B's fork: B is
 * a new life all the same.
 */
static void close_lives(void)
{
	struct monitor *m = monitor_fake();
	clocks_at(m, 110001);
	struct pi_task a = { PID, PID,
			     (unsigned long long)110000 * procinfo_hertz() / 1000 };
	readings_on_scanned(m, &a, false);
	struct task *ka = tasktable_find(m->procs, PID);
	clocks_at(m, 110003);
	event(m, PC_EXIT, 110001);
	event(m, PC_FORK, 110002);
	struct task *kb = tasktable_find(m->procs, PID);
	CHECK(kb && kb != ka && !kb->exited);
	CHECK(ka && ka->exited);
	CHECK_EQ_U(tasktable_retired_count(m->procs), 1);
	monitor_fake_free(m);
}

/*
 * Tasks found by one scan, or one drain of events, were first seen when
 * it began: one time for all of them (a recording writes it once).
 */
static void seen_together(void)
{
	struct monitor *m = monitor_fake();
	clocks_at(m, B_START);
	m->found_at = 5.0;
	for (int i = 0; i < 2; i++) {
		struct pi_task t = { PID + i, PID + i,
				     (unsigned long long)A_START *
				     procinfo_hertz() / 1000 };
		readings_on_scanned(m, &t, false);
	}
	m->found_at = 6.0;
	struct pc_event ev = { .type = PC_FORK, .pid = PID + 2,
			       .tgid = PID + 2,
			       .timestamp_ns = (B_START - SLEPT_MS) * MS };
	events_on_event(m, &ev);
	for (int i = 0; i < 3; i++) {
		struct task *k = tasktable_find(m->procs, PID + i);
		CHECK(k != NULL);
		CHECK(k && k->first_seen == (i < 2 ? 5.0 : 6.0));
	}
	monitor_fake_free(m);
}

int main(void)
{
	fork_first(true);
	fork_first(false);
	record_first();
	new_record_before_its_fork(true);
	new_record_before_its_fork(false);
	group_record();
	scan_finds_new_start();
	scan_before_fork();
	close_lives();
	seen_together();
	return unit_done();
}
