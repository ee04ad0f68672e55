/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The evidence of one process over one interval: the interval between
 * two readings (live/evidence_read.c takes them), and THE list of its
 * fields (stable names for JSON, recordings and the manual page).
 */
#include <config.h>

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "lib/nls.h"
#include "model/evidence.h"

/* cur - prev, when both are known and the counter did not go back. */
static struct kval delta(const struct kval *prev, const struct kval *cur)
{
	if (!prev || !prev->have || !cur->have || prev->max || cur->max ||
	    cur->v < prev->v)
		return (struct kval){ 0 };
	return (struct kval){ .have = true, .v = cur->v - prev->v };
}

/* The stall time of a pressure line in the interval, in microseconds. */
static struct kval stall(const struct psi_line *prev,
			 const struct psi_line *cur)
{
	if (!prev || !prev->present || !cur->present ||
	    cur->total_us < prev->total_us)
		return (struct kval){ 0 };
	return (struct kval){ .have = true, .v = cur->total_us - prev->total_us };
}

/* A delta of /proc/stat ticks (USER_HZ) in microseconds. */
static struct kval ticks_us(const struct kval *prev, const struct kval *cur)
{
	struct kval k = delta(prev, cur);
	long hz = sysconf(_SC_CLK_TCK);

	if (k.have)
		k.v = k.v * 1000000 / (uint64_t)(hz > 0 ? hz : 100);
	return k;
}

#define D(field, member) (out->field = delta(p ? &p->member : NULL, &c->member))

static void cpu_interval(const struct evidence_reading *p,
			 const struct evidence_reading *c, struct evidence *out)
{
	out->cpu_cgroup_version = c->cpu.version;
	out->cpu_quota_us = c->cpu.quota_us;
	out->cpu_period_us = c->cpu.period_us;
	D(cpu_periods, cpu.nr_periods);
	D(cpu_throttled_periods, cpu.nr_throttled);
	D(cpu_throttled_us, cpu.throttled_us);
	D(cpu_usage_us, cpu.usage_us);
	out->cpu_some_us = stall(p ? &p->cpu.pressure[PSI_SOME] : NULL,
				 &c->cpu.pressure[PSI_SOME]);
	out->cpu_full_us = stall(p ? &p->cpu.pressure[PSI_FULL] : NULL,
				 &c->cpu.pressure[PSI_FULL]);
	out->allowed_cpus = c->tcpu.allowed_cpus;
	out->threads = c->tcpu.threads;
	out->runnable_threads = c->tcpu.runnable_threads;
	out->cpus_online = c->load.cpus_online;
	out->sys_runnable = c->load.procs_running;
	out->allowed_cpus_idle_us = ticks_us(p ? &p->cpus.in_idle : NULL,
					     &c->cpus.in_idle);
	out->allowed_cpus_time_us = ticks_us(p ? &p->cpus.in_total : NULL,
					     &c->cpus.in_total);
	out->other_cpus_idle_us = ticks_us(p ? &p->cpus.out_idle : NULL,
					   &c->cpus.out_idle);
	out->other_cpus_time_us = ticks_us(p ? &p->cpus.out_total : NULL,
					   &c->cpus.out_total);
	out->other_cpus_nice_us = ticks_us(p ? &p->cpus.out_nice : NULL,
					   &c->cpus.out_nice);
}

static void mem_interval(const struct evidence_reading *p,
			 const struct evidence_reading *c, struct evidence *out)
{
	out->mem_cgroup_version = c->mem.version;
	out->mem_max = c->mem.max;
	out->mem_high = c->mem.high;
	out->mem_current = c->mem.current;
	D(mem_events_low, mem.ev_low);
	D(mem_events_high, mem.ev_high);
	D(mem_events_max, mem.ev_max);
	D(mem_events_oom, mem.ev_oom);
	D(mem_events_oom_kill, mem.ev_oom_kill);
	D(mem_failcnt, mem.failcnt);
	out->swap_current = c->mem.swap_current;
	out->swap_max = c->mem.swap_max;
	out->memsw_usage = c->mem.memsw_usage;
	out->memsw_limit = c->mem.memsw_limit;
	D(memsw_failcnt, mem.memsw_failcnt);
	D(refaults_anon, mem.refault_anon);
	D(refaults_file, mem.refault_file);
	D(refaults, mem.refault);
	out->mem_some_us = stall(p ? &p->mem.pressure[PSI_SOME] : NULL,
				 &c->mem.pressure[PSI_SOME]);
	out->mem_full_us = stall(p ? &p->mem.pressure[PSI_FULL] : NULL,
				 &c->mem.pressure[PSI_FULL]);
	out->sys_mem_total = c->sysmem.mem_total;
	out->sys_mem_free = c->sysmem.mem_free;
	out->sys_mem_available = c->sysmem.mem_available;
	out->sys_swap_total = c->sysmem.swap_total;
	out->sys_swap_free = c->sysmem.swap_free;
}

static bool limited(const struct kval *k)
{
	return k->have && !k->max;
}

/* Limited devices first, then by bytes in the interval. */
static bool io_before(const struct evidence_io_dev *a,
		      const struct evidence_io_dev *b)
{
	bool la = limited(&a->rbps) || limited(&a->wbps) ||
		  limited(&a->riops) || limited(&a->wiops);
	bool lb = limited(&b->rbps) || limited(&b->wbps) ||
		  limited(&b->riops) || limited(&b->wiops);
	uint64_t ba = a->rbytes.v + a->wbytes.v, bb = b->rbytes.v + b->wbytes.v;

	if (la != lb)
		return la;
	return ba > bb;
}

/* The device major:minor of a cgroup's reading, or NULL. */
static const struct cg_io_dev *io_dev_find(const struct cg_io *io,
					   unsigned major, unsigned minor)
{
	for (size_t i = 0; io && i < io->ndev; i++)
		if (io->dev[i].major == major && io->dev[i].minor == minor)
			return &io->dev[i];
	return NULL;
}

static const struct diskstats_dev *disk_find(const struct diskstats *d,
					     unsigned major, unsigned minor)
{
	for (size_t i = 0; d && i < d->n; i++)
		if (d->dev[i].major == major && d->dev[i].minor == minor)
			return &d->dev[i];
	return NULL;
}

/* The interval of one device between two of its readings. */
static bool dev_interval(const struct diskstats_dev *p,
			 const struct diskstats_dev *c, double dt,
			 struct diskstats_busy *out)
{
	double ms = dt * 1000.0, util;

	if (strcmp(p->name, c->name) != 0 || c->rd_sectors < p->rd_sectors ||
	    c->wr_sectors < p->wr_sectors || c->io_ticks_ms < p->io_ticks_ms ||
	    c->queue_ms < p->queue_ms || !(dt > 0))
		return false;
	if (c->rd_sectors - p->rd_sectors > UINT64_MAX / DISKSTATS_SECTOR ||
	    c->wr_sectors - p->wr_sectors > UINT64_MAX / DISKSTATS_SECTOR)
		return false;
	memset(out, 0, sizeof(*out));
	out->major = c->major;
	out->minor = c->minor;
	memcpy(out->name, c->name, sizeof(out->name));
	util = (double)(c->io_ticks_ms - p->io_ticks_ms) / ms * 100.0;
	/* ticks and our clock are read at slightly different moments */
	out->util_pct = util > 100.0 ? 100.0 : util;
	out->queue = (double)(c->queue_ms - p->queue_ms) / ms;
	out->read_bytes = (c->rd_sectors - p->rd_sectors) * DISKSTATS_SECTOR;
	out->write_bytes = (c->wr_sectors - p->wr_sectors) * DISKSTATS_SECTOR;
	return true;
}

/* a before b: busier, else more bytes, else by name (a stable order) */
static bool before(const struct diskstats_busy *a,
		   const struct diskstats_busy *b)
{
	uint64_t ab = a->read_bytes + a->write_bytes;
	uint64_t bb = b->read_bytes + b->write_bytes;

	if (a->util_pct != b->util_pct)
		return a->util_pct > b->util_pct;
	if (ab != bb)
		return ab > bb;
	return strcmp(a->name, b->name) < 0;
}

size_t evidence_disks(const struct diskstats *prev, const struct diskstats *cur,
		      struct diskstats_busy *out, size_t max)
{
	size_t n = 0;

	if (!prev || !cur || max == 0)
		return 0;
	for (size_t i = 0; i < cur->n; i++) {
		const struct diskstats_dev *c = &cur->dev[i];
		const struct diskstats_dev *p = disk_find(prev, c->major,
							  c->minor);
		struct diskstats_busy b;
		size_t at;

		if (!p || !dev_interval(p, c, cur->when - prev->when, &b))
			continue;
		if (b.util_pct == 0 && b.read_bytes == 0 && b.write_bytes == 0)
			continue;
		/* insertion into the sorted top max */
		at = n;
		while (at > 0 && before(&b, &out[at - 1]))
			at--;
		if (at == max)
			continue;
		if (n < max)
			n++;
		memmove(&out[at + 1], &out[at], (n - 1 - at) * sizeof(*out));
		out[at] = b;
	}
	return n;
}

static void io_devs(const struct evidence_reading *p,
		    const struct evidence_reading *c,
		    const struct diskstats *disks, struct evidence *out)
{
	for (size_t i = 0; i < c->io.ndev; i++) {
		const struct cg_io_dev *cd = &c->io.dev[i];
		const struct cg_io_dev *pd = p ? io_dev_find(&p->io, cd->major,
							     cd->minor) : NULL;
		const struct diskstats_dev *dd = disk_find(disks, cd->major,
							   cd->minor);
		struct evidence_io_dev e = { .major = cd->major,
					     .minor = cd->minor };
		size_t at;

		e.rbps = cd->rbps;
		e.wbps = cd->wbps;
		e.riops = cd->riops;
		e.wiops = cd->wiops;
		e.rbytes = delta(pd ? &pd->rbytes : NULL, &cd->rbytes);
		e.wbytes = delta(pd ? &pd->wbytes : NULL, &cd->wbytes);
		e.rios = delta(pd ? &pd->rios : NULL, &cd->rios);
		e.wios = delta(pd ? &pd->wios : NULL, &cd->wios);
		if (!limited(&e.rbps) && !limited(&e.wbps) &&
		    !limited(&e.riops) && !limited(&e.wiops) &&
		    !e.rbytes.v && !e.wbytes.v && !e.rios.v && !e.wios.v)
			continue;
		if (dd)
			memcpy(e.name, dd->name, sizeof(e.name));
		at = out->n_io_devs;
		while (at > 0 && io_before(&e, &out->io_devs[at - 1]))
			at--;
		if (at == EVIDENCE_IO_DEVS)
			continue;
		if (out->n_io_devs < EVIDENCE_IO_DEVS)
			out->n_io_devs++;
		memmove(&out->io_devs[at + 1], &out->io_devs[at],
			(out->n_io_devs - 1 - at) * sizeof(out->io_devs[0]));
		out->io_devs[at] = e;
	}
}

static void io_interval(const struct evidence_reading *p,
			const struct evidence_reading *c,
			const struct diskstats *disks_prev,
			const struct diskstats *disks_cur, struct evidence *out)
{
	out->io_cgroup_version = c->io.version;
	D(task_read_bytes, tio.read_bytes);
	D(task_write_bytes, tio.write_bytes);
	D(task_rchar, tio.rchar);
	D(task_wchar, tio.wchar);
	out->io_some_us = stall(p ? &p->io.pressure[PSI_SOME] : NULL,
				&c->io.pressure[PSI_SOME]);
	out->io_full_us = stall(p ? &p->io.pressure[PSI_FULL] : NULL,
				&c->io.pressure[PSI_FULL]);
	io_devs(p, c, disks_cur, out);
	out->n_disks = evidence_disks(disks_prev, disks_cur, out->disks,
				      EVIDENCE_DISKS);
}

void evidence_interval(const struct evidence_reading *prev,
		       const struct evidence_reading *cur,
		       const struct diskstats *disks_prev,
		       const struct diskstats *disks_cur, struct evidence *out)
{
	const struct evidence_reading *p = prev, *c = cur;

	memset(out, 0, sizeof(*out));
	if (p && c->when > p->when)
		out->interval_s = c->when - p->when;
	else
		p = NULL;  /* no interval: current values only */
	cpu_interval(p, c, out);
	mem_interval(p, c, out);
	io_interval(p, c, disks_prev, disks_cur, out);
	D(forks, forks);
	out->private_bytes = c->tmem.private_bytes;
	out->states_source = c->states.source;
	out->tasks_running = c->states.nr_running;
	out->tasks_sleeping = c->states.nr_sleeping;
	out->tasks_uninterruptible = c->states.nr_uninterruptible;
	out->tasks_stopped = c->states.nr_stopped;
	out->tasks_io_wait = c->states.nr_io_wait;
}

/*
 * THE field list. Names are the JSON keys of the "why" object: stable,
 * snake_case, one unit each (us, bytes, count, cpus, tasks). A delta is
 * what happened in the interval; a gauge is the value at its end; a
 * limit is a number or "max".
 */
#define F(n, m, k, g, u, h) { n, offsetof(struct evidence, m), \
	EVIDENCE_##k, EVIDENCE_##g, u, h }

const struct evidence_field evidence_fields[] = {
	F("cpu_quota_us", cpu_quota_us, LIMIT, CPU, "us",
	  N_("CPU time the cgroup may use per period (cpu.max, cpu.cfs_quota_us)")),
	F("cpu_period_us", cpu_period_us, GAUGE, CPU, "us",
	  N_("length of the cgroup's quota period")),
	F("cpu_periods", cpu_periods, DELTA, CPU, "count",
	  N_("quota periods in which the cgroup had runnable tasks")),
	F("cpu_throttled_periods", cpu_throttled_periods, DELTA, CPU, "count",
	  N_("periods in which the cgroup used up its quota (nr_throttled)")),
	F("cpu_throttled_us", cpu_throttled_us, DELTA, CPU, "us",
	  N_("time the cgroup's CPUs were held back by the quota, summed over CPUs")),
	F("cpu_usage_us", cpu_usage_us, DELTA, CPU, "us",
	  N_("CPU time the cgroup used")),
	F("cpu_some_us", cpu_some_us, DELTA, CPU, "us",
	  N_("time some of the cgroup's tasks waited for a CPU (cpu.pressure)")),
	F("cpu_full_us", cpu_full_us, DELTA, CPU, "us",
	  N_("time all of the cgroup's tasks waited for a CPU at once")),
	F("allowed_cpus", allowed_cpus, GAUGE, CPU, "cpus",
	  N_("CPUs the process may run on (Cpus_allowed_list)")),
	F("threads", threads, GAUGE, CPU, "count",
	  N_("threads of the process")),
	F("runnable_threads", runnable_threads, GAUGE, CPU, "count",
	  N_("threads of the process running or waiting for a CPU (state R)")),
	F("cpus_online", cpus_online, GAUGE, CPU, "cpus",
	  N_("CPUs online in the machine")),
	F("sys_runnable", sys_runnable, GAUGE, CPU, "tasks",
	  N_("tasks of the machine running or waiting for a CPU (procs_running)")),
	F("allowed_cpus_idle_us", allowed_cpus_idle_us, DELTA, CPU, "us",
	  N_("idle time of the CPUs the process may use, summed over them (/proc/stat)")),
	F("allowed_cpus_time_us", allowed_cpus_time_us, DELTA, CPU, "us",
	  N_("time of the CPUs the process may use, summed over them")),
	F("other_cpus_idle_us", other_cpus_idle_us, DELTA, CPU, "us",
	  N_("idle time of the CPUs online the process may not use, summed")),
	F("other_cpus_time_us", other_cpus_time_us, DELTA, CPU, "us",
	  N_("time of the CPUs online the process may not use, summed")),
	F("other_cpus_nice_us", other_cpus_nice_us, DELTA, CPU, "us",
	  N_("time the CPUs the process may not use ran tasks of nice above 0, summed (/proc/stat)")),

	F("mem_max", mem_max, LIMIT, MEMORY, "bytes",
	  N_("the cgroup's memory limit (memory.max, memory.limit_in_bytes)")),
	F("mem_high", mem_high, LIMIT, MEMORY, "bytes",
	  N_("the cgroup's memory throttling threshold (memory.high)")),
	F("mem_current", mem_current, GAUGE, MEMORY, "bytes",
	  N_("memory the cgroup uses (memory.current, memory.usage_in_bytes)")),
	F("mem_events_low", mem_events_low, DELTA, MEMORY, "count",
	  N_("reclaims below the cgroup's protection (memory.events low)")),
	F("mem_events_high", mem_events_high, DELTA, MEMORY, "count",
	  N_("times the cgroup was throttled over memory.high")),
	F("mem_events_max", mem_events_max, DELTA, MEMORY, "count",
	  N_("times the cgroup's usage was about to go over memory.max")),
	F("mem_events_oom", mem_events_oom, DELTA, MEMORY, "count",
	  N_("times the cgroup ran out of memory at its limit")),
	F("mem_events_oom_kill", mem_events_oom_kill, DELTA, MEMORY, "count",
	  N_("processes of the cgroup killed by the OOM killer")),
	F("mem_failcnt", mem_failcnt, DELTA, MEMORY, "count",
	  N_("times the cgroup's usage hit its v1 limit (memory.failcnt)")),
	F("swap_current", swap_current, GAUGE, MEMORY, "bytes",
	  N_("swap the cgroup uses (memory.swap.current)")),
	F("swap_max", swap_max, LIMIT, MEMORY, "bytes",
	  N_("the cgroup's swap limit (memory.swap.max)")),
	F("memsw_usage", memsw_usage, GAUGE, MEMORY, "bytes",
	  N_("memory and swap the v1 cgroup uses (memory.memsw.usage_in_bytes)")),
	F("memsw_limit", memsw_limit, LIMIT, MEMORY, "bytes",
	  N_("the v1 cgroup's memory and swap limit")),
	F("memsw_failcnt", memsw_failcnt, DELTA, MEMORY, "count",
	  N_("times the v1 cgroup hit its memory and swap limit")),
	F("refaults_anon", refaults_anon, DELTA, MEMORY, "count",
	  N_("anonymous pages read back soon after eviction (workingset_refault_anon)")),
	F("refaults_file", refaults_file, DELTA, MEMORY, "count",
	  N_("file pages read back soon after eviction (workingset_refault_file)")),
	F("refaults", refaults, DELTA, MEMORY, "count",
	  N_("pages read back soon after eviction, anonymous and file")),
	F("mem_some_us", mem_some_us, DELTA, MEMORY, "us",
	  N_("time some of the cgroup's tasks waited for memory (memory.pressure)")),
	F("mem_full_us", mem_full_us, DELTA, MEMORY, "us",
	  N_("time all of the cgroup's tasks waited for memory at once")),
	F("sys_mem_total", sys_mem_total, GAUGE, MEMORY, "bytes",
	  N_("the machine's memory (MemTotal)")),
	F("sys_mem_free", sys_mem_free, GAUGE, MEMORY, "bytes",
	  N_("the machine's unused memory (MemFree)")),
	F("sys_mem_available", sys_mem_available, GAUGE, MEMORY, "bytes",
	  N_("memory the machine can give without swapping (MemAvailable)")),
	F("sys_swap_total", sys_swap_total, GAUGE, MEMORY, "bytes",
	  N_("the machine's swap space (SwapTotal)")),
	F("sys_swap_free", sys_swap_free, GAUGE, MEMORY, "bytes",
	  N_("the machine's unused swap space (SwapFree)")),

	F("task_read_bytes", task_read_bytes, DELTA, IO, "bytes",
	  N_("bytes the process had read from storage (/proc/PID/io read_bytes)")),
	F("task_write_bytes", task_write_bytes, DELTA, IO, "bytes",
	  N_("bytes the process sent to storage (write_bytes)")),
	F("task_rchar", task_rchar, DELTA, IO, "bytes",
	  N_("bytes the process read through system calls (rchar)")),
	F("task_wchar", task_wchar, DELTA, IO, "bytes",
	  N_("bytes the process wrote through system calls (wchar)")),
	F("io_some_us", io_some_us, DELTA, IO, "us",
	  N_("time some of the cgroup's tasks waited for IO (io.pressure)")),
	F("io_full_us", io_full_us, DELTA, IO, "us",
	  N_("time all of the cgroup's tasks waited for IO at once")),

	F("forks", forks, DELTA, WPCOPY, "count",
	  N_("processes and threads the process started")),
	F("private_bytes", private_bytes, GAUGE, WPCOPY, "bytes",
	  N_("the process's private memory (Private_Clean + Private_Dirty)")),

	F("tasks_running", tasks_running, GAUGE, STATES, "tasks",
	  N_("tasks of the cgroup running or waiting for a CPU")),
	F("tasks_sleeping", tasks_sleeping, GAUGE, STATES, "tasks",
	  N_("tasks of the cgroup in an interruptible sleep")),
	F("tasks_uninterruptible", tasks_uninterruptible, GAUGE, STATES, "tasks",
	  N_("tasks of the cgroup in an uninterruptible sleep")),
	F("tasks_stopped", tasks_stopped, GAUGE, STATES, "tasks",
	  N_("tasks of the cgroup stopped by a signal")),
	F("tasks_io_wait", tasks_io_wait, GAUGE, STATES, "tasks",
	  N_("tasks of the cgroup waiting for IO (the kernel's count, v1 only)")),
};
const size_t evidence_nfields = sizeof(evidence_fields) /
				sizeof(evidence_fields[0]);

#define IOF(n, m, k, u, h) { n, offsetof(struct evidence_io_dev, m), \
	EVIDENCE_##k, EVIDENCE_IO, u, h }

const struct evidence_field evidence_io_dev_fields[] = {
	IOF("rbps", rbps, LIMIT, "bytes/s", N_("the cgroup's read limit on the device")),
	IOF("wbps", wbps, LIMIT, "bytes/s", N_("the cgroup's write limit on the device")),
	IOF("riops", riops, LIMIT, "ios/s", N_("the cgroup's read IO limit on the device")),
	IOF("wiops", wiops, LIMIT, "ios/s", N_("the cgroup's write IO limit on the device")),
	IOF("rbytes", rbytes, DELTA, "bytes", N_("bytes the cgroup read from the device")),
	IOF("wbytes", wbytes, DELTA, "bytes", N_("bytes the cgroup wrote to the device")),
	IOF("rios", rios, DELTA, "count", N_("read IOs of the cgroup on the device")),
	IOF("wios", wios, DELTA, "count", N_("write IOs of the cgroup on the device")),
};
const size_t evidence_io_dev_nfields = sizeof(evidence_io_dev_fields) /
				       sizeof(evidence_io_dev_fields[0]);

const char *const evidence_disk_fields[] = {
	"device", "name", "util_pct", "queue", "read_bytes", "write_bytes",
};
const size_t evidence_disk_nfields = sizeof(evidence_disk_fields) /
				     sizeof(evidence_disk_fields[0]);

const struct kval *evidence_value(const void *base,
				  const struct evidence_field *f)
{
	return (const struct kval *)((const char *)base + f->offset);
}
