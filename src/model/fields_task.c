/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The getters and setters of the fields table's task-row fields
 * (fields.c): a field's value out of struct row, and (a replay's reader)
 * back into it. f->arg says which member where one function serves
 * several fields.
 */
#include <config.h>

#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "model/fields.h"
#include "model/fields_task.h"
#include "model/rowwhy.h"
#include "model/wchan.h"

/* pid, tgid, ppid: f->arg is the member's offset in struct row. */
void fields_task_get_pid(const struct field *f, const struct row *r,
			 const struct field_ctx *c, struct field_value *v)
{
	(void)c;
	fields_value_int(v, *(const pid_t *)((const char *)r + f->arg));
}

/*
 * The parent: 0 is the kernel's answer only for init and kthreadd (their
 * parent is the kernel); for any other task it means nobody read it, and
 * prints as unknown.
 */
void fields_task_get_ppid(const struct field *f, const struct row *r,
			  const struct field_ctx *c, struct field_value *v)
{
	(void)f;
	(void)c;
	if (r->info.ppid > 0 || r->tgid == 1 || r->tgid == 2)
		fields_value_int(v, r->info.ppid);
}

void fields_task_put_pid(const struct field *f, struct row *r,
			 const struct field_value *v)
{
	bool ok = v->have && v->i >= 0 && v->i <= INT_MAX;

	*(pid_t *)((char *)r + f->arg) = ok ? (pid_t)v->i : 0;
}

/* The name, or the numeric uid where the format shows one. */
void fields_task_get_user(const struct field *f, const struct row *r,
			  const struct field_ctx *c, struct field_value *v)
{
	(void)f;
	/* no user name is empty: "" is a task whose owner was not read */
	if (r->user && *r->user)
		fields_value_str(v, r->user);
	else if (r->uid != (uid_t)-1 && c->fmt != FIELD_FMT_JSON)
		fields_value_int(v, (long long)r->uid);
}

void fields_task_put_user(const struct field *f, struct row *r,
			  const struct field_value *v)
{
	(void)f;
	r->user = v->have ? v->str : NULL;
}

/* Batch text shows X for an ended task and ? for an odd byte. */
void fields_task_get_state(const struct field *f, const struct row *r,
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
	fields_value_str(v, v->small);
}

void fields_task_put_state(const struct field *f, struct row *r,
			   const struct field_value *v)
{
	(void)f;
	r->info.state = v->have ? v->str[0] : '\0';
	if (r->info.state == 'X')
		r->flags |= ROW_EXITED;
}

void fields_task_get_threads(const struct field *f, const struct row *r,
			     const struct field_ctx *c, struct field_value *v)
{
	(void)f, (void)c;
	if (r->info.threads >= 0)
		fields_value_int(v, r->info.threads);
}

void fields_task_put_threads(const struct field *f, struct row *r,
			     const struct field_value *v)
{
	(void)f;
	r->info.threads = v->have && v->i >= -1 && v->i <= INT_MAX ?
			  (int)v->i : -1;
}

void fields_task_get_start(const struct field *f, const struct row *r,
			   const struct field_ctx *c, struct field_value *v)
{
	(void)f, (void)c;
	fields_value_num(v, r->info.start > 0, r->info.start);
}

void fields_task_put_start(const struct field *f, struct row *r,
			   const struct field_value *v)
{
	(void)f;
	r->info.start = v->have && v->num > 0 && v->num < 1e12 ? v->num : 0;
}

void fields_task_get_cpu_pct(const struct field *f, const struct row *r,
			     const struct field_ctx *c, struct field_value *v)
{
	(void)f, (void)c;
	fields_value_num(v, r->have_cpu_pct, r->cpu_pct);
}

void fields_task_put_cpu_pct(const struct field *f, struct row *r,
			     const struct field_value *v)
{
	(void)f;
	r->have_cpu_pct = v->have;
	r->cpu_pct = v->have ? v->num : 0;
}

void fields_task_get_total(const struct field *f, const struct row *r,
			   const struct field_ctx *c, struct field_value *v)
{
	(void)f, (void)c;
	fields_value_num(v, true, r->total_pct);
}

void fields_task_put_total(const struct field *f, struct row *r,
			   const struct field_value *v)
{
	(void)f;
	r->total_pct = v->have ? v->num : NAN;
}

/* A delay column: what the metric makes of the category's figures. */
void fields_task_get_cat(const struct field *f, const struct row *r,
			 const struct field_ctx *c, struct field_value *v)
{
	double x = fields_metric(r, f->arg, c->metric, c->interval);

	fields_value_num(v, !isnan(x), x);
}

void fields_task_get_delay(const struct field *f, const struct row *r,
			   const struct field_ctx *c, struct field_value *v)
{
	(void)f, (void)c;
	v->have = true;
	v->d = r->d;
}

void fields_task_put_delay(const struct field *f, struct row *r,
			   const struct field_value *v)
{
	(void)f;
	if (v->have)
		memcpy(r->d, v->d, sizeof(r->d));
}

/* Dropped marks only a figure that is absent (the delay comes first). */
void fields_task_put_dropped(const struct field *f, struct row *r,
			     const struct field_value *v)
{
	(void)f;
	for (int c = 0; v->have && c < NCAT; c++)
		if (v->d[c].dropped && !r->d[c].avail)
			r->d[c].dropped = true;
}

void fields_task_get_exited(const struct field *f, const struct row *r,
			    const struct field_ctx *c, struct field_value *v)
{
	(void)f;
	fields_value_int(v, c->exited || (r->flags & ROW_EXITED) ? 1 : 0);
}

/* comm, or with the command line on that ([comm] when it is empty). */
void fields_task_get_comm(const struct field *f, const struct row *r,
			  const struct field_ctx *c, struct field_value *v)
{
	(void)f;
	if (c->cmdline && r->cmdline && *r->cmdline) {
		fields_value_str(v, r->cmdline);
		return;
	}
	/* No command line (kernel thread, zombie): [comm], as ps does. */
	v->brackets = c->cmdline;
	if (c->fmt == FIELD_FMT_JSON)
		fields_value_str(v, r->comm);
	else
		fields_value_str(v, r->comm ? r->comm : "");
}

void fields_task_put_comm(const struct field *f, struct row *r,
			  const struct field_value *v)
{
	(void)f;
	r->comm = v->have ? v->str : NULL;
}

void fields_task_get_cmdline(const struct field *f, const struct row *r,
			     const struct field_ctx *c, struct field_value *v)
{
	(void)f, (void)c;
	fields_value_str(v, r->cmdline);
}

void fields_task_put_cmdline(const struct field *f, struct row *r,
			     const struct field_value *v)
{
	(void)f;
	r->cmdline = v->have ? v->str : NULL;
}

void fields_task_get_cgroup(const struct field *f, const struct row *r,
			    const struct field_ctx *c, struct field_value *v)
{
	(void)f, (void)c;
	fields_value_str(v, r->cgroup);
}

void fields_task_put_cgroup(const struct field *f, struct row *r,
			    const struct field_value *v)
{
	(void)f;
	r->cgroup = v->have ? v->str : NULL;
}

/*
 * The evidence of a row's stalls: the whole of it for JSON (present when
 * gathered), else the short cause of its largest stall ("" for none).
 */
void fields_task_get_why(const struct field *f, const struct row *r,
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

/* Replay: json_read.c decodes the object into room of its own. */
void fields_task_put_why(const struct field *f, struct row *r,
			 const struct field_value *v)
{
	(void)f;
	r->why = v->have ? v->why : NULL;
}

/* ---- what stands next to a stall (struct task_ctx) ---- */

/* f->arg: the member's bit (enum task_ctx_have). */
static bool ctx_has(const struct field *f, const struct row *r)
{
	return r->ctx.have & (unsigned)f->arg;
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
void fields_task_get_kib(const struct field *f, const struct row *r,
			 const struct field_ctx *c, struct field_value *v)
{
	struct task_ctx x = r->ctx;

	(void)c;
	if (ctx_has(f, r))
		fields_value_int(v, *ctx_kib(&x, (unsigned)f->arg));
}

void fields_task_put_kib(const struct field *f, struct row *r,
			 const struct field_value *v)
{
	unsigned bit = (unsigned)f->arg;

	r->ctx.have &= ~bit;
	if (!v->have)
		return;
	*ctx_kib(&r->ctx, bit) = v->i;
	r->ctx.have |= bit;
}

/* A rate, per second; IO shows MiB/s on the screen and in text. */
void fields_task_get_rate(const struct field *f, const struct row *r,
			  const struct field_ctx *c, struct field_value *v)
{
	struct task_ctx x = r->ctx;
	double rate = *ctx_rate(&x, (unsigned)f->arg);

	if (!ctx_has(f, r))
		return;
	if (f->arg != CTX_MAJFLT &&
	    (c->fmt == FIELD_FMT_SCREEN || c->fmt == FIELD_FMT_TEXT))
		rate /= 1024 * 1024;
	fields_value_num(v, true, rate);
}

void fields_task_put_rate(const struct field *f, struct row *r,
			  const struct field_value *v)
{
	unsigned bit = (unsigned)f->arg;

	r->ctx.have &= ~bit;
	if (!v->have || !isfinite(v->num))
		return;
	*ctx_rate(&r->ctx, bit) = v->num;
	r->ctx.have |= bit;
}

void fields_task_get_nice(const struct field *f, const struct row *r,
			  const struct field_ctx *c, struct field_value *v)
{
	(void)c;
	if (ctx_has(f, r))
		fields_value_int(v, r->ctx.nice);
}

void fields_task_put_nice(const struct field *f, struct row *r,
			  const struct field_value *v)
{
	(void)f;
	r->ctx.have &= ~(unsigned)CTX_NICE;
	if (!v->have || v->i < INT_MIN || v->i > INT_MAX)
		return;
	r->ctx.nice = (int)v->i;
	r->ctx.have |= CTX_NICE;
}

/* Only a task in D waits in a channel worth naming. */
void fields_task_get_wchan(const struct field *f, const struct row *r,
			   const struct field_ctx *c, struct field_value *v)
{
	(void)c;
	if (ctx_has(f, r))
		fields_value_str(v, r->ctx.wchan);
}

void fields_task_put_wchan(const struct field *f, struct row *r,
			   const struct field_value *v)
{
	(void)f;
	r->ctx.have &= ~(unsigned)CTX_WCHAN;
	r->ctx.wchan = v->have && v->str ? wchan_keep(v->str) : NULL;
	if (r->ctx.wchan)
		r->ctx.have |= CTX_WCHAN;
}

/* The operator's name of the task's cgroup, made from its path. */
void fields_task_get_cgname(const struct field *f, const struct row *r,
			    const struct field_ctx *c, struct field_value *v)
{
	(void)f, (void)c;
	if (!r->cgroup || cgname_of(r->cgroup, v->buf, sizeof(v->buf)) < 0)
		return;
	fields_value_str(v, v->buf);
}

/*
 * Replay: the name is made again from the path (the "cgroup" key), as
 * live; the recorded one is only for the reader of the file.
 */
void fields_task_put_cgname(const struct field *f, struct row *r,
			    const struct field_value *v)
{
	(void)f, (void)r, (void)v;
}
