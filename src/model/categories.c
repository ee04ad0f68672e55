/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <stddef.h>
#include <string.h>

#include "kernel/ts_layout.h"
#include "lib/nls.h"
#include "model/categories.h"
#include "model/evidence.h"
#include "model/why.h"

#define TS(f) offsetof(struct ts_layout, f)
#define TS15(f) offsetof(struct ts_layout_v15, f)
#define EV(group) EVIDENCE_WANT(EVIDENCE_##group)
#define WHY(cause) WHY_RULE(WHY_##cause)
/* swap-in, reclaim and refaults all wait for the memory of the cgroup
 * or the machine */
#define MEMORY_CAUSES (WHY(MEM_LIMIT) | WHY(MEM_HIGH) | WHY(SWAP_FULL) | \
		       WHY(LOW_MEMORY))

/* The order of rows is the order everywhere: columns, JSON, help, man. */
const struct category categories[NCAT] = {
	[CAT_CPU] = { "cpu", "CPU", N_("runnable, waiting for a CPU"), 'C', 1,
		{ { TS(cpu_count), TS(cpu_delay_total), TS(cpu_delay_max),
	    TS(cpu_delay_max_ts) },
		  { TS15(cpu_count), TS15(cpu_delay_total), TS15(cpu_delay_max) } }, 0,
		EV(CPU) | EV(STATES),
		WHY(CPU_QUOTA) | WHY(PINNED) | WHY(CPU_CONTENTION) },
	[CAT_IO] = { "io", "IO", N_("waiting for synchronous block IO"), 'I', 1,
		{ { TS(blkio_count), TS(blkio_delay_total), TS(blkio_delay_max),
	    TS(blkio_delay_max_ts) },
		  { TS15(blkio_count), TS15(blkio_delay_total), TS15(blkio_delay_max) } }, 1,
		EV(IO) | EV(STATES), WHY(IO_LIMIT) | WHY(DISK_BUSY) },
	[CAT_SWAP] = { "swap", "SWAP", N_("waiting for swap-in"), 'S', 1,
		{ { TS(swapin_count), TS(swapin_delay_total), TS(swapin_delay_max),
	    TS(swapin_delay_max_ts) },
		  { TS15(swapin_count), TS15(swapin_delay_total), TS15(swapin_delay_max) } }, 1,
		EV(MEMORY), MEMORY_CAUSES },
	[CAT_RECLAIM] = { "reclaim", "RECLAIM", N_("direct memory reclaim"), 'R', 7,
		{ { TS(freepages_count), TS(freepages_delay_total), TS(freepages_delay_max),
	    TS(freepages_delay_max_ts) },
		  { TS15(freepages_count), TS15(freepages_delay_total), TS15(freepages_delay_max) } }, 1,
		EV(MEMORY), MEMORY_CAUSES },
	[CAT_THRASHING] = { "thrashing", "THRASH",
		N_("refaulting working-set pages"), 'F', 9,
		{ { TS(thrashing_count), TS(thrashing_delay_total), TS(thrashing_delay_max),
	    TS(thrashing_delay_max_ts) },
		  { TS15(thrashing_count), TS15(thrashing_delay_total), TS15(thrashing_delay_max) } }, 1,
		EV(MEMORY), MEMORY_CAUSES },
	[CAT_COMPACT] = { "compact", "COMPACT", N_("direct memory compaction"),
		'K', 11,
		{ { TS(compact_count), TS(compact_delay_total), TS(compact_delay_max),
	    TS(compact_delay_max_ts) },
		  { TS15(compact_count), TS15(compact_delay_total), TS15(compact_delay_max) } }, 1,
		0, 0 },
	[CAT_WPCOPY] = { "wpcopy", "WPCOPY", N_("copy-on-write faults"), 'Y', 13,
		{ { TS(wpcopy_count), TS(wpcopy_delay_total), TS(wpcopy_delay_max),
	    TS(wpcopy_delay_max_ts) },
		  { TS15(wpcopy_count), TS15(wpcopy_delay_total), TS15(wpcopy_delay_max) } }, 1,
		EV(WPCOPY), WHY(FORK_COW) },
	[CAT_IRQ] = { "irq", "IRQ", N_("time stolen by IRQ/softirq"), 'Q', 14,
		{ { TS(irq_count), TS(irq_delay_total), TS(irq_delay_max),
	    TS(irq_delay_max_ts) },
		  { TS15(irq_count), TS15(irq_delay_total), TS15(irq_delay_max) } }, 1,
		0, 0 },
};

int categories_by_key(const char *key)
{
	for (int i = 0; i < NCAT; i++)
		if (strcmp(categories[i].key, key) == 0)
			return i;
	return -1;
}
