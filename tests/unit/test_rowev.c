/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A row's evidence and causes from sample to sample (model/rowev.h),
 * from readings made here: a process spinning under a CPU quota in
 * cgroup /t, read at 10.0 s and 11.0 s (samples 1 and 2).
 *
 * The first sample has current values only; the next has the interval's
 * throttling and forks and the cause "cpu quota"; a second look in the
 * same sample finds it made; a lost fork event, other cgroups, a skipped
 * sample, a group the row did not want the sample before each take away
 * what they must and nothing else; a cgroup row's
 * evidence is made the same way.
 */
#include <config.h>

#include <stdio.h>
#include <string.h>

#include "model/rowev.h"
#include "unit.h"

/*
 * The reading at `when`: cpu.max 20000/100000 (a fifth of a CPU),
 * cumulative periods, throttled periods and time as given, forks so far.
 */
static struct store_evidence reading(double when, uint64_t periods,
				     uint64_t throttled, uint64_t throttled_us,
				     uint64_t forks, const char *cgroups)
{
	struct store_evidence e = { .id = 42, .start = 1000,
				    .cgroups = cgroups };

	e.r.when = when;
	e.r.cpu.version = 2;
	e.r.cpu.quota_us = (struct kval){ .have = true, .v = 20000 };
	e.r.cpu.period_us = (struct kval){ .have = true, .v = 100000 };
	e.r.cpu.nr_periods = (struct kval){ .have = true, .v = periods };
	e.r.cpu.nr_throttled = (struct kval){ .have = true, .v = throttled };
	e.r.cpu.throttled_us = (struct kval){ .have = true, .v = throttled_us };
	e.r.forks = (struct kval){ .have = true, .v = forks };
	return e;
}

/* A row that waited for the CPU the whole second. */
static void cpu_row(struct row *r)
{
	memset(r, 0, sizeof(*r));
	r->pid = r->tgid = 42;
	r->d[CAT_CPU] = (struct cat_figure){ .pct = 100, .avail = true };
	r->total_pct = 100;
}

static struct rowev_input sample(uint64_t round, uint64_t lost)
{
	return (struct rowev_input){ .round = round, .lost = lost,
				     .interval = 1.0 };
}

/* Samples 1 and 2 of s: the second's evidence. */
static const struct row_why *two(struct rowev_state *s, uint64_t lost2,
				 const char *cg2)
{
	struct store_evidence r1 = reading(10.0, 10, 8, 500000, 3, "0::/t\n");
	struct store_evidence r2 = reading(11.0, 20, 16, 1100000, 7, cg2);
	struct rowev_input in1 = sample(1, 5), in2 = sample(2, lost2);
	struct row row;

	cpu_row(&row);
	memset(s, 0, sizeof(*s));
	rowev_task(s, &r1, &in1, &row);
	return rowev_task(s, &r2, &in2, &row);
}

static void test_first_and_next(void)
{
	struct rowev_state s = { 0 };
	struct store_evidence r1 = reading(10.0, 10, 8, 500000, 3, "0::/t\n");
	struct rowev_input in1 = sample(1, 5);
	const struct row_why *w;
	struct row row;

	cpu_row(&row);
	CHECK(!rowev_have(&s, 1));
	w = rowev_task(&s, &r1, &in1, &row);
	CHECK(w == &s.why && rowev_have(&s, 1) && !rowev_have(&s, 2));
	/* no reading before: current values only, no cause */
	CHECK(w->ev.interval_s == 0);
	CHECK(w->ev.cpu_quota_us.have && w->ev.cpu_quota_us.v == 20000);
	CHECK(!w->ev.cpu_throttled_us.have && !w->ev.forks.have);
	CHECK(w->c[CAT_CPU].stalled && w->c[CAT_CPU].r.cause == WHY_NONE);

	w = two(&s, 5, "0::/t\n");
	/* 11.0 - 10.0 s; 1100000 - 500000 us; 16 - 8; 20 - 10; 7 - 3 */
	CHECK_NEAR(w->ev.interval_s, 1.0, 1e-9);
	CHECK(w->ev.cpu_throttled_us.have);
	CHECK_EQ_U(w->ev.cpu_throttled_us.v, 600000);
	CHECK_EQ_U(w->ev.cpu_throttled_periods.v, 8);
	CHECK_EQ_U(w->ev.cpu_periods.v, 10);
	CHECK(w->ev.forks.have);
	CHECK_EQ_U(w->ev.forks.v, 4);
	/* throttled 0.6 s of the 1 s it waited: the quota binds */
	CHECK(w->c[CAT_CPU].r.cause == WHY_CPU_QUOTA);
	CHECK_STR(w->c[CAT_CPU].text, "cpu quota");
	CHECK(rowev_have(&s, 2));
}

static void test_lost_fork_events(void)
{
	struct rowev_state s;
	/* 2 events lost between the readings: forks unknown, quota stays */
	const struct row_why *w = two(&s, 7, "0::/t\n");

	CHECK(!w->ev.forks.have);
	CHECK(w->ev.cpu_throttled_us.have);
	CHECK_EQ_U(w->ev.cpu_throttled_us.v, 600000);
}

static void test_other_cgroups(void)
{
	struct rowev_state s;
	/* moved to /u: its cgroups' counters are not the ones before */
	const struct row_why *w = two(&s, 5, "0::/u\n");

	CHECK(!w->ev.cpu_throttled_us.have && !w->ev.cpu_periods.have);
	CHECK(w->ev.cpu_quota_us.have);         /* a current value */
	CHECK(w->ev.forks.have && w->ev.forks.v == 4); /* its own part */
	CHECK(w->c[CAT_CPU].r.cause == WHY_NONE);
	/* its cgroups unknown now: no cgroups' interval either */
	w = two(&s, 5, NULL);
	CHECK(!w->ev.cpu_throttled_us.have);
}

static void test_gap(void)
{
	struct rowev_state s = { 0 };
	struct store_evidence r1 = reading(10.0, 10, 8, 500000, 3, "0::/t\n");
	struct store_evidence r3 = reading(12.0, 30, 24, 1700000, 9, "0::/t\n");
	struct rowev_input in1 = sample(1, 5), in3 = sample(3, 5);
	const struct row_why *w;
	struct row row;

	cpu_row(&row);
	rowev_task(&s, &r1, &in1, &row);
	/* not read at sample 2: sample 3 has current values only */
	w = rowev_task(&s, &r3, &in3, &row);
	CHECK(w->ev.interval_s == 0 && !w->ev.cpu_throttled_us.have);
	CHECK(w->c[CAT_CPU].r.cause == WHY_NONE);
}

/* The reading of /t's memory.events high count (another group). */
static void with_mem(struct store_evidence *e, uint64_t high)
{
	e->r.mem.version = 2;
	e->r.mem.ev_high = (struct kval){ .have = true, .v = high };
	e->r.mem.current = (struct kval){ .have = true, .v = 1u << 20 };
}

/*
 * Sample 1: the process stalls on the CPU only, but its reading holds
 * /t's memory part, read that sample for another process in /t; sample
 * 2: it stalls in reclaim too. Its own reading before had no memory
 * part: the interval's memory events are unknown, not the difference
 * from another's reading; the CPU part, read for it both times, has its
 * interval. Wanted both times, the memory part has its interval.
 */
static void test_group_wanted_since(void)
{
	struct store_evidence r1 = reading(10.0, 10, 8, 500000, 3, "0::/t\n");
	struct store_evidence r2 = reading(11.0, 20, 16, 1100000, 7, "0::/t\n");
	struct rowev_input in1 = sample(1, 5), in2 = sample(2, 5);
	struct rowev_state s = { 0 };
	const struct row_why *w;
	struct row row;

	with_mem(&r1, 40);
	with_mem(&r2, 45);
	cpu_row(&row);
	rowev_task(&s, &r1, &in1, &row);
	row.d[CAT_RECLAIM] = (struct cat_figure){ .pct = 50, .avail = true };
	w = rowev_task(&s, &r2, &in2, &row);
	CHECK_NEAR(w->ev.interval_s, 1.0, 1e-9);
	if (w->ev.mem_events_high.have)
		fprintf(stderr, "memory.high events %llu: a difference from "
			"another process's reading\n",
			(unsigned long long)w->ev.mem_events_high.v);
	CHECK(!w->ev.mem_events_high.have);
	CHECK(w->ev.mem_current.have);          /* a current value */
	CHECK(w->ev.cpu_throttled_us.have);
	CHECK_EQ_U(w->ev.cpu_throttled_us.v, 600000);

	/* memory wanted at sample 1 as well: 45 - 40 */
	memset(&s, 0, sizeof(s));
	rowev_task(&s, &r1, &in1, &row);
	w = rowev_task(&s, &r2, &in2, &row);
	CHECK(w->ev.mem_events_high.have);
	CHECK_EQ_U(w->ev.mem_events_high.v, 5);
}

static void test_cgroup_row(void)
{
	struct rowev_state s = { 0 };
	struct store_evidence r1 = reading(10.0, 10, 8, 500000, 0, NULL);
	struct store_evidence r2 = reading(11.0, 20, 16, 1100000, 0, NULL);
	struct rowev_input in1 = sample(1, 5), in2 = sample(2, 9);
	struct cgroup_row g;
	const struct row_why *w;

	memset(&g, 0, sizeof(g));
	g.path = "/t";
	g.d[CAT_CPU] = (struct cat_figure){ .pct = 100, .avail = true };
	g.total_pct = 100;
	r1.id = r2.id = 0;
	r1.cgroup = r2.cgroup = "/t";
	r1.r.forks = r2.r.forks = (struct kval){ .have = false };
	w = rowev_cgroup(&s, &r1, &in1, &g);
	CHECK(w->ev.interval_s == 0 && !w->ev.cpu_throttled_us.have);
	/* a cgroup's counters are its own: the same cgroup each sample */
	w = rowev_cgroup(&s, &r2, &in2, &g);
	CHECK(w->ev.cpu_throttled_us.have);
	CHECK_EQ_U(w->ev.cpu_throttled_us.v, 600000);
	CHECK(w->c[CAT_CPU].r.cause == WHY_CPU_QUOTA);
}

/*
 * r with one device of its cgroup, limited to 1 MB/s read, whose bytes
 * read grew to rbytes.
 */
static void with_dev(struct store_evidence *r, uint64_t rbytes)
{
	r->r.io.version = 2;
	r->r.io.ndev = 1;
	r->r.io.dev[0] = (struct cg_io_dev){
		.major = 8, .minor = 0,
		.rbps = { .have = true, .v = 1000000 },
		.rbytes = { .have = true, .v = rbytes },
	};
}

/*
 * The disks name a row's devices and tell how busy they were only where
 * the row stalled on IO: the live side reads them for those rows alone,
 * after rows that did not may have been made (live/gather.c); a replay
 * has the sample's disks for every row.
 */
static void test_disks_io_rows_only(void)
{
	struct diskstats_dev d1 = { .major = 8, .minor = 0, .name = "sda",
				    .io_ticks_ms = 1000 };
	struct diskstats_dev d2 = d1;
	struct diskstats k1 = { .when = 10.0, .n = 1, .cap = 1, .dev = &d1 };
	struct diskstats k2 = { .when = 11.0, .n = 1, .cap = 1, .dev = &d2 };
	struct store_evidence r1 = reading(10.0, 10, 8, 500000, 3, "0::/t\n");
	struct store_evidence r2 = reading(11.0, 20, 16, 1100000, 7, "0::/t\n");
	struct rowev_input in1 = sample(1, 5), in2 = sample(2, 5);
	struct rowev_state s = { 0 };
	const struct row_why *w;
	struct row row;

	d2.io_ticks_ms = 1500;
	with_dev(&r1, 4096);
	with_dev(&r2, 8192);
	in1.disks_cur = &k1;
	in2.disks_prev = &k1;
	in2.disks_cur = &k2;
	cpu_row(&row);
	rowev_task(&s, &r1, &in1, &row);
	w = rowev_task(&s, &r2, &in2, &row);
	CHECK(w->ev.n_io_devs == 1 && w->ev.io_devs[0].name[0] == '\0');
	CHECK(w->ev.n_disks == 0);

	memset(&s, 0, sizeof(s));
	row.d[CAT_IO] = (struct cat_figure){ .pct = 50, .avail = true };
	rowev_task(&s, &r1, &in1, &row);
	w = rowev_task(&s, &r2, &in2, &row);
	CHECK(w->ev.n_io_devs == 1 && strcmp(w->ev.io_devs[0].name, "sda") == 0);
	CHECK(w->ev.n_disks == 1);
}

/*
 * A base reading (a baseline's, rowev_base): no causes of its own; the
 * next sample's causes are of the interval from it, the quota's as in
 * any later sample, with no first cause carried from the base.
 */
static void test_base(void)
{
	struct rowev_state s = { 0 };
	struct store_evidence r1 = reading(10.0, 10, 8, 500000, 3, "0::/t\n");
	struct store_evidence r2 = reading(11.0, 20, 16, 1100000, 7, "0::/t\n");
	struct rowev_input in1 = sample(1, 5), in2 = sample(2, 5);
	const struct row_why *w;
	struct row row;

	cpu_row(&row);
	rowev_base(&s, &r1, &in1);
	CHECK(!rowev_have(&s, 1) && !rowev_have(&s, 2));
	w = rowev_task(&s, &r2, &in2, &row);
	CHECK_NEAR(w->ev.interval_s, 1.0, 1e-9);
	CHECK_EQ_U(w->ev.cpu_throttled_periods.v, 8);
	CHECK(w->c[CAT_CPU].r.cause == WHY_CPU_QUOTA);
	/* a base two samples back is none */
	memset(&s, 0, sizeof(s));
	rowev_base(&s, &r1, &in1);
	in2.round = 3;
	w = rowev_task(&s, &r2, &in2, &row);
	CHECK(w->ev.interval_s == 0 && w->c[CAT_CPU].r.cause == WHY_NONE);
}

/*
 * Where each figure was read (model/evorigin.h): on pure v2 every group
 * of the v2 cgroup; on a hybrid host each controller's own v1 cgroup,
 * a root named as such ("blkio:/": no figures), the task states of the
 * v2 cgroup in the tree; on v1, states of name=systemd's; a cgroup row
 * its path in the hierarchy of each version read.
 */
static void test_origin(void)
{
	struct rowev_state s = { 0 };
	struct store_evidence r = reading(10.0, 10, 8, 500000, 3,
					  "0::/system.slice/a.service\n");
	struct rowev_input in = sample(1, 5);
	const struct row_why *w;
	struct row row;

	cpu_row(&row);
	r.r.states.source = CGSTATS_PROC;
	w = rowev_task(&s, &r, &in, &row);
	CHECK_STR(w->ev.cpu_cgroup, "cgroup2:/system.slice/a.service");
	CHECK_STR(w->ev.mem_cgroup, "cgroup2:/system.slice/a.service");
	CHECK_STR(w->ev.io_cgroup, "cgroup2:/system.slice/a.service");
	CHECK_STR(w->ev.states_cgroup, "cgroup2:/system.slice/a.service");

	r.cgroups = "12:pids:/\n8:memory:/m\n5:blkio:/\n"
		    "4:cpu,cpuacct:/c\n1:name=systemd:/u.service\n"
		    "0::/u.service\n";
	memset(&s, 0, sizeof(s));
	w = rowev_task(&s, &r, &in, &row);
	CHECK_STR(w->ev.cpu_cgroup, "cpu:/c");
	CHECK_STR(w->ev.mem_cgroup, "memory:/m");
	CHECK_STR(w->ev.io_cgroup, "blkio:/");
	CHECK_STR(w->ev.states_cgroup, "cgroup2:/u.service");

	/* v1: the v2 line is the root; states of the tree's (name=systemd) */
	r.cgroups = "3:memory:/m\n2:cpu,cpuacct:/\n1:name=systemd:/s.scope\n"
		    "0::/\n";
	r.r.states.source = CGSTATS_KERNEL;
	memset(&s, 0, sizeof(s));
	w = rowev_task(&s, &r, &in, &row);
	CHECK_STR(w->ev.cpu_cgroup, "cpu:/");
	CHECK_STR(w->ev.states_cgroup, "name=systemd:/s.scope");

	/* not known: nothing named */
	r.cgroups = NULL;
	memset(&s, 0, sizeof(s));
	w = rowev_task(&s, &r, &in, &row);
	CHECK_STR(w->ev.cpu_cgroup, "");
	CHECK_STR(w->ev.states_cgroup, "");
}

int main(void)
{
	test_base();
	test_origin();
	test_first_and_next();
	test_lost_fork_events();
	test_other_cgroups();
	test_gap();
	test_group_wanted_since();
	test_cgroup_row();
	test_disks_io_rows_only();
	return unit_done();
}
