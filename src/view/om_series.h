/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The series of the metrics and their counters, kept from sample to
 * sample: per cgroup, per workload group, and per task for the top N
 * tasks only. out_openmetrics.c writes them; this file only counts.
 *
 * Samples carry the figures of an interval; a counter adds them up.
 * Every row of every sample counts, not only the rows shown. A task is
 * its id and its start time; each row's increment (its interval, or with
 * -a what its total grew by) goes to the task and to its group, so a
 * group's counter is the sum over its ended and live tasks and never
 * goes down as tasks come and go. A figure dropped as impossible is never
 * added, and a category the kernel does not give has no series at all.
 */
#ifndef STALLTOP_OM_SERIES_H
#define STALLTOP_OM_SERIES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/categories.h"
#include "model/sample.h"
#include "view/om_rule.h"

/*
 * Workload groups at most, the group "other" included: beyond, the tasks
 * of a new name count in "other". A group whose tasks are all gone for
 * OM_SERIES_GROUP_STALE samples is forgotten, and its place is free.
 */
#define OM_SERIES_GROUPS 200
#define OM_SERIES_OTHER "other"
#define OM_SERIES_GROUP_STALE 600

/* A task, a cgroup unseen for so many samples is forgotten. */
#define OM_SERIES_STALE 60

struct om_sum {
	bool have_sec, have_count;
	double sec;
	uint64_t count;
};

/* TOTAL, summed: seconds stalled by the rule of delta_total. */
struct om_stall {
	bool have;
	double sec;
};

struct om_group {
	struct om_group *next;
	char *name;                /* raw */
	char *label;               /* escaped for a label value */
	struct om_sum sum[NCAT];
	struct om_stall stall;
	size_t ntasks;             /* its tasks in the last sample */
	unsigned long seen;        /* the last sample that had a task of it */
};

struct om_task {
	struct om_task *next;
	pid_t pid;
	double start;              /* 0: unknown (no label) */
	char *comm;                /* as the row has it */
	char *comm_label;
	struct om_sum sum[NCAT];
	struct om_stall stall;
	unsigned long seen;
	bool ended;
	/* the rules for its comm and command line (the key, a hash of both):
	   the first rules_tried did not hold, rule held (-1: none); done
	   once every rule was tried or one held */
	uint64_t rules_key;
	unsigned rules_tried;
	int rule;
	bool rules_done;
};

struct om_cgroup {
	struct om_cgroup *next;
	char *path;
	char *id_label;            /* the path, escaped */
	char *name_label;          /* its name (model/cgname.h), escaped */
	int depth;                 /* 0 for "/" */
	struct om_sum sum[NCAT];
	struct om_stall stall;
	unsigned long seen;
	bool have_psi;             /* its PSI totals, of the last sample */
	struct psi_sample psi;
	/* the kernel's counters, of the last sample (sample.h) */
	bool have_throttled, have_mem_high, have_mem_max, have_mem_oom_kill;
	uint64_t throttled_us, mem_high, mem_max, mem_oom_kill;
};

struct om_series {
	size_t top;                /* per-task series: the N that stalled most */
	unsigned long nsample;     /* samples added */
	uint64_t dropped;
	struct om_task **tasks;    /* hash buckets */
	size_t ntask_buckets, ntasks;
	struct om_group **groups;
	size_t ngroup_buckets, ngroups;
	struct om_cgroup **cgs;
	size_t ncg_buckets, ncgs;
	struct om_task **shown;    /* the top tasks of the last sample */
	size_t cap_shown, nshown;
	const struct om_rule *rules; /* the caller's, or NULL */
	size_t nrules;
	struct om_rule_matcher *matcher;
	bool *rule_told;           /* a rule's limit said */
	bool spent_told;           /* a sample's time for the rules said */
	void (*note)(const char *text, void *arg);
	void *note_arg;
	/* of the last sample */
	double time;
	struct psi_sample psi;
	uint64_t events_lost, exit_records_lost;
	bool delayacct, delayacct_known;
	size_t nprocs;
};

/* NULL with errno on failure. */
struct om_series *om_series_new(size_t top);
void om_series_free(struct om_series *t);

/*
 * A label value: escape_text first (invalid UTF-8 and control bytes as
 * \xHH text), then the exposition's escapes for \, " and newline.
 * malloc'd; NULL when out of memory.
 */
char *om_series_label(const char *raw);

/*
 * Group tasks by these rules (view/om_rule.h; kept by the caller), first
 * match wins; a task no rule matches is grouped by its command name.
 * A task's rule is found when it is new and again when its comm or
 * command line changed, not at every sample. A match that reaches a
 * limit of om_rule.h is no match (and said once per rule); once a
 * sample's time for matching is spent, the tasks whose rule is not found
 * yet count in the group of their comm for that sample and are tried at
 * the next (said once).
 */
void om_series_set_rules(struct om_series *t, const struct om_rule *rules,
			 size_t n);

/* Where the notes of the rules go (translated text; NULL: nowhere). */
void om_series_on_note(struct om_series *t,
		       void (*fn)(const char *text, void *arg), void *arg);

/* The sample into the counters. */
void om_series_add(struct om_series *t, const struct sample *s);

/*
 * The groups, the cgroups seen in the last sample, in the order of their
 * names, paths (malloc'd array; NULL with *n = 0 when there are none or
 * no memory).
 */
struct om_group **om_series_groups(const struct om_series *t, size_t *n);
struct om_cgroup **om_series_cgroups(const struct om_series *t, size_t *n);

#endif
