/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Why it stalls: from one stalled category's figures and the evidence of
 * the interval (evidence.h), a short cause, by a small table of rules.
 * A rule states a fact the counters show next to the stall; when none
 * holds, there is no cause (WHY_NONE), never a guess.
 *
 * THE RULE TABLE. The first rule of the category that holds gives the
 * cause. "delay" is the task's delay of the category in the interval;
 * no rule holds when it is zero or unknown.
 *
 *  category     cause (key)      holds when
 *  cpu          cpu quota        the cgroup has a quota (not max) and its
 *               (cpu_quota)      cpu_throttled_us >= 25 % of the delay
 *  cpu          pinned           allowed_cpus < cpus_online and
 *               (pinned)         runnable_threads > allowed_cpus
 *  cpu          cpu contention   sys_runnable - 1 (the reader) >
 *               (cpu_contention) allowed_cpus
 *  swap,        mem limit        mem_events_max, mem_failcnt or
 *  reclaim,     (mem_limit)      memsw_failcnt > 0, or mem_current >=
 *  thrashing                     95 % of a mem_max that is not max
 *               mem high         mem_events_high > 0
 *               (mem_high)
 *               swap full        swap_current >= 95 % of a swap_max that
 *               (swap_full)      is not max, or sys_swap_free < 5 % of a
 *                                sys_swap_total > 0
 *               low memory       sys_mem_available < 5 % of sys_mem_total
 *               (low_memory)
 *  io           io limit DEV     a device of the cgroup with a limit (not
 *               (io_limit)       max) whose rate in the interval is >= 90 %
 *                                of it (rbytes/rbps, wbytes/wbps,
 *                                rios/riops, wios/wiops per second)
 *               disk DEV N%      the busiest disk of the interval is busy
 *               (disk_busy)      >= 80 % of it; among the cgroup's devices
 *                                with IO in the interval when it has any
 *  wpcopy       fork cow         forks > 0 in the interval
 *               (fork_cow)
 *  compact, irq (no rules)
 */
#ifndef STALLTOP_WHY_H
#define STALLTOP_WHY_H

#include <stdbool.h>
#include <stddef.h>

#include "model/categories.h"
#include "model/evidence.h"

/* The thresholds of the rules above. */
#define WHY_QUOTA_SHARE 0.25      /* throttled time / delay */
#define WHY_LIMIT_SHARE 0.95      /* usage / limit */
#define WHY_LOW_SHARE 0.05        /* available / total */
#define WHY_IO_LIMIT_SHARE 0.90   /* rate / IO limit */
#define WHY_DISK_BUSY_PCT 80.0    /* utilisation */

enum why_cause {
	WHY_NONE,
	WHY_CPU_QUOTA,
	WHY_PINNED,
	WHY_CPU_CONTENTION,
	WHY_MEM_LIMIT,
	WHY_MEM_HIGH,
	WHY_SWAP_FULL,
	WHY_LOW_MEMORY,
	WHY_IO_LIMIT,
	WHY_DISK_BUSY,
	WHY_FORK_COW,
	NWHY
};

struct why_rule {
	const char *key;    /* stable JSON value: "cpu_quota" */
	const char *text;   /* N_(): shown ("cpu quota"); with a device and
			       a share for io_limit and disk_busy */
	const char *rule;   /* N_(): when it holds, for the manual and help */
};

extern const struct why_rule why_rules[NWHY];

/* A cause and what it points at. */
struct why_result {
	enum why_cause cause;
	int io_dev;         /* index in evidence.io_devs (io_limit), or -1 */
	int disk;           /* index in evidence.disks (disk_busy), or -1 */
};

/*
 * The cause of category cat's stall: delay_us is the task's delay of that
 * category in the interval (have_delay false: unknown).
 */
struct why_result why_eval(enum cat cat, bool have_delay, double delay_us,
			   const struct evidence *ev);

/*
 * The short line of a result, translated ("cpu quota", "disk sda 98%"),
 * into buf; "" for WHY_NONE. Returns buf.
 */
const char *why_text(const struct why_result *r, const struct evidence *ev,
		     char *buf, size_t size);

#endif
