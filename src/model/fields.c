/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The fields table: every field of a task row and of a cgroup row that is
 * not a delay category, with its getters, setter and compare (the views'
 * and formats' lists of them are in layouts.c). The delay categories come
 * from categories[] (ids FIELD_CAT + c). The getters and setters are in
 * fields_task.c (task rows) and fields_cgroup.c (cgroup rows).
 */
#include <config.h>

#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "lib/nls.h"
#include "model/fields.h"
#include "model/fields_cgroup.h"
#include "model/fields_task.h"

#define NUM_WIDTH 8   /* screen cells of a delay figure */
#define BATCH_PCT 6   /* batch text cells of a percentage */

/* ---- compares ---- */

int fields_cmp_num(double a, double b)
{
	bool na = isnan(a), nb = isnan(b);
	if (na || nb)
		return na == nb ? 0 : (na ? 1 : -1);
	if (a == b)
		return 0;
	return a > b ? -1 : 1; /* descending by default */
}

double fields_metric(const struct row *r, int cat, enum metric m,
		     double interval)
{
	const struct cat_figure *f = &r->d[cat];
	if (!f->avail)
		return NAN;
	switch (m) {
	case METRIC_PCT:
		return f->pct;
	case METRIC_AVG:
		return f->have_avg ? f->avg_ms : NAN;
	case METRIC_RATE:
		return interval > 0 && f->have_count ? (double)f->count / interval
						     : NAN;
	case METRIC_MAX:
		return f->have_max ? f->max_ms : NAN;
	default:
		return NAN;
	}
}

static double as_num(const struct field_value *v)
{
	return v->have && !v->str && !v->d ? v->num : NAN;
}

bool fields_value_present(const struct field_value *v)
{
	return v->have && (v->str || v->d || !isnan(v->num));
}

/* Figures, descending; absent ones last. */
static int cmp_desc(const struct field_value *a, const struct field_value *b)
{
	return fields_cmp_num(as_num(a), as_num(b));
}

/* Numbers as ids, ascending. */
static int cmp_asc(const struct field_value *a, const struct field_value *b)
{
	return (a->i > b->i) - (a->i < b->i);
}

static int cmp_str(const struct field_value *a, const struct field_value *b)
{
	return strcmp(a->str ? a->str : "", b->str ? b->str : "");
}

/* Nice values ascending, as the scheduler ranks them; unknown last. */
static int cmp_nice(const struct field_value *a, const struct field_value *b)
{
	if (a->have != b->have)
		return a->have ? -1 : 1;
	return cmp_asc(a, b);
}

/* Names, absent last (as a figure). */
static int cmp_str_present(const struct field_value *a,
			   const struct field_value *b)
{
	if (a->have != b->have)
		return a->have ? -1 : 1;
	return cmp_str(a, b);
}

/* ---- values ---- */

void fields_value_int(struct field_value *v, long long i)
{
	v->have = true;
	v->i = i;
	v->num = (double)i;
}

void fields_value_num(struct field_value *v, bool have, double num)
{
	v->have = have;
	v->num = num;
}

void fields_value_str(struct field_value *v, const char *s)
{
	v->have = s != NULL;
	v->str = s;
}

/* ---- the table ---- */

#define TASK (FIELD_TASK)
#define CG (FIELD_CGROUP_ROW)

static const struct field table[NFIELD] = {
	[FIELD_PID] = {
		.header = "PID", .bheader = N_("PID"), .key = "pid",
		.help = N_("process id (thread id in thread rows)"),
		.type = FIELD_INT, .width = 7, .bwidth = 7,
		.flags = TASK | FIELD_SORT | FIELD_IDENT,
		.arg = offsetof(struct row, pid),
		.cmp = cmp_asc, .get = fields_task_get_pid,
		.set = fields_task_put_pid,
	},
	[FIELD_USER] = {
		.header = "USER", .bheader = N_("USER"), .key = "user",
		.help = N_("owner of the task"),
		.type = FIELD_STR, .width = 8, .bwidth = 8,
		.flags = TASK | FIELD_LEFT | FIELD_RAW,
		.cmp = cmp_str, .get = fields_task_get_user,
		.set = fields_task_put_user,
	},
	[FIELD_STATE] = {
		.header = "S", .bheader = N_("S"), .key = "state",
		.help = N_("state: R running, S sleeping, D uninterruptible, "
			   "Z zombie..."),
		.type = FIELD_STR, .width = 1, .bwidth = 1,
		.flags = TASK | FIELD_LEFT | FIELD_SORT | FIELD_DETAIL,
		.cmp = cmp_str, .get = fields_task_get_state,
		.set = fields_task_put_state,
	},
	[FIELD_CPU_PCT] = {
		.header = "CPU%", .bheader = N_("CPU%"), .key = "cpu_pct",
		/* xgettext:no-c-format */
		.help = N_("CPU use, % of one CPU"),
		.type = FIELD_NUM, .width = 6, .bwidth = BATCH_PCT,
		.decimals = 1,
		.flags = TASK | CG | FIELD_SORT,
		.cmp = cmp_desc, .get = fields_task_get_cpu_pct,
		.cg_get = fields_cgroup_total,
		.set = fields_task_put_cpu_pct,
	},
	[FIELD_TOTAL] = {
		.header = "TOTAL", .bheader = N_("TOTAL"), .key = "total_pct",
		.sort_name = "total",
		/* xgettext:no-c-format */
		.help = N_("time held back, % of the interval: CPU + IRQ + IO + "
			   "the memory work that ran (reclaim and the like run on "
			   "the CPU, so CPU% and RECLAIM can both be high); never "
			   "above the time it lived"),
		.cg_help = N_("TOTAL summed over the cgroup's tasks and below"),
		.type = FIELD_NUM, .width = NUM_WIDTH, .bwidth = BATCH_PCT,
		.decimals = 1, .flags = TASK | CG | FIELD_SORT | FIELD_STALL,
		.cmp = cmp_desc, .get = fields_task_get_total,
		.cg_get = fields_cgroup_total,
		.set = fields_task_put_total,
	},
	[FIELD_COMM] = {
		.header = "COMMAND", .bheader = N_("COMMAND"), .key = "comm",
		.help = N_("process or thread name, or the command line (c)"),
		.type = FIELD_STR,
		.flags = TASK | FIELD_LEFT | FIELD_SORT | FIELD_RAW | FIELD_IDENT,
		.cmp = cmp_str, .get = fields_task_get_comm,
		.set = fields_task_put_comm,
	},

	/* fields of the batch formats only: no header, no help */
	[FIELD_TGID] = {
		.key = "tgid", .type = FIELD_INT, .flags = TASK,
		.arg = offsetof(struct row, tgid),
		.cmp = cmp_asc, .get = fields_task_get_pid,
		.set = fields_task_put_pid,
	},
	[FIELD_PPID] = {
		.key = "ppid", .type = FIELD_INT, .flags = TASK | FIELD_DETAIL,
		.arg = offsetof(struct row, info.ppid),
		.cmp = cmp_asc, .get = fields_task_get_ppid,
		.set = fields_task_put_pid,
	},
	[FIELD_THREADS] = {
		.key = "threads", .type = FIELD_INT,
		.flags = TASK | FIELD_DETAIL,
		.cmp = cmp_desc, .get = fields_task_get_threads,
		.set = fields_task_put_threads,
	},
	[FIELD_CMDLINE] = {
		.key = "cmdline", .type = FIELD_STR,
		.flags = TASK | FIELD_LEFT | FIELD_RAW,
		.cmp = cmp_str, .get = fields_task_get_cmdline,
		.set = fields_task_put_cmdline,
	},
	[FIELD_DELAY] = {
		.key = "delay", .type = FIELD_FIGURES, .flags = TASK,
		.get = fields_task_get_delay, .set = fields_task_put_delay,
	},
	[FIELD_DROPPED] = {
		.key = "dropped", .type = FIELD_SET, .flags = TASK,
		.get = fields_task_get_delay, .set = fields_task_put_dropped,
	},
	[FIELD_EXITED] = {
		.key = "exited", .type = FIELD_INT, .flags = TASK,
		.cmp = cmp_desc, .get = fields_task_get_exited,
	},
	[FIELD_COMMAND] = {
		.key = "command", .type = FIELD_STR,
		.flags = TASK | FIELD_LEFT | FIELD_RAW,
		.cmp = cmp_str, .get = fields_task_get_comm,
	},
	[FIELD_CGROUP] = {
		.key = "cgroup", .type = FIELD_STR,
		.flags = TASK | FIELD_LEFT | FIELD_RAW | FIELD_OPTIONAL,
		.cmp = cmp_str, .get = fields_task_get_cgroup,
		.set = fields_task_put_cgroup,
	},
	[FIELD_START] = {
		.key = "start", .type = FIELD_NUM,
		.flags = TASK | FIELD_OPTIONAL | FIELD_DETAIL,
		.cmp = cmp_desc, .get = fields_task_get_start,
		.set = fields_task_put_start,
	},
	[FIELD_WHY] = {
		.header = "WHY", .bheader = N_("WHY"), .key = "why",
		.help = N_("the binding cause: of those the evidence next to "
			   "the stall supports, the one that accounts for most "
			   "of it (key w lists them all)"),
		.cg_help = N_("the binding cause of the cgroup's stall, from "
			      "the evidence next to it (key w lists them all)"),
		.type = FIELD_EVIDENCE, .width = 16, .bwidth = 16,
		.flags = TASK | CG | FIELD_LEFT | FIELD_RAW | FIELD_OPTIONAL,
		.get = fields_task_get_why, .cg_get = fields_cgroup_why,
		.set = fields_task_put_why,
	},

	/* what stands next to a stall: the screen shows them when chosen */
	[FIELD_RSS] = {
		.header = "RSS KiB", .bheader = N_("RSS KiB"), .key = "rss_kib",
		.sort_name = "rss",
		.help = N_("resident memory, KiB; - for a kernel thread or an "
			   "ended task"),
		.type = FIELD_INT, .width = 9, .bwidth = 9,
		.flags = TASK | FIELD_SORT | FIELD_DETAIL | FIELD_OFF |
			 FIELD_OPTIONAL,
		.arg = CTX_RSS,
		.cmp = cmp_desc, .get = fields_task_get_kib,
		.set = fields_task_put_kib,
	},
	[FIELD_SWAP] = {
		.header = "SWAP KiB", .bheader = N_("SWAP KiB"),
		.key = "swap_kib", .sort_name = "swapped",
		.help = N_("memory swapped out, KiB; - for a kernel thread or "
			   "an ended task"),
		.type = FIELD_INT, .width = 9, .bwidth = 9,
		.flags = TASK | FIELD_SORT | FIELD_DETAIL | FIELD_OFF |
			 FIELD_OPTIONAL,
		.arg = CTX_SWAP,
		.cmp = cmp_desc, .get = fields_task_get_kib,
		.set = fields_task_put_kib,
	},
	[FIELD_IO_READ] = {
		.header = "RD MiB/s", .bheader = N_("RD MiB/s"),
		.key = "read_bps", .sort_name = "read",
		.help = N_("bytes read from storage per second, MiB/s (JSON "
			   "and CSV: bytes/s), between two samples; - at the "
			   "first, with -a or -H, or without the right to "
			   "read /proc/PID/io"),
		.type = FIELD_NUM, .width = 8, .bwidth = 8, .decimals = 2,
		.flags = TASK | FIELD_SORT | FIELD_DETAIL | FIELD_OFF |
			 FIELD_OPTIONAL,
		.arg = CTX_READ,
		.cmp = cmp_desc, .get = fields_task_get_rate,
		.set = fields_task_put_rate,
	},
	[FIELD_IO_WRITE] = {
		.header = "WR MiB/s", .bheader = N_("WR MiB/s"),
		.key = "write_bps", .sort_name = "write",
		.help = N_("bytes written to storage per second, MiB/s (JSON "
			   "and CSV: bytes/s), between two samples; - at the "
			   "first, with -a or -H, or without the right to "
			   "read /proc/PID/io"),
		.type = FIELD_NUM, .width = 8, .bwidth = 8, .decimals = 2,
		.flags = TASK | FIELD_SORT | FIELD_DETAIL | FIELD_OFF |
			 FIELD_OPTIONAL,
		.arg = CTX_WRITE,
		.cmp = cmp_desc, .get = fields_task_get_rate,
		.set = fields_task_put_rate,
	},
	[FIELD_MAJFLT] = {
		.header = "MAJFL/s", .bheader = N_("MAJFL/s"),
		.key = "majflt_ps", .sort_name = "majflt",
		.help = N_("major page faults per second (pages read in), "
			   "between two samples; - at the first, with -a or -H"),
		.type = FIELD_NUM, .width = 7, .bwidth = 7, .decimals = 1,
		.flags = TASK | FIELD_SORT | FIELD_DETAIL | FIELD_OFF |
			 FIELD_OPTIONAL,
		.arg = CTX_MAJFLT,
		.cmp = cmp_desc, .get = fields_task_get_rate,
		.set = fields_task_put_rate,
	},
	[FIELD_NICE] = {
		.header = "NI", .bheader = N_("NI"), .key = "nice",
		.help = N_("nice value, -20 (first) to 19"),
		.type = FIELD_INT, .width = 3, .bwidth = 3,
		.flags = TASK | FIELD_SORT | FIELD_DETAIL | FIELD_OFF |
			 FIELD_OPTIONAL,
		.arg = CTX_NICE,
		.cmp = cmp_nice, .get = fields_task_get_nice,
		.set = fields_task_put_nice,
	},
	[FIELD_WCHAN] = {
		.header = "WCHAN", .bheader = N_("WCHAN"), .key = "wchan",
		.help = N_("the kernel function a task in D (uninterruptible) "
			   "sleeps in; - in any other state, or when the "
			   "kernel does not say"),
		.type = FIELD_STR, .width = 16, .bwidth = 16,
		.flags = TASK | FIELD_LEFT | FIELD_SORT | FIELD_DETAIL |
			 FIELD_OFF | FIELD_RAW | FIELD_OPTIONAL,
		.arg = CTX_WCHAN,
		.cmp = cmp_str_present, .get = fields_task_get_wchan,
		.set = fields_task_put_wchan,
	},
	[FIELD_CGNAME] = {
		.header = "CGROUP", .bheader = N_("CGROUP"),
		.key = "cgroup_name",
		.help = N_("what operators call the task's cgroup (its systemd "
			   "unit, a container); - until cgroups are read (g or "
			   "--cgroups)"),
		.type = FIELD_STR, .width = 20, .bwidth = 20,
		.flags = TASK | FIELD_LEFT | FIELD_SORT | FIELD_OFF | FIELD_RAW |
			 FIELD_OPTIONAL,
		.cmp = cmp_str_present, .get = fields_task_get_cgname,
		.set = fields_task_put_cgname,
	},

	/* the cgroup view: batch text heads them with the kernel's names */
	[FIELD_CG_CPU_P] = {
		.header = "CPU.P%", .bheader = "cpu",
		/* xgettext:no-c-format */
		.help = N_("the cgroup's cpu pressure: some, % of the interval"),
		.type = FIELD_NUM, .width = 6, .bwidth = 6, .decimals = 1,
		.flags = CG | FIELD_STALL | FIELD_KERNEL, .arg = PSI_CPU,
		.cmp = cmp_desc, .cg_get = fields_cgroup_psi_pct,
	},
	[FIELD_CG_CPU_10] = {
		.header = "CPU.10", .bheader = "avg10",
		.help = N_("the cgroup's cpu pressure: some, avg10"),
		.type = FIELD_NUM, .width = 6, .bwidth = 6, .decimals = 2,
		.flags = CG | FIELD_STALL | FIELD_KERNEL, .arg = PSI_CPU,
		.cmp = cmp_desc, .cg_get = fields_cgroup_psi_avg10,
	},
	[FIELD_CG_MEM_P] = {
		.header = "MEM.P%", .bheader = "memory",
		/* xgettext:no-c-format */
		.help = N_("the cgroup's memory pressure: some, % of the interval"),
		.type = FIELD_NUM, .width = 6, .bwidth = 6, .decimals = 1,
		.flags = CG | FIELD_STALL | FIELD_KERNEL, .arg = PSI_MEMORY,
		.cmp = cmp_desc, .cg_get = fields_cgroup_psi_pct,
	},
	[FIELD_CG_MEM_10] = {
		.header = "MEM.10", .bheader = "avg10",
		.help = N_("the cgroup's memory pressure: some, avg10"),
		.type = FIELD_NUM, .width = 6, .bwidth = 6, .decimals = 2,
		.flags = CG | FIELD_STALL | FIELD_KERNEL, .arg = PSI_MEMORY,
		.cmp = cmp_desc, .cg_get = fields_cgroup_psi_avg10,
	},
	[FIELD_CG_IO_P] = {
		.header = "IO.P%", .bheader = "io",
		/* xgettext:no-c-format */
		.help = N_("the cgroup's io pressure: some, % of the interval"),
		.type = FIELD_NUM, .width = 6, .bwidth = 6, .decimals = 1,
		.flags = CG | FIELD_STALL | FIELD_KERNEL, .arg = PSI_IO,
		.cmp = cmp_desc, .cg_get = fields_cgroup_psi_pct,
	},
	[FIELD_CG_IO_10] = {
		.header = "IO.10", .bheader = "avg10",
		.help = N_("the cgroup's io pressure: some, avg10"),
		.type = FIELD_NUM, .width = 6, .bwidth = 6, .decimals = 2,
		.flags = CG | FIELD_STALL | FIELD_KERNEL, .arg = PSI_IO,
		.cmp = cmp_desc, .cg_get = fields_cgroup_psi_avg10,
	},
	[FIELD_CG_NR] = {
		.header = "NR", .bheader = N_("NR"),
		.help = N_("tasks in the cgroup and below"),
		.type = FIELD_INT, .width = 5, .bwidth = 6, .flags = CG,
		.cmp = cmp_desc, .cg_get = fields_cgroup_nr,
	},
	[FIELD_CG_NAME] = {
		.header = "NAME", .bheader = N_("NAME"), .key = "name",
		.help = N_("what operators call the cgroup: its systemd unit, a "
			   "container's runtime and short id, a Kubernetes "
			   "pod's UID and QoS class"),
		.cg_help = N_("what operators call the cgroup (its systemd "
			      "unit, a container's runtime and short id, a "
			      "Kubernetes pod), indented below its parent; + "
			      "folded, - unfolded"),
		/* the screen's tree (width 0: the rest of the line) */
		.type = FIELD_STR, .width = 0, .bwidth = 32,
		.flags = CG | FIELD_LEFT | FIELD_RAW,
		.cmp = cmp_str, .cg_get = fields_cgroup_name,
	},
	[FIELD_CG_PATH] = {
		.header = "PATH", .bheader = N_("PATH"),
		.help = N_("the cgroup, indented below its parent; + folded, "
			   "- unfolded"),
		.type = FIELD_STR, .flags = CG | FIELD_LEFT | FIELD_RAW,
		.cmp = cmp_str, .cg_get = fields_cgroup_path,
	},
};

/* ---- lookups ---- */

int fields_cat(int id)
{
	return id >= FIELD_CAT && id < FIELD_CAT + NCAT ? id - FIELD_CAT : -1;
}

const struct field *fields_get(int id)
{
	static struct field cats[NCAT];
	int c = fields_cat(id);

	if (id < 0 || id >= NFIELD)
		return NULL;
	if (c < 0)
		return &table[id];
	if (!cats[c].header) {
		int w = (int)strlen(categories[c].header);

		cats[c] = (struct field){
			.header = categories[c].header,
			.bheader = categories[c].header,
			.key = categories[c].key, .help = categories[c].help,
			.type = FIELD_NUM, .width = NUM_WIDTH,
			.bwidth = w > BATCH_PCT ? w : BATCH_PCT, .decimals = 1,
			.flags = TASK | CG | FIELD_SORT | FIELD_STALL |
				 FIELD_KERNEL,
			.arg = c, .cmp = cmp_desc, .get = fields_task_get_cat,
			.cg_get = fields_cgroup_cat,
		};
	}
	return &cats[c];
}

int fields_sort_by_name(const char *name)
{
	for (int id = 0; id < NFIELD; id++) {
		const struct field *f = fields_get(id);

		if ((f->flags & FIELD_SORT) && strcmp(fields_sort_name(id), name) == 0)
			return id;
	}
	return -1;
}

const char *fields_sort_name(int id)
{
	const struct field *f = fields_get(id);

	if (!f || !(f->flags & FIELD_SORT))
		return "?";
	return f->sort_name ? f->sort_name : f->key;
}

bool fields_ascending(int id)
{
	const struct field *f = fields_get(id);

	return f && f->cmp != cmp_desc;
}

/*
 * An empty value: every member but the room a getter makes a string in
 * (the batch writers and the sort ask for a value per field and row, and
 * clearing that room too made up most of the cost of asking).
 */
static void value_clear(struct field_value *v)
{
	memset(v, 0, offsetof(struct field_value, buf));
	v->buf[0] = '\0';
}

void fields_row_value(int id, const struct row *r, const struct field_ctx *c,
		      struct field_value *v)
{
	const struct field *f = fields_get(id);

	value_clear(v);
	if (f && f->get)
		f->get(f, r, c, v);
}

void fields_cg_value(int id, const struct cgroup_row *g,
		     const struct field_ctx *c, struct field_value *v)
{
	const struct field *f = fields_get(id);

	value_clear(v);
	if (f && f->cg_get)
		f->cg_get(f, g, c, v);
}

int fields_compare(int id, const struct field_value *a,
		   const struct field_value *b)
{
	const struct field *f = fields_get(id);

	return f && f->cmp ? f->cmp(a, b) : 0;
}

void fields_row_init(struct row *r)
{
	memset(r, 0, sizeof(*r));
	r->uid = (uid_t)-1;
	r->info = TASK_INFO_UNKNOWN;
}
