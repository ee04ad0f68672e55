/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The getters of the fields table's cgroup-row fields (fields.c): a
 * field's value out of struct cgroup_row.
 */
#include <config.h>

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "model/fields.h"
#include "model/fields_cgroup.h"
#include "model/fields_task.h"
#include "model/rowwhy.h"

/* A cgroup's: the short cause of its largest stall ("" for none). */
void fields_cgroup_why(const struct field *f, const struct cgroup_row *g,
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

/* The cgroup's own pressure: some, share of the interval (f->arg). */
void fields_cgroup_psi_pct(const struct field *f, const struct cgroup_row *g,
			   const struct field_ctx *c, struct field_value *v)
{
	const struct psi_stat *st = &g->psi.s[f->arg][PSI_SOME];

	(void)c;
	fields_value_num(v, g->have_psi && st->present && st->have_pct, st->pct);
}

void fields_cgroup_psi_avg10(const struct field *f, const struct cgroup_row *g,
			     const struct field_ctx *c, struct field_value *v)
{
	const struct psi_stat *st = &g->psi.s[f->arg][PSI_SOME];

	(void)c;
	fields_value_num(v, g->have_psi && st->present, st->avg10);
}

void fields_cgroup_cat(const struct field *f, const struct cgroup_row *g,
		       const struct field_ctx *c, struct field_value *v)
{
	/* the metric works on a cgroup as on a task */
	struct row r;

	memset(&r, 0, sizeof(r));
	memcpy(r.d, g->d, sizeof(r.d));
	fields_task_get_cat(f, &r, c, v);
}

/*
 * TOTAL; also what sorting cgroups by CPU% compares (a cgroup has no CPU
 * use of its own).
 */
void fields_cgroup_total(const struct field *f, const struct cgroup_row *g,
			 const struct field_ctx *c, struct field_value *v)
{
	(void)f, (void)c;
	fields_value_num(v, true, g->total_pct);
}

void fields_cgroup_nr(const struct field *f, const struct cgroup_row *g,
		      const struct field_ctx *c, struct field_value *v)
{
	(void)f, (void)c;
	fields_value_int(v, (long long)g->nr_tasks);
}

/* The operator's name of the cgroup (model/cgname.h). */
void fields_cgroup_name(const struct field *f, const struct cgroup_row *g,
			const struct field_ctx *c, struct field_value *v)
{
	(void)f, (void)c;
	fields_value_str(v, g->name);
}

/* The path; batch text indents it by depth. */
void fields_cgroup_path(const struct field *f, const struct cgroup_row *g,
			const struct field_ctx *c, struct field_value *v)
{
	(void)f;
	fields_value_str(v, g->path ? g->path : "");
	if (c->fmt == FIELD_FMT_TEXT)
		v->indent = 2 * (g->depth > 0 ? g->depth : 0);
}
