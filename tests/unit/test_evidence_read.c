/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The evidence readers against the fixture folders of
 * tests/fixtures/evidence (see its README): the values of good files, and
 * for truncated, repeated, signed or misspelt ones nothing but absent
 * values, never a number.
 */
#include <config.h>

#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kernel/cg_cpu.h"
#include "kernel/cg_io.h"
#include "kernel/cg_layout.h"
#include "kernel/cg_mem.h"
#include "kernel/cgroup.h"
#include "kernel/cgstats.h"
#include "kernel/cpustat.h"
#include "kernel/diskstats.h"
#include "kernel/kval.h"
#include "kernel/procfs.h"
#include "kernel/sysinfo.h"
#include "kernel/taskev.h"
#include "lib/cgroup_parse.h"
#include "model/evidence.h"
#include "unit.h"

#define EV FIXTURES "/evidence/"

#define HAVE(k, val) do { CHECK((k).have && !(k).max); CHECK_EQ_U((k).v, (val)); } while (0)
#define MAX(k) CHECK((k).have && (k).max && (k).v == 0)
#define NONE(k) CHECK(!(k).have && !(k).max && (k).v == 0)

static int dir(const char *name)
{
	int fd = open(name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0) {
		fprintf(stderr, "cannot open %s\n", name);
		exit(99);
	}
	return fd;
}

static void test_kval(void)
{
	struct kval k;
	uint64_t v;

	k = kval_parse_number("42\n");
	HAVE(k, 42);
	NONE(kval_parse_number(""));
	NONE(kval_parse_number("-1\n"));
	NONE(kval_parse_number("4 2\n"));
	NONE(kval_parse_number("18446744073709551616\n"));
	HAVE(kval_parse_number("18446744073709551615"), UINT64_MAX);
	MAX(kval_parse_limit("max\n"));
	NONE(kval_parse_limit("maxx\n"));
	CHECK(!kval_parse_u64("", "", &v));
	CHECK_EQ_U(sysinfo_cpulist_count("0-3,8,10-11\n"), 7);
	CHECK_EQ_U(sysinfo_cpulist_count("\n"), 0);
	CHECK(sysinfo_cpulist_count("3-1") == -1);
	CHECK(sysinfo_cpulist_count("0,") == -1);
	CHECK(sysinfo_cpulist_count("0-99999999") == -1);
	CHECK(sysinfo_cpulist_count("a") == -1);
}

static void test_read_cut(void)
{
	char buf[8];
	int d = dir(EV "v2");

	/* longer than the buffer: no line fits whole, so nothing */
	CHECK(procfs_read_lines(d, "memory.stat", buf, sizeof(buf)) == 0);
	CHECK(buf[0] == '\0');
	CHECK(procfs_read_lines(d, "nothing-here", buf, sizeof(buf)) == -1);
	close(d);
}

static void test_cpu(void)
{
	struct cg_cpu c;
	int d;

	d = dir(EV "v2");
	cg_cpu_read_v2(d, &c);
	CHECK(c.version == 2);
	HAVE(c.quota_us, 20000);
	HAVE(c.period_us, 100000);
	HAVE(c.nr_periods, 200);
	HAVE(c.nr_throttled, 180);
	HAVE(c.throttled_us, 1580000);
	HAVE(c.usage_us, 4120000);
	CHECK(c.pressure[PSI_SOME].present);
	CHECK_EQ_U(c.pressure[PSI_SOME].total_us, 1700000);
	CHECK_EQ_U(c.pressure[PSI_FULL].total_us, 1500000);
	/* the v1 reader finds nothing of its own in a v2 directory */
	cg_cpu_read_v1(d, &c);
	NONE(c.quota_us);
	NONE(c.throttled_us);
	close(d);

	d = dir(EV "v2-garbage");
	cg_cpu_read_v2(d, &c);
	NONE(c.quota_us);
	NONE(c.period_us);
	NONE(c.usage_us);        /* 12x */
	NONE(c.nr_periods);      /* given twice */
	NONE(c.nr_throttled);    /* no value */
	NONE(c.throttled_us);    /* 2^64 */
	close(d);

	d = dir(EV "v2-nolimit");
	cg_cpu_read_v2(d, &c);
	MAX(c.quota_us);
	HAVE(c.period_us, 100000);
	HAVE(c.throttled_us, 0);
	close(d);

	d = dir(EV "v1-cpu");
	cg_cpu_read_v1(d, &c);
	CHECK(c.version == 1);
	HAVE(c.quota_us, 20000);
	HAVE(c.period_us, 100000);
	HAVE(c.nr_throttled, 180);
	HAVE(c.throttled_us, 1580000);   /* from nanoseconds */
	HAVE(c.usage_us, 4120000);
	CHECK(!c.pressure[PSI_SOME].present);
	close(d);

	cg_cpu_read_v2(-1, &c);
	CHECK(c.version == 0);
	NONE(c.quota_us);

	struct kval q, p;
	CHECK(cg_cpu_parse_max("max 100000\n", &q, &p) == 0);
	MAX(q);
	CHECK(cg_cpu_parse_max("100 0\n", &q, &p) == -1);
	NONE(q);
	NONE(p);
	CHECK(cg_cpu_parse_max("100\n", &q, &p) == -1);
	CHECK(cg_cpu_parse_max("100 100 100\n", &q, &p) == -1);
}

static void test_mem(void)
{
	struct cg_mem m;
	int d;

	d = dir(EV "v2");
	cg_mem_read_v2(d, &m);
	CHECK(m.version == 2);
	HAVE(m.max, 268435456);
	MAX(m.high);
	HAVE(m.current, 267386880);
	HAVE(m.ev_low, 0);
	HAVE(m.ev_high, 0);
	HAVE(m.ev_max, 1234);
	HAVE(m.ev_oom, 2);
	HAVE(m.ev_oom_kill, 1);
	HAVE(m.swap_current, 1048576);
	MAX(m.swap_max);
	HAVE(m.refault_anon, 300);
	HAVE(m.refault_file, 4500);
	HAVE(m.refault, 4800);
	NONE(m.failcnt);
	CHECK_EQ_U(m.pressure[PSI_SOME].total_us, 250000);
	close(d);

	d = dir(EV "v2-garbage");
	cg_mem_read_v2(d, &m);
	NONE(m.max);          /* 12a */
	NONE(m.high);         /* -5 */
	NONE(m.current);      /* empty */
	HAVE(m.ev_low, 1);
	NONE(m.ev_high);      /* given twice */
	NONE(m.ev_max);       /* no value */
	NONE(m.ev_oom);       /* two values */
	NONE(m.ev_oom_kill);  /* the line was cut */
	HAVE(m.refault_anon, 300);
	NONE(m.refault_file); /* cut */
	NONE(m.refault);      /* no sum of half the counters */
	close(d);

	d = dir(EV "v1-mem");
	cg_mem_read_v1(d, &m);
	CHECK(m.version == 1);
	HAVE(m.max, 268435456);
	HAVE(m.current, 268300000);
	HAVE(m.failcnt, 77);
	MAX(m.memsw_limit);
	HAVE(m.memsw_usage, 270000000);
	HAVE(m.memsw_failcnt, 0);
	HAVE(m.refault_anon, 20057969);
	HAVE(m.refault_file, 18870660);
	HAVE(m.refault, 20057969 + 18870660);
	NONE(m.ev_max);
	close(d);

	/* a v1 directory read as v2, and the other way: nothing */
	d = dir(EV "v1-mem");
	cg_mem_read_v2(d, &m);
	NONE(m.max);
	NONE(m.current);
	close(d);

	MAX(cg_mem_parse_v1_limit("9223372036854771712\n"));
	HAVE(cg_mem_parse_v1_limit("4096\n"), 4096);
}

/* The device major:minor of a reading, or NULL. */
static const struct cg_io_dev *find_dev(const struct cg_io *io,
					unsigned major, unsigned minor)
{
	for (size_t i = 0; i < io->ndev; i++)
		if (io->dev[i].major == major && io->dev[i].minor == minor)
			return &io->dev[i];
	return NULL;
}

static void test_io(void)
{
	const struct cg_io_dev *dev;
	struct cg_io io;
	int d;

	d = dir(EV "v2");
	cg_io_read_v2(d, &io);
	CHECK(io.version == 2);
	CHECK_EQ_U(io.ndev, 2);
	dev = find_dev(&io, 8, 16);
	CHECK(dev != NULL);
	if (dev) {
		HAVE(dev->rbps, 2097152);
		MAX(dev->wbps);
		MAX(dev->riops);
		HAVE(dev->wiops, 120);
		HAVE(dev->rbytes, 1459200);
		HAVE(dev->wbytes, 314773504);
		HAVE(dev->rios, 192);
		HAVE(dev->wios, 353);
	}
	dev = find_dev(&io, 8, 0);
	CHECK(dev != NULL);
	if (dev) {
		MAX(dev->rbps);   /* no line in io.max: no limit */
		MAX(dev->wiops);
		HAVE(dev->rbytes, 4096);
	}
	CHECK_EQ_U(io.pressure[PSI_FULL].total_us, 80000);
	close(d);

	d = dir(EV "v2-garbage");
	cg_io_read_v2(d, &io);
	CHECK_EQ_U(io.ndev, 1);
	dev = find_dev(&io, 8, 16);
	CHECK(dev != NULL);
	if (dev) {
		/* io.max had lines we could not read: no claim of no limit */
		NONE(dev->rbps);
		NONE(dev->wbps);
		HAVE(dev->rbytes, 1459200);
	}
	CHECK(find_dev(&io, 8, 0) == NULL);  /* its line was cut */
	CHECK(!io.pressure[PSI_SOME].present);
	close(d);

	d = dir(EV "v2-nolimit");
	cg_io_read_v2(d, &io);
	dev = find_dev(&io, 8, 0);
	CHECK(dev != NULL);
	if (dev) {
		MAX(dev->rbps);
		MAX(dev->wbps);
		HAVE(dev->wbytes, 8192);
	}
	close(d);

	d = dir(EV "v1-blkio");
	cg_io_read_v1(d, &io);
	CHECK(io.version == 1);
	CHECK_EQ_U(io.ndev, 1);
	dev = find_dev(&io, 8, 0);
	CHECK(dev != NULL);
	if (dev) {
		HAVE(dev->rbps, 1048576);
		MAX(dev->wbps);
		HAVE(dev->riops, 100);
		MAX(dev->wiops);
		HAVE(dev->rbytes, 4096000);
		HAVE(dev->wbytes, 8192);
		HAVE(dev->rios, 1000);
		HAVE(dev->wios, 2);
	}
	close(d);

	/* more devices than the table holds are counted, not kept */
	char big[4096];
	size_t o = 0;
	for (int i = 0; i < CG_IO_DEVS + 3; i++)
		o += (size_t)snprintf(big + o, sizeof(big) - o,
				      "8:%d rbytes=1 wbytes=2 rios=3 wios=4\n", i);
	memset(&io, 0, sizeof(io));
	cg_io_parse_stat(big, &io);
	CHECK_EQ_U(io.ndev, CG_IO_DEVS);
	CHECK_EQ_U(io.dropped, 3);
}

/*
 * /proc/stat's procs_ lines with its cpuN lines, from the text of 600
 * CPUs too (the procs_ lines come last), absent where they are not
 * there or nothing was read.
 */
static void test_stat(void)
{
	struct cpustat st = { 0 };
	int p = dir(EV "proc");

	CHECK(cpustat_read(p, &st) == 0);
	close(p);
	CHECK_EQ_U(st.n, 1);
	HAVE(st.procs_running, 7);
	HAVE(st.procs_blocked, 2);

	static char big[40000];
	size_t o = 0;
	for (int i = 0; i < 600; i++)
		o += (size_t)snprintf(big + o, sizeof(big) - o,
				      "cpu%d 1 2 3 4 5 6 7 8 9 10 11 12 13 14\n", i);
	snprintf(big + o, sizeof(big) - o, "procs_running 3\nprocs_blocked 0\n");
	CHECK(cpustat_parse(big, &st) == 0);
	CHECK_EQ_U(st.n, 600);
	HAVE(st.procs_blocked, 0);

	CHECK(cpustat_parse("cpu 1 2 3\nprocs_running 3\n", &st) == -1);
	HAVE(st.procs_running, 3);
	NONE(st.procs_blocked);
	CHECK(cpustat_read(-1, &st) == -1);
	NONE(st.procs_running);
	cpustat_free(&st);
}

static void test_sysinfo(void)
{
	struct sysinfo_mem m;
	struct kval online;
	int p = dir(EV "proc"), s = dir(EV "sys");

	sysinfo_read_mem(p, &m);
	HAVE(m.mem_total, 24684096ULL * 1024);
	HAVE(m.mem_free, 512000ULL * 1024);
	HAVE(m.mem_available, 800000ULL * 1024);
	HAVE(m.swap_total, 2097148ULL * 1024);
	HAVE(m.swap_free, 20000ULL * 1024);
	sysinfo_read_online(s, &online);
	HAVE(online, 4);
	sysinfo_read_online(-1, &online);
	NONE(online);
	/* a unit other than kB, or none where kB is expected: absent */
	CHECK(sysinfo_parse_meminfo("MemTotal: 5 MB\nMemFree: 7\n", &m) == 1);
	NONE(m.mem_total);
	HAVE(m.mem_free, 7);
	/* /proc/loadavg: three averages, "%lu.%02lu" whatever the locale */
	double la[3] = { -1, -1, -1 };
	CHECK(sysinfo_parse_loadavg("0.52 12.61 100.07 2/345 6789\n", la) == 0);
	CHECK_NEAR(la[0], 0.52, 1e-9);
	CHECK_NEAR(la[1], 12.61, 1e-9);
	CHECK_NEAR(la[2], 100.07, 1e-9);
	CHECK(sysinfo_parse_loadavg("0.52 0.61\n", la) == -1);
	CHECK(sysinfo_parse_loadavg("0,52 0,61 0,70 1/2 3\n", la) == -1);
	CHECK(sysinfo_parse_loadavg("", la) == -1);
	CHECK(sysinfo_read_loadavg(-1, la) == -1);
	close(p);
	close(s);
}

static void test_task(void)
{
	struct taskev_io io;
	struct taskev_cpu c;
	struct taskev_mem m;
	int d = dir(EV "pid");

	taskev_read_io(d, &io);
	HAVE(io.rchar, 6976000);
	HAVE(io.wchar, 314773504);
	HAVE(io.read_bytes, 1459200);
	HAVE(io.write_bytes, 314773504);
	HAVE(io.cancelled_write_bytes, 0);
	taskev_read_cpu(d, 0, &c);
	HAVE(c.allowed_cpus, 1);
	HAVE(c.threads, 3);
	HAVE(c.runnable_threads, 2);
	/* allowed 1 of 2 online: counted; 1 of 1: it may run anywhere */
	taskev_read_cpu(d, 2, &c);
	HAVE(c.runnable_threads, 2);
	taskev_read_cpu(d, 1, &c);
	HAVE(c.allowed_cpus, 1);
	NONE(c.threads);
	NONE(c.runnable_threads);
	taskev_read_mem(d, &m);
	HAVE(m.private_bytes, (44 + 116) * 1024);
	close(d);

	d = dir(EV "pid-statm");
	taskev_read_io(d, &io);
	HAVE(io.rchar, 1);
	NONE(io.read_bytes);
	NONE(io.write_bytes);
	taskev_read_cpu(d, 0, &c);
	HAVE(c.allowed_cpus, 5);
	NONE(c.threads);
	NONE(c.runnable_threads);
	taskev_read_mem(d, &m);
	HAVE(m.private_bytes, 200ULL * (uint64_t)sysconf(_SC_PAGESIZE));
	close(d);

	NONE(taskev_parse_statm("1 3 4 0 0 0 0\n", 4096)); /* shared > resident */
	NONE(taskev_parse_statm("1 3", 4096));
	NONE(taskev_parse_allowed("Cpus_allowed_list:\t\n"));
	NONE(taskev_parse_allowed("Cpus_allowed_list:\tx\n"));

	/* from a status text read already: the count and the list */
	taskev_parse_cpu("Name:\tx\nCpus_allowed_list:\t0-3,8\n", &c);
	HAVE(c.allowed_cpus, 5);
	CHECK(strcmp(c.allowed_list, "0-3,8") == 0);
	NONE(c.threads);
	taskev_parse_cpu("Cpus_allowed_list:\tx\n", &c);
	NONE(c.allowed_cpus);
	CHECK(c.allowed_list[0] == '\0');
	/* a list longer than allowed_list: counted, the text left out */
	{
		char text[600] = "Cpus_allowed_list:\t";
		size_t len = strlen(text);

		for (int i = 0; i < 100; i++)
			len += (size_t)snprintf(text + len, sizeof(text) - len,
						"%s%d", i ? "," : "", 2 * i);
		snprintf(text + len, sizeof(text) - len, "\n");
		taskev_parse_cpu(text, &c);
		HAVE(c.allowed_cpus, 100);
		CHECK(c.allowed_list[0] == '\0');
	}

	/* this process: its own files */
	int self = dir("/proc/self");
	taskev_read_cpu(self, 0, &c);
	CHECK(c.allowed_cpus.have && c.allowed_cpus.v >= 1);
	CHECK(c.runnable_threads.have && c.runnable_threads.v >= 1);
	taskev_read_io(self, &io);
	CHECK(io.rchar.have);
	close(self);
}

static void test_diskstats(void)
{
	struct diskstats a = { 0 }, b = { 0 }, g = { 0 };
	struct diskstats_busy busy[3];
	char *text;
	size_t n;

	text = unit_fixture("evidence/proc/diskstats-a", NULL);
	CHECK(diskstats_parse(text, &a) == 5);
	free(text);
	text = unit_fixture("evidence/proc/diskstats-b", NULL);
	CHECK(diskstats_parse(text, &b) == 5);
	free(text);
	a.when = 100.0;
	b.when = 102.0;

	n = evidence_disks(&a, &b, busy, 3);
	CHECK_EQ_U(n, 3);
	CHECK_STR(busy[0].name, "sdb");
	CHECK_NEAR(busy[0].util_pct, 98.0, 1e-9);
	CHECK_NEAR(busy[0].queue, 3.5, 1e-9);
	CHECK_EQ_U(busy[0].read_bytes, 400 * 512);
	CHECK_EQ_U(busy[0].write_bytes, 616000ULL * 512);
	CHECK(busy[0].major == 8 && busy[0].minor == 16);
	CHECK_STR(busy[1].name, "nvme0n1");
	CHECK_NEAR(busy[1].util_pct, 15.0, 1e-9);
	CHECK_NEAR(busy[1].queue, 0.05, 1e-9);
	CHECK_STR(busy[2].name, "nvme0n1p1");

	n = evidence_disks(&a, &b, busy, 1);
	CHECK_EQ_U(n, 1);
	CHECK_STR(busy[0].name, "sdb");
	/* the wrong way round every counter goes back: no figures */
	CHECK_EQ_U(evidence_disks(&b, &a, busy, 3), 0);
	/* ticks counted over a longer time than our clock: capped at 100 */
	b.when = 101.0;
	CHECK_EQ_U(evidence_disks(&a, &b, busy, 1), 1);
	CHECK_STR(busy[0].name, "sdb");
	CHECK_NEAR(busy[0].util_pct, 100.0, 1e-9);

	text = unit_fixture("evidence/proc/diskstats-garbage", NULL);
	CHECK(diskstats_parse(text, &g) == 1);
	CHECK_STR(g.dev[0].name, "sde");
	free(text);

	CHECK(diskstats_read("/proc/diskstats", &g) >= 0);
	CHECK(g.when > 0);
	diskstats_free(&a);
	diskstats_free(&b);
	diskstats_free(&g);
}

static void test_cgstats_count(void)
{
	struct cgstats s;
	int cg = dir(EV "v2"), proc = dir(EV "pid/task");

	CHECK(cgstats_count_v2(cg, proc, &s) == 0);
	CHECK(s.source == CGSTATS_PROC);
	HAVE(s.nr_tasks, 3);       /* 999999 is gone */
	HAVE(s.nr_running, 2);
	HAVE(s.nr_sleeping, 1);
	HAVE(s.nr_uninterruptible, 0);
	HAVE(s.nr_stopped, 0);
	NONE(s.nr_io_wait);        /* /proc does not say */
	CHECK(cgstats_count_v1(cg, proc, &s) == -1);  /* no "tasks" file */
	CHECK(s.source == CGSTATS_NONE);
	close(cg);
	close(proc);
}

static void test_cgroup_v1(void)
{
	char *mi = unit_fixture("cgroup/mountinfo-hybrid", NULL);
	char *pc = unit_fixture("cgroup/proc-cgroup-hybrid", NULL);
	char dir1[4096], mnt[4096], root[4096], path[4096];
	struct cg_layout l;

	CHECK(cgroup_parse_proc_cgroup_v1("4:memory:/a/b\n2:cpu,cpuacct:/c\n",
					  "cpu", path, sizeof(path)) == 0);
	CHECK_STR(path, "/c");
	CHECK(cgroup_parse_proc_cgroup_v1("4:memory:/a/b\n", "mem", path,
					  sizeof(path)) == -1);
	CHECK(cgroup_parse_proc_cgroup_v1("0::/x\n", "cpu", path,
					  sizeof(path)) == -1);
	CHECK(cgroup_parse_mountinfo_v1(
		"32 31 0:29 / /sys/fs/cgroup/cpu,cpuacct rw - cgroup cgroup rw,cpu,cpuacct\n",
		"cpuacct", mnt, sizeof(mnt), root, sizeof(root)) == 0);
	CHECK_STR(mnt, "/sys/fs/cgroup/cpu,cpuacct");
	CHECK_STR(root, "/");
	CHECK(cg_layout_parse(
		"32 31 0:29 /part /mnt/cpu rw - cgroup cgroup rw,cpu\n", &l) == 0);
	CHECK(cg_layout_task_dir(&l, CG_HIER_CPU, "1:cpu:/part/x/y\n", dir1,
				 sizeof(dir1), NULL) == 0);
	CHECK_STR(dir1, "/mnt/cpu/x/y");
	/* outside the part mounted: no directory */
	CHECK(cg_layout_task_dir(&l, CG_HIER_CPU, "1:cpu:/partx/y\n", dir1,
				 sizeof(dir1), NULL) == -1);
	/* cgroup2 is not a v1 hierarchy */
	CHECK(cgroup_parse_mountinfo_v1(
		"41 31 0:38 / /sys/fs/cgroup/unified rw - cgroup2 cgroup2 rw\n",
		"cpu", mnt, sizeof(mnt), root, sizeof(root)) == -1);
	CHECK(cg_layout_parse(mi, &l) == 0);
	CHECK(cg_layout_task_dir(&l, CG_HIER_MEMORY, pc, dir1, sizeof(dir1),
				 NULL) == 0);
	CHECK_STR(dir1, "/sys/fs/cgroup/memory/system.slice/nginx.service");
	CHECK(cg_layout_task_dir(&l, CG_HIER_CPU, pc, dir1, sizeof(dir1),
				 NULL) == 0);
	CHECK_STR(dir1, "/sys/fs/cgroup/cpu/system.slice/nginx.service");
	free(mi);
	free(pc);
}

int main(void)
{
	test_kval();
	test_read_cut();
	test_cpu();
	test_mem();
	test_io();
	test_sysinfo();
	test_stat();
	test_task();
	test_diskstats();
	test_cgstats_count();
	test_cgroup_v1();
	return unit_done();
}
