/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The evidence of an interval and the rule table: evidence_interval from
 * two readings (deltas, counters that go back, no interval), the field
 * list (unique snake_case names, every member once), and each rule of
 * why.h: where it holds, where its figures are short of it, where they
 * are unknown, and "no cause".
 */
#include <config.h>

#include <ctype.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "kernel/cpustat.h"
#include "kernel/diskstats.h"
#include "kernel/sysinfo.h"
#include "live/evidence_read.h"
#include "model/evidence.h"
#include "model/why.h"
#include "unit.h"

#define EV FIXTURES "/evidence/"

/* One whole reading: the machine-wide part made from d, then the rest. */
static void read_all(const struct evidence_dirs *d, struct evidence_reading *out)
{
	struct evidence_reading sys;

	memset(&sys, 0, sizeof(sys));
	evidence_read_system(d, &sys);
	evidence_read_with(d, NULL, &sys, out);
}

static struct kval val(uint64_t v)
{
	return (struct kval){ .have = true, .v = v };
}

static const struct kval nomax = { .have = true, .max = true };

/* The cause of why_holds that why_share gives the largest share, as a
 * row's evidence ranks them (model/rowwhy.c); WHY_NONE without a delay. */
static struct why_result why_eval(enum cat cat, bool have_delay,
				  double delay_us, const struct evidence *ev)
{
	struct why_result r = { WHY_NONE, -1, -1 };
	struct why_hold h[WHY_HOLDS];
	double share[WHY_HOLDS];

	if (!have_delay)
		return r;
	size_t n = why_holds(cat, delay_us, ev, h);
	int best = why_share(h, n, delay_us, share);
	return best >= 0 ? h[best].r : r;
}

static enum why_cause cause(enum cat c, double delay_us,
			    const struct evidence *ev)
{
	return why_eval(c, true, delay_us, ev).cause;
}

static int dir(const char *name)
{
	int fd = open(name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		exit(99);
	return fd;
}

static void test_fields(void)
{
	CHECK(evidence_nfields > 40);
	for (size_t i = 0; i < evidence_nfields; i++) {
		const struct evidence_field *f = &evidence_fields[i];

		for (const char *p = f->name; *p; p++)
			CHECK(islower((unsigned char)*p) || isdigit((unsigned char)*p) ||
			      *p == '_');
		CHECK(f->help && *f->help && f->unit && *f->unit);
		CHECK(f->offset + sizeof(struct kval) <= sizeof(struct evidence));
		for (size_t j = 0; j < i; j++) {
			CHECK(strcmp(f->name, evidence_fields[j].name) != 0);
			CHECK(f->offset != evidence_fields[j].offset);
		}
	}
	CHECK_EQ_U(evidence_io_dev_nfields, 8);
	CHECK_EQ_U(evidence_disk_nfields, 6);
	for (int c = 1; c < NWHY; c++) {
		CHECK(why_rules[c].key && *why_rules[c].key);
		CHECK(why_rules[c].text && *why_rules[c].text);
		CHECK(why_rules[c].rule && *why_rules[c].rule);
	}
}

/* Two readings of the v2 fixture, the first with smaller counters. */
static void test_interval(void)
{
	struct evidence_dirs d = EVIDENCE_DIRS_NONE;
	struct evidence_reading a, b;
	struct diskstats da = { 0 }, db = { 0 };
	struct cpustat st = { 0 };
	struct sysinfo_mem mem;
	struct evidence ev;
	char *text;

	d.cg2 = dir(EV "v2");
	d.pid = dir(EV "pid");
	d.proc = dir(EV "proc");
	d.cpu_sys = dir(EV "sys");
	/* the round's /proc/stat and meminfo, read once by the caller */
	CHECK(cpustat_read(d.proc, &st) == 0);
	sysinfo_read_mem(d.proc, &mem);
	d.cpus = &st;
	d.mem = &mem;
	read_all(&d, &b);
	a = b;
	a.when = b.when - 2.0;
	a.cpu.throttled_us.v -= 1580000;
	a.cpu.nr_throttled.v -= 18;
	a.cpu.pressure[PSI_SOME].total_us -= 1700000;
	a.mem.ev_max.v -= 34;
	a.mem.refault.v += 1;      /* went back: a reset */
	a.tio.write_bytes.v -= 1000000;
	a.io.dev[0].wbytes.v -= 2000000;
	b.forks = val(12);
	a.forks = val(2);

	text = unit_fixture("evidence/proc/diskstats-a", NULL);
	diskstats_parse(text, &da);
	free(text);
	text = unit_fixture("evidence/proc/diskstats-b", NULL);
	diskstats_parse(text, &db);
	free(text);
	da.when = 100;
	db.when = 102;

	evidence_interval(&a, &b, &da, &db, &ev);
	CHECK_NEAR(ev.interval_s, 2.0, 1e-9);
	CHECK(ev.cpu_cgroup_version == 2);
	CHECK(ev.cpu_quota_us.have && ev.cpu_quota_us.v == 20000);
	CHECK(ev.cpu_throttled_us.have && ev.cpu_throttled_us.v == 1580000);
	CHECK(ev.cpu_throttled_periods.have && ev.cpu_throttled_periods.v == 18);
	CHECK(ev.cpu_some_us.have && ev.cpu_some_us.v == 1700000);
	CHECK(ev.cpu_periods.have && ev.cpu_periods.v == 0);
	CHECK(ev.allowed_cpus.have && ev.allowed_cpus.v == 1);
	CHECK(ev.runnable_threads.have && ev.runnable_threads.v == 2);
	CHECK(ev.cpus_online.have && ev.cpus_online.v == 4);
	CHECK(ev.sys_runnable.have && ev.sys_runnable.v == 7);
	CHECK(ev.mem_events_max.have && ev.mem_events_max.v == 34);
	CHECK(!ev.refaults.have);
	CHECK(ev.refaults_file.have && ev.refaults_file.v == 0);
	CHECK(ev.mem_max.have && ev.mem_max.v == 268435456);
	CHECK(ev.swap_max.have && ev.swap_max.max);
	CHECK(ev.task_write_bytes.have && ev.task_write_bytes.v == 1000000);
	CHECK(ev.forks.have && ev.forks.v == 10);
	CHECK(ev.private_bytes.have && ev.private_bytes.v == 160 * 1024);
	CHECK(ev.states_source == CGSTATS_NONE); /* /proc/TID of the fixture
						    is not below proc/ */
	CHECK_EQ_U(ev.n_disks, 3);
	CHECK_STR(ev.disks[0].name, "sdb");
	/* the limited device first, named from diskstats */
	CHECK_EQ_U(ev.n_io_devs, 1);  /* 8:0: no limit, no IO in the interval */
	CHECK(ev.io_devs[0].major == 8 && ev.io_devs[0].minor == 16);
	CHECK_STR(ev.io_devs[0].name, "sdb");
	CHECK(ev.io_devs[0].wbytes.have && ev.io_devs[0].wbytes.v == 2000000);
	CHECK(ev.io_devs[0].wiops.have && ev.io_devs[0].wiops.v == 120);

	/* no earlier reading: values, but no counts of an interval */
	evidence_interval(NULL, &b, NULL, NULL, &ev);
	CHECK(ev.interval_s == 0);
	CHECK(ev.cpu_quota_us.have);
	CHECK(!ev.cpu_throttled_us.have);
	CHECK(!ev.forks.have);
	CHECK(ev.n_disks == 0);

	/* the v1 fallback where v2 has no controller files */
	close(d.cg2);
	d.cg2 = dir(EV "sys");
	d.cpu1 = dir(EV "v1-cpu");
	d.mem1 = dir(EV "v1-mem");
	d.blkio1 = dir(EV "v1-blkio");
	read_all(&d, &b);
	CHECK(b.cpu.version == 1 && b.cpu.quota_us.v == 20000);
	CHECK(b.mem.version == 1 && b.mem.failcnt.v == 77);
	CHECK(b.io.version == 1 && b.io.ndev == 1);

	diskstats_free(&da);
	diskstats_free(&db);
	cpustat_free(&st);
}

/* The share each cause takes of part_us (why_holds + why_share). */
static double share_of(enum cat c, double part_us, const struct evidence *ev,
		       enum why_cause want)
{
	struct why_hold h[WHY_HOLDS];
	double share[WHY_HOLDS];
	size_t n = why_holds(c, part_us, ev, h);

	why_share(h, n, part_us, share);
	for (size_t i = 0; i < n; i++)
		if (h[i].r.cause == want)
			return share[i];
	return -1;  /* does not hold */
}

static void test_cpu_rules(void)
{
	struct evidence ev = { .interval_s = 2 };
	char buf[64];
	struct why_result r;

	/* nothing known: no cause */
	CHECK(cause(CAT_CPU, 1e6, &ev) == WHY_NONE);

	/* the quota: its share is the share of periods throttled in */
	ev.cpu_quota_us = val(20000);
	ev.cpu_throttled_us = val(1580000);
	ev.cpu_periods = val(20);
	ev.cpu_throttled_periods = val(20);
	CHECK(cause(CAT_CPU, 2000000, &ev) == WHY_CPU_QUOTA);
	CHECK_NEAR(share_of(CAT_CPU, 2000000, &ev, WHY_CPU_QUOTA), 2000000, 1e-6);
	r = why_eval(CAT_CPU, true, 2000000, &ev);
	CHECK_STR(why_text(&r, &ev, buf, sizeof(buf)), "cpu quota");
	ev.cpu_throttled_periods = val(1);
	CHECK_NEAR(share_of(CAT_CPU, 2000000, &ev, WHY_CPU_QUOTA), 100000, 1e-6);
	/* throttled in no period: it does not hold */
	ev.cpu_throttled_periods = val(0);
	CHECK(share_of(CAT_CPU, 2000000, &ev, WHY_CPU_QUOTA) < 0);
	/* no periods counted: the throttled time, at most the part */
	ev.cpu_periods = (struct kval){ 0 };
	ev.cpu_throttled_periods = (struct kval){ 0 };
	CHECK_NEAR(share_of(CAT_CPU, 2000000, &ev, WHY_CPU_QUOTA), 1580000, 1e-6);
	CHECK_NEAR(share_of(CAT_CPU, 1000000, &ev, WHY_CPU_QUOTA), 1000000, 1e-6);
	/* no delay, or an unknown one: no cause */
	CHECK(cause(CAT_CPU, 0, &ev) == WHY_NONE);
	CHECK(why_eval(CAT_CPU, false, 1e6, &ev).cause == WHY_NONE);
	/* no quota: throttling cannot be it */
	ev.cpu_quota_us = nomax;
	CHECK(cause(CAT_CPU, 2000000, &ev) == WHY_NONE);
	ev.cpu_quota_us = val(20000);
	ev.cpu_throttled_us = val(0);
	CHECK(cause(CAT_CPU, 2000000, &ev) == WHY_NONE);

	/* pinned by its own threads: 1 of 4 CPUs, 2 runnable; without
	 * per-CPU figures it accounts for the share beyond the one CPU */
	ev.allowed_cpus = val(1);
	ev.cpus_online = val(4);
	ev.runnable_threads = val(2);
	CHECK(cause(CAT_CPU, 2000000, &ev) == WHY_PINNED);
	CHECK_NEAR(share_of(CAT_CPU, 2000000, &ev, WHY_PINNED), 1000000, 1e-6);
	/* a cgroup throttled in every period is bound by its quota,
	 * whatever its pinning */
	ev.cpu_throttled_us = val(1000000);
	ev.cpu_periods = val(20);
	ev.cpu_throttled_periods = val(20);
	CHECK(cause(CAT_CPU, 2000000, &ev) == WHY_CPU_QUOTA);
	CHECK_NEAR(share_of(CAT_CPU, 2000000, &ev, WHY_PINNED), 0, 1e-6);
	/* the process: two threads pinned to 1 of 2 CPUs, its
	 * cgroup throttled in 10 of 10 periods for 379 ms of each second,
	 * cpu delay 193 %: under a quarter of it throttled, but the quota
	 * binds (the former rule said pinned) */
	{
		struct evidence q = ev;
		q.interval_s = 1;
		q.cpus_online = val(2);
		q.cpu_throttled_us = val(379000);
		q.cpu_periods = val(10);
		q.cpu_throttled_periods = val(10);
		CHECK(cause(CAT_CPU, 1930000, &q) == WHY_CPU_QUOTA);
		CHECK_NEAR(share_of(CAT_CPU, 1930000, &q, WHY_CPU_QUOTA),
			   1930000, 1e-6);
	}
	/* throttled in 4 of 20 periods: the pinning binds, the quota
	 * takes its share of what is left */
	ev.cpu_throttled_periods = val(4);
	CHECK(cause(CAT_CPU, 2000000, &ev) == WHY_PINNED);
	CHECK_NEAR(share_of(CAT_CPU, 2000000, &ev, WHY_CPU_QUOTA), 400000, 1e-6);
	/* ... and past half of the periods the quota binds again */
	ev.cpu_throttled_periods = val(11);
	CHECK(cause(CAT_CPU, 2000000, &ev) == WHY_CPU_QUOTA);
	ev.cpu_throttled_us = (struct kval){ 0 };
	ev.cpu_periods = ev.cpu_throttled_periods = (struct kval){ 0 };
	/* all CPUs allowed: not pinned */
	ev.allowed_cpus = val(4);
	CHECK(cause(CAT_CPU, 2000000, &ev) == WHY_NONE);
	ev.runnable_threads = (struct kval){ 0 };
	ev.allowed_cpus = val(1);
	CHECK(cause(CAT_CPU, 2000000, &ev) == WHY_NONE);

	/* several processes crowd 1 of 2 CPUs while the other idles:
	 * one runnable thread of its own, the allowed CPU busy (idle at
	 * most 10 % of its time), the other idle at least 10 % of its */
	ev.runnable_threads = val(1);
	ev.cpus_online = val(2);
	ev.allowed_cpus_time_us = val(2000000);
	ev.allowed_cpus_idle_us = val(200000);
	ev.other_cpus_time_us = val(2000000);
	ev.other_cpus_idle_us = val(1900000);
	CHECK(cause(CAT_CPU, 1300000, &ev) == WHY_PINNED);
	CHECK_NEAR(share_of(CAT_CPU, 1300000, &ev, WHY_PINNED), 1300000, 1e-6);
	/* the allowed CPU idle a little more: not crowded */
	ev.allowed_cpus_idle_us = val(200001);
	CHECK(cause(CAT_CPU, 1300000, &ev) == WHY_NONE);
	ev.allowed_cpus_idle_us = val(0);
	/* the other CPU idle less than 10 %: contention, not pinning */
	ev.other_cpus_idle_us = val(199999);
	CHECK(cause(CAT_CPU, 1300000, &ev) == WHY_CPU_CONTENTION);
	CHECK(share_of(CAT_CPU, 1300000, &ev, WHY_PINNED) < 0);
	/* at 10 % it holds, for the idle time it could give: the rest is
	 * contention, which then binds */
	ev.other_cpus_idle_us = val(200000);
	CHECK_NEAR(share_of(CAT_CPU, 1300000, &ev, WHY_PINNED), 200000, 1e-6);
	CHECK_NEAR(share_of(CAT_CPU, 1300000, &ev, WHY_CPU_CONTENTION),
		   1100000, 1e-6);
	CHECK(cause(CAT_CPU, 1300000, &ev) == WHY_CPU_CONTENTION);
	/* pinned takes what the others' idle time could give: past half of
	 * the delay it binds */
	ev.other_cpus_idle_us = val(650001);
	CHECK(cause(CAT_CPU, 1300000, &ev) == WHY_PINNED);
	ev.other_cpus_idle_us = val(649999);
	CHECK(cause(CAT_CPU, 1300000, &ev) == WHY_CPU_CONTENTION);
	/* the other CPU busy only with niced tasks: capacity for a process
	 * of nice 0 or below, as idle time is; not for a niced one, nor
	 * while its nice is unknown */
	ev.other_cpus_idle_us = val(0);
	ev.other_cpus_nice_us = val(1900000);
	CHECK(cause(CAT_CPU, 1300000, &ev) == WHY_CPU_CONTENTION);
	ev.have_nice = true;
	ev.nice = 0;
	CHECK(cause(CAT_CPU, 1300000, &ev) == WHY_PINNED);
	CHECK_NEAR(share_of(CAT_CPU, 1300000, &ev, WHY_PINNED), 1300000, 1e-6);
	ev.nice = -5;
	CHECK(cause(CAT_CPU, 1300000, &ev) == WHY_PINNED);
	ev.nice = 1;
	CHECK(cause(CAT_CPU, 1300000, &ev) == WHY_CPU_CONTENTION);
	/* idle and niced time together */
	ev.nice = 0;
	ev.other_cpus_idle_us = val(100000);
	ev.other_cpus_nice_us = val(100000);
	CHECK(cause(CAT_CPU, 1300000, &ev) == WHY_CPU_CONTENTION);
	CHECK_NEAR(share_of(CAT_CPU, 1300000, &ev, WHY_PINNED), 200000, 1e-6);
	ev.other_cpus_idle_us = val(649999);
	ev.other_cpus_nice_us = (struct kval){ 0 };
	ev.have_nice = false;
	ev.allowed_cpus_time_us = ev.allowed_cpus_idle_us = (struct kval){ 0 };
	ev.other_cpus_time_us = ev.other_cpus_idle_us = (struct kval){ 0 };
	ev.cpus_online = val(4);

	/* contention: 3 runnable besides the reader on 2 allowed CPUs */
	ev.allowed_cpus = val(2);
	ev.sys_runnable = val(4);
	CHECK(cause(CAT_CPU, 2000000, &ev) == WHY_CPU_CONTENTION);
	CHECK_NEAR(share_of(CAT_CPU, 2000000, &ev, WHY_CPU_CONTENTION),
		   2000000, 1e-6);
	r = why_eval(CAT_CPU, true, 2000000, &ev);
	CHECK_STR(why_text(&r, &ev, buf, sizeof(buf)), "cpu contention");
	ev.sys_runnable = val(3);
	CHECK(cause(CAT_CPU, 2000000, &ev) == WHY_NONE);
	/* the cpu rules say nothing of other categories */
	ev.sys_runnable = val(40);
	CHECK(cause(CAT_IO, 2000000, &ev) == WHY_NONE);
	CHECK(cause(CAT_COMPACT, 2000000, &ev) == WHY_NONE);
	CHECK(cause(CAT_IRQ, 2000000, &ev) == WHY_NONE);
}

/* The per-CPU lines of /proc/stat, split by an allowed CPU list. */
static void test_cpustat(void)
{
	static const char text[] =
		"cpu  30 0 20 150 10 0 0 0 0 0\n"
		"cpu0 20 0 15 5 0 0 0 0 0 0\n"
		"cpu1 10 7 5 140 10 0 0 0 0 0\n"
		"cpu3 1 2 3 4 5 6 7 8 100 100\n"
		"intr 1 2 3\nprocs_running 3\n";
	struct cpustat st = { 0 };
	struct cpustat_split sp;

	CHECK(cpustat_parse(text, &st) == 0);
	CHECK_EQ_U(st.n, 3);
	CHECK(st.cpu[0].cpu == 0 && st.cpu[0].idle == 5 && st.cpu[0].total == 40);
	CHECK(st.cpu[1].idle == 150 && st.cpu[1].total == 172);
	CHECK(st.cpu[1].nice == 7 && st.cpu[2].nice == 2);
	/* guest time is inside user already: not added */
	CHECK(st.cpu[2].cpu == 3 && st.cpu[2].total == 36);
	cpustat_split(&st, "0", &sp);
	CHECK(sp.in_idle.have && sp.in_idle.v == 5 && sp.in_total.v == 40);
	CHECK(sp.out_idle.v == 159 && sp.out_total.v == 208);
	/* the niced time of the others only */
	CHECK(sp.out_nice.have && sp.out_nice.v == 9);
	cpustat_split(&st, "1", &sp);
	CHECK(sp.out_nice.v == 2);
	cpustat_split(&st, "0-1,3\n", &sp);
	CHECK(sp.in_total.v == 248 && sp.out_total.have && sp.out_total.v == 0);
	CHECK(sp.out_nice.have && sp.out_nice.v == 0);
	cpustat_split(&st, "0-x", &sp);
	CHECK(!sp.in_idle.have && !sp.out_idle.have && !sp.out_nice.have);
	CHECK(sysinfo_cpulist_has("0-3,8", 8) && !sysinfo_cpulist_has("0-3,8", 4));
	CHECK(!sysinfo_cpulist_has("3-1", 2));
	CHECK(cpustat_parse("cpu 1 2 3 4\n", &st) == -1);  /* no cpuN */
	CHECK(cpustat_parse("cpu0 1 2\n", &st) == -1);     /* too short */
	cpustat_free(&st);
}

/* why_share: the largest estimate first, each at most what is left. */
static void test_share(void)
{
	struct why_hold h[WHY_HOLDS] = {
		{ { WHY_CPU_QUOTA, -1, -1 }, 30, false },
		{ { WHY_PINNED, -1, -1 }, 80, false },
		{ { WHY_CPU_CONTENTION, -1, -1 }, 0, true },
	};
	double share[WHY_HOLDS];

	CHECK(why_share(h, 3, 100, share) == 1);
	CHECK_NEAR(share[1], 80, 1e-9);
	CHECK_NEAR(share[0], 20, 1e-9);
	CHECK_NEAR(share[2], 0, 1e-9);
	CHECK(why_share(h, 3, 200, share) == 2);  /* the residual: 90 */
	CHECK_NEAR(share[0], 30, 1e-9);
	CHECK_NEAR(share[2], 90, 1e-9);
	/* equal estimates: the first in the table's order takes it */
	h[0].est_us = 80;
	CHECK(why_share(h, 3, 100, share) == 0);
	CHECK_NEAR(share[1], 20, 1e-9);
	CHECK(why_share(h, 0, 100, share) == -1);
}

static void test_mem_rules(void)
{
	struct evidence ev = { .interval_s = 2 };
	static const enum cat cats[] = { CAT_SWAP, CAT_RECLAIM, CAT_THRASHING };

	for (size_t i = 0; i < 3; i++) {
		enum cat c = cats[i];

		memset(&ev, 0, sizeof(ev));
		CHECK(cause(c, 1000, &ev) == WHY_NONE);
		ev.mem_events_max = val(3);
		CHECK(cause(c, 1000, &ev) == WHY_MEM_LIMIT);
		ev.mem_events_max = val(0);
		CHECK(cause(c, 1000, &ev) == WHY_NONE);
		ev.mem_failcnt = val(1);          /* v1 */
		CHECK(cause(c, 1000, &ev) == WHY_MEM_LIMIT);
		ev.mem_failcnt = val(0);
		ev.memsw_failcnt = val(1);
		CHECK(cause(c, 1000, &ev) == WHY_MEM_LIMIT);
		ev.memsw_failcnt = val(0);
		ev.mem_max = val(1000);
		ev.mem_current = val(950);
		CHECK(cause(c, 1000, &ev) == WHY_MEM_LIMIT);
		ev.mem_current = val(949);
		CHECK(cause(c, 1000, &ev) == WHY_NONE);
		ev.mem_max = nomax;
		ev.mem_current = val(1 << 30);
		CHECK(cause(c, 1000, &ev) == WHY_NONE);

		ev.mem_events_high = val(5);
		CHECK(cause(c, 1000, &ev) == WHY_MEM_HIGH);
		ev.mem_events_high = val(0);

		ev.swap_max = val(1000);
		ev.swap_current = val(999);
		CHECK(cause(c, 1000, &ev) == WHY_SWAP_FULL);
		ev.swap_current = val(10);
		CHECK(cause(c, 1000, &ev) == WHY_NONE);
		ev.sys_swap_total = val(1000);
		ev.sys_swap_free = val(49);
		CHECK(cause(c, 1000, &ev) == WHY_SWAP_FULL);
		ev.sys_swap_free = val(50);
		CHECK(cause(c, 1000, &ev) == WHY_NONE);
		ev.sys_swap_total = val(0);       /* no swap at all */
		ev.sys_swap_free = val(0);
		CHECK(cause(c, 1000, &ev) == WHY_NONE);

		ev.sys_mem_total = val(1000);
		ev.sys_mem_available = val(49);
		CHECK(cause(c, 1000, &ev) == WHY_LOW_MEMORY);
		ev.sys_mem_available = val(50);
		CHECK(cause(c, 1000, &ev) == WHY_NONE);
		ev.sys_mem_available = (struct kval){ 0 };
		CHECK(cause(c, 1000, &ev) == WHY_NONE);
		/* the limit comes first */
		ev.sys_mem_available = val(1);
		ev.mem_events_max = val(1);
		CHECK(cause(c, 1000, &ev) == WHY_MEM_LIMIT);
	}
}

static void test_io_rules(void)
{
	struct evidence ev = { .interval_s = 2 };
	struct why_result r;
	char buf[64];

	CHECK(cause(CAT_IO, 1000, &ev) == WHY_NONE);
	/* a disk busy 98 %, no cgroup IO figures: the machine's busiest */
	ev.n_disks = 2;
	snprintf(ev.disks[0].name, sizeof(ev.disks[0].name), "sda");
	ev.disks[0].major = 8;
	ev.disks[0].util_pct = 98.2;
	snprintf(ev.disks[1].name, sizeof(ev.disks[1].name), "sdb");
	ev.disks[1].major = 8;
	ev.disks[1].minor = 16;
	ev.disks[1].util_pct = 85;
	r = why_eval(CAT_IO, true, 1000, &ev);
	CHECK(r.cause == WHY_DISK_BUSY && r.disk == 0);
	CHECK_STR(why_text(&r, &ev, buf, sizeof(buf)), "disk sda 98%");
	/* the cgroup did its IO on sdb: that disk, not sda */
	ev.n_io_devs = 1;
	ev.io_devs[0].major = 8;
	ev.io_devs[0].minor = 16;
	ev.io_devs[0].wbytes = val(4096);
	ev.io_devs[0].wbps = nomax;
	r = why_eval(CAT_IO, true, 1000, &ev);
	CHECK(r.cause == WHY_DISK_BUSY && r.disk == 1);
	CHECK_STR(why_text(&r, &ev, buf, sizeof(buf)), "disk sdb 85%");
	ev.disks[1].util_pct = 79.9;
	CHECK(cause(CAT_IO, 1000, &ev) == WHY_NONE);

	/* at 90 % of a 1 MB/s write limit over 2 s */
	ev.io_devs[0].wbps = val(1000000);
	ev.io_devs[0].wbytes = val(1800000);
	r = why_eval(CAT_IO, true, 1000, &ev);
	CHECK(r.cause == WHY_IO_LIMIT && r.io_dev == 0);
	CHECK_STR(why_text(&r, &ev, buf, sizeof(buf)), "io limit 8:16");
	snprintf(ev.io_devs[0].name, sizeof(ev.io_devs[0].name), "sdb");
	CHECK_STR(why_text(&r, &ev, buf, sizeof(buf)), "io limit sdb");
	ev.io_devs[0].wbytes = val(1799999);
	CHECK(cause(CAT_IO, 1000, &ev) == WHY_NONE);
	ev.io_devs[0].wios = val(200);
	ev.io_devs[0].wiops = val(100);
	CHECK(cause(CAT_IO, 1000, &ev) == WHY_IO_LIMIT);
	/* without an interval there is no rate */
	ev.interval_s = 0;
	CHECK(cause(CAT_IO, 1000, &ev) == WHY_NONE);
}

static void test_wpcopy_rule(void)
{
	struct evidence ev = { .interval_s = 2 };
	struct why_result r;
	char buf[64];

	CHECK(cause(CAT_WPCOPY, 1000, &ev) == WHY_NONE);
	ev.forks = val(0);
	ev.private_bytes = val(1 << 30);
	CHECK(cause(CAT_WPCOPY, 1000, &ev) == WHY_NONE);
	ev.forks = val(3);
	r = why_eval(CAT_WPCOPY, true, 1000, &ev);
	CHECK(r.cause == WHY_FORK_COW);
	CHECK_STR(why_text(&r, &ev, buf, sizeof(buf)), "fork cow");
	r.cause = WHY_NONE;
	CHECK_STR(why_text(&r, &ev, buf, sizeof(buf)), "");
	/* a result that points at nothing prints nothing */
	r.cause = WHY_DISK_BUSY;
	r.disk = 5;
	CHECK_STR(why_text(&r, &ev, buf, sizeof(buf)), "");
	CHECK(why_eval(CAT_WPCOPY, true, 1000, NULL).cause == WHY_NONE);
}

int main(void)
{
	test_fields();
	test_interval();
	test_cpu_rules();
	test_share();
	test_cpustat();
	test_mem_rules();
	test_io_rules();
	test_wpcopy_rule();
	return unit_done();
}
