/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The delay categories: the single source for columns, sort keys, JSON
 * keys and help text, and which evidence and causes explain a stall of
 * it; where each figure lives in struct taskstats is kernel/ts_decode.c's.
 * Adding a category is one row in categories.c.
 */
#ifndef STALLTOP_CATEGORIES_H
#define STALLTOP_CATEGORIES_H

#include <stddef.h>

#include "kernel/ts_layout.h"

/*
 * One category per delay kind of the kernel (kernel/ts_layout.h), in its
 * order: a reading's d[] is indexed by either (categories.c checks that
 * they agree).
 */
enum cat {
	CAT_CPU = TS_DELAY_CPU,
	CAT_IO = TS_DELAY_BLKIO,
	CAT_SWAP = TS_DELAY_SWAPIN,
	CAT_RECLAIM = TS_DELAY_FREEPAGES,
	CAT_THRASHING = TS_DELAY_THRASHING,
	CAT_COMPACT = TS_DELAY_COMPACT,
	CAT_WPCOPY = TS_DELAY_WPCOPY,
	CAT_IRQ = TS_DELAY_IRQ,
	NCAT
};

struct category {
	const char *key;      /* JSON key, sort key, option value: "cpu" */
	const char *header;   /* column header: "CPU" */
	const char *help;     /* N_() text: what the task waits for */
	char sort_shortcut;   /* screen key that sorts by this column */
	int count_is_32bit;   /* the kernel keeps this count in 32 bits */
	/*
	 * What explains a stall of it: the evidence groups read for it and
	 * shown under it (EVIDENCE_WANT of enum evidence_group in
	 * model/evidence.h), and the causes tried for it (WHY_RULE of enum
	 * why_cause in model/why.h, at most WHY_HOLDS). 0 and 0: nothing
	 * explains it; its stall has no evidence and no WHY.
	 */
	unsigned evidence;
	unsigned causes;
};

extern const struct category categories[NCAT];

/* Index of the category with that key, or -1. */
int categories_by_key(const char *key);

#endif
