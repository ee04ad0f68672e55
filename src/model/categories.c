/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <stddef.h>
#include <string.h>

#include "lib/nls.h"
#include "model/categories.h"

/* A category is the kernel's delay kind of the same index. */
_Static_assert((int)NCAT == (int)TS_NDELAY, "one category per kernel delay kind");
_Static_assert(CAT_IRQ + 1 == NCAT, "categories numbered as the kinds");

/* The order of rows is the order everywhere: columns, JSON, help, man. */
const struct category categories[NCAT] = {
	[CAT_CPU] = { "cpu", "CPU", N_("runnable, waiting for a CPU"), 'C', 0 },
	[CAT_IO] = { "io", "IO", N_("waiting for synchronous block IO"), 'I', 1 },
	[CAT_SWAP] = { "swap", "SWAP", N_("waiting for swap-in"), 'S', 1 },
	[CAT_RECLAIM] = { "reclaim", "RECLAIM", N_("direct memory reclaim"), 'R',
		1 },
	[CAT_THRASHING] = { "thrashing", "THRASH",
		N_("refaulting working-set pages"), 'F', 1 },
	[CAT_COMPACT] = { "compact", "COMPACT", N_("direct memory compaction"),
		'K', 1 },
	[CAT_WPCOPY] = { "wpcopy", "WPCOPY", N_("copy-on-write faults"), 'Y', 1 },
	[CAT_IRQ] = { "irq", "IRQ", N_("time stolen by IRQ/softirq"), 'Q', 1 },
};

int categories_by_key(const char *key)
{
	for (int i = 0; i < NCAT; i++)
		if (strcmp(categories[i].key, key) == 0)
			return i;
	return -1;
}
