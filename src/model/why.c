/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The rule table of why.h: one function per rule, each true only when
 * every figure it needs is known and shows the cause, named by its
 * cause's row of why_rules[] (below the rules); the category table names
 * the causes tried for each category. A rule never fills in an unknown
 * figure with 0.
 */
#include <config.h>

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "lib/nls.h"
#include "model/why.h"

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

/* The quota's part of P: the share of periods throttled in. */
static bool rule_cpu_quota(const struct evidence *ev, struct why_hold *h)
{
	double p = h->est_us;

	if (!known(&ev->cpu_quota_us))
		return false;
	if (known(&ev->cpu_throttled_periods) && known(&ev->cpu_periods) &&
	    ev->cpu_periods.v > 0) {
		double f = (double)ev->cpu_throttled_periods.v /
			   (double)ev->cpu_periods.v;
		h->est_us = p * (f < 1 ? f : 1);
		return ev->cpu_throttled_periods.v > 0;
	}
	if (known(&ev->cpu_throttled_us) && ev->cpu_throttled_us.v > 0) {
		double t = (double)ev->cpu_throttled_us.v;
		h->est_us = t < p ? t : p;
		return true;
	}
	return false;
}

/* The CPUs it may use were busy all but WHY_BUSY_SHARE of their time. */
static bool allowed_busy(const struct evidence *ev)
{
	return known(&ev->allowed_cpus_idle_us) &&
	       known(&ev->allowed_cpus_time_us) &&
	       ev->allowed_cpus_time_us.v > 0 &&
	       (double)ev->allowed_cpus_idle_us.v <=
		       WHY_BUSY_SHARE * (double)ev->allowed_cpus_time_us.v;
}

/*
 * The time of the CPUs it may not use that it would have had there: their
 * idle time, and for a process of nice 0 or below their time in tasks of
 * nice above 0 (CFS gives a task of nice 0 some 98 % of a CPU beside one
 * of nice 19; the kernel counts a SCHED_IDLE task's time by its nice).
 * Negative when unknown.
 */
static double others_free(const struct evidence *ev)
{
	if (!known(&ev->other_cpus_idle_us))
		return -1;
	double us = (double)ev->other_cpus_idle_us.v;
	if (ev->have_nice && ev->nice <= 0 && known(&ev->other_cpus_nice_us))
		us += (double)ev->other_cpus_nice_us.v;
	return us;
}

/* The CPUs it may not use were free WHY_IDLE_SHARE of their time. */
static bool others_idle(const struct evidence *ev)
{
	return known(&ev->other_cpus_time_us) &&
	       ev->other_cpus_time_us.v > 0 &&
	       others_free(ev) >=
		       WHY_IDLE_SHARE * (double)ev->other_cpus_time_us.v;
}

static bool rule_pinned(const struct evidence *ev, struct why_hold *h)
{
	double p = h->est_us;
	bool own;

	if (!known(&ev->allowed_cpus) || !known(&ev->cpus_online) ||
	    ev->allowed_cpus.v >= ev->cpus_online.v || ev->allowed_cpus.v == 0)
		return false;
	own = known(&ev->runnable_threads) &&
	      ev->runnable_threads.v > ev->allowed_cpus.v;
	double idle = others_free(ev);
	if (allowed_busy(ev) && others_idle(ev)) {
		h->est_us = idle < p ? idle : p;
		return true;
	}
	if (!own)
		return false;
	if (idle >= 0) {
		h->est_us = idle < p ? idle : p;
	} else {
		h->est_us = p * (1 - (double)ev->allowed_cpus.v /
				     (double)ev->runnable_threads.v);
	}
	return true;
}

/* The residual cause of cpu: what quota and pinning leave. */
static bool rule_cpu_contention(const struct evidence *ev, struct why_hold *h)
{
	h->est_us = 0;
	h->residual = true;
	if (allowed_busy(ev))
		return true;
	return known(&ev->allowed_cpus) && known(&ev->sys_runnable) &&
	       ev->sys_runnable.v > 0 &&
	       ev->sys_runnable.v - 1 > ev->allowed_cpus.v;
}

static bool positive(const struct kval *k)
{
	return known(k) && k->v > 0;
}

static bool rule_mem_limit(const struct evidence *ev, struct why_hold *h)
{
	(void)h;
	return positive(&ev->mem_events_max) || positive(&ev->mem_failcnt) ||
	       positive(&ev->memsw_failcnt) ||
	       at_least(&ev->mem_current, WHY_LIMIT_SHARE, &ev->mem_max);
}

static bool rule_mem_high(const struct evidence *ev, struct why_hold *h)
{
	(void)h;
	return positive(&ev->mem_events_high);
}

static bool rule_swap_full(const struct evidence *ev, struct why_hold *h)
{
	(void)h;
	if (at_least(&ev->swap_current, WHY_LIMIT_SHARE, &ev->swap_max))
		return true;
	return known(&ev->sys_swap_total) && known(&ev->sys_swap_free) &&
	       ev->sys_swap_total.v > 0 &&
	       (double)ev->sys_swap_free.v <
		       WHY_LOW_SHARE * (double)ev->sys_swap_total.v;
}

static bool rule_low_memory(const struct evidence *ev, struct why_hold *h)
{
	(void)h;
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

/* The first device of the cgroup at its limit, or -1. */
static int io_limited(const struct evidence *ev)
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

static bool rule_io_limit(const struct evidence *ev, struct why_hold *h)
{
	h->r.io_dev = io_limited(ev);
	return h->r.io_dev >= 0;
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

/* The busiest disk at WHY_DISK_BUSY_PCT (disks come busiest first), or -1. */
static int busy_disk(const struct evidence *ev)
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

static bool rule_disk_busy(const struct evidence *ev, struct why_hold *h)
{
	h->r.disk = busy_disk(ev);
	return h->r.disk >= 0;
}

static bool rule_fork_cow(const struct evidence *ev, struct why_hold *h)
{
	(void)h;
	return positive(&ev->forks);
}

_Static_assert(NWHY <= sizeof(unsigned) * 8,
	       "a category's causes are the bits of an unsigned");

/* The causes, each with its rule; a category names those tried for it. */
const struct why_rule why_rules[NWHY] = {
	[WHY_NONE] = { "", "", "", NULL },
	[WHY_CPU_QUOTA] = { "cpu_quota", N_("cpu quota"),
		N_("the cgroup used up its CPU quota: it accounts for the CPU "
		   "delay in the share of periods it was throttled in"),
		rule_cpu_quota },
	[WHY_PINNED] = { "pinned", N_("pinned"),
		N_("the CPUs the process may use, fewer than the machine has, "
		   "are crowded (more of its threads runnable, or busy) while "
		   "others idle or run only niced tasks (for a process not "
		   "niced itself): it accounts for up to that time"),
		rule_pinned },
	[WHY_CPU_CONTENTION] = { "cpu_contention", N_("cpu contention"),
		N_("more tasks of the machine are runnable than the CPUs the "
		   "process may use, or those were busy: what quota and "
		   "pinning leave"),
		rule_cpu_contention },
	[WHY_MEM_LIMIT] = { "mem_limit", N_("mem limit"),
		/* xgettext:no-c-format */
		N_("the cgroup hit its memory limit, or uses 95 % of it"),
		rule_mem_limit },
	[WHY_MEM_HIGH] = { "mem_high", N_("mem high"),
		N_("the cgroup went over memory.high and was throttled"),
		rule_mem_high },
	[WHY_SWAP_FULL] = { "swap_full", N_("swap full"),
		/* xgettext:no-c-format */
		N_("the cgroup's or the machine's swap is 95 % used"),
		rule_swap_full },
	[WHY_LOW_MEMORY] = { "low_memory", N_("low memory"),
		/* xgettext:no-c-format */
		N_("the machine has less than 5 % of its memory available"),
		rule_low_memory },
	[WHY_IO_LIMIT] = { "io_limit", N_("io limit %s"),
		/* xgettext:no-c-format */
		N_("the cgroup's IO on a device reached 90 % of its limit"),
		rule_io_limit },
	[WHY_DISK_BUSY] = { "disk_busy", N_("disk %s %.0f%%"),
		/* xgettext:no-c-format */
		N_("a disk the process's cgroup used was busy at least 80 % of "
		   "the interval"),
		rule_disk_busy },
	[WHY_FORK_COW] = { "fork_cow", N_("fork cow"),
		N_("the process forked in the interval: pages it shares with "
		   "its children are copied when written"),
		rule_fork_cow },
};

size_t why_holds(enum cat cat, double part_us, const struct evidence *ev,
		 struct why_hold out[WHY_HOLDS])
{
	size_t n = 0;

	if (!ev || !(part_us > 0) || (unsigned)cat >= NCAT)
		return 0;
	for (int c = WHY_NONE + 1; c < NWHY && n < WHY_HOLDS; c++) {
		struct why_hold h = { { (enum why_cause)c, -1, -1 }, part_us,
				      false };

		if ((categories[cat].causes & WHY_RULE(c)) &&
		    why_rules[c].holds(ev, &h))
			out[n++] = h;
	}
	return n;
}

int why_share(const struct why_hold *h, size_t n, double part_us,
	      double share_us[WHY_HOLDS])
{
	bool done[WHY_HOLDS] = { false };
	double left = part_us > 0 ? part_us : 0;
	int best = -1;

	for (size_t k = 0; k < n && k < WHY_HOLDS; k++) {
		int pick = -1;

		/* the largest estimate left, residual ones last */
		for (size_t i = 0; i < n && i < WHY_HOLDS; i++) {
			if (done[i])
				continue;
			if (pick < 0 || (h[pick].residual && !h[i].residual) ||
			    (h[pick].residual == h[i].residual &&
			     h[i].est_us > h[pick].est_us))
				pick = (int)i;
		}
		double want = h[pick].residual ? left : h[pick].est_us;
		share_us[pick] = want < left ? want : left;
		if (share_us[pick] < 0)
			share_us[pick] = 0;
		left -= share_us[pick];
		done[pick] = true;
	}
	for (size_t i = 0; i < n && i < WHY_HOLDS; i++)
		if (best < 0 || share_us[i] > share_us[best])
			best = (int)i;
	return best;
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
