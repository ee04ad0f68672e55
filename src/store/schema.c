/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The codec schema of a store sample and the conversion both ways
 * (schema.h says what is stored how).
 */
#include <config.h>

#include "store/schema.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- the tables --- */

#define F(s, id, ty, fl, m) { id, ty, fl, offsetof(struct s, m), #m }
#define FS(s, id, m) { id, CODEC_STRING, 0, offsetof(struct s, m), #m }
#define FA(s, id, ty, fl, m, i, name) \
	{ id, ty, fl, offsetof(struct s, m) + (i) * 8, name }
#define CAT8(s, base, ty, fl, m) \
	FA(s, base, ty, fl, m, 0, #m "0"), FA(s, base + 1, ty, fl, m, 1, #m "1"), \
	FA(s, base + 2, ty, fl, m, 2, #m "2"), FA(s, base + 3, ty, fl, m, 3, #m "3"), \
	FA(s, base + 4, ty, fl, m, 4, #m "4"), FA(s, base + 5, ty, fl, m, 5, #m "5"), \
	FA(s, base + 6, ty, fl, m, 6, #m "6"), FA(s, base + 7, ty, fl, m, 7, #m "7")

/*
 * PSI line L of member m (an array of struct schema_psi) at ids
 * base + 8 L .. base + 6 + 8 L: of a cgroup and the system, base 32 and
 * L = resource * 2 + kind
 */
#define PSI_BASE 32u
#define PSI_ID(l, j) (PSI_BASE + 8u * (l) + (j))
#define PSIF(s, a, base, l, j, ty, fl, m, name) \
	{ (base) + 8u * (l) + (j), ty, fl, offsetof(struct s, a) + \
	  (l) * sizeof(struct schema_psi) + offsetof(struct schema_psi, m), \
	  name }
#define PSI_LINE(s, a, base, l) \
	PSIF(s, a, base, l, 0, CODEC_U64, CODEC_COUNTER, total_us, \
	     "psi_total_us"), \
	PSIF(s, a, base, l, 1, CODEC_U64, 0, avg_c[0], "psi_avg10_c"), \
	PSIF(s, a, base, l, 2, CODEC_U64, 0, avg_c[1], "psi_avg60_c"), \
	PSIF(s, a, base, l, 3, CODEC_U64, 0, avg_c[2], "psi_avg300_c"), \
	PSIF(s, a, base, l, 4, CODEC_DOUBLE, 0, avg[0], "psi_avg10"), \
	PSIF(s, a, base, l, 5, CODEC_DOUBLE, 0, avg[1], "psi_avg60"), \
	PSIF(s, a, base, l, 6, CODEC_DOUBLE, 0, avg[2], "psi_avg300")
#define PSI_ALL(s) \
	PSI_LINE(s, psi, PSI_BASE, 0), PSI_LINE(s, psi, PSI_BASE, 1), \
	PSI_LINE(s, psi, PSI_BASE, 2), PSI_LINE(s, psi, PSI_BASE, 3), \
	PSI_LINE(s, psi, PSI_BASE, 4), PSI_LINE(s, psi, PSI_BASE, 5), \
	PSI_LINE(s, psi, PSI_BASE, 6), PSI_LINE(s, psi, PSI_BASE, 7)

#define T_TGID 3
#define T_ASKED_AT 4
#define T_AT 5
#define T_AGE 8
#define T_AGE_US 9
#define T_COUNT 20
#define T_TOTAL 30
#define T_MAX 40
#define T_MAX_AT 50
#define T_UID 60
#define T_PPID 61
#define T_THREADS 62
#define T_STATE 63
#define T_NICE 64
#define T_START_REAL 65
#define T_CTX_AT 66
#define T_RSS 67
#define T_SWAP 68
#define T_READ 69
#define T_WRITE 70
#define T_MAJFLT 71
#define T_WCHAN 74
#define T_CGROUP 76
#define T_SHAVE 77
#define T_LIKE 78
#define T_AGE_REL 79

static const struct codec_field task_fields[] = {
	F(schema_task, 1, CODEC_U64, CODEC_KEY, id),
	F(schema_task, 2, CODEC_U64, CODEC_KEY, start),
	F(schema_task, T_TGID, CODEC_U64, 0, tgid),
	F(schema_task, T_ASKED_AT, CODEC_DOUBLE, CODEC_COUNTER, asked_at),
	F(schema_task, T_AT, CODEC_DOUBLE, CODEC_COUNTER, at),
	F(schema_task, 6, CODEC_DOUBLE, 0, born),
	F(schema_task, 7, CODEC_DOUBLE, 0, first_seen),
	F(schema_task, T_AGE, CODEC_DOUBLE, 0, age),
	F(schema_task, T_AGE_US, CODEC_U64, CODEC_COUNTER, age_us),
	F(schema_task, 10, CODEC_U64, CODEC_COUNTER, run_ns),
	F(schema_task, 11, CODEC_U64, 0, have),
	F(schema_task, 12, CODEC_U64, 0, have_max),
	F(schema_task, 13, CODEC_U64, 0, have_max_at),
	F(schema_task, 14, CODEC_U64, 0, no_count),
	F(schema_task, 15, CODEC_U64, 0, cats),
	F(schema_task, 16, CODEC_U64, 0, flags),
	F(schema_task, 17, CODEC_S64, 0, rthreads),
	CAT8(schema_task, T_COUNT, CODEC_U64, CODEC_COUNTER, count),
	CAT8(schema_task, T_TOTAL, CODEC_U64, CODEC_COUNTER, total_ns),
	CAT8(schema_task, T_MAX, CODEC_U64, CODEC_COUNTER, max_ns),
	CAT8(schema_task, T_MAX_AT, CODEC_DOUBLE, 0, max_at),
	F(schema_task, T_UID, CODEC_U64, 0, uid),
	F(schema_task, T_PPID, CODEC_S64, 0, ppid),
	F(schema_task, T_THREADS, CODEC_S64, 0, threads),
	F(schema_task, T_STATE, CODEC_S64, 0, state),
	F(schema_task, T_NICE, CODEC_S64, 0, nice),
	F(schema_task, T_START_REAL, CODEC_DOUBLE, 0, start_real),
	F(schema_task, T_CTX_AT, CODEC_DOUBLE, CODEC_COUNTER, ctx_at),
	F(schema_task, T_RSS, CODEC_S64, 0, rss_kib),
	F(schema_task, T_SWAP, CODEC_S64, 0, swap_kib),
	F(schema_task, T_READ, CODEC_U64, CODEC_COUNTER, read_bytes),
	F(schema_task, T_WRITE, CODEC_U64, CODEC_COUNTER, write_bytes),
	F(schema_task, T_MAJFLT, CODEC_U64, CODEC_COUNTER, majflt),
	FS(schema_task, 72, comm),
	FS(schema_task, 73, user),
	FS(schema_task, T_WCHAN, wchan),
	FS(schema_task, 75, cmdline),
	FS(schema_task, T_CGROUP, cgroup),
	F(schema_task, T_SHAVE, CODEC_U64, 0, shave),
	F(schema_task, T_LIKE, CODEC_U64, 0, like),
	F(schema_task, T_AGE_REL, CODEC_S64, CODEC_COUNTER, age_rel),
};

#define C_PSI_WHEN 3

static const struct codec_field cgroup_fields[] = {
	{ 1, CODEC_STRING, CODEC_KEY, offsetof(struct schema_cgroup, path),
	  "path" },
	F(schema_cgroup, 2, CODEC_U64, 0, have),
	F(schema_cgroup, C_PSI_WHEN, CODEC_DOUBLE, CODEC_COUNTER, psi_when),
	F(schema_cgroup, 4, CODEC_U64, CODEC_COUNTER, throttled_us),
	F(schema_cgroup, 5, CODEC_U64, CODEC_COUNTER, mem_high),
	F(schema_cgroup, 6, CODEC_U64, CODEC_COUNTER, mem_max),
	F(schema_cgroup, 7, CODEC_U64, CODEC_COUNTER, mem_oom_kill),
	PSI_ALL(schema_cgroup),
};

#define S_PSI_WHEN 5
#define S_TRIGGER 11
#define S_LOAD_C 13
#define S_LOAD 16
#define S_CPU_IDLE 19
#define S_MEM_TOTAL 21
#define S_SWAP_TOTAL 23
#define S_DISKS_WHEN 28
#define S_AT 29
#define S_CTX_AT 30

static const struct codec_field system_fields[] = {
	F(schema_system, 1, CODEC_DOUBLE, CODEC_COUNTER, boot),
	F(schema_system, 2, CODEC_DOUBLE, CODEC_COUNTER, mono),
	F(schema_system, 3, CODEC_DOUBLE, CODEC_COUNTER, real),
	F(schema_system, 4, CODEC_DOUBLE, CODEC_COUNTER, query_start),
	F(schema_system, S_PSI_WHEN, CODEC_DOUBLE, CODEC_COUNTER, psi_when),
	F(schema_system, 6, CODEC_S64, 0, delayacct),
	F(schema_system, 7, CODEC_U64, 0, ts_version),
	F(schema_system, 8, CODEC_U64, CODEC_COUNTER, events_lost),
	F(schema_system, 9, CODEC_U64, CODEC_COUNTER, exit_records_lost),
	F(schema_system, 10, CODEC_U64, 0, threads),
	FS(schema_system, S_TRIGGER, trigger),
	F(schema_system, 12, CODEC_U64, 0, mhave),
	FA(schema_system, S_LOAD_C, CODEC_U64, 0, load_c, 0, "load1_c"),
	FA(schema_system, S_LOAD_C + 1, CODEC_U64, 0, load_c, 1, "load5_c"),
	FA(schema_system, S_LOAD_C + 2, CODEC_U64, 0, load_c, 2, "load15_c"),
	FA(schema_system, S_LOAD, CODEC_DOUBLE, 0, load, 0, "load1"),
	FA(schema_system, S_LOAD + 1, CODEC_DOUBLE, 0, load, 1, "load5"),
	FA(schema_system, S_LOAD + 2, CODEC_DOUBLE, 0, load, 2, "load15"),
	F(schema_system, S_CPU_IDLE, CODEC_U64, CODEC_COUNTER, cpu_idle),
	F(schema_system, S_CPU_IDLE + 1, CODEC_U64, CODEC_COUNTER, cpu_total),
	F(schema_system, S_MEM_TOTAL, CODEC_U64, 0, mem_total),
	F(schema_system, S_MEM_TOTAL + 1, CODEC_U64, 0, mem_available),
	F(schema_system, S_SWAP_TOTAL, CODEC_U64, 0, swap_total),
	F(schema_system, S_SWAP_TOTAL + 1, CODEC_U64, 0, swap_free),
	F(schema_system, 25, CODEC_U64, 0, nprocs),
	F(schema_system, 26, CODEC_U64, 0, nthreads),
	F(schema_system, 27, CODEC_U64, 0, thread_readings),
	F(schema_system, S_DISKS_WHEN, CODEC_DOUBLE, CODEC_COUNTER, disks_when),
	F(schema_system, S_AT, CODEC_DOUBLE, CODEC_COUNTER, at),
	F(schema_system, S_CTX_AT, CODEC_DOUBLE, CODEC_COUNTER, ctx_at),
	PSI_ALL(schema_system),
};

/*
 * The values of an evidence reading, their order that of kv[] (ids
 * E_KV + index): never reorder, only append (up to E_KV_END).
 */
#define EV_KVALS(X) \
	X(cpu_quota_us, cpu.quota_us) X(cpu_period_us, cpu.period_us) \
	X(cpu_nr_periods, cpu.nr_periods) X(cpu_nr_throttled, cpu.nr_throttled) \
	X(cpu_throttled_us, cpu.throttled_us) X(cpu_usage_us, cpu.usage_us) \
	X(mem_max, mem.max) X(mem_high, mem.high) X(mem_current, mem.current) \
	X(mem_ev_low, mem.ev_low) X(mem_ev_high, mem.ev_high) \
	X(mem_ev_max, mem.ev_max) X(mem_ev_oom, mem.ev_oom) \
	X(mem_ev_oom_kill, mem.ev_oom_kill) X(mem_failcnt, mem.failcnt) \
	X(mem_swap_current, mem.swap_current) X(mem_swap_max, mem.swap_max) \
	X(mem_memsw_usage, mem.memsw_usage) X(mem_memsw_limit, mem.memsw_limit) \
	X(mem_memsw_failcnt, mem.memsw_failcnt) \
	X(mem_refault_anon, mem.refault_anon) \
	X(mem_refault_file, mem.refault_file) X(mem_refault, mem.refault) \
	X(sys_mem_total, sysmem.mem_total) X(sys_mem_free, sysmem.mem_free) \
	X(sys_mem_available, sysmem.mem_available) \
	X(sys_swap_total, sysmem.swap_total) X(sys_swap_free, sysmem.swap_free) \
	X(procs_running, load.procs_running) \
	X(procs_blocked, load.procs_blocked) X(cpus_online, load.cpus_online) \
	X(task_rchar, tio.rchar) X(task_wchar, tio.wchar) \
	X(task_read_bytes, tio.read_bytes) X(task_write_bytes, tio.write_bytes) \
	X(task_cancelled_write_bytes, tio.cancelled_write_bytes) \
	X(allowed_cpus, tcpu.allowed_cpus) X(threads, tcpu.threads) \
	X(runnable_threads, tcpu.runnable_threads) \
	X(cpus_in_idle, cpus.in_idle) X(cpus_in_total, cpus.in_total) \
	X(cpus_out_idle, cpus.out_idle) X(cpus_out_total, cpus.out_total) \
	X(private_bytes, tmem.private_bytes) \
	X(nr_running, states.nr_running) X(nr_sleeping, states.nr_sleeping) \
	X(nr_uninterruptible, states.nr_uninterruptible) \
	X(nr_stopped, states.nr_stopped) X(nr_io_wait, states.nr_io_wait) \
	X(nr_tasks, states.nr_tasks) X(forks, forks)

#define EV_ENUM(name, m) EVK_##name,
enum { EV_KVALS(EV_ENUM) EVK_N };
_Static_assert(EVK_N == SCHEMA_EV_NKV, "schema.h counts the values");
_Static_assert(SCHEMA_EV_NKV <= 64, "the mask of max values is 64 bits");

#define EV_OFF(name, m) offsetof(struct evidence_reading, m),
static const size_t ev_kval_off[] = { EV_KVALS(EV_OFF) };

/* A device's values, their order that of schema_evdev.kv */
#define DEV_KVALS(X) X(rbps) X(wbps) X(riops) X(wiops) X(rbytes) X(wbytes) \
	X(rios) X(wios)
#define DEV_OFF(m) offsetof(struct cg_io_dev, m),
static const size_t dev_kval_off[] = { DEV_KVALS(DEV_OFF) };
_Static_assert(sizeof(dev_kval_off) / sizeof(dev_kval_off[0]) ==
	       SCHEMA_EV_DEV_NKV, "schema.h counts a device's values");

#define E_WHEN 4
#define E_MAX 13
#define E_SAME_KV 14
#define E_SAME_PART 15
#define SAME_VERSIONS 6         /* same_part's bits besides the lines */
#define SAME_DEVS 7
#define E_CGROUPS 5
#define E_ALLOWED 6
#define E_KV 16                 /* .. 79 */
#define E_PSI 80                /* 3 resources x 2 kinds: .. 127 */
#define E_DEV 128               /* 16 per device: .. 383 */
#define E_DEV_ID(d, k) (E_DEV + 16u * (d) + (k))

#define EV_FIELD(name, m) \
	{ E_KV + EVK_##name, CODEC_U64, CODEC_COUNTER, \
	  offsetof(struct schema_evidence, kv) + EVK_##name * 8, #name },
#define DEVF(d, k, m, name) \
	{ E_DEV_ID(d, k), CODEC_U64, (k) < 3 ? 0 : CODEC_COUNTER, \
	  offsetof(struct schema_evidence, dev) + \
	  (d) * sizeof(struct schema_evdev) + \
	  offsetof(struct schema_evdev, m), name }
#define DEV(d) \
	DEVF(d, 0, major, "dev_major"), DEVF(d, 1, minor, "dev_minor"), \
	DEVF(d, 2, max, "dev_max"), DEVF(d, 3, kv[0], "dev_rbps"), \
	DEVF(d, 4, kv[1], "dev_wbps"), DEVF(d, 5, kv[2], "dev_riops"), \
	DEVF(d, 6, kv[3], "dev_wiops"), DEVF(d, 7, kv[4], "dev_rbytes"), \
	DEVF(d, 8, kv[5], "dev_wbytes"), DEVF(d, 9, kv[6], "dev_rios"), \
	DEVF(d, 10, kv[7], "dev_wios")
_Static_assert(CG_IO_DEVS == 16, "the schema has 16 devices");

static const struct codec_field evidence_fields[] = {
	F(schema_evidence, 1, CODEC_U64, CODEC_KEY, id),
	F(schema_evidence, 2, CODEC_U64, CODEC_KEY, start),
	{ 3, CODEC_STRING, CODEC_KEY, offsetof(struct schema_evidence, owner),
	  "owner" },
	F(schema_evidence, E_WHEN, CODEC_DOUBLE, CODEC_COUNTER, when),
	FS(schema_evidence, E_CGROUPS, cgroups),
	FS(schema_evidence, E_ALLOWED, allowed_list),
	F(schema_evidence, 7, CODEC_S64, 0, cpu_version),
	F(schema_evidence, 8, CODEC_S64, 0, mem_version),
	F(schema_evidence, 9, CODEC_S64, 0, io_version),
	F(schema_evidence, 10, CODEC_S64, 0, states_source),
	F(schema_evidence, 11, CODEC_U64, 0, ndev),
	F(schema_evidence, 12, CODEC_U64, 0, dropped),
	F(schema_evidence, 13, CODEC_U64, 0, max),
	F(schema_evidence, E_SAME_KV, CODEC_U64, 0, same_kv),
	F(schema_evidence, E_SAME_PART, CODEC_U64, 0, same_part),
	EV_KVALS(EV_FIELD)
	PSI_LINE(schema_evidence, psi, E_PSI, 0),
	PSI_LINE(schema_evidence, psi, E_PSI, 1),
	PSI_LINE(schema_evidence, psi, E_PSI, 2),
	PSI_LINE(schema_evidence, psi, E_PSI, 3),
	PSI_LINE(schema_evidence, psi, E_PSI, 4),
	PSI_LINE(schema_evidence, psi, E_PSI, 5),
	DEV(0), DEV(1), DEV(2), DEV(3), DEV(4), DEV(5), DEV(6), DEV(7),
	DEV(8), DEV(9), DEV(10), DEV(11), DEV(12), DEV(13), DEV(14), DEV(15),
};

static const struct codec_field disk_fields[] = {
	F(schema_disk, 1, CODEC_U64, CODEC_KEY, major),
	F(schema_disk, 2, CODEC_U64, CODEC_KEY, minor),
	FS(schema_disk, 3, name),
	F(schema_disk, 4, CODEC_U64, CODEC_COUNTER, rd_ios),
	F(schema_disk, 5, CODEC_U64, CODEC_COUNTER, rd_sectors),
	F(schema_disk, 6, CODEC_U64, CODEC_COUNTER, wr_ios),
	F(schema_disk, 7, CODEC_U64, CODEC_COUNTER, wr_sectors),
	F(schema_disk, 8, CODEC_U64, CODEC_COUNTER, in_flight),
	F(schema_disk, 9, CODEC_U64, CODEC_COUNTER, io_ticks_ms),
	F(schema_disk, 10, CODEC_U64, CODEC_COUNTER, queue_ms),
};

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define TABLE(id, name, s, f, max) \
	{ id, name, sizeof(struct s), offsetof(struct s, known), \
	  sizeof(((struct s *)0)->known), max, f, N(f) }

static const struct codec_table tables[SCHEMA_NTABLES] = {
	TABLE(1, "tasks", schema_task, task_fields, 1u << 22),
	TABLE(2, "threads", schema_task, task_fields, 1u << 22),
	TABLE(3, "cgroups", schema_cgroup, cgroup_fields, 1u << 20),
	TABLE(4, "system", schema_system, system_fields, 1),
	TABLE(5, "evidence", schema_evidence, evidence_fields, 1u << 22),
	TABLE(6, "disks", schema_disk, disk_fields, 1u << 16),
};

const struct codec_schema schema_store = { tables, SCHEMA_NTABLES };

/* --- values in the form that stays the same --- */

static bool same(double a, double b)
{
	return memcmp(&a, &b, sizeof(a)) == 0;
}

/* v as a whole number of 1/scale when that gives v back exactly */
static bool whole(double v, double scale, uint64_t *n)
{
	if (!(v >= 0 && v < 1e15) || signbit(v))
		return false;
	double r = round(v * scale);

	if (!same(r / scale, v))
		return false;
	*n = (uint64_t)r;
	return true;
}

/* A string as stored: NULL (never given) as "" */
static const char *str(const char *s)
{
	return s ? s : "";
}

/* A PSI line whose fields begin at id id0. */
static void put_psi(const struct codec_table *t, void *row,
		    struct schema_psi *out, const struct psi_line *in,
		    unsigned id0)
{
	if (!in->present)
		return;
	out->total_us = in->total_us;
	codec_set_known(t, row, id0, true);
	const double avg[3] = { in->avg10, in->avg60, in->avg300 };

	for (unsigned j = 0; j < 3; j++) {
		bool c = whole(avg[j], 100, &out->avg_c[j]);

		if (!c)
			out->avg[j] = avg[j];
		codec_set_known(t, row, id0 + (c ? 1 + j : 4 + j), true);
	}
}

static void get_psi(const struct codec_table *t, const void *row,
		    const struct schema_psi *in, struct psi_line *out,
		    unsigned id0)
{
	memset(out, 0, sizeof(*out));
	if (!codec_known(t, row, id0))
		return;
	out->present = true;
	out->total_us = in->total_us;
	double *avg[3] = { &out->avg10, &out->avg60, &out->avg300 };

	for (unsigned j = 0; j < 3; j++)
		*avg[j] = codec_known(t, row, id0 + 1 + j) ?
			  (double)in->avg_c[j] / 100 : in->avg[j];
}

static void put_psi_all(const struct codec_table *t, void *row,
			struct schema_psi psi[NPSI][NPSI_KIND],
			const struct psi_reading *in)
{
	for (unsigned r = 0; r < NPSI; r++)
		for (unsigned k = 0; k < NPSI_KIND; k++)
			put_psi(t, row, &psi[r][k], &in->line[r][k],
				PSI_ID(r * NPSI_KIND + k, 0));
}

static void get_psi_all(const struct codec_table *t, const void *row,
			const struct schema_psi psi[NPSI][NPSI_KIND],
			struct psi_reading *out)
{
	for (unsigned r = 0; r < NPSI; r++)
		for (unsigned k = 0; k < NPSI_KIND; k++)
			get_psi(t, row, &psi[r][k], &out->line[r][k],
				PSI_ID(r * NPSI_KIND + k, 0));
}

/*
 * A time's whole microseconds, rounded (0 for one that is not a time:
 * not finite, negative or past 10^12 s), the base of a stored age.
 */
static uint64_t us_of(double t)
{
	return isfinite(t) && t >= 0 && t < 1e12 ? (uint64_t)llround(t * 1e6) : 0;
}

/* The age the live monitor makes without a thread's own record. */
static double age_from(double at, double born)
{
	return born > 0 && at > born ? at - born : 0;
}

static void set(const struct codec_table *t, void *row, unsigned id, bool on)
{
	codec_set_known(t, row, id, on);
}

/* --- tasks --- */

static int task_cmp(const void *a, const void *b)
{
	const struct schema_task *x = a, *y = b;

	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return (x->start > y->start) - (x->start < y->start);
}

/* The counters of the task's previous row, for a carried reading. */
/*
 * A value of a task that reads back as zero when not written: every
 * number but the key and those whose being written says something
 * (the times stored where they differ from the sample's, the age).
 */
static bool zero_by_default(const struct codec_field *f)
{
	switch (f->id) {
	case T_TGID: case T_ASKED_AT: case T_AT: case T_AGE: case T_AGE_US:
	case T_AGE_REL: case T_CTX_AT:
		return false;
	}
	return f->type != CODEC_STRING && !(f->flags & CODEC_KEY);
}

/* Zeros not written: most of a task's counters are (+0.0 of doubles). */
static void unknown_zeros(const struct codec_table *t, struct schema_task *o)
{
	static const unsigned char zero[8];

	for (size_t i = 0; i < t->nfields; i++) {
		const struct codec_field *f = &t->fields[i];

		if (zero_by_default(f) &&
		    memcmp((const unsigned char *)o + f->offset, zero, 8) == 0)
			set(t, o, f->id, false);
	}
}

static void carry(struct schema_task *o, const struct schema_task *prev,
		  size_t nprev)
{
	const struct schema_task *p = prev && nprev ?
		bsearch(o, prev, nprev, sizeof(*prev), task_cmp) : NULL;

	if (!p)
		return;
	o->run_ns = p->run_ns;
	memcpy(o->count, p->count, sizeof(o->count));
	memcpy(o->total_ns, p->total_ns, sizeof(o->total_ns));
	memcpy(o->max_ns, p->max_ns, sizeof(o->max_ns));
	memcpy(o->max_at, p->max_at, sizeof(o->max_at));
}

static void task_reading_in(const struct codec_table *t,
			    struct schema_task *o, const struct task_reading *r,
			    const struct store_sample *in, double at0)
{
	o->id = (uint64_t)(int64_t)r->id;
	o->start = r->start;
	o->tgid = (uint64_t)(int64_t)r->tgid;
	set(t, o, T_TGID, r->tgid != r->id);
	o->asked_at = r->asked_at;
	o->at = r->at;
	set(t, o, T_ASKED_AT, !same(r->asked_at, in->query_start));
	set(t, o, T_AT, !same(r->at, at0));
	o->born = r->born;
	o->first_seen = r->first_seen;
	if (!same(r->age, age_from(r->at, r->born))) {
		bool us = whole(r->age, 1e6, &o->age_us);

		o->age = r->age;
		o->age_rel = (int64_t)(o->age_us - us_of(r->at));
		set(t, o, us ? T_AGE_REL : T_AGE, true);
	}
	o->run_ns = r->run_ns;
	o->have = r->have;
	o->have_max = r->have_max;
	o->have_max_at = r->have_max_at;
	o->no_count = r->no_count;
	o->cats = r->cats;
	o->flags = r->flags;
	o->rthreads = r->threads;
	for (int c = 0; c < READING_NCAT; c++) {
		o->count[c] = r->d[c].count;
		o->total_ns[c] = r->d[c].total_ns;
		o->max_ns[c] = r->d[c].max_ns;
		o->max_at[c] = r->max_at[c];
	}
}

/* The members of a store_task its have mask says are known. */
static void task_have_in(const struct codec_table *t, struct schema_task *o,
			 const struct store_task *k, double ctx0)
{
	static const struct { uint32_t bit; unsigned id; } ids[] = {
		{ STORE_HAVE_UID, T_UID }, { STORE_HAVE_PPID, T_PPID },
		{ STORE_HAVE_STATE, T_STATE }, { STORE_HAVE_THREADS, T_THREADS },
		{ STORE_HAVE_START, T_START_REAL }, { STORE_HAVE_RSS, T_RSS },
		{ STORE_HAVE_SWAP, T_SWAP }, { STORE_HAVE_NICE, T_NICE },
		{ STORE_HAVE_IO, T_READ }, { STORE_HAVE_IO, T_WRITE },
		{ STORE_HAVE_MAJFLT, T_MAJFLT },
	};

	o->shave = k->have;
	o->uid = k->uid;
	o->ppid = k->ppid;
	o->threads = k->threads;
	o->state = k->state;
	o->nice = k->nice;
	o->start_real = k->start_real;
	o->rss_kib = k->rss_kib;
	o->swap_kib = k->swap_kib;
	o->read_bytes = k->read_bytes;
	o->write_bytes = k->write_bytes;
	o->majflt = k->majflt;
	for (size_t i = 0; i < N(ids); i++)
		set(t, o, ids[i].id, k->have & ids[i].bit);
	o->ctx_at = k->ctx_at;
	set(t, o, T_CTX_AT,
	    (k->have & STORE_HAVE_CTX_AT) && !same(k->ctx_at, ctx0));
	if (k->have & STORE_HAVE_WCHAN)
		o->wchan = k->wchan;
	set(t, o, T_WCHAN, k->have & STORE_HAVE_WCHAN);
}

static bool tasks_sorted(const struct schema_task *o, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (task_cmp(&o[i - 1], &o[i]) > 0)
			return false;
	return true;
}

static int tasks_in(struct schema_rows *r, int set_, const struct store_task *k,
		    size_t n, const struct store_sample *in,
		    const struct schema_rows *prev)
{
	const struct codec_table *t = &tables[set_];

	if (n > r->cap[set_]) {
		void *p = realloc(r->task[set_], n * sizeof(*r->task[set_]));

		if (!p)
			return -1;
		r->task[set_] = p;
		r->cap[set_] = n;
	}
	struct schema_task known;

	/* what every task starts knowing: all but the times and its age */
	memset(&known, 0, sizeof(known));
	for (size_t f = 0; f < t->nfields; f++)
		set(t, &known, t->fields[f].id, true);
	set(t, &known, T_AGE_REL, false);
	for (unsigned id = T_ASKED_AT; id <= T_AGE_US; id++)
		set(t, &known, id, false);
	set(t, &known, 6, true);
	set(t, &known, 7, true);
	set(t, &known, T_CTX_AT, false);
	set(t, &known, T_LIKE, false);
	for (size_t i = 0; i < n; i++) {
		struct schema_task *o = &r->task[set_][i];

		memset(o, 0, sizeof(*o));
		memcpy(o->known, known.known, sizeof(o->known));
		task_reading_in(t, o, &k[i].r, in, r->at0);
		task_have_in(t, o, &k[i], r->ctx0);
		o->comm = str(k[i].comm);
		o->user = str(k[i].user);
		o->cmdline = str(k[i].cmdline);
		o->cgroup = k[i].cgroup;
		set(t, o, T_CGROUP, k[i].cgroup != NULL);
	}
	if (!tasks_sorted(r->task[set_], n))
		qsort(r->task[set_], n, sizeof(*r->task[set_]), task_cmp);
	for (size_t i = 0; i < n; i++) {
		if (r->task[set_][i].flags & READING_CARRIED)
			carry(&r->task[set_][i], prev ? prev->task[set_] : NULL,
			      prev ? prev->rows[set_].n : 0);
		unknown_zeros(t, &r->task[set_][i]);
	}
	r->rows[set_].rows = r->task[set_];
	r->rows[set_].n = n;
	return 0;
}

/* The task row of o's key in the n rows of p (key order), or NULL. */
static const struct schema_task *task_of(const struct schema_task *o,
					 const struct schema_task *p, size_t n)
{
	return n ? bsearch(o, p, n, sizeof(*p), task_cmp) : NULL;
}

/* a numeric member at f's offset, as its 8 bytes */
static uint64_t bits_at(const void *row, const struct codec_field *f)
{
	uint64_t v;

	memcpy(&v, (const unsigned char *)row + f->offset, 8);
	return v;
}

static void bits_put(void *row, const struct codec_field *f, uint64_t v)
{
	memcpy((unsigned char *)row + f->offset, &v, 8);
}

static const char *str_of(const void *row, const struct codec_field *f)
{
	const char *s;

	memcpy(&s, (const unsigned char *)row + f->offset, sizeof(s));
	return s;
}

/* A number as it reads back: its bits where known, else zero. */
static uint64_t value_of(const struct codec_table *t, const void *row,
			 const struct codec_field *f)
{
	return codec_known(t, row, f->id) ? bits_at(row, f) : 0;
}

/* Whether f of rows a and b is the same: known in both, the same value. */
static bool same_field(const struct codec_table *t, const void *a,
		       const void *b, const struct codec_field *f)
{
	if (!codec_known(t, a, f->id) || !codec_known(t, b, f->id))
		return false;
	if (f->type == CODEC_STRING)
		return strcmp(str_of(a, f), str_of(b, f)) == 0;
	return bits_at(a, f) == bits_at(b, f);
}

/*
 * Thread row o as its difference from its task's row p: numbers that
 * read back as zero when absent as differences (zero: not written), the
 * others (strings, times, its age) only where not p's. False when that
 * cannot be said: one of those unknown where the task's is known (but a
 * wait channel, which its have says it lacks).
 */
static bool like_in(const struct codec_table *t, struct schema_task *o,
		    const struct schema_task *p)
{
	for (size_t i = 0; i < t->nfields; i++) {
		const struct codec_field *f = &t->fields[i];

		if ((f->flags & CODEC_KEY) || zero_by_default(f))
			continue;
		if (same_field(t, o, p, f))
			set(t, o, f->id, false);
		else if (!codec_known(t, o, f->id) && codec_known(t, p, f->id) &&
			 f->id != T_WCHAN)
			return false;
	}
	for (size_t i = 0; i < t->nfields; i++) {
		const struct codec_field *f = &t->fields[i];

		if (zero_by_default(f)) {
			bits_put(o, f, value_of(t, o, f) - value_of(t, p, f));
			set(t, o, f->id, true);
		}
	}
	o->like = 1;
	set(t, o, T_LIKE, true);
	unknown_zeros(t, o);
	return true;
}

/* The thread rows as written: like_in where their task is there. */
static int threads_like(struct schema_rows *r)
{
	const struct codec_table *t = &tables[SCHEMA_THREADS];
	size_t n = r->rows[SCHEMA_THREADS].n;

	if (n > r->caplike) {
		void *p = realloc(r->like, n * sizeof(*r->like));

		if (!p)
			return -1;
		r->like = p;
		r->caplike = n;
	}
	for (size_t i = 0; i < n; i++) {
		struct schema_task *o = &r->like[i];
		const struct schema_task *p;

		*o = r->task[SCHEMA_THREADS][i];
		p = task_of(o, r->task[SCHEMA_TASKS], r->rows[SCHEMA_TASKS].n);
		if (p && !like_in(t, o, p))
			*o = r->task[SCHEMA_THREADS][i];
	}
	r->rows[SCHEMA_THREADS].rows = r->like;
	return 0;
}

/*
 * A thread row written as a difference (like_in) back into *o: its
 * numbers first, then what it left to the task's (a wait channel only
 * where its own have says it has one).
 */
static void like_out(const struct codec_table *t, struct schema_task *o,
		     const struct schema_task *p)
{
	for (size_t i = 0; i < t->nfields; i++) {
		const struct codec_field *f = &t->fields[i];

		if (zero_by_default(f))
			bits_put(o, f, value_of(t, o, f) + value_of(t, p, f));
	}
	for (size_t i = 0; i < t->nfields; i++) {
		const struct codec_field *f = &t->fields[i];

		if ((f->flags & CODEC_KEY) || zero_by_default(f) ||
		    codec_known(t, o, f->id) || !codec_known(t, p, f->id) ||
		    (f->id == T_WCHAN && !(o->shave & STORE_HAVE_WCHAN)))
			continue;
		memcpy((unsigned char *)o + f->offset,
		       (const unsigned char *)p + f->offset,
		       f->type == CODEC_STRING ? sizeof(const char *) : 8);
		set(t, o, f->id, true);
	}
}

/* --- cgroups and the system --- */

static int cgroups_in(struct schema_rows *r, const struct store_sample *in)
{
	const struct codec_table *t = &tables[SCHEMA_CGROUPS];

	if (in->ncgroups > r->capcg) {
		void *p = realloc(r->cg, in->ncgroups * sizeof(*r->cg));

		if (!p)
			return -1;
		r->cg = p;
		r->capcg = in->ncgroups;
	}
	for (size_t i = 0; i < in->ncgroups; i++) {
		const struct store_cgroup *g = &in->cgroups[i];
		struct schema_cgroup *o = &r->cg[i];

		memset(o, 0, sizeof(*o));
		o->path = str(g->path);
		o->have = g->have;
		o->throttled_us = g->throttled_us;
		o->mem_high = g->mem_high;
		o->mem_max = g->mem_max;
		o->mem_oom_kill = g->mem_oom_kill;
		for (unsigned id = 1; id <= 7; id++)
			set(t, o, id, id != C_PSI_WHEN);
		o->psi_when = g->psi.when;
		set(t, o, C_PSI_WHEN, !same(g->psi.when, in->psi.when));
		put_psi_all(t, o, o->psi, &g->psi);
	}
	r->rows[SCHEMA_CGROUPS].rows = r->cg;
	r->rows[SCHEMA_CGROUPS].n = in->ncgroups;
	return 0;
}

static void system_in(struct schema_rows *r, const struct store_sample *in)
{
	const struct codec_table *t = &tables[SCHEMA_SYSTEM];
	struct schema_system *o = &r->sys;
	const struct store_machine *m = &in->machine;

	memset(o, 0, sizeof(*o));
	for (size_t f = 0; f < t->nfields; f++)
		if (t->fields[f].id < 32)
			set(t, o, t->fields[f].id, true);
	o->boot = in->boot;
	o->mono = in->mono;
	o->real = in->real;
	o->query_start = in->query_start;
	o->psi_when = in->psi.when;
	o->delayacct = in->delayacct;
	o->ts_version = in->ts_version;
	o->events_lost = in->events_lost;
	o->exit_records_lost = in->exit_records_lost;
	o->threads = in->threads;
	o->thread_readings = in->thread_readings;
	o->trigger = in->trigger;
	set(t, o, S_TRIGGER, in->trigger != NULL);
	o->mhave = m->have;
	for (unsigned j = 0; j < 3; j++) {
		bool c = whole(m->load[j], 100, &o->load_c[j]);

		o->load[j] = m->load[j];
		set(t, o, S_LOAD_C + j, c);
		set(t, o, S_LOAD + j, !c);
	}
	o->cpu_idle = m->cpu_idle;
	o->cpu_total = m->cpu_total;
	o->mem_total = m->mem_total;
	o->mem_available = m->mem_available;
	o->swap_total = m->swap_total;
	o->swap_free = m->swap_free;
	o->nprocs = in->nprocs;
	o->nthreads = in->nthreads;
	put_psi_all(t, o, o->psi, &in->psi);
	r->rows[SCHEMA_SYSTEM].rows = o;
	r->rows[SCHEMA_SYSTEM].n = 1;
}

/* --- the evidence and the disks --- */

static const struct kval *kval_at(const void *base, size_t off)
{
	return (const struct kval *)(const void *)
	       ((const unsigned char *)base + off);
}

static struct kval *kval_of(void *base, size_t off)
{
	return (struct kval *)(void *)((unsigned char *)base + off);
}

/* The values of n kvals at base + off[i] into kv[], their ids from id0. */
static uint64_t kvals_in(const struct codec_table *t, void *row,
			 uint64_t *kv, const void *base, const size_t *off,
			 size_t n, unsigned id0)
{
	uint64_t max = 0;

	for (size_t i = 0; i < n; i++) {
		const struct kval *k = kval_at(base, off[i]);

		kv[i] = k->v;
		set(t, row, id0 + (unsigned)i, k->have);
		if (k->max)
			max |= 1ull << i;
	}
	return max;
}

static void kvals_out(const struct codec_table *t, const void *row,
		      const uint64_t *kv, uint64_t max, void *base,
		      const size_t *off, size_t n, unsigned id0)
{
	for (size_t i = 0; i < n; i++) {
		struct kval *k = kval_of(base, off[i]);
		bool have = codec_known(t, row, id0 + (unsigned)i);

		/* member by member: the padding stays as it was (zero) */
		k->have = have;
		k->max = (max >> i) & 1;
		k->v = have ? kv[i] : 0;
	}
}

static void evidence_one_in(const struct codec_table *t,
			    struct schema_evidence *o,
			    const struct store_evidence *e)
{
	const struct evidence_reading *r = &e->r;
	const struct psi_line *psi[3] = { r->cpu.pressure, r->mem.pressure,
					  r->io.pressure };

	memset(o, 0, sizeof(*o));
	o->id = (uint64_t)(int64_t)e->id;
	o->start = e->start;
	o->owner = str(e->cgroup);
	o->when = r->when;
	o->cgroups = e->cgroups;
	o->allowed_list = r->tcpu.allowed_list;
	o->cpu_version = r->cpu.version;
	o->mem_version = r->mem.version;
	o->io_version = r->io.version;
	o->states_source = r->states.source;
	o->ndev = r->io.ndev < CG_IO_DEVS ? r->io.ndev : CG_IO_DEVS;
	o->dropped = r->io.dropped;
	for (unsigned id = 1; id <= 4; id++)
		set(t, o, id, true);
	set(t, o, E_CGROUPS, e->cgroups != NULL);
	set(t, o, E_ALLOWED, r->tcpu.allowed_list[0] != '\0');
	for (unsigned id = 7; id <= 12; id++)
		set(t, o, id, true);
	o->max = kvals_in(t, o, o->kv, r, ev_kval_off, SCHEMA_EV_NKV, E_KV);
	set(t, o, 13, o->max != 0);
	for (unsigned g = 0; g < 3; g++)
		for (unsigned k = 0; k < NPSI_KIND; k++)
			put_psi(t, o, &o->psi[g][k], &psi[g][k],
				E_PSI + 8 * (g * NPSI_KIND + k));
	for (unsigned d = 0; d < o->ndev; d++) {
		const struct cg_io_dev *in = &r->io.dev[d];
		struct schema_evdev *od = &o->dev[d];

		od->major = in->major;
		od->minor = in->minor;
		set(t, o, E_DEV_ID(d, 0), true);
		set(t, o, E_DEV_ID(d, 1), true);
		od->max = kvals_in(t, o, od->kv, in, dev_kval_off,
				   SCHEMA_EV_DEV_NKV, E_DEV_ID(d, 3));
		set(t, o, E_DEV_ID(d, 2), od->max != 0);
	}
}

static int ev_cmp(const void *a, const void *b)
{
	const struct schema_evidence *x = a, *y = b;

	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return strcmp(x->owner, y->owner);
}

/* The row row i refers to (same_kv, same_part), or -1 for none. */
static long ev_ref(const struct codec_table *t,
		   const struct schema_evidence *e, size_t i)
{
	if (!i)
		return -1;
	if (codec_known(t, &e[i], E_CGROUPS))
		for (size_t j = 0; j < i; j++)
			if (codec_known(t, &e[j], E_CGROUPS) &&
			    strcmp(e[j].cgroups, e[i].cgroups) == 0)
				return (long)j;
	return 0;
}

/* Fields ids lo..hi of a and b the same (known alike, the same bits). */
static bool ev_same(const struct codec_table *t,
		    const struct schema_evidence *a,
		    const struct schema_evidence *b, unsigned lo, unsigned hi)
{
	for (size_t i = 0; i < t->nfields; i++) {
		const struct codec_field *f = &t->fields[i];
		bool k = codec_known(t, a, f->id);

		if (f->id < lo || f->id > hi)
			continue;
		if (k != codec_known(t, b, f->id) ||
		    (k && bits_at(a, f) != bits_at(b, f)))
			return false;
	}
	return true;
}

/* Field ids lo..hi of o as in ref (known alike, the same bits). */
static void ev_copy(const struct codec_table *t, struct schema_evidence *o,
		    const struct schema_evidence *ref, unsigned lo,
		    unsigned hi, bool forget)
{
	for (size_t i = 0; i < t->nfields; i++) {
		const struct codec_field *f = &t->fields[i];

		if (f->id < lo || f->id > hi)
			continue;
		if (forget) {
			set(t, o, f->id, false);
			continue;
		}
		bits_put(o, f, bits_at(ref, f));
		set(t, o, f->id, codec_known(t, ref, f->id));
	}
}

/* The parts of evidence row o that a mask says are as in ref. */
static const struct { unsigned lo, hi; } ev_parts[8] = {
	{ E_PSI, E_PSI + 6 }, { E_PSI + 8, E_PSI + 14 },
	{ E_PSI + 16, E_PSI + 22 }, { E_PSI + 24, E_PSI + 30 },
	{ E_PSI + 32, E_PSI + 38 }, { E_PSI + 40, E_PSI + 46 },
	{ 7, 10 },                      /* versions, the states' source */
	{ 11, 12 },                     /* ndev, dropped; and E_DEV.. */
};

static unsigned ev_part_hi(unsigned part)
{
	return part == SAME_DEVS ? E_DEV_ID(CG_IO_DEVS - 1, 15) :
	       ev_parts[part].hi;
}

/*
 * What o has as ref has, not written: marked in same_kv and same_part
 * (ref as given, before its own marking).
 */
static void ev_mark(const struct codec_table *t, struct schema_evidence *o,
		    const struct schema_evidence *ref)
{
	for (unsigned k = 0; k < SCHEMA_EV_NKV; k++)
		if (ev_same(t, o, ref, E_KV + k, E_KV + k) &&
		    ((o->max ^ ref->max) >> k & 1) == 0) {
			o->same_kv |= 1ull << k;
			o->max &= ~(1ull << k);
			set(t, o, E_KV + k, false);
		}
	for (unsigned part = 0; part < 8; part++) {
		unsigned lo = ev_parts[part].lo, hi = ev_part_hi(part);

		if (part == SAME_DEVS && !ev_same(t, o, ref, E_DEV, hi))
			continue;
		if (!ev_same(t, o, ref, lo, ev_parts[part].hi))
			continue;
		o->same_part |= 1ull << part;
		ev_copy(t, o, ref, lo, ev_parts[part].hi, true);
		if (part == SAME_DEVS)
			ev_copy(t, o, ref, E_DEV, hi, true);
	}
	set(t, o, E_MAX, o->max != 0);
	set(t, o, E_SAME_KV, o->same_kv != 0);
	set(t, o, E_SAME_PART, o->same_part != 0);
}

/* o's marked parts back from ref (resolved already). */
static void ev_unmark(const struct codec_table *t, struct schema_evidence *o,
		      const struct schema_evidence *ref)
{
	for (unsigned k = 0; k < SCHEMA_EV_NKV; k++)
		if (o->same_kv >> k & 1) {
			ev_copy(t, o, ref, E_KV + k, E_KV + k, false);
			o->max |= ref->max & (1ull << k);
		}
	for (unsigned part = 0; part < 8; part++) {
		if (!(o->same_part >> part & 1))
			continue;
		ev_copy(t, o, ref, ev_parts[part].lo, ev_parts[part].hi, false);
		if (part == SAME_DEVS)
			ev_copy(t, o, ref, E_DEV, ev_part_hi(part), false);
	}
}

static int evidence_in(struct schema_rows *r, const struct store_sample *in)
{
	const struct codec_table *t = &tables[SCHEMA_EVIDENCE];

	if (in->nevidence > r->capev) {
		void *p = realloc(r->ev, in->nevidence * sizeof(*r->ev));

		if (!p)
			return -1;
		r->ev = p;
		r->capev = in->nevidence;
	}
	for (size_t i = 0; i < in->nevidence; i++)
		evidence_one_in(t, &r->ev[i], &in->evidence[i]);
	if (in->nevidence)
		qsort(r->ev, in->nevidence, sizeof(*r->ev), ev_cmp);
	/* from the last: the rows referred to are as given when marked */
	for (size_t i = in->nevidence; i-- > 1;) {
		long ref = ev_ref(t, r->ev, i);

		if (ref >= 0)
			ev_mark(t, &r->ev[i], &r->ev[ref]);
	}
	r->rows[SCHEMA_EVIDENCE].rows = r->ev;
	r->rows[SCHEMA_EVIDENCE].n = in->nevidence;
	return 0;
}

static int disks_in(struct schema_rows *r, const struct store_sample *in)
{
	const struct codec_table *t = &tables[SCHEMA_DISKS];
	size_t n = in->disks ? in->disks->n : 0;

	set(&tables[SCHEMA_SYSTEM], &r->sys, S_DISKS_WHEN, in->disks != NULL);
	r->sys.disks_when = in->disks ? in->disks->when : 0;
	if (n > r->capdisk) {
		void *p = realloc(r->disk, n * sizeof(*r->disk));

		if (!p)
			return -1;
		r->disk = p;
		r->capdisk = n;
	}
	for (size_t i = 0; i < n; i++) {
		const struct diskstats_dev *d = &in->disks->dev[i];
		struct schema_disk *o = &r->disk[i];

		memset(o, 0, sizeof(*o));
		o->major = d->major;
		o->minor = d->minor;
		o->name = d->name;
		o->rd_ios = d->rd_ios;
		o->rd_sectors = d->rd_sectors;
		o->wr_ios = d->wr_ios;
		o->wr_sectors = d->wr_sectors;
		o->in_flight = d->in_flight;
		o->io_ticks_ms = d->io_ticks_ms;
		o->queue_ms = d->queue_ms;
		for (size_t f = 0; f < t->nfields; f++)
			set(t, o, t->fields[f].id, true);
	}
	r->rows[SCHEMA_DISKS].rows = r->disk;
	r->rows[SCHEMA_DISKS].n = n;
	return 0;
}

/*
 * The value most of the n doubles at base + i * size + off are, bit for
 * bit (Boyer and Moore's majority vote: the majority when there is one),
 * or dflt for none.
 */
static double most(const void *base, size_t n, size_t size, size_t off,
		   double dflt)
{
	double v = dflt;
	size_t votes = 0;

	for (size_t i = 0; i < n; i++) {
		double x;

		memcpy(&x, (const unsigned char *)base + i * size + off, sizeof(x));
		if (!votes)
			v = x;
		votes = same(x, v) ? votes + 1 : votes - 1;
	}
	return v;
}

/* The same of the ctx_at of the tasks that have one. */
static double most_ctx(const struct store_task *k, size_t n, double dflt)
{
	double v = dflt;
	size_t votes = 0;

	for (size_t i = 0; i < n; i++) {
		if (!(k[i].have & STORE_HAVE_CTX_AT))
			continue;
		if (!votes)
			v = k[i].ctx_at;
		votes = same(k[i].ctx_at, v) ? votes + 1 : votes - 1;
	}
	return v;
}

int schema_from_store(struct schema_rows *r, const struct store_sample *in,
		      const struct schema_rows *prev)
{
	const size_t at_off = offsetof(struct store_task, r) +
			      offsetof(struct task_reading, at);

	r->at0 = most(in->tasks, in->ntasks, sizeof(*in->tasks), at_off,
		      most(in->thread_tasks, in->nthread_tasks,
			   sizeof(*in->thread_tasks), at_off, in->mono));
	r->ctx0 = most_ctx(in->tasks, in->ntasks, in->mono);
	if (tasks_in(r, SCHEMA_TASKS, in->tasks, in->ntasks, in, prev) < 0 ||
	    tasks_in(r, SCHEMA_THREADS, in->thread_tasks, in->nthread_tasks,
		     in, prev) < 0 || threads_like(r) < 0 ||
	    cgroups_in(r, in) < 0 || evidence_in(r, in) < 0) {
		errno = ENOMEM;
		return -1;
	}
	system_in(r, in);
	r->sys.at = r->at0;
	r->sys.ctx_at = r->ctx0;
	set(&tables[SCHEMA_SYSTEM], &r->sys, S_AT, !same(r->at0, in->mono));
	set(&tables[SCHEMA_SYSTEM], &r->sys, S_CTX_AT, !same(r->ctx0, in->mono));
	if (disks_in(r, in) < 0) {
		errno = ENOMEM;
		return -1;
	}
	r->cs.time = in->time;
	r->cs.tables = r->rows;
	return 0;
}

/* --- back --- */

static void task_reading_out(const struct codec_table *t,
			     const struct schema_task *o, struct task_reading *r,
			     const struct store_sample *out, double at0)
{
	memset(r, 0, sizeof(*r));
	r->id = (int32_t)o->id;
	r->tgid = codec_known(t, o, T_TGID) ? (int32_t)o->tgid : r->id;
	r->start = o->start;
	r->asked_at = codec_known(t, o, T_ASKED_AT) ? o->asked_at :
			out->query_start;
	r->at = codec_known(t, o, T_AT) ? o->at : at0;
	r->born = o->born;
	r->first_seen = o->first_seen;
	if (codec_known(t, o, T_AGE))
		r->age = o->age;
	else if (codec_known(t, o, T_AGE_REL))
		r->age = (double)(uint64_t)((uint64_t)o->age_rel +
					    us_of(r->at)) / 1e6;
	else if (codec_known(t, o, T_AGE_US))
		r->age = (double)o->age_us / 1e6;
	else
		r->age = age_from(r->at, r->born);
	r->have = (uint32_t)o->have;
	r->have_max = (uint32_t)o->have_max;
	r->have_max_at = (uint32_t)o->have_max_at;
	r->no_count = (uint32_t)o->no_count;
	r->cats = (uint32_t)o->cats;
	r->flags = (uint32_t)o->flags;
	r->threads = (int32_t)o->rthreads;
	if (r->flags & READING_CARRIED)
		return;         /* the previous counters stand: not repeated */
	r->run_ns = o->run_ns;
	for (int c = 0; c < READING_NCAT; c++) {
		r->d[c].count = o->count[c];
		r->d[c].total_ns = o->total_ns[c];
		r->d[c].max_ns = o->max_ns[c];
		r->max_at[c] = o->max_at[c];
	}
}

static void task_out(const struct codec_table *t, const struct schema_task *o,
		     struct store_task *k, const struct store_sample *out,
		     double at0, double ctx0)
{
	memset(k, 0, sizeof(*k));
	task_reading_out(t, o, &k->r, out, at0);
	k->have = (uint32_t)o->shave;
	k->uid = (uint32_t)o->uid;
	k->ppid = (int32_t)o->ppid;
	k->threads = (int32_t)o->threads;
	k->state = (char)o->state;
	k->nice = (int8_t)o->nice;
	k->start_real = o->start_real;
	k->rss_kib = o->rss_kib;
	k->swap_kib = o->swap_kib;
	k->read_bytes = o->read_bytes;
	k->write_bytes = o->write_bytes;
	k->majflt = o->majflt;
	if (k->have & STORE_HAVE_CTX_AT)
		k->ctx_at = codec_known(t, o, T_CTX_AT) ? o->ctx_at : ctx0;
	if (codec_known(t, o, T_WCHAN))
		snprintf(k->wchan, sizeof(k->wchan), "%s", o->wchan);
	k->comm = str(o->comm);
	k->user = str(o->user);
	k->cmdline = str(o->cmdline);
	k->cgroup = codec_known(t, o, T_CGROUP) ? o->cgroup : NULL;
}

static void *grow(void *p, size_t *cap, size_t n, size_t size)
{
	if (n <= *cap)
		return p;
	void *q = realloc(p, n * size);

	if (q)
		*cap = n;
	return q;
}

static int tasks_out(struct schema_rows *r, int set_,
		     const struct codec_rows *in, const struct codec_rows *tasks,
		     const struct store_sample *out)
{
	const struct codec_table *t = &tables[set_];

	if (!in->n)
		return 0;
	struct store_task *k = grow(r->out[set_], &r->capout[set_], in->n,
				    sizeof(*k));

	if (!k)
		return -1;
	r->out[set_] = k;
	for (size_t i = 0; i < in->n; i++) {
		struct schema_task o = ((const struct schema_task *)in->rows)[i];
		const struct schema_task *p;

		if (set_ == SCHEMA_THREADS && codec_known(t, &o, T_LIKE) &&
		    o.like == 1 && (p = task_of(&o, tasks->rows, tasks->n)))
			like_out(t, &o, p);
		task_out(t, &o, &k[i], out, r->at0, r->ctx0);
	}
	return 0;
}

static int cgroups_out(struct schema_rows *r, const struct codec_rows *in,
		       struct store_sample *out)
{
	const struct codec_table *t = &tables[SCHEMA_CGROUPS];

	if (!in->n)
		return 0;
	struct store_cgroup *g = grow(r->outcg, &r->capoutcg, in->n, sizeof(*g));

	if (!g)
		return -1;
	r->outcg = g;
	for (size_t i = 0; i < in->n; i++) {
		const struct schema_cgroup *o = (const struct schema_cgroup *)in->rows + i;

		memset(&g[i], 0, sizeof(g[i]));
		g[i].path = o->path;
		g[i].have = (uint32_t)o->have;
		g[i].throttled_us = o->throttled_us;
		g[i].mem_high = o->mem_high;
		g[i].mem_max = o->mem_max;
		g[i].mem_oom_kill = o->mem_oom_kill;
		get_psi_all(t, o, o->psi, &g[i].psi);
		g[i].psi.when = codec_known(t, o, C_PSI_WHEN) ? o->psi_when :
				out->psi.when;
	}
	out->cgroups = in->n ? g : NULL;
	out->ncgroups = in->n;
	return 0;
}

static void system_out(const struct schema_system *o, struct store_sample *out)
{
	const struct codec_table *t = &tables[SCHEMA_SYSTEM];
	struct store_machine *m = &out->machine;

	out->boot = o->boot;
	out->mono = o->mono;
	out->real = o->real;
	out->query_start = o->query_start;
	out->delayacct = (int32_t)o->delayacct;
	out->ts_version = (uint32_t)o->ts_version;
	out->events_lost = o->events_lost;
	out->exit_records_lost = o->exit_records_lost;
	out->threads = o->threads != 0;
	out->thread_readings = o->thread_readings != 0;
	out->trigger = codec_known(t, o, S_TRIGGER) ? o->trigger : NULL;
	get_psi_all(t, o, o->psi, &out->psi);
	out->psi.when = o->psi_when;
	m->have = (uint32_t)o->mhave;
	for (unsigned j = 0; j < 3; j++)
		m->load[j] = codec_known(t, o, S_LOAD_C + j) ?
			     (double)o->load_c[j] / 100 : o->load[j];
	m->cpu_idle = o->cpu_idle;
	m->cpu_total = o->cpu_total;
	m->mem_total = o->mem_total;
	m->mem_available = o->mem_available;
	m->swap_total = o->swap_total;
	m->swap_free = o->swap_free;
	out->nprocs = o->nprocs;
	out->nthreads = o->nthreads;
}

/* A number of the file as one of a few: v when it is one, else dflt. */
static int one_of(int64_t v, const int *ok, size_t n, int dflt)
{
	for (size_t i = 0; i < n; i++)
		if (v == ok[i])
			return ok[i];
	return dflt;
}

static void evidence_one_out(const struct codec_table *t,
			     const struct schema_evidence *o,
			     struct store_evidence *e)
{
	static const int versions[] = { 0, 1, 2 };
	static const int sources[] = { CGSTATS_NONE, CGSTATS_KERNEL,
				       CGSTATS_PROC };
	struct evidence_reading *r = &e->r;
	struct psi_line *psi[3] = { r->cpu.pressure, r->mem.pressure,
				    r->io.pressure };

	memset(e, 0, sizeof(*e));
	e->id = (int32_t)o->id;
	e->start = o->start;
	e->cgroup = o->owner[0] ? o->owner : NULL;
	e->cgroups = codec_known(t, o, E_CGROUPS) ? o->cgroups : NULL;
	r->when = o->when;
	if (codec_known(t, o, E_ALLOWED))
		snprintf(r->tcpu.allowed_list, sizeof(r->tcpu.allowed_list),
			 "%s", o->allowed_list);
	r->cpu.version = one_of(o->cpu_version, versions, 3, 0);
	r->mem.version = one_of(o->mem_version, versions, 3, 0);
	r->io.version = one_of(o->io_version, versions, 3, 0);
	r->states.source = (enum cgstats_source)
			   one_of(o->states_source, sources, 3, CGSTATS_NONE);
	r->io.ndev = o->ndev < CG_IO_DEVS ? (size_t)o->ndev : CG_IO_DEVS;
	r->io.dropped = (size_t)o->dropped;
	kvals_out(t, o, o->kv, o->max, r, ev_kval_off, SCHEMA_EV_NKV, E_KV);
	for (unsigned g = 0; g < 3; g++)
		for (unsigned k = 0; k < NPSI_KIND; k++)
			get_psi(t, o, &o->psi[g][k], &psi[g][k],
				E_PSI + 8 * (g * NPSI_KIND + k));
	for (unsigned d = 0; d < r->io.ndev; d++) {
		struct cg_io_dev *od = &r->io.dev[d];

		od->major = (unsigned)o->dev[d].major;
		od->minor = (unsigned)o->dev[d].minor;
		kvals_out(t, o, o->dev[d].kv, o->dev[d].max, od, dev_kval_off,
			  SCHEMA_EV_DEV_NKV, E_DEV_ID(d, 3));
	}
}

static int evidence_out(struct schema_rows *r, const struct codec_rows *in,
			struct store_sample *out)
{
	if (!in->n)
		return 0;
	const struct codec_table *t = &tables[SCHEMA_EVIDENCE];
	struct store_evidence *e = grow(r->outev, &r->capoutev, in->n,
					sizeof(*e));
	struct schema_evidence *o;

	if (!e)
		return -1;
	r->outev = e;
	if (!(o = grow(r->evdec, &r->capevdec, in->n, sizeof(*o))))
		return -1;
	r->evdec = o;
	memcpy(o, in->rows, in->n * sizeof(*o));
	for (size_t i = 0; i < in->n; i++) {
		long ref = ev_ref(t, o, i);

		if (ref >= 0)
			ev_unmark(t, &o[i], &o[ref]);
		evidence_one_out(t, &o[i], &e[i]);
	}
	out->evidence = e;
	out->nevidence = in->n;
	return 0;
}

static int disks_out(struct schema_rows *r, const struct codec_sample *cs,
		     struct store_sample *out)
{
	const struct codec_table *ts = &tables[SCHEMA_SYSTEM];
	const struct codec_table *t = &tables[SCHEMA_DISKS];
	const struct codec_rows *in = &cs->tables[SCHEMA_DISKS];
	const struct schema_system *sys = cs->tables[SCHEMA_SYSTEM].n ?
					  cs->tables[SCHEMA_SYSTEM].rows : NULL;
	struct diskstats *ds = &r->outdisks;

	if (!sys || !codec_known(ts, sys, S_DISKS_WHEN))
		return 0;
	struct diskstats_dev *d = grow(ds->dev, &ds->cap, in->n, sizeof(*d));

	if (!d && in->n)
		return -1;
	ds->dev = d;
	ds->n = in->n;
	ds->when = sys->disks_when;
	for (size_t i = 0; i < in->n; i++) {
		const struct schema_disk *o = (const struct schema_disk *)in->rows + i;

		memset(&d[i], 0, sizeof(d[i]));
		d[i].major = (unsigned)o->major;
		d[i].minor = (unsigned)o->minor;
		if (codec_known(t, o, 3))
			snprintf(d[i].name, sizeof(d[i].name), "%s", o->name);
		d[i].rd_ios = o->rd_ios;
		d[i].rd_sectors = o->rd_sectors;
		d[i].wr_ios = o->wr_ios;
		d[i].wr_sectors = o->wr_sectors;
		d[i].in_flight = o->in_flight;
		d[i].io_ticks_ms = o->io_ticks_ms;
		d[i].queue_ms = o->queue_ms;
	}
	out->disks = ds;
	return 0;
}

int schema_to_store(struct schema_rows *r, const struct codec_sample *cs,
		    struct store_sample *out)
{
	static const struct schema_system none;

	memset(out, 0, sizeof(*out));
	out->time = cs->time;
	const struct schema_system *sys = cs->tables[SCHEMA_SYSTEM].n ?
					  cs->tables[SCHEMA_SYSTEM].rows : &none;
	const struct codec_table *ts = &tables[SCHEMA_SYSTEM];

	system_out(sys, out);
	r->at0 = codec_known(ts, sys, S_AT) ? sys->at : out->mono;
	r->ctx0 = codec_known(ts, sys, S_CTX_AT) ? sys->ctx_at : out->mono;
	if (tasks_out(r, SCHEMA_TASKS, &cs->tables[SCHEMA_TASKS],
		      &cs->tables[SCHEMA_TASKS], out) < 0 ||
	    tasks_out(r, SCHEMA_THREADS, &cs->tables[SCHEMA_THREADS],
		      &cs->tables[SCHEMA_TASKS], out) < 0 ||
	    cgroups_out(r, &cs->tables[SCHEMA_CGROUPS], out) < 0 ||
	    evidence_out(r, &cs->tables[SCHEMA_EVIDENCE], out) < 0 ||
	    disks_out(r, cs, out) < 0) {
		errno = ENOMEM;
		return -1;
	}
	out->tasks = cs->tables[SCHEMA_TASKS].n ? r->out[SCHEMA_TASKS] : NULL;
	out->ntasks = cs->tables[SCHEMA_TASKS].n;
	out->thread_tasks = cs->tables[SCHEMA_THREADS].n ?
			    r->out[SCHEMA_THREADS] : NULL;
	out->nthread_tasks = cs->tables[SCHEMA_THREADS].n;
	return 0;
}

void schema_free(struct schema_rows *r)
{
	for (int i = 0; i < 2; i++) {
		free(r->task[i]);
		free(r->out[i]);
	}
	free(r->like);
	free(r->cg);
	free(r->outcg);
	free(r->ev);
	free(r->evdec);
	free(r->outev);
	free(r->disk);
	free(r->outdisks.dev);
	memset(r, 0, sizeof(*r));
}
