/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Every struct kval of an evidence reading, by where it is, for the
 * store's tests to set each (the list is the tests' own, not the
 * schema's: a value the schema forgets fails their round trips), and
 * every one of a cgroup's IO device.
 */
#ifndef STALLTOP_STORE_KVALS_H
#define STALLTOP_STORE_KVALS_H

#include <stddef.h>

#include "store/evreading.h"

#define KV(m) offsetof(struct evidence_reading, m)
static const size_t kvals[] = {
	KV(cpu.quota_us), KV(cpu.period_us), KV(cpu.nr_periods),
	KV(cpu.nr_throttled), KV(cpu.throttled_us), KV(cpu.usage_us),
	KV(mem.max), KV(mem.high), KV(mem.current), KV(mem.ev_low),
	KV(mem.ev_high), KV(mem.ev_max), KV(mem.ev_oom), KV(mem.ev_oom_kill),
	KV(mem.failcnt), KV(mem.swap_current), KV(mem.swap_max),
	KV(mem.memsw_usage), KV(mem.memsw_limit), KV(mem.memsw_failcnt),
	KV(mem.refault_anon), KV(mem.refault_file), KV(mem.refault),
	KV(sysmem.mem_total), KV(sysmem.mem_free), KV(sysmem.mem_available),
	KV(sysmem.swap_total), KV(sysmem.swap_free), KV(load.procs_running),
	KV(load.procs_blocked), KV(load.cpus_online), KV(tio.rchar),
	KV(tio.wchar), KV(tio.read_bytes), KV(tio.write_bytes),
	KV(tio.cancelled_write_bytes), KV(tcpu.allowed_cpus),
	KV(tcpu.threads), KV(tcpu.runnable_threads), KV(cpus.in_idle),
	KV(cpus.in_total), KV(cpus.out_idle), KV(cpus.out_total),
	KV(tmem.private_bytes), KV(states.nr_running), KV(states.nr_sleeping),
	KV(states.nr_uninterruptible), KV(states.nr_stopped),
	KV(states.nr_io_wait), KV(states.nr_tasks), KV(forks), KV(cpus.out_nice),
};
#undef KV
#define NKV (sizeof(kvals) / sizeof(kvals[0]))

#define DKV(m) offsetof(struct cg_io_dev, m)
static const size_t dev_kvals[] = {
	DKV(rbps), DKV(wbps), DKV(riops), DKV(wiops), DKV(rbytes),
	DKV(wbytes), DKV(rios), DKV(wios),
};
#undef DKV
#define NDKV (sizeof(dev_kvals) / sizeof(dev_kvals[0]))

static inline struct kval *kval_at(void *base, size_t off)
{
	return (struct kval *)(void *)((unsigned char *)base + off);
}

#endif
