/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the files of the store's schema share: schema.c (the tables, the
 * sample's system and cgroups, the conversion's entry points),
 * schema_task.c (tasks and threads), schema_ev.c (the evidence and the
 * disks): the field ids, and the values in the form that stays the same
 * from sample to sample. Not for use outside them.
 */
#ifndef STALLTOP_SCHEMA_IMPL_H
#define STALLTOP_SCHEMA_IMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "store/schema.h"

#define PSI_BASE 32u
#define PSI_ID(l, j) (PSI_BASE + 8u * (l) + (j))

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
#define T_CTX_NS 80
#define T_RUN_US 81
#define T_TOTAL_US 90
#define T_LIFE 98

#define C_PSI_WHEN 3

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

/*
 * The values of an evidence reading, their order that of kv[] (ids
 * E_KV + index): never reorder, only append (ids up to 79).
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
	X(nr_tasks, states.nr_tasks) X(forks, forks) \
	X(cpus_out_nice, cpus.out_nice)

#define EV_ENUM(name, m) EVK_##name,
enum { EV_KVALS(EV_ENUM) EVK_N };
_Static_assert(EVK_N == SCHEMA_EV_NKV, "schema.h counts the values");
_Static_assert(SCHEMA_EV_NKV <= 64, "the mask of max values is 64 bits");

#define E_WHEN 4
#define E_MAX 13
#define E_SAME_KV 14
#define E_SAME_PART 15
#define SAME_VERSIONS 6         /* same_part's bits besides the lines */
#define SAME_DEVS 7
#define SAME_TASK_READ 8        /* task_read_bytes is its task row's */
#define SAME_TASK_WRITE 9       /* task_write_bytes is its task row's */
#define E_CGROUPS 5
#define E_ALLOWED 6
#define E_KV 16                 /* .. 79 */
#define E_PSI 80                /* 3 resources x 2 kinds: .. 127 */
#define E_DEV 128               /* 16 per device: .. 383 */
#define E_DEV_ID(d, k) (E_DEV + 16u * (d) + (k))
#define E_WHEN_REL 384

/* A device's values, their order that of schema_evdev.kv */
#define DEV_KVALS(X) X(rbps) X(wbps) X(riops) X(wiops) X(rbytes) X(wbytes) \
	X(rios) X(wios)

extern const struct codec_table schema_tables[SCHEMA_NTABLES];

/* Two doubles the same bit for bit. */
bool schema_same(double a, double b);
/* v as a whole number of 1/scale into *n when that gives v back exactly. */
bool schema_whole(double v, double scale, uint64_t *n);
/* A string as stored: NULL (never given) as "". */
const char *schema_str(const char *s);
/* Field id of row known or not. */
void schema_set(const struct codec_table *t, void *row, unsigned id, bool on);
/* A PSI line whose fields begin at id id0, either way. */
void schema_put_psi(const struct codec_table *t, void *row,
		    struct schema_psi *out, const struct psi_line *in,
		    unsigned id0);
void schema_get_psi(const struct codec_table *t, const void *row,
		    const struct schema_psi *in, struct psi_line *out,
		    unsigned id0);
/* A number's 8 bytes at f's offset, either way; a string there. */
uint64_t schema_bits_at(const void *row, const struct codec_field *f);
void schema_bits_put(void *row, const struct codec_field *f, uint64_t v);
const char *schema_str_of(const void *row, const struct codec_field *f);
/* A number as it reads back: its bits where known, else zero. */
uint64_t schema_value_of(const struct codec_table *t, const void *row,
			 const struct codec_field *f);
/* p with room for n of size (*cap grown), or NULL. */
void *schema_grow(void *p, size_t *cap, size_t n, size_t size);

/*
 * An array of rows grown for more than this many (a large process
 * ended) is made the size of n again: four times n and 1024 rows.
 */
#define SCHEMA_SHRINK(n) (4 * (n) + 1024)

/* tasks and threads (schema_task.c) */
/* The rows of n tasks of set_ (SCHEMA_TASKS, SCHEMA_THREADS) into r. */
int schema_task_in(struct schema_rows *r, int set_, const struct store_task *k,
		   size_t n, const struct store_sample *in,
		   const struct schema_rows *prev);
/*
 * The task row of (id, start) in the n rows of p (key order), its latest
 * life where it has several, or NULL.
 */
const struct schema_task *schema_task_find(const struct schema_task *p,
					   size_t n, uint64_t id,
					   uint64_t start);
/* The thread rows as written: each as its task's where it is there. */
int schema_task_like(struct schema_rows *r);
/* The decoded rows of set_ back into r->out[set_] (tasks: the tasks'). */
int schema_task_out(struct schema_rows *r, int set_,
		    const struct codec_rows *in, const struct codec_rows *tasks,
		    const struct store_sample *out);

/* the evidence and the disks (schema_ev.c), either way */
int schema_ev_in(struct schema_rows *r, const struct store_sample *in);
int schema_ev_disks_in(struct schema_rows *r, const struct store_sample *in);
int schema_ev_out(struct schema_rows *r, const struct codec_rows *in,
		  const struct codec_rows *tasks, struct store_sample *out);
int schema_ev_disks_out(struct schema_rows *r, const struct codec_sample *cs,
			struct store_sample *out);

#endif
