/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One value the kernel may or may not have given: the unit of the
 * evidence readers' plain structs (kernel/kval.h parses them).
 *
 * A value is absent (have == false) when its file is missing, unreadable,
 * of the other cgroup version, or garbage; it is never 0 for unknown.
 */
#ifndef STALLTOP_KVAL_TYPES_H
#define STALLTOP_KVAL_TYPES_H

#include <stdbool.h>
#include <stdint.h>

/*
 * One value. For limits, max says "no limit" ("max" in cgroup v2, -1 or
 * the page counter's ceiling in v1); v is then 0.
 */
struct kval {
	bool have;
	bool max;
	uint64_t v;
};

#endif
