/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cgroup memory files. Single-number files ("max" allowed in v2 limits),
 * "key value" files (memory.events, memory.stat). memory.stat is the
 * longest (some 60 lines); its buffer is sized for it with room to spare.
 */
#include <config.h>

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "kernel/cg_mem.h"
#include "kernel/procfs.h"
#include "kernel/psi.h"

#define SMALL 4096
#define STAT_BUF 16384
#define NKEYS(a) (sizeof(a) / sizeof((a)[0]))

int cg_mem_parse_events(const char *text, struct cg_mem *out)
{
	static const struct kval_key keys[] = {
		{ "low", offsetof(struct cg_mem, ev_low) },
		{ "high", offsetof(struct cg_mem, ev_high) },
		{ "max", offsetof(struct cg_mem, ev_max) },
		{ "oom", offsetof(struct cg_mem, ev_oom) },
		{ "oom_kill", offsetof(struct cg_mem, ev_oom_kill) },
	};

	return kval_parse_keyed(text, ' ', NULL, keys, NKEYS(keys), out);
}

/* The sum of both new counters, else the old single one. */
static void sum_refaults(struct cg_mem *out)
{
	if (out->refault_anon.have && out->refault_file.have &&
	    out->refault_anon.v <= UINT64_MAX - out->refault_file.v) {
		out->refault.have = true;
		out->refault.v = out->refault_anon.v + out->refault_file.v;
	}
}

void cg_mem_parse_stat(const char *text, int version, struct cg_mem *out)
{
	static const struct kval_key v2[] = {
		{ "workingset_refault_anon", offsetof(struct cg_mem, refault_anon) },
		{ "workingset_refault_file", offsetof(struct cg_mem, refault_file) },
		{ "workingset_refault", offsetof(struct cg_mem, refault) },
	};
	static const struct kval_key v1[] = {
		{ "total_workingset_refault_anon",
		  offsetof(struct cg_mem, refault_anon) },
		{ "total_workingset_refault_file",
		  offsetof(struct cg_mem, refault_file) },
		{ "total_workingset_refault", offsetof(struct cg_mem, refault) },
	};

	if (version == 2)
		kval_parse_keyed(text, ' ', NULL, v2, NKEYS(v2), out);
	else
		kval_parse_keyed(text, ' ', NULL, v1, NKEYS(v1), out);
	if (!out->refault.have)
		sum_refaults(out);
}

struct kval cg_mem_parse_v1_limit(const char *text)
{
	struct kval k = kval_parse_number(text);

	if (k.have && k.v >= CG_MEM_V1_UNLIMITED) {
		k.max = true;
		k.v = 0;
	}
	return k;
}

/* One file into *k with parse; true when it was there. */
static bool read_one(int dirfd, const char *name, struct kval *k,
		     struct kval (*parse)(const char *))
{
	char buf[SMALL];

	if (procfs_read_lines(dirfd, name, buf, sizeof(buf)) <= 0)
		return false;
	*k = parse(buf);
	return true;
}

static bool read_stat(int dirfd, int version, struct cg_mem *out)
{
	char buf[STAT_BUF];

	if (procfs_read_lines(dirfd, "memory.stat", buf, sizeof(buf)) <= 0)
		return false;
	cg_mem_parse_stat(buf, version, out);
	return true;
}

void cg_mem_read_v2(int dirfd, struct cg_mem *out)
{
	char buf[SMALL];
	bool any = false;

	memset(out, 0, sizeof(*out));
	if (dirfd < 0)
		return;
	any |= read_one(dirfd, "memory.max", &out->max, kval_parse_limit);
	any |= read_one(dirfd, "memory.high", &out->high, kval_parse_limit);
	any |= read_one(dirfd, "memory.current", &out->current,
			kval_parse_number);
	any |= read_one(dirfd, "memory.swap.current", &out->swap_current,
			kval_parse_number);
	any |= read_one(dirfd, "memory.swap.max", &out->swap_max,
			kval_parse_limit);
	if (procfs_read_lines(dirfd, "memory.events", buf, sizeof(buf)) > 0) {
		cg_mem_parse_events(buf, out);
		any = true;
	}
	any |= read_stat(dirfd, 2, out);
	any |= psi_read_file(dirfd, "memory.pressure", out->pressure);
	if (any)
		out->version = 2;
}

void cg_mem_read_v1(int dirfd, struct cg_mem *out)
{
	bool any = false;

	memset(out, 0, sizeof(*out));
	if (dirfd < 0)
		return;
	any |= read_one(dirfd, "memory.limit_in_bytes", &out->max,
			cg_mem_parse_v1_limit);
	any |= read_one(dirfd, "memory.usage_in_bytes", &out->current,
			kval_parse_number);
	any |= read_one(dirfd, "memory.failcnt", &out->failcnt,
			kval_parse_number);
	/* the memsw files exist only with swap accounting */
	read_one(dirfd, "memory.memsw.limit_in_bytes", &out->memsw_limit,
		 cg_mem_parse_v1_limit);
	read_one(dirfd, "memory.memsw.usage_in_bytes", &out->memsw_usage,
		 kval_parse_number);
	read_one(dirfd, "memory.memsw.failcnt", &out->memsw_failcnt,
		 kval_parse_number);
	any |= read_stat(dirfd, 1, out);
	any |= psi_read_file(dirfd, "memory.pressure", out->pressure);
	if (any)
		out->version = 1;
}
