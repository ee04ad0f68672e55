/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The rule table of why.h: one function per rule, each true only when
 * every figure it needs is known and shows the cause. A rule never fills
 * in an unknown figure with 0.
 */
#include <config.h>

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "lib/nls.h"
#include "model/why.h"

const struct why_rule why_rules[NWHY] = {
	[WHY_NONE] = { "", "", "" },
	[WHY_CPU_QUOTA] = { "cpu_quota", N_("cpu quota"),
		N_("the cgroup's CPU quota held it back for at least a quarter "
		   "of the CPU delay") },
	[WHY_PINNED] = { "pinned", N_("pinned"),
		N_("more threads of the process are runnable than the CPUs it "
		   "may use, fewer than the machine has") },
	[WHY_CPU_CONTENTION] = { "cpu_contention", N_("cpu contention"),
		N_("more tasks of the machine are runnable than the CPUs the "
		   "process may use") },
	[WHY_MEM_LIMIT] = { "mem_limit", N_("mem limit"),
		/* xgettext:no-c-format */
		N_("the cgroup hit its memory limit, or uses 95 % of it") },
	[WHY_MEM_HIGH] = { "mem_high", N_("mem high"),
		N_("the cgroup went over memory.high and was throttled") },
	[WHY_SWAP_FULL] = { "swap_full", N_("swap full"),
		/* xgettext:no-c-format */
		N_("the cgroup's or the machine's swap is 95 % used") },
	[WHY_LOW_MEMORY] = { "low_memory", N_("low memory"),
		/* xgettext:no-c-format */
		N_("the machine has less than 5 % of its memory available") },
	[WHY_IO_LIMIT] = { "io_limit", N_("io limit %s"),
		/* xgettext:no-c-format */
		N_("the cgroup's IO on a device reached 90 % of its limit") },
	[WHY_DISK_BUSY] = { "disk_busy", N_("disk %s %.0f%%"),
		/* xgettext:no-c-format */
		N_("a disk the process's cgroup used was busy at least 80 % of "
		   "the interval") },
	[WHY_FORK_COW] = { "fork_cow", N_("fork cow"),
		N_("the process forked in the interval: pages it shares with "
		   "its children are copied when written") },
};

/* A number (a limit that is not "max", or a count) the kernel gave. */
static bool known(const struct kval *k)
{
	return k->have && !k->max;
}

/* part >= share × whole, both known, whole > 0 */
static bool at_least(const struct kval *part, double share,
		     const struct kval *whole)
{
	return known(part) && known(whole) && whole->v > 0 &&
	       (double)part->v >= share * (double)whole->v;
}

static bool rule_cpu_quota(double delay_us, const struct evidence *ev)
{
	return known(&ev->cpu_quota_us) && known(&ev->cpu_throttled_us) &&
	       ev->cpu_throttled_us.v > 0 &&
	       (double)ev->cpu_throttled_us.v >= WHY_QUOTA_SHARE * delay_us;
}

static bool rule_pinned(const struct evidence *ev)
{
	return known(&ev->allowed_cpus) && known(&ev->cpus_online) &&
	       known(&ev->runnable_threads) &&
	       ev->allowed_cpus.v < ev->cpus_online.v &&
	       ev->runnable_threads.v > ev->allowed_cpus.v;
}

static bool rule_cpu_contention(const struct evidence *ev)
{
	return known(&ev->allowed_cpus) && known(&ev->sys_runnable) &&
	       ev->sys_runnable.v > 0 &&
	       ev->sys_runnable.v - 1 > ev->allowed_cpus.v;
}

static bool positive(const struct kval *k)
{
	return known(k) && k->v > 0;
}

static bool rule_mem_limit(const struct evidence *ev)
{
	return positive(&ev->mem_events_max) || positive(&ev->mem_failcnt) ||
	       positive(&ev->memsw_failcnt) ||
	       at_least(&ev->mem_current, WHY_LIMIT_SHARE, &ev->mem_max);
}

static bool rule_swap_full(const struct evidence *ev)
{
	if (at_least(&ev->swap_current, WHY_LIMIT_SHARE, &ev->swap_max))
		return true;
	return known(&ev->sys_swap_total) && known(&ev->sys_swap_free) &&
	       ev->sys_swap_total.v > 0 &&
	       (double)ev->sys_swap_free.v <
		       WHY_LOW_SHARE * (double)ev->sys_swap_total.v;
}

static bool rule_low_memory(const struct evidence *ev)
{
	return known(&ev->sys_mem_total) && known(&ev->sys_mem_available) &&
	       ev->sys_mem_total.v > 0 &&
	       (double)ev->sys_mem_available.v <
		       WHY_LOW_SHARE * (double)ev->sys_mem_total.v;
}

/* Is the interval's rate of count at least the share of limit? */
static bool at_rate(const struct kval *count, const struct kval *limit,
		    double interval_s)
{
	return known(count) && known(limit) && limit->v > 0 &&
	       interval_s > 0 &&
	       (double)count->v / interval_s >=
		       WHY_IO_LIMIT_SHARE * (double)limit->v;
}

static int rule_io_limit(const struct evidence *ev)
{
	for (size_t i = 0; i < ev->n_io_devs && i < EVIDENCE_IO_DEVS; i++) {
		const struct evidence_io_dev *d = &ev->io_devs[i];

		if (at_rate(&d->rbytes, &d->rbps, ev->interval_s) ||
		    at_rate(&d->wbytes, &d->wbps, ev->interval_s) ||
		    at_rate(&d->rios, &d->riops, ev->interval_s) ||
		    at_rate(&d->wios, &d->wiops, ev->interval_s))
			return (int)i;
	}
	return -1;
}

/* Did the cgroup do IO on the disk in the interval? */
static bool cgroup_used(const struct evidence *ev,
			const struct diskstats_busy *disk)
{
	for (size_t i = 0; i < ev->n_io_devs && i < EVIDENCE_IO_DEVS; i++) {
		const struct evidence_io_dev *d = &ev->io_devs[i];

		if (d->major == disk->major && d->minor == disk->minor)
			return positive(&d->rbytes) || positive(&d->wbytes) ||
			       positive(&d->rios) || positive(&d->wios);
	}
	return false;
}

static bool cgroup_did_io(const struct evidence *ev)
{
	for (size_t i = 0; i < ev->n_io_devs && i < EVIDENCE_IO_DEVS; i++) {
		const struct evidence_io_dev *d = &ev->io_devs[i];

		if (positive(&d->rbytes) || positive(&d->wbytes) ||
		    positive(&d->rios) || positive(&d->wios))
			return true;
	}
	return false;
}

/* The busiest disk at WHY_DISK_BUSY_PCT (disks come busiest first). */
static int rule_disk_busy(const struct evidence *ev)
{
	bool only_cgroup = cgroup_did_io(ev);

	for (size_t i = 0; i < ev->n_disks && i < EVIDENCE_DISKS; i++) {
		const struct diskstats_busy *b = &ev->disks[i];

		if (b->util_pct < WHY_DISK_BUSY_PCT)
			break;
		if (!only_cgroup || cgroup_used(ev, b))
			return (int)i;
	}
	return -1;
}

static enum why_cause memory_cause(const struct evidence *ev)
{
	if (rule_mem_limit(ev))
		return WHY_MEM_LIMIT;
	if (positive(&ev->mem_events_high))
		return WHY_MEM_HIGH;
	if (rule_swap_full(ev))
		return WHY_SWAP_FULL;
	if (rule_low_memory(ev))
		return WHY_LOW_MEMORY;
	return WHY_NONE;
}

struct why_result why_eval(enum cat cat, bool have_delay, double delay_us,
			   const struct evidence *ev)
{
	struct why_result r = { WHY_NONE, -1, -1 };

	if (!ev || !have_delay || !(delay_us > 0))
		return r;
	switch (cat) {
	case CAT_CPU:
		if (rule_cpu_quota(delay_us, ev))
			r.cause = WHY_CPU_QUOTA;
		else if (rule_pinned(ev))
			r.cause = WHY_PINNED;
		else if (rule_cpu_contention(ev))
			r.cause = WHY_CPU_CONTENTION;
		break;
	case CAT_SWAP:
	case CAT_RECLAIM:
	case CAT_THRASHING:
		r.cause = memory_cause(ev);
		break;
	case CAT_IO:
		if ((r.io_dev = rule_io_limit(ev)) >= 0)
			r.cause = WHY_IO_LIMIT;
		else if ((r.disk = rule_disk_busy(ev)) >= 0)
			r.cause = WHY_DISK_BUSY;
		break;
	case CAT_WPCOPY:
		if (positive(&ev->forks))
			r.cause = WHY_FORK_COW;
		break;
	default:
		break;
	}
	return r;
}

/* A device's name, or MAJ:MIN when diskstats did not name it. */
static const char *dev_name(const char *name, unsigned major, unsigned minor,
			    char *buf, size_t size)
{
	if (name[0])
		return name;
	snprintf(buf, size, "%u:%u", major, minor);
	return buf;
}

const char *why_text(const struct why_result *r, const struct evidence *ev,
		     char *buf, size_t size)
{
	char dev[32];

	if (!buf || size == 0)
		return buf;
	buf[0] = '\0';
	if (!r || r->cause <= WHY_NONE || r->cause >= NWHY)
		return buf;
	if (r->cause == WHY_IO_LIMIT) {
		const struct evidence_io_dev *d;

		if (!ev || r->io_dev < 0 || (size_t)r->io_dev >= ev->n_io_devs)
			return buf;
		d = &ev->io_devs[r->io_dev];
		snprintf(buf, size, _(why_rules[r->cause].text),
			 dev_name(d->name, d->major, d->minor, dev, sizeof(dev)));
	} else if (r->cause == WHY_DISK_BUSY) {
		const struct diskstats_busy *b;

		if (!ev || r->disk < 0 || (size_t)r->disk >= ev->n_disks)
			return buf;
		b = &ev->disks[r->disk];
		snprintf(buf, size, _(why_rules[r->cause].text),
			 dev_name(b->name, b->major, b->minor, dev, sizeof(dev)),
			 b->util_pct);
	} else {
		snprintf(buf, size, "%s", _(why_rules[r->cause].text));
	}
	return buf;
}
