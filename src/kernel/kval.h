/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The evidence readers' common ground: the parsing of numbers and "key
 * value" lines into struct kval (kernel/kval_types.h; kernel/procfs.h
 * reads the files, relative to a directory descriptor so that a fixture
 * folder can stand in for a cgroup or /proc).
 */
#ifndef STALLTOP_KVAL_H
#define STALLTOP_KVAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "kernel/kval_types.h"

/*
 * Decimal digits [p, end) with nothing else: no sign, no blank, no
 * overflow. False otherwise (*out untouched).
 */
bool kval_parse_u64(const char *p, const char *end, uint64_t *out);

/*
 * The next token of [*p, end) separated by blanks (spaces, tabs): [*s, *e),
 * and *p moved past it; false when only blanks are left.
 */
bool kval_token(const char **p, const char *end, const char **s,
		const char **e);

/* A whole file holding one number and an optional newline. */
struct kval kval_parse_number(const char *text);

/* The same, where "max" means no limit (cgroup v2 memory.max, ...). */
struct kval kval_parse_limit(const char *text);

/*
 * One wanted key of a "key value" file (cpu.stat, memory.events,
 * memory.stat, /proc/PID/io, /proc/meminfo with sep ':'): where its value
 * goes, as an offset of struct kval in the caller's struct.
 */
struct kval_key {
	const char *name;
	size_t offset;
};

/*
 * Parse lines "name<sep>value[ unit]" into base + key.offset for every
 * known name. sep is ' ' or ':'; blanks after it are skipped; unit is
 * "kB" when given (the value is then scaled to bytes) or NULL. A line
 * that does not parse, a repeated key, or a value with overflow leaves
 * that key absent. Unknown keys are ignored. Returns the keys found.
 */
int kval_parse_keyed(const char *text, char sep, const char *unit,
		     const struct kval_key *keys, size_t nkeys, void *base);

/*
 * Open a directory for reading files below it: a real descriptor, not
 * O_PATH, as cgroupstats takes it too. -1 with errno set.
 */
int kval_open_dir(int dirfd, const char *path);

#endif
