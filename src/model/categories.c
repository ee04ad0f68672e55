/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <stddef.h>
#include <string.h>

#include "lib/nls.h"
#include "model/categories.h"
#include "model/evidence.h"
#include "model/why.h"

#define EV(group) EVIDENCE_WANT(EVIDENCE_##group)
#define WHY(cause) WHY_RULE(WHY_##cause)
/* swap-in, reclaim and refaults all wait for the memory of the cgroup
 * or the machine */
#define MEMORY_CAUSES (WHY(MEM_LIMIT) | WHY(MEM_HIGH) | WHY(SWAP_FULL) | \
		       WHY(LOW_MEMORY))

/* A category is the kernel's delay kind of the same index. */
_Static_assert((int)NCAT == (int)TS_NDELAY, "one category per kernel delay kind");
_Static_assert(CAT_IRQ + 1 == NCAT, "categories numbered as the kinds");

/* The order of rows is the order everywhere: columns, JSON, help, man. */
const struct category categories[NCAT] = {
	[CAT_CPU] = { "cpu", "CPU", N_("runnable, waiting for a CPU"), 'C', 0,
		EV(CPU) | EV(STATES),
		WHY(CPU_QUOTA) | WHY(PINNED) | WHY(CPU_CONTENTION) },
	[CAT_IO] = { "io", "IO", N_("waiting for synchronous block IO"), 'I', 1,
		EV(IO) | EV(STATES), WHY(IO_LIMIT) | WHY(DISK_BUSY) },
	[CAT_SWAP] = { "swap", "SWAP", N_("waiting for swap-in"), 'S', 1,
		EV(MEMORY), MEMORY_CAUSES },
	[CAT_RECLAIM] = { "reclaim", "RECLAIM", N_("direct memory reclaim"), 'R',
		1, EV(MEMORY), MEMORY_CAUSES },
	[CAT_THRASHING] = { "thrashing", "THRASH",
		N_("refaulting working-set pages"), 'F', 1,
		EV(MEMORY), MEMORY_CAUSES },
	[CAT_COMPACT] = { "compact", "COMPACT", N_("direct memory compaction"),
		'K', 1, 0, 0 },
	[CAT_WPCOPY] = { "wpcopy", "WPCOPY", N_("copy-on-write faults"), 'Y', 1,
		EV(WPCOPY), WHY(FORK_COW) },
	[CAT_IRQ] = { "irq", "IRQ", N_("time stolen by IRQ/softirq"), 'Q', 1,
		0, 0 },
};

int categories_by_key(const char *key)
{
	for (int i = 0; i < NCAT; i++)
		if (strcmp(categories[i].key, key) == 0)
			return i;
	return -1;
}
