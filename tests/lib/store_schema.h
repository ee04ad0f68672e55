/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A schema shaped like the store's readings, for the codec's tests, its
 * fuzz target and the size bench: tasks keyed by (tid, start) with 26
 * counters (the eight delay categories' counts and totals, run times,
 * faults, IO, context switches), a nice value and three strings (comm,
 * cmdline, cgroup: pointers to storage the caller keeps); cgroups keyed
 * by path with pressure and CPU
 * counters, a memory figure; the system as one entity with the PSI
 * totals and averages and a clock.
 */
#ifndef STALLTOP_STORE_SCHEMA_H
#define STALLTOP_STORE_SCHEMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "store/codec.h"

#define ST_NCNT 26
#define ST_CNT_ID 9             /* the first counter's id */

struct st_task {
	uint64_t tid, start, tgid, ppid;
	int64_t nice;
	uint64_t cnt[ST_NCNT];
	const char *comm, *cmdline, *cgroup;
	unsigned char known[8];
};

struct st_cgroup {
	const char *path;
	uint64_t cnt[8];        /* cpu, throttled, PSI some/full x cpu/memory/io */
	uint64_t mem_current;
	unsigned char known[4];
};

struct st_system {
	uint64_t psi_total[6];
	double avg10[3];
	double clock;           /* a time that grows: a double counter */
	unsigned char known[4];
};

#define ST_U64(s, id, m, fl) \
	{ id, CODEC_U64, fl, offsetof(struct s, m), #m }
#define ST_CNT(s, id, i) \
	{ id, CODEC_U64, CODEC_COUNTER, \
	  offsetof(struct s, cnt) + (i) * sizeof(uint64_t), "cnt" #i }
#define ST_STR(s, id, m, fl) \
	{ id, CODEC_STRING, fl, offsetof(struct s, m), #m }

static const struct codec_field st_task_fields[] = {
	ST_U64(st_task, 1, tid, CODEC_KEY),
	ST_U64(st_task, 2, start, CODEC_KEY),
	ST_U64(st_task, 3, tgid, 0),
	ST_U64(st_task, 4, ppid, 0),
	{ 5, CODEC_S64, 0, offsetof(struct st_task, nice), "nice" },
	ST_STR(st_task, 6, comm, 0),
	ST_STR(st_task, 7, cmdline, 0),
	ST_STR(st_task, 8, cgroup, 0),
	ST_CNT(st_task, 9, 0), ST_CNT(st_task, 10, 1), ST_CNT(st_task, 11, 2),
	ST_CNT(st_task, 12, 3), ST_CNT(st_task, 13, 4), ST_CNT(st_task, 14, 5),
	ST_CNT(st_task, 15, 6), ST_CNT(st_task, 16, 7), ST_CNT(st_task, 17, 8),
	ST_CNT(st_task, 18, 9), ST_CNT(st_task, 19, 10),
	ST_CNT(st_task, 20, 11), ST_CNT(st_task, 21, 12),
	ST_CNT(st_task, 22, 13), ST_CNT(st_task, 23, 14),
	ST_CNT(st_task, 24, 15), ST_CNT(st_task, 25, 16),
	ST_CNT(st_task, 26, 17), ST_CNT(st_task, 27, 18),
	ST_CNT(st_task, 28, 19), ST_CNT(st_task, 29, 20),
	ST_CNT(st_task, 30, 21), ST_CNT(st_task, 31, 22),
	ST_CNT(st_task, 32, 23), ST_CNT(st_task, 33, 24),
	ST_CNT(st_task, 34, 25),
};

static const struct codec_field st_cgroup_fields[] = {
	ST_STR(st_cgroup, 1, path, CODEC_KEY),
	ST_CNT(st_cgroup, 2, 0), ST_CNT(st_cgroup, 3, 1),
	ST_CNT(st_cgroup, 4, 2), ST_CNT(st_cgroup, 5, 3),
	ST_CNT(st_cgroup, 6, 4), ST_CNT(st_cgroup, 7, 5),
	ST_CNT(st_cgroup, 8, 6), ST_CNT(st_cgroup, 9, 7),
	ST_U64(st_cgroup, 10, mem_current, 0),
};

static const struct codec_field st_system_fields[] = {
	{ 1, CODEC_U64, CODEC_COUNTER, offsetof(struct st_system, psi_total),
	  "psi_cpu_some" },
	{ 2, CODEC_U64, CODEC_COUNTER,
	  offsetof(struct st_system, psi_total) + 8, "psi_cpu_full" },
	{ 3, CODEC_U64, CODEC_COUNTER,
	  offsetof(struct st_system, psi_total) + 16, "psi_memory_some" },
	{ 4, CODEC_U64, CODEC_COUNTER,
	  offsetof(struct st_system, psi_total) + 24, "psi_memory_full" },
	{ 5, CODEC_U64, CODEC_COUNTER,
	  offsetof(struct st_system, psi_total) + 32, "psi_io_some" },
	{ 6, CODEC_U64, CODEC_COUNTER,
	  offsetof(struct st_system, psi_total) + 40, "psi_io_full" },
	{ 7, CODEC_DOUBLE, 0, offsetof(struct st_system, avg10),
	  "avg10_cpu" },
	{ 8, CODEC_DOUBLE, 0, offsetof(struct st_system, avg10) + 8,
	  "avg10_memory" },
	{ 9, CODEC_DOUBLE, 0, offsetof(struct st_system, avg10) + 16,
	  "avg10_io" },
	{ 10, CODEC_DOUBLE, CODEC_COUNTER, offsetof(struct st_system, clock),
	  "clock" },
};

#define ST_NFIELDS(a) (sizeof(a) / sizeof((a)[0]))

enum { ST_TASKS, ST_CGROUPS, ST_SYSTEM, ST_NTABLES };

static const struct codec_table st_tables[ST_NTABLES] = {
	{ 1, "tasks", sizeof(struct st_task), offsetof(struct st_task, known),
	  sizeof(((struct st_task *)0)->known), 1u << 20, st_task_fields,
	  ST_NFIELDS(st_task_fields) },
	{ 2, "cgroups", sizeof(struct st_cgroup),
	  offsetof(struct st_cgroup, known),
	  sizeof(((struct st_cgroup *)0)->known), 1u << 16, st_cgroup_fields,
	  ST_NFIELDS(st_cgroup_fields) },
	{ 3, "system", sizeof(struct st_system),
	  offsetof(struct st_system, known),
	  sizeof(((struct st_system *)0)->known), 1, st_system_fields,
	  ST_NFIELDS(st_system_fields) },
};

static const struct codec_schema st_schema = { st_tables, ST_NTABLES };

/* Key order, as the codec keeps it: key fields in the table's order. */
static inline int st_key_cmp(const struct codec_table *t, const void *a,
			     const void *b)
{
	for (size_t i = 0; i < t->nfields; i++) {
		const struct codec_field *f = &t->fields[i];
		const unsigned char *x = (const unsigned char *)a + f->offset;
		const unsigned char *y = (const unsigned char *)b + f->offset;
		int c = 0;

		if (!(f->flags & CODEC_KEY))
			continue;
		if (f->type == CODEC_STRING) {
			const char *u, *v;
			memcpy(&u, x, sizeof(u));
			memcpy(&v, y, sizeof(v));
			c = strcmp(u, v);
		} else if (f->type == CODEC_S64) {
			int64_t u, v;
			memcpy(&u, x, 8);
			memcpy(&v, y, 8);
			c = (u > v) - (u < v);
		} else {
			uint64_t u, v;
			memcpy(&u, x, 8);
			memcpy(&v, y, 8);
			c = (u > v) - (u < v);
		}
		if (c)
			return c;
	}
	return 0;
}

/*
 * The first field in which two entities differ (known or not, or the
 * value of a known one; doubles bit for bit): its id, 0 when none.
 */
static inline unsigned st_row_diff(const struct codec_table *t, const void *a,
				   const void *b)
{
	for (size_t i = 0; i < t->nfields; i++) {
		const struct codec_field *f = &t->fields[i];
		bool ka = codec_known(t, a, f->id), kb = codec_known(t, b, f->id);
		const unsigned char *x = (const unsigned char *)a + f->offset;
		const unsigned char *y = (const unsigned char *)b + f->offset;

		if (ka != kb)
			return f->id;
		if (!ka)
			continue;
		if (f->type == CODEC_STRING) {
			const char *u, *v;
			memcpy(&u, x, sizeof(u));
			memcpy(&v, y, sizeof(v));
			if (strcmp(u, v) != 0)
				return f->id;
		} else if (memcmp(x, y, 8) != 0) {
			return f->id;
		}
	}
	return 0;
}

#endif
