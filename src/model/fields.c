/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The fields table: every field of a task row and of a cgroup row that is
 * not a delay category, with its getters, setter and compare (the views'
 * and formats' lists of them are in layouts.c). The delay categories come
 * from categories[] (ids FIELD_CAT + c).
 */
#include <config.h>

#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "lib/nls.h"
#include "model/fields.h"
#include "model/rowwhy.h"

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

/* ---- task rows: getters and setters ---- */

static void set_int(struct field_value *v, long long i)
{
	v->have = true;
	v->i = i;
	v->num = (double)i;
}

static void set_num(struct field_value *v, bool have, double num)
{
	v->have = have;
	v->num = num;
}

static void set_str(struct field_value *v, const char *s)
{
	v->have = s != NULL;
	v->str = s;
}

/* pid, tgid, ppid: f->arg is the member's offset in struct row. */
static void get_pid(const struct field *f, const struct row *r,
		    const struct field_ctx *c, struct field_value *v)
{
	(void)c;
	set_int(v, *(const pid_t *)((const char *)r + f->arg));
}

static void put_pid(const struct field *f, struct row *r,
		    const struct field_value *v)
{
	bool ok = v->have && v->i >= 0 && v->i <= INT_MAX;

	*(pid_t *)((char *)r + f->arg) = ok ? (pid_t)v->i : 0;
}

/* The name, or the numeric uid where the format shows one. */
static void get_user(const struct field *f, const struct row *r,
		     const struct field_ctx *c, struct field_value *v)
{
	(void)f;
	if (r->user && (*r->user || c->fmt != FIELD_FMT_SCREEN))
		set_str(v, r->user);
	else if (r->uid != (uid_t)-1 && c->fmt != FIELD_FMT_JSON)
		set_int(v, (long long)r->uid);
}

static void put_user(const struct field *f, struct row *r,
		     const struct field_value *v)
{
	(void)f;
	r->user = v->have ? v->str : NULL;
}

/* Batch text shows X for an ended task and ? for an odd byte. */
static void get_state(const struct field *f, const struct row *r,
		      const struct field_ctx *c, struct field_value *v)
{
	char st = r->info.state;

	(void)f;
	if (c->fmt == FIELD_FMT_TEXT && c->exited)
		st = 'X';
	if (!st)
		return;
	if (c->fmt == FIELD_FMT_TEXT && (st <= ' ' || st >= 0x7f))
		st = '?';
	v->small[0] = st;
	v->small[1] = '\0';
	set_str(v, v->small);
}

static void put_state(const struct field *f, struct row *r,
		      const struct field_value *v)
{
	(void)f;
	r->info.state = v->have ? v->str[0] : '\0';
	if (r->info.state == 'X')
		r->flags |= ROW_EXITED;
}

static void get_threads(const struct field *f, const struct row *r,
			const struct field_ctx *c, struct field_value *v)
{
	(void)f, (void)c;
	if (r->info.threads >= 0)
		set_int(v, r->info.threads);
}

static void put_threads(const struct field *f, struct row *r,
			const struct field_value *v)
{
	(void)f;
	r->info.threads = v->have && v->i >= -1 && v->i <= INT_MAX ?
			  (int)v->i : -1;
}

static void get_start(const struct field *f, const struct row *r,
		      const struct field_ctx *c, struct field_value *v)
{
	(void)f, (void)c;
	set_num(v, r->info.start > 0, r->info.start);
}

static void put_start(const struct field *f, struct row *r,
		      const struct field_value *v)
{
	(void)f;
	r->info.start = v->have && v->num > 0 && v->num < 1e12 ? v->num : 0;
}

static void get_cpu_pct(const struct field *f, const struct row *r,
			const struct field_ctx *c, struct field_value *v)
{
	(void)f, (void)c;
	set_num(v, r->have_cpu_pct, r->cpu_pct);
}

static void put_cpu_pct(const struct field *f, struct row *r,
			const struct field_value *v)
{
	(void)f;
	r->have_cpu_pct = v->have;
	r->cpu_pct = v->have ? v->num : 0;
}

static void get_total(const struct field *f, const struct row *r,
		      const struct field_ctx *c, struct field_value *v)
{
	(void)f, (void)c;
	set_num(v, true, r->total_pct);
}

static void put_total(const struct field *f, struct row *r,
		      const struct field_value *v)
{
	(void)f;
	r->total_pct = v->have ? v->num : NAN;
}

/* A delay column: what the metric makes of the category's figures. */
static void get_cat(const struct field *f, const struct row *r,
		    const struct field_ctx *c, struct field_value *v)
{
	double x = fields_metric(r, f->arg, c->metric, c->interval);

	set_num(v, !isnan(x), x);
}

static void get_delay(const struct field *f, const struct row *r,
		      const struct field_ctx *c, struct field_value *v)
{
	(void)f, (void)c;
	v->have = true;
	v->d = r->d;
}

static void put_delay(const struct field *f, struct row *r,
		      const struct field_value *v)
{
	(void)f;
	if (v->have)
		memcpy(r->d, v->d, sizeof(r->d));
}

/* Dropped marks only a figure that is absent (the delay comes first). */
static void put_dropped(const struct field *f, struct row *r,
			const struct field_value *v)
{
	(void)f;
	for (int c = 0; v->have && c < NCAT; c++)
		if (v->d[c].dropped && !r->d[c].avail)
			r->d[c].dropped = true;
}

static void get_exited(const struct field *f, const struct row *r,
		       const struct field_ctx *c, struct field_value *v)
{
	(void)f;
	set_int(v, c->exited || (r->flags & ROW_EXITED) ? 1 : 0);
}

/* comm, or with the command line on that ([comm] when it is empty). */
static void get_comm(const struct field *f, const struct row *r,
		     const struct field_ctx *c, struct field_value *v)
{
	(void)f;
	if (c->cmdline && r->cmdline && *r->cmdline) {
		set_str(v, r->cmdline);
		return;
	}
	/* No command line (kernel thread, zombie): [comm], as ps does. */
	v->brackets = c->cmdline;
	if (c->fmt == FIELD_FMT_JSON)
		set_str(v, r->comm);
	else
		set_str(v, r->comm ? r->comm : "");
}

static void put_comm(const struct field *f, struct row *r,
		     const struct field_value *v)
{
	(void)f;
	r->comm = v->have ? v->str : NULL;
}

static void get_cmdline(const struct field *f, const struct row *r,
			const struct field_ctx *c, struct field_value *v)
{
	(void)f, (void)c;
	set_str(v, r->cmdline);
}

static void put_cmdline(const struct field *f, struct row *r,
			const struct field_value *v)
{
	(void)f;
	r->cmdline = v->have ? v->str : NULL;
}

static void get_cgroup(const struct field *f, const struct row *r,
		       const struct field_ctx *c, struct field_value *v)
{
	(void)f, (void)c;
	set_str(v, r->cgroup);
}

static void put_cgroup(const struct field *f, struct row *r,
		       const struct field_value *v)
{
	(void)f;
	r->cgroup = v->have ? v->str : NULL;
}

/*
 * The evidence of a row's stalls: the whole of it for JSON (present when
 * gathered), else the short cause of its largest stall ("" for none).
 */
static void get_why(const struct field *f, const struct row *r,
		    const struct field_ctx *c, struct field_value *v)
{
	(void)f;
	v->why = r->why;
	if (c->fmt == FIELD_FMT_JSON) {
		v->have = r->why != NULL;
		return;
	}
	v->have = true;
	v->str = rowwhy_main(r);
}

/* A cgroup's: the short cause of its largest stall ("" for none). */
static void cg_why(const struct field *f, const struct cgroup_row *g,
		   const struct field_ctx *c, struct field_value *v)
{
	(void)f;
	v->why = g->why;
	if (c->fmt == FIELD_FMT_JSON) {
		v->have = g->why != NULL;
		return;
	}
	v->have = true;
	v->str = rowwhy_main_cg(g);
}

/* Replay: json_read.c decodes the object into room of its own. */
static void put_why(const struct field *f, struct row *r,
		    const struct field_value *v)
{
	(void)f;
	r->why = v->have ? v->why : NULL;
}

/* ---- what stands next to a stall (struct task_ctx) ---- */

/* f->arg: the member's bit (enum task_ctx_have). */
static bool ctx_has(const struct field *f, const struct row *r)
{
	return r->info.ctx.have & (unsigned)f->arg;
}

static long long *ctx_kib(struct task_ctx *x, unsigned bit)
{
	return bit == CTX_RSS ? &x->rss_kib : &x->swap_kib;
}

static double *ctx_rate(struct task_ctx *x, unsigned bit)
{
	return bit == CTX_READ ? &x->read_bps
	       : bit == CTX_WRITE ? &x->write_bps : &x->majflt_ps;
}

/* Memory, KiB, as /proc/PID/status gives it. */
static void get_kib(const struct field *f, const struct row *r,
		    const struct field_ctx *c, struct field_value *v)
{
	struct task_ctx x = r->info.ctx;

	(void)c;
	if (ctx_has(f, r))
		set_int(v, *ctx_kib(&x, (unsigned)f->arg));
}

static void put_kib(const struct field *f, struct row *r,
		    const struct field_value *v)
{
	unsigned bit = (unsigned)f->arg;

	r->info.ctx.have &= ~bit;
	if (!v->have)
		return;
	*ctx_kib(&r->info.ctx, bit) = v->i;
	r->info.ctx.have |= bit;
}

/* A rate, per second; IO shows MiB/s on the screen and in text. */
static void get_rate(const struct field *f, const struct row *r,
		     const struct field_ctx *c, struct field_value *v)
{
	struct task_ctx x = r->info.ctx;
	double rate = *ctx_rate(&x, (unsigned)f->arg);

	if (!ctx_has(f, r))
		return;
	if (f->arg != CTX_MAJFLT &&
	    (c->fmt == FIELD_FMT_SCREEN || c->fmt == FIELD_FMT_TEXT))
		rate /= 1024 * 1024;
	set_num(v, true, rate);
}

static void put_rate(const struct field *f, struct row *r,
		     const struct field_value *v)
{
	unsigned bit = (unsigned)f->arg;

	r->info.ctx.have &= ~bit;
	if (!v->have || !isfinite(v->num))
		return;
	*ctx_rate(&r->info.ctx, bit) = v->num;
	r->info.ctx.have |= bit;
}

static void get_nice(const struct field *f, const struct row *r,
		     const struct field_ctx *c, struct field_value *v)
{
	(void)c;
	if (ctx_has(f, r))
		set_int(v, r->info.ctx.nice);
}

static void put_nice(const struct field *f, struct row *r,
		     const struct field_value *v)
{
	(void)f;
	r->info.ctx.have &= ~(unsigned)CTX_NICE;
	if (!v->have || v->i < INT_MIN || v->i > INT_MAX)
		return;
	r->info.ctx.nice = (int)v->i;
	r->info.ctx.have |= CTX_NICE;
}

/* Nice values ascending, as the scheduler ranks them; unknown last. */
static int cmp_nice(const struct field_value *a, const struct field_value *b)
{
	if (a->have != b->have)
		return a->have ? -1 : 1;
	return cmp_asc(a, b);
}

/* Only a task in D waits in a channel worth naming. */
static void get_wchan(const struct field *f, const struct row *r,
		      const struct field_ctx *c, struct field_value *v)
{
	(void)c;
	if (ctx_has(f, r))
		set_str(v, r->info.ctx.wchan);
}

static void put_wchan(const struct field *f, struct row *r,
		      const struct field_value *v)
{
	(void)f;
	r->info.ctx.have &= ~(unsigned)CTX_WCHAN;
	if (!v->have || !v->str || !*v->str)
		return;
	snprintf(r->info.ctx.wchan, sizeof(r->info.ctx.wchan), "%s", v->str);
	r->info.ctx.have |= CTX_WCHAN;
}

/* Names, absent last (as a figure). */
static int cmp_str_present(const struct field_value *a,
			   const struct field_value *b)
{
	if (a->have != b->have)
		return a->have ? -1 : 1;
	return cmp_str(a, b);
}

/* The operator's name of the task's cgroup, made from its path. */
static void get_cgname(const struct field *f, const struct row *r,
		       const struct field_ctx *c, struct field_value *v)
{
	(void)f, (void)c;
	if (!r->cgroup || cgname_of(r->cgroup, v->buf, sizeof(v->buf)) < 0)
		return;
	set_str(v, v->buf);
}

/*
 * Replay: the name is made again from the path (the "cgroup" key), as
 * live; the recorded one is only for the reader of the file.
 */
static void put_cgname(const struct field *f, struct row *r,
		       const struct field_value *v)
{
	(void)f, (void)r, (void)v;
}

/* ---- cgroup rows ---- */

/* The cgroup's own pressure: some, share of the interval (f->arg). */
static void cg_psi_pct(const struct field *f, const struct cgroup_row *g,
		       const struct field_ctx *c, struct field_value *v)
{
	const struct psi_stat *st = &g->psi.s[f->arg][PSI_SOME];

	(void)c;
	set_num(v, g->have_psi && st->present && st->have_pct, st->pct);
}

static void cg_psi_avg10(const struct field *f, const struct cgroup_row *g,
			 const struct field_ctx *c, struct field_value *v)
{
	const struct psi_stat *st = &g->psi.s[f->arg][PSI_SOME];

	(void)c;
	set_num(v, g->have_psi && st->present, st->avg10);
}

static void cg_cat(const struct field *f, const struct cgroup_row *g,
		   const struct field_ctx *c, struct field_value *v)
{
	/* the metric works on a cgroup as on a task */
	struct row r;

	memset(&r, 0, sizeof(r));
	memcpy(r.d, g->d, sizeof(r.d));
	get_cat(f, &r, c, v);
}

/*
 * TOTAL; also what sorting cgroups by CPU% compares (a cgroup has no CPU
 * use of its own).
 */
static void cg_total(const struct field *f, const struct cgroup_row *g,
		     const struct field_ctx *c, struct field_value *v)
{
	(void)f, (void)c;
	set_num(v, true, g->total_pct);
}

static void cg_nr(const struct field *f, const struct cgroup_row *g,
		  const struct field_ctx *c, struct field_value *v)
{
	(void)f, (void)c;
	set_int(v, (long long)g->nr_tasks);
}

/* The operator's name of the cgroup (model/cgname.h). */
static void cg_name(const struct field *f, const struct cgroup_row *g,
		    const struct field_ctx *c, struct field_value *v)
{
	(void)f, (void)c;
	set_str(v, g->name);
}

/* The path; batch text indents it by depth. */
static void cg_path(const struct field *f, const struct cgroup_row *g,
		    const struct field_ctx *c, struct field_value *v)
{
	(void)f;
	set_str(v, g->path ? g->path : "");
	if (c->fmt == FIELD_FMT_TEXT)
		v->indent = 2 * (g->depth > 0 ? g->depth : 0);
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
		.cmp = cmp_asc, .get = get_pid, .set = put_pid,
	},
	[FIELD_USER] = {
		.header = "USER", .bheader = N_("USER"), .key = "user",
		.help = N_("owner of the task"),
		.type = FIELD_STR, .width = 8, .bwidth = 8,
		.flags = TASK | FIELD_LEFT | FIELD_RAW,
		.cmp = cmp_str, .get = get_user, .set = put_user,
	},
	[FIELD_STATE] = {
		.header = "S", .bheader = N_("S"), .key = "state",
		.help = N_("state: R running, S sleeping, D uninterruptible, "
			   "Z zombie..."),
		.type = FIELD_STR, .width = 1, .bwidth = 1,
		.flags = TASK | FIELD_LEFT | FIELD_SORT | FIELD_DETAIL,
		.cmp = cmp_str, .get = get_state, .set = put_state,
	},
	[FIELD_CPU_PCT] = {
		.header = "CPU%", .bheader = N_("CPU%"), .key = "cpu_pct",
		/* xgettext:no-c-format */
		.help = N_("CPU use, % of one CPU"),
		.type = FIELD_NUM, .width = 6, .bwidth = BATCH_PCT, .decimals = 1,
		.flags = TASK | CG | FIELD_SORT,
		.cmp = cmp_desc, .get = get_cpu_pct, .cg_get = cg_total,
		.set = put_cpu_pct,
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
		.cmp = cmp_desc, .get = get_total, .cg_get = cg_total,
		.set = put_total,
	},
	[FIELD_COMM] = {
		.header = "COMMAND", .bheader = N_("COMMAND"), .key = "comm",
		.help = N_("process or thread name, or the command line (c)"),
		.type = FIELD_STR,
		.flags = TASK | FIELD_LEFT | FIELD_SORT | FIELD_RAW | FIELD_IDENT,
		.cmp = cmp_str, .get = get_comm, .set = put_comm,
	},

	/* fields of the batch formats only: no header, no help */
	[FIELD_TGID] = {
		.key = "tgid", .type = FIELD_INT, .flags = TASK,
		.arg = offsetof(struct row, tgid),
		.cmp = cmp_asc, .get = get_pid, .set = put_pid,
	},
	[FIELD_PPID] = {
		.key = "ppid", .type = FIELD_INT, .flags = TASK | FIELD_DETAIL,
		.arg = offsetof(struct row, info.ppid),
		.cmp = cmp_asc, .get = get_pid, .set = put_pid,
	},
	[FIELD_THREADS] = {
		.key = "threads", .type = FIELD_INT, .flags = TASK | FIELD_DETAIL,
		.cmp = cmp_desc, .get = get_threads, .set = put_threads,
	},
	[FIELD_CMDLINE] = {
		.key = "cmdline", .type = FIELD_STR,
		.flags = TASK | FIELD_LEFT | FIELD_RAW,
		.cmp = cmp_str, .get = get_cmdline, .set = put_cmdline,
	},
	[FIELD_DELAY] = {
		.key = "delay", .type = FIELD_FIGURES, .flags = TASK,
		.get = get_delay, .set = put_delay,
	},
	[FIELD_DROPPED] = {
		.key = "dropped", .type = FIELD_SET, .flags = TASK,
		.get = get_delay, .set = put_dropped,
	},
	[FIELD_EXITED] = {
		.key = "exited", .type = FIELD_INT, .flags = TASK,
		.cmp = cmp_desc, .get = get_exited,
	},
	[FIELD_COMMAND] = {
		.key = "command", .type = FIELD_STR,
		.flags = TASK | FIELD_LEFT | FIELD_RAW,
		.cmp = cmp_str, .get = get_comm,
	},
	[FIELD_CGROUP] = {
		.key = "cgroup", .type = FIELD_STR,
		.flags = TASK | FIELD_LEFT | FIELD_RAW | FIELD_OPTIONAL,
		.cmp = cmp_str, .get = get_cgroup, .set = put_cgroup,
	},
	[FIELD_START] = {
		.key = "start", .type = FIELD_NUM,
		.flags = TASK | FIELD_OPTIONAL | FIELD_DETAIL,
		.cmp = cmp_desc, .get = get_start, .set = put_start,
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
		.get = get_why, .cg_get = cg_why, .set = put_why,
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
		.cmp = cmp_desc, .get = get_kib, .set = put_kib,
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
		.cmp = cmp_desc, .get = get_kib, .set = put_kib,
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
		.cmp = cmp_desc, .get = get_rate, .set = put_rate,
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
		.cmp = cmp_desc, .get = get_rate, .set = put_rate,
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
		.cmp = cmp_desc, .get = get_rate, .set = put_rate,
	},
	[FIELD_NICE] = {
		.header = "NI", .bheader = N_("NI"), .key = "nice",
		.help = N_("nice value, -20 (first) to 19"),
		.type = FIELD_INT, .width = 3, .bwidth = 3,
		.flags = TASK | FIELD_SORT | FIELD_DETAIL | FIELD_OFF |
			 FIELD_OPTIONAL,
		.arg = CTX_NICE,
		.cmp = cmp_nice, .get = get_nice, .set = put_nice,
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
		.cmp = cmp_str_present, .get = get_wchan, .set = put_wchan,
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
		.cmp = cmp_str_present, .get = get_cgname, .set = put_cgname,
	},

	/* the cgroup view: batch text heads them with the kernel's names */
	[FIELD_CG_CPU_P] = {
		.header = "CPU.P%", .bheader = "cpu",
		/* xgettext:no-c-format */
		.help = N_("the cgroup's cpu pressure: some, % of the interval"),
		.type = FIELD_NUM, .width = 6, .bwidth = 6, .decimals = 1,
		.flags = CG | FIELD_STALL | FIELD_KERNEL, .arg = PSI_CPU,
		.cmp = cmp_desc, .cg_get = cg_psi_pct,
	},
	[FIELD_CG_CPU_10] = {
		.header = "CPU.10", .bheader = "avg10",
		.help = N_("the cgroup's cpu pressure: some, avg10"),
		.type = FIELD_NUM, .width = 6, .bwidth = 6, .decimals = 2,
		.flags = CG | FIELD_STALL | FIELD_KERNEL, .arg = PSI_CPU,
		.cmp = cmp_desc, .cg_get = cg_psi_avg10,
	},
	[FIELD_CG_MEM_P] = {
		.header = "MEM.P%", .bheader = "memory",
		/* xgettext:no-c-format */
		.help = N_("the cgroup's memory pressure: some, % of the interval"),
		.type = FIELD_NUM, .width = 6, .bwidth = 6, .decimals = 1,
		.flags = CG | FIELD_STALL | FIELD_KERNEL, .arg = PSI_MEMORY,
		.cmp = cmp_desc, .cg_get = cg_psi_pct,
	},
	[FIELD_CG_MEM_10] = {
		.header = "MEM.10", .bheader = "avg10",
		.help = N_("the cgroup's memory pressure: some, avg10"),
		.type = FIELD_NUM, .width = 6, .bwidth = 6, .decimals = 2,
		.flags = CG | FIELD_STALL | FIELD_KERNEL, .arg = PSI_MEMORY,
		.cmp = cmp_desc, .cg_get = cg_psi_avg10,
	},
	[FIELD_CG_IO_P] = {
		.header = "IO.P%", .bheader = "io",
		/* xgettext:no-c-format */
		.help = N_("the cgroup's io pressure: some, % of the interval"),
		.type = FIELD_NUM, .width = 6, .bwidth = 6, .decimals = 1,
		.flags = CG | FIELD_STALL | FIELD_KERNEL, .arg = PSI_IO,
		.cmp = cmp_desc, .cg_get = cg_psi_pct,
	},
	[FIELD_CG_IO_10] = {
		.header = "IO.10", .bheader = "avg10",
		.help = N_("the cgroup's io pressure: some, avg10"),
		.type = FIELD_NUM, .width = 6, .bwidth = 6, .decimals = 2,
		.flags = CG | FIELD_STALL | FIELD_KERNEL, .arg = PSI_IO,
		.cmp = cmp_desc, .cg_get = cg_psi_avg10,
	},
	[FIELD_CG_NR] = {
		.header = "NR", .bheader = N_("NR"),
		.help = N_("tasks in the cgroup and below"),
		.type = FIELD_INT, .width = 5, .bwidth = 6, .flags = CG,
		.cmp = cmp_desc, .cg_get = cg_nr,
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
		.cmp = cmp_str, .cg_get = cg_name,
	},
	[FIELD_CG_PATH] = {
		.header = "PATH", .bheader = N_("PATH"),
		.help = N_("the cgroup, indented below its parent; + folded, "
			   "- unfolded"),
		.type = FIELD_STR, .flags = CG | FIELD_LEFT | FIELD_RAW,
		.cmp = cmp_str, .cg_get = cg_path,
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
			.arg = c, .cmp = cmp_desc, .get = get_cat,
			.cg_get = cg_cat,
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

void fields_row_value(int id, const struct row *r, const struct field_ctx *c,
		      struct field_value *v)
{
	const struct field *f = fields_get(id);

	memset(v, 0, sizeof(*v));
	if (f && f->get)
		f->get(f, r, c, v);
}

void fields_cg_value(int id, const struct cgroup_row *g,
		     const struct field_ctx *c, struct field_value *v)
{
	const struct field *f = fields_get(id);

	memset(v, 0, sizeof(*v));
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
