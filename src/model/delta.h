/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Interval maths: two cumulative taskstats readings of one task become
 * what the task did in one interval, checked against what is physically
 * possible, and then the figures of one row. Pure functions, no state.
 *
 * The kernel's counters can lie (a wait whose start stamp is 0 counts the
 * machine's uptime; a wait caught by the delay accounting switch counts
 * from a stale stamp). A figure that cannot be true is dropped: never
 * shown, sorted on or summed, and counted. The rule (delta_interval)
 * only drops what no real schedule can produce:
 *   - one thread waits in one category at most once at a time, so what
 *     a thread waited in an interval cannot exceed its age, nor the
 *     time since the start of the last interval in which it ended a
 *     wait of that kind (its waits follow one another);
 *   - every wait that ends adds one event (cpu excepted: a run-queue
 *     wait may be cut in parts when the task migrates, one unfinished
 *     part per thread), and no wait is longer than the task has
 *     existed: Δdelay ≤ (Δcount [+ threads for cpu]) × age;
 *   - a lifetime maximum that rose in the interval belongs to a wait of
 *     the interval, and cannot exceed the age either;
 *   - every counted wait lasted at least a nanosecond (but cpu's and
 *     irq's): more events than nanoseconds of delay is a count that went
 *     backwards;
 *   - a total that went backwards is no figure at all.
 * A long wait that ends in an interval legitimately exceeds 100 % of
 * that interval: it passes, since it is shorter than the task's age.
 */
#ifndef STALLTOP_DELTA_H
#define STALLTOP_DELTA_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/ts_types.h"
#include "model/sample.h"

/*
 * What a reading must keep to be the base of the next interval: the
 * counters delta_interval() takes from its earlier reading, and what a
 * row takes from a thread's reading carried over unasked. About half of
 * a struct ts_reading: a task holds one between samples, so its bits of
 * the categories (bit k: kind k, as struct ts_reading has them) are a
 * byte each.
 */
struct ts_base {
	uint64_t run_ns;
	struct ts_base_delay {
		uint64_t count, total_ns, max_ns;
	} d[NCAT];
	uint8_t kind;              /* enum ts_kind */
	uint8_t have, have_max, have_max_at, no_count;
};

/* The base kept of reading r. */
void delta_base_of(const struct ts_reading *r, struct ts_base *b);
/* A reading with what base b holds (nothing else: no name, no times). */
void delta_base_reading(const struct ts_base *b, struct ts_reading *r);

/* What is known about the task and the window, to bound its figures. */
struct delta_bounds {
	unsigned cats;   /* categories (bit 1 << c) with true figures */
	double age;      /* upper bound of the task's age at the later
			    reading, seconds; 0 when unknown (no check) */
	bool thread;     /* the readings are one thread's (PID records, or a
			    process that had one thread all along) */
	double since[NCAT]; /* a thread: every wait of category c counted in
			    the window began within the last since[c]
			    seconds (after the end of its previous wait);
			    0 when unknown (its age bounds it) */
	int threads;     /* a process's threads, for the cpu rule; 0 unknown */
	double from, to; /* the window in CLOCK_REALTIME seconds (for the
			    kernel's max time stamps, version 17); 0: none */
	bool unstamped;  /* waits of the window may have begun while delay
			    accounting was off (READING_UNSTAMPED) */
};

enum delta_flags {
	DELTA_AVAIL = 1u << 0,    /* a true figure */
	DELTA_COUNT = 1u << 1,    /* the event count is known */
	DELTA_MAX = 1u << 2,      /* max_ns is the longest wait of the window */
	DELTA_LIFETIME = 1u << 3, /* ... and the longest of the task's life */
	DELTA_DROPPED = 1u << 4,  /* the kernel's figure cannot be true */
};

/* What one task did in one window. */
struct delta {
	bool have_run;
	uint64_t run_ns;          /* time on a CPU */
	struct delta_cat {
		unsigned flags;   /* enum delta_flags */
		uint64_t count;
		uint64_t total_ns;
		uint64_t max_ns;
	} d[NCAT];
};

/*
 * What happened between prev and cur (prev NULL: the task started after
 * the previous reading and is counted from zero). Returns the number of
 * categories dropped as impossible.
 */
int delta_interval(const struct ts_reading *prev, const struct ts_reading *cur,
		   const struct delta_bounds *b, struct delta *out);

/*
 * What delta_interval gives for two equal readings, both b's: nothing
 * moved. Cheaper, for the tasks whose reading is carried over unasked.
 */
void delta_still(const struct ts_base *b, unsigned cats, struct delta *out);

/*
 * Add one interval to an accumulated window (-a); acc starts zeroed with
 * first true. A category dropped once stays dropped (the window holds an
 * impossible wait); one the kernel stopped giving stays absent.
 */
void delta_accumulate(struct delta *acc, bool first, const struct delta *iv);

/*
 * The figures of row over dt seconds: pct, count, avg, max, cpu_pct and
 * total_pct (see delta_stall). lived: seconds its thread(s) lived in the
 * window, summed over threads (delta_stall's cap); 0 when unknown.
 */
void delta_figures(const struct delta *iv, double dt, double lived,
		   struct row *row);

/*
 * The most a task of that age (seconds) can have lived by the kernel's
 * clocks: the age, plus 1 % and 2 ms (the kernel times waits with the
 * scheduler's clock, stalltop times a task's age with its own).
 */
double delta_age_bound(double age);

/*
 * TOTAL: the share of the window in which the task was held back, from
 * what the kernel nests (checked against its sources):
 *  - a thread's time splits into running (R, cpu_pct), runnable-waiting
 *    (C, cpu delay: from enqueue to running), time stolen by IRQs while
 *    on a CPU (I, irq delay; not in R, whose clock leaves IRQ time out)
 *    and sleeping. Block IO delay (io) is a sleep: it runs from the
 *    task's io_schedule() to its wake-up. C, I and io are disjoint.
 *  - direct reclaim, compaction, copy-on-write and swap-in are stretches
 *    of wall time around work the task does itself (scanning and
 *    writing pages out, migrating, copying, reading or decompressing a
 *    page): within them it may run, wait for a CPU (counted in C too)
 *    or sleep on IO (counted in io too). Thrashing is a refault's
 *    wait: inside a swap-in, or a sleep on the page lock, which is
 *    block IO delay as well. Reclaim and compaction take turns in the
 *    allocator, before a swap-in's read begins: with swap they are
 *    disjoint; a copy-on-write fault may reclaim inside.
 * So the stalled time is U = C + I + io + X, X the memory work outside
 * C, I and io, and (as % of the window, L the time the task lived):
 *   lo = max(C + I + io, swap + max(wpcopy, reclaim + compact),
 *            thrashing)
 *   hi = min(C + I + io + swap + wpcopy + reclaim + compact + thrashing,
 *            L)
 * The estimate takes the memory work W = swap + max(wpcopy, reclaim +
 * compact) to be spread over the task's time on and waiting for a CPU
 * as the rest of it is (its share in C and I is counted there already):
 * X = W × R / (R + C + I), plus thrashing beyond swap and io (a refault
 * wait no other figure holds). TOTAL = clamp(C + I + io + X, lo, hi).
 * Without R, X = W. A thread alone on an idle machine (R 99.6 %,
 * reclaim 74 %) has TOTAL 74; with a competitor on its CPU (R 50, C 50,
 * reclaim 57, swap 7) TOTAL 82, where its cgroup's PSI shows cpu 50
 * and memory 57 (whose union, 79, leaves out running in swap-ins).
 * Absent or dropped figures count for nothing.
 */
struct delta_stall {
	double lo, hi;  /* bounds, % of the window */
	double est;     /* TOTAL: the estimate, within them */
};

/*
 * The stall of figures d. have_run/run_pct: R (cpu_pct); lived_pct:
 * L as % of the window (<= 0: unknown, no cap).
 */
void delta_stall(const struct cat_figure d[NCAT], bool have_run,
		 double run_pct, double lived_pct, struct delta_stall *out);

/* delta_stall's estimate. */
double delta_total(const struct cat_figure d[NCAT], bool have_run,
		   double run_pct, double lived_pct);

/*
 * The categories with true figures while delay accounting is on
 * (acct_on) or off: the scheduler always times run-queue waits, the
 * kernel the others only while it is on. A task alive when it came on
 * may have been inside a wait whose start was never stamped: the first
 * interval after is READING_UNSTAMPED, and no wait counted later began
 * before it came on (its waits_from).
 */
unsigned delta_cats(unsigned kernel_cats, bool acct_on);

/*
 * A process whose threads all ended but that is not yet reaped answers a
 * query with zeros: it did nothing more, it did not forget. True when cur
 * is such an answer to a task whose previous reading held figures.
 */
bool delta_zombie_reply(const struct ts_reading *prev,
			const struct ts_reading *cur);

/*
 * Whether a task's counters moved between two readings: its CPU time, or
 * any delay total or count. Counters are monotonic, so a process whose
 * reading did not move had no thread run or wait in between.
 */
bool delta_moved(const struct ts_reading *prev, const struct ts_reading *cur);

/* Count difference; the kernel keeps non-cpu counts in 32 bits. */
unsigned long long delta_count(unsigned long long prev, unsigned long long cur,
			       int is_32bit);

/*
 * Two PSI readings into the shares of the interval between them. prev
 * may be NULL (the first reading): every share is then unknown, and so
 * is one whose total went back.
 */
void delta_psi(const struct psi_reading *prev, const struct psi_reading *cur,
	       struct psi_sample *out);

#endif
