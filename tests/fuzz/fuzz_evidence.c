/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Fuzz target: the text parsers of the evidence readers. The input is
 * split at its first NUL into two texts (all of it both when there is no
 * NUL), and each goes through every parser: cpu.max, cpu.stat (v1, v2),
 * memory.events, memory.stat (v1, v2), v1 limits, io.max, io.stat, the
 * v1 blkio files, meminfo, /proc/stat, CPU lists, /proc/PID/io, status,
 * stat, smaps_rollup, statm, diskstats, and the v1 lines of mountinfo
 * and /proc/PID/cgroup. The two diskstats readings make an interval.
 *
 * Checks: an absent value is all zero; a "max" carries no number; a
 * cpu.max that parses has both values and a period > 0; the device table
 * never overflows; device names are short and free of control bytes;
 * utilisation is within 0..100 and the queue finite and not negative;
 * the busiest list is sorted; a CPU list counts -1 or more.
 */
#include <config.h>

#include <math.h>
#include <stddef.h>
#include <string.h>

#include "fuzz.h"
#include "kernel/cg_cpu.h"
#include "kernel/cg_io.h"
#include "kernel/cg_mem.h"
#include "kernel/cgroup.h"
#include "kernel/cpustat.h"
#include "kernel/diskstats.h"
#include "kernel/procfs.h"
#include "kernel/sysinfo.h"
#include "kernel/taskev.h"
#include "lib/cgroup_parse.h"
#include "model/evidence.h"

static void check_kval(const struct kval *k)
{
	if (!k->have)
		FUZZ_CHECK(!k->max && k->v == 0);
	if (k->max)
		FUZZ_CHECK(k->have && k->v == 0);
}

static void check_kvals(const void *base, size_t size)
{
	/* every struct checked here is struct kval members only, after a
	 * version or count field where noted */
	for (size_t o = 0; o + sizeof(struct kval) <= size; o += sizeof(struct kval))
		check_kval((const struct kval *)((const char *)base + o));
}

static void cpu(const char *text)
{
	struct cg_cpu c;
	struct kval q, p;

	if (cg_cpu_parse_max(text, &q, &p) == 0)
		FUZZ_CHECK(q.have && p.have && !p.max && p.v > 0);
	else
		FUZZ_CHECK(!q.have && !p.have);
	check_kval(&q);
	check_kval(&p);
	for (int v = 1; v <= 2; v++) {
		memset(&c, 0, sizeof(c));
		cg_cpu_parse_stat(text, v, &c);
		check_kval(&c.nr_periods);
		check_kval(&c.nr_throttled);
		check_kval(&c.throttled_us);
		check_kval(&c.usage_us);
	}
}

static void mem(const char *text)
{
	struct cg_mem m;

	memset(&m, 0, sizeof(m));
	FUZZ_CHECK(cg_mem_parse_events(text, &m) <= 5);
	check_kval(&m.ev_low);
	check_kval(&m.ev_high);
	check_kval(&m.ev_max);
	check_kval(&m.ev_oom);
	check_kval(&m.ev_oom_kill);
	for (int v = 1; v <= 2; v++) {
		memset(&m, 0, sizeof(m));
		cg_mem_parse_stat(text, v, &m);
		check_kval(&m.refault_anon);
		check_kval(&m.refault_file);
		check_kval(&m.refault);
	}
	struct kval k = cg_mem_parse_v1_limit(text);
	check_kval(&k);
	k = kval_parse_limit(text);
	check_kval(&k);
}

static void check_io(const struct cg_io *io)
{
	FUZZ_CHECK(io->ndev <= CG_IO_DEVS);
	for (size_t i = 0; i < io->ndev; i++) {
		check_kvals(&io->dev[i].rbps,
			    sizeof(io->dev[i]) - offsetof(struct cg_io_dev, rbps));
		FUZZ_CHECK(io->dev[i].major <= 0xfffff &&
			   io->dev[i].minor <= 0xfffff);
	}
}

static void io(const char *text)
{
	struct cg_io c;

	memset(&c, 0, sizeof(c));
	(void)cg_io_parse_max(text, &c);
	cg_io_parse_stat(text, &c);
	cg_io_no_limit_elsewhere(&c);
	check_io(&c);
	memset(&c, 0, sizeof(c));
	(void)cg_io_parse_v1_limit(text, offsetof(struct cg_io_dev, wiops), &c);
	cg_io_parse_v1_service(text, offsetof(struct cg_io_dev, rbytes),
			       offsetof(struct cg_io_dev, wbytes), &c);
	check_io(&c);
}

static void sys_task(const char *text)
{
	struct sysinfo_mem m;
	struct cpustat cs = { 0 };
	struct taskev_io tio;
	struct kval k;
	struct procfs_stat st;

	sysinfo_parse_meminfo(text, &m);
	check_kvals(&m, sizeof(m));
	(void)cpustat_parse(text, &cs);
	check_kval(&cs.procs_running);
	check_kval(&cs.procs_blocked);
	cpustat_free(&cs);
	FUZZ_CHECK(sysinfo_cpulist_count(text) >= -1);
	taskev_parse_io(text, &tio);
	check_kvals(&tio, sizeof(tio));
	k = taskev_parse_allowed(text);
	check_kval(&k);
	FUZZ_CHECK(!k.have || k.v > 0);
	k = taskev_parse_smaps_rollup(text);
	check_kval(&k);
	k = taskev_parse_statm(text, 4096);
	check_kval(&k);
	if (procfs_parse_stat(text, &st) == 0) {
		FUZZ_CHECK(st.state >= 'A' && st.state <= 'z');
		FUZZ_CHECK(!st.have_blkio || st.have_start);
	}
}

static void cgroup_v1(const char *text)
{
	char a[256], b[256];

	if (cgroup_parse_mountinfo_v1(text, "cpu", a, sizeof(a), b,
				      sizeof(b)) == 0)
		FUZZ_CHECK(strlen(a) < sizeof(a) && strlen(b) < sizeof(b));
	if (cgroup_parse_proc_cgroup_v1(text, "memory", a, sizeof(a)) == 0)
		FUZZ_CHECK(a[0] == '/' && !strchr(a, '\n'));
}

static void check_disks(const struct diskstats *d)
{
	for (size_t i = 0; i < d->n; i++) {
		size_t n = strnlen(d->dev[i].name, DISKSTATS_NAME);

		FUZZ_CHECK(n > 0 && n < DISKSTATS_NAME);
		for (size_t j = 0; j < n; j++)
			FUZZ_CHECK((unsigned char)d->dev[i].name[j] >= 0x20 &&
				   d->dev[i].name[j] != 0x7f);
	}
}

static void disks(const char *first, const char *second)
{
	struct diskstats a = { 0 }, b = { 0 };
	struct diskstats_busy busy[4];
	size_t n;

	if (diskstats_parse(first, &a) < 0 || diskstats_parse(second, &b) < 0)
		abort();
	check_disks(&a);
	check_disks(&b);
	a.when = 10.0;
	b.when = 10.5;
	n = evidence_disks(&a, &b, busy, 4);
	FUZZ_CHECK(n <= 4);
	for (size_t i = 0; i < n; i++) {
		FUZZ_CHECK(busy[i].util_pct >= 0 && busy[i].util_pct <= 100);
		FUZZ_CHECK(isfinite(busy[i].queue) && busy[i].queue >= 0);
		if (i)
			FUZZ_CHECK(busy[i - 1].util_pct >= busy[i].util_pct);
	}
	/* no interval: nothing */
	b.when = a.when;
	FUZZ_CHECK(evidence_disks(&a, &b, busy, 4) == 0);
	diskstats_free(&a);
	diskstats_free(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_strdup(data, size);
	size_t first = strlen(text);
	const char *second = first < size ? text + first + 1 : text;
	const char *texts[2] = { text, second };

	for (int i = 0; i < 2; i++) {
		cpu(texts[i]);
		mem(texts[i]);
		io(texts[i]);
		sys_task(texts[i]);
		cgroup_v1(texts[i]);
	}
	disks(text, second);
	free(text);
	return 0;
}
