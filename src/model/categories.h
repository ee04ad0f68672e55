/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The delay categories: the single source for columns, sort keys, JSON
 * keys, help text, where each figure lives in struct taskstats and which
 * evidence and causes explain a stall of it.
 * Adding a category is one row in categories.c.
 */
#ifndef STALLTOP_CATEGORIES_H
#define STALLTOP_CATEGORIES_H

#include <stddef.h>

enum { TS_LAYOUT_MAIN, TS_LAYOUT_V15 };

enum cat {
	CAT_CPU,
	CAT_IO,
	CAT_SWAP,
	CAT_RECLAIM,
	CAT_THRASHING,
	CAT_COMPACT,
	CAT_WPCOPY,
	CAT_IRQ,
	NCAT
};

struct category {
	const char *key;      /* JSON key, sort key, option value: "cpu" */
	const char *header;   /* column header: "CPU" */
	const char *help;     /* N_() text: what the task waits for */
	char sort_shortcut;   /* screen key that sorts by this column */
	unsigned min_version; /* taskstats version that introduced it */
	/*
	 * Byte offsets of the figures: at[TS_LAYOUT_MAIN] in struct ts_layout
	 * (versions 1-14, 16, 17; max from 16), at[TS_LAYOUT_V15] in struct
	 * ts_layout_v15; max_at (version 17) in the main layout only.
	 */
	struct cat_offsets {
		size_t count, total, max, max_at;
	} at[2];
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
