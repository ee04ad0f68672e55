/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Why it stalls: from one stalled category's figures and the evidence of
 * the interval (evidence.h), a short cause, by a small table of rules.
 * A rule states a fact the counters show next to the stall; when none
 * holds, there is no cause (WHY_NONE), never a guess.
 *
 * THE RULE TABLE. A category's part of the row's stall (rowwhy.h: the
 * share of TOTAL it accounts for) goes to the causes of the category that
 * hold, each taking what it accounts for ("est", at most what is left),
 * the largest first (ties: in this order); a residual cause takes what
 * the others leave. "P" is the category's part; no rule holds when it is
 * zero or unknown.
 *
 *  category     cause (key)      holds when / accounts for
 *  cpu          cpu quota        the cgroup has a quota (not max) and was
 *               (cpu_quota)      throttled in the interval; P x throttled
 *                                periods / periods (a cgroup throttled in
 *                                every period is bound by its quota), or
 *                                the throttled time without periods
 *  cpu          pinned           allowed_cpus < cpus_online, and more of
 *               (pinned)         its threads are runnable than it may use,
 *                                or the CPUs it may use were busy (idle
 *                                <= 10 % of their time) while the others
 *                                were idle >= 10 % of theirs (tasks of
 *                                several processes crowding them); the
 *                                others' idle time (what unpinning could
 *                                give), else P x (1 - allowed / runnable)
 *  cpu          cpu contention   sys_runnable - 1 (the reader) >
 *               (cpu_contention) allowed_cpus, or the CPUs it may use were
 *                                busy; residual: what quota and pinning
 *                                leave
 *  swap,        mem limit        mem_events_max, mem_failcnt or
 *  reclaim,     (mem_limit)      memsw_failcnt > 0, or mem_current >=
 *  thrashing                     95 % of a mem_max that is not max; P
 *               mem high         mem_events_high > 0; P
 *               (mem_high)
 *               swap full        swap_current >= 95 % of a swap_max that
 *               (swap_full)      is not max, or sys_swap_free < 5 % of a
 *                                sys_swap_total > 0; P
 *               low memory       sys_mem_available < 5 % of sys_mem_total;
 *               (low_memory)     P
 *  io           io limit DEV     a device of the cgroup with a limit (not
 *               (io_limit)       max) whose rate in the interval is >= 90 %
 *                                of it (rbytes/rbps, wbytes/wbps,
 *                                rios/riops, wios/wiops per second); P
 *               disk DEV N%      the busiest disk of the interval is busy
 *               (disk_busy)      >= 80 % of it; among the cgroup's devices
 *                                with IO in the interval when it has any; P
 *  wpcopy       fork cow         forks > 0 in the interval; P
 *               (fork_cow)
 *  compact, irq (no rules)
 *
 * Which causes are tried for a category is its row's "causes" in the
 * category table (categories.c); each cause's rule is its row's "holds"
 * in why_rules[].
 */
#ifndef STALLTOP_WHY_H
#define STALLTOP_WHY_H

#include <stdbool.h>
#include <stddef.h>

#include "model/categories.h"
#include "model/evidence.h"

/* The thresholds of the rules above. */
#define WHY_BUSY_SHARE 0.10       /* idle / time of the allowed CPUs */
#define WHY_IDLE_SHARE 0.10       /* idle / time of the other CPUs */
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

/* A set of causes, as the category table names them: WHY_RULE(a) | ... */
#define WHY_RULE(cause) (1u << (cause))

/* A cause and what it points at. */
struct why_result {
	enum why_cause cause;
	int io_dev;         /* index in evidence.io_devs (io_limit), or -1 */
	int disk;           /* index in evidence.disks (disk_busy), or -1 */
};

/* A cause that holds for a category, and what it accounts for. */
struct why_hold {
	struct why_result r;
	double est_us;    /* of the category's part, at most part_us */
	bool residual;    /* takes what the others leave */
};

struct why_rule {
	const char *key;    /* stable JSON value: "cpu_quota" */
	const char *text;   /* N_(): shown ("cpu quota"); with a device and
			       a share for io_limit and disk_busy */
	const char *rule;   /* N_(): when it holds, for the manual and help */
	/*
	 * Does it hold by ev? h comes with the cause and est_us = the
	 * category's part P (> 0); the rule may lower est_us to what it
	 * accounts for, make it residual, or name the device it points at.
	 */
	bool (*holds)(const struct evidence *ev, struct why_hold *h);
};

extern const struct why_rule why_rules[NWHY];

/* At most this many causes hold for one category. */
#define WHY_HOLDS 4

/*
 * The causes that hold for category cat (of its row's causes in the
 * category table), whose part of the row's stall in the interval is
 * part_us microseconds, into out (at most WHY_HOLDS), in the order of
 * enum why_cause; returns how many.
 */
size_t why_holds(enum cat cat, double part_us, const struct evidence *ev,
		 struct why_hold out[WHY_HOLDS]);

/*
 * Share out part_us among the n causes of h (why_holds): the largest
 * estimate first (ties: the first), each at most what is left, the
 * residual ones last. share_us[i] is h[i]'s. Returns the index of the
 * one with the largest share, or -1 when n is 0.
 */
int why_share(const struct why_hold *h, size_t n, double part_us,
	      double share_us[WHY_HOLDS]);

/*
 * The short line of a result, translated ("cpu quota", "disk sda 98%"),
 * into buf; "" for WHY_NONE. Returns buf.
 */
const char *why_text(const struct why_result *r, const struct evidence *ev,
		     char *buf, size_t size);

#endif
