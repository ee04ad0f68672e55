/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reading the JSON sample format (view/out_json.c writes it; record.h and the
 * manual page describe it): one line into a json-c object, a sample
 * object into struct sample. What the JSON does not carry is listed in
 * replay.h.
 */
#include <config.h>

#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/categories.h"
#include "model/fields.h"
#include "model/layouts.h"
#include "model/rowwhy.h"
#include "record/json_keys.h"
#include "record/json_read.h"
#include "record/json_scan.h"
#include "record/rec_check.h"
#include "record/record.h"

/* --- reading JSON values --- */

json_object *json_read_get(json_object *o, const char *key)
{
	json_object *v = NULL;

	if (!json_object_object_get_ex(o, key, &v))
		return NULL;
	return v;
}

/* Is v a JSON number (an integer or not)? */
static bool json_read_is_num(json_object *v)
{
	return json_object_is_type(v, json_type_double) ||
	       json_object_is_type(v, json_type_int);
}

/* A number, or NAN for null (out_json.c's not-finite) or anything else. */
double json_read_num(json_object *v)
{
	return json_read_is_num(v) ? json_object_get_double(v) : NAN;
}

/* A number when there is one: the have_ flags. */
static bool opt_num(json_object *v, double *out)
{
	if (!json_read_is_num(v)) {
		*out = 0;
		return false;
	}
	*out = json_object_get_double(v);
	return true;
}

static bool opt_u64(json_object *v, uint64_t *out)
{
	*out = 0;
	if (!json_object_is_type(v, json_type_int))
		return false;
	*out = json_object_get_uint64(v);
	return true;
}

long long json_read_int_or(json_object *v, long long dflt)
{
	if (!json_object_is_type(v, json_type_int))
		return dflt;
	return (long long)json_object_get_int64(v);
}

const char *json_read_str(json_object *v)
{
	return json_object_is_type(v, json_type_string) ?
	       json_object_get_string(v) : NULL;
}

/* --- JSON to struct sample --- */

static void psi_from(json_object *o, struct psi_sample *p)
{
	memset(p, 0, sizeof(*p));
	for (int r = 0; r < NPSI; r++) {
		json_object *res = json_read_get(o, psi_res_name[r]);

		for (int k = 0; k < NPSI_KIND; k++) {
			json_object *v = json_read_get(res, psi_kind_name[k]);
			struct psi_stat *st = &p->s[r][k];

			if (!json_object_is_type(v, json_type_object))
				continue;
			st->present = true;
			st->avg10 = json_read_num(json_read_get(v, JSON_KEY_AVG10));
			st->avg60 = json_read_num(json_read_get(v, JSON_KEY_AVG60));
			st->avg300 = json_read_num(json_read_get(v, JSON_KEY_AVG300));
			opt_u64(json_read_get(v, JSON_KEY_TOTAL_US), &st->total_us);
			st->have_pct = opt_num(json_read_get(v, JSON_KEY_PCT), &st->pct);
		}
	}
}

static void delay_from(json_object *o, struct cat_figure d[NCAT])
{
	for (int c = 0; c < NCAT; c++) {
		json_object *v = json_read_get(o, categories[c].key);
		struct cat_figure *f = &d[c];

		memset(f, 0, sizeof(*f));
		if (!json_object_is_type(v, json_type_object))
			continue;
		f->avail = true;
		f->pct = json_read_num(json_read_get(v, JSON_KEY_PCT));
		uint64_t count;
		f->have_count = opt_u64(json_read_get(v, JSON_KEY_COUNT), &count);
		/* more than a figure holds: at CAT_COUNT_MAX, which
		   rec_check drops as impossible */
		if (f->have_count)
			f->count = count < CAT_COUNT_MAX ? count : CAT_COUNT_MAX;
		f->have_avg = opt_num(json_read_get(v, JSON_KEY_AVG_MS), &f->avg_ms);
		f->have_max = opt_num(json_read_get(v, JSON_KEY_MAX_MS), &f->max_ms);
	}
}

/* "dropped": ["io", ...]: those figures were dropped as impossible. */
static void dropped_from(json_object *a, struct cat_figure d[NCAT])
{
	memset(d, 0, NCAT * sizeof(*d));
	if (!json_object_is_type(a, json_type_array))
		return;
	for (size_t i = 0; i < json_object_array_length(a); i++) {
		const char *key = json_read_str(json_object_array_get_idx(a, i));
		int c = key ? categories_by_key(key) : -1;
		if (c >= 0)
			d[c].dropped = true;
	}
}

/* The value of a field of type t in v (absent when of another type). */
static void value_from(json_object *v, enum field_type t,
		       struct cat_figure d[NCAT], struct field_value *out)
{
	memset(out, 0, sizeof(*out));
	switch (t) {
	case FIELD_INT:
		out->have = json_object_is_type(v, json_type_int);
		out->i = out->have ? (long long)json_object_get_int64(v) : 0;
		break;
	case FIELD_NUM:
		out->have = opt_num(v, &out->num);
		break;
	case FIELD_STR:
		out->str = json_read_str(v);
		out->have = out->str != NULL;
		break;
	case FIELD_FIGURES:
		delay_from(v, d);
		out->have = true;
		out->d = d;
		break;
	case FIELD_SET:
		dropped_from(v, d);
		out->have = true;
		out->d = d;
		break;
	case FIELD_EVIDENCE:
		/* read by why_from(): it needs room of its own */
		break;
	}
}

/* An evidence value: a number, "max" (no limit), or absent. */
static struct kval kval_from(json_object *v)
{
	const char *s = json_read_str(v);

	if (s && strcmp(s, "max") == 0)
		return (struct kval){ .have = true, .max = true };
	if (!json_object_is_type(v, json_type_int) ||
	    json_object_get_int64(v) < 0)
		return (struct kval){ 0 };
	return (struct kval){ .have = true, .v = json_object_get_uint64(v) };
}

static void kvals_from(json_object *o, void *base,
		       const struct evidence_field *f, size_t n)
{
	for (size_t i = 0; i < n; i++)
		*(struct kval *)((char *)base + f[i].offset) =
			kval_from(json_read_get(o, f[i].name));
}

/* A share or rate of evidence: a number, not negative. */
static bool ok_rate(double v)
{
	return isfinite(v) && v >= 0;
}

/* "MAJ:MIN" and the name; false when the device is not one. */
static bool device_from(json_object *o, unsigned *major, unsigned *minor,
			char *name, size_t size)
{
	const char *dev = json_read_str(json_read_get(o, JSON_KEY_DEVICE));
	const char *n = json_read_str(json_read_get(o, JSON_KEY_NAME));
	char end;

	if (!dev || sscanf(dev, "%u:%u%c", major, minor, &end) != 2)
		return false;
	snprintf(name, size, "%s", n ? n : "");
	return true;
}

static void io_devices_from(json_object *a, struct evidence *ev)
{
	size_t len = json_object_is_type(a, json_type_array) ?
		     json_object_array_length(a) : 0;

	for (size_t i = 0; i < len && ev->n_io_devs < EVIDENCE_IO_DEVS; i++) {
		json_object *o = json_object_array_get_idx(a, i);
		struct evidence_io_dev *d = &ev->io_devs[ev->n_io_devs];

		if (!device_from(o, &d->major, &d->minor, d->name,
				 sizeof(d->name)))
			continue;
		kvals_from(o, d, evidence_io_dev_fields, evidence_io_dev_nfields);
		ev->n_io_devs++;
	}
}

static void disks_from(json_object *a, struct evidence *ev, size_t *dropped)
{
	size_t len = json_object_is_type(a, json_type_array) ?
		     json_object_array_length(a) : 0;

	for (size_t i = 0; i < len && ev->n_disks < EVIDENCE_DISKS; i++) {
		json_object *o = json_object_array_get_idx(a, i);
		struct diskstats_busy *d = &ev->disks[ev->n_disks];

		if (!device_from(o, &d->major, &d->minor, d->name,
				 sizeof(d->name)) ||
		    !opt_num(json_read_get(o, evidence_disk_fields[2]),
			     &d->util_pct) ||
		    !opt_num(json_read_get(o, evidence_disk_fields[3]),
			     &d->queue))
			continue;
		if (!ok_rate(d->util_pct) || !ok_rate(d->queue)) {
			*dropped += 1;
			continue;
		}
		opt_u64(json_read_get(o, evidence_disk_fields[4]), &d->read_bytes);
		opt_u64(json_read_get(o, evidence_disk_fields[5]), &d->write_bytes);
		ev->n_disks++;
	}
}

/* Per stalled category: its cause by the rule's key, and the text shown. */
static void causes_from(json_object *o, struct row_why *w)
{
	for (int c = 0; c < NCAT; c++) {
		json_object *v = json_read_get(o, categories[c].key);
		struct row_why_cat *wc = &w->c[c];
		const char *k, *text;

		wc->r = (struct why_result){ WHY_NONE, -1, -1 };
		if (!json_object_is_type(v, json_type_object))
			continue;
		wc->stalled = true;
		k = json_read_str(json_read_get(v, JSON_KEY_CAUSE));
		text = json_read_str(json_read_get(v, JSON_KEY_TEXT));
		for (int r = WHY_NONE + 1; k && r < NWHY; r++)
			if (strcmp(why_rules[r].key, k) == 0)
				wc->r.cause = (enum why_cause)r;
		if (wc->r.cause != WHY_NONE && text)
			snprintf(wc->text, sizeof(wc->text), "%s", text);
	}
}

/* The ranked causes (absent in recordings before them: none). */
static void ranked_from(json_object *a, struct row_why *w)
{
	size_t n = json_object_is_type(a, json_type_array) ?
		   json_object_array_length(a) : 0;

	w->nranked = 0;
	for (size_t i = 0; i < n && w->nranked < NWHY; i++) {
		json_object *v = json_object_array_get_idx(a, i);
		const char *k = json_read_str(json_read_get(v, JSON_KEY_CAUSE));
		const char *text = json_read_str(json_read_get(v, JSON_KEY_TEXT));
		struct row_why_rank *r = &w->ranked[w->nranked];
		double share;

		if (!k || !opt_num(json_read_get(v, JSON_KEY_SHARE_PCT), &share))
			continue;
		memset(r, 0, sizeof(*r));
		for (int c = WHY_NONE + 1; c < NWHY; c++)
			if (strcmp(why_rules[c].key, k) == 0)
				r->r = (struct why_result){ (enum why_cause)c,
							    -1, -1 };
		if (r->r.cause == WHY_NONE)
			continue;
		r->share_pct = share;
		snprintf(r->text, sizeof(r->text), "%s", text ? text : "");
		w->nranked++;
	}
}

static int version_from(json_object *v)
{
	long long n = json_read_int_or(v, 0);

	return n == 1 || n == 2 ? (int)n : 0;
}

/* A row's "why" object into w; impossible values counted in *dropped. */
static void why_from(json_object *o, struct row_why *w, size_t *dropped)
{
	struct evidence *ev = &w->ev;
	const char *src = json_read_str(json_read_get(o, JSON_KEY_STATES_SOURCE));

	memset(w, 0, sizeof(*w));
	if (opt_num(json_read_get(o, JSON_KEY_INTERVAL_S), &ev->interval_s) &&
	    !ok_rate(ev->interval_s)) {
		ev->interval_s = 0; /* no interval */
		*dropped += 1;
	}
	causes_from(json_read_get(o, JSON_KEY_CAUSES), w);
	ranked_from(json_read_get(o, JSON_KEY_RANKED), w);
	ev->cpu_cgroup_version = version_from(json_read_get(o, JSON_KEY_CPU_CGROUP_VERSION));
	ev->mem_cgroup_version = version_from(json_read_get(o, JSON_KEY_MEM_CGROUP_VERSION));
	ev->io_cgroup_version = version_from(json_read_get(o, JSON_KEY_IO_CGROUP_VERSION));
	kvals_from(o, ev, evidence_fields, evidence_nfields);
	io_devices_from(json_read_get(o, JSON_KEY_IO_DEVICES), ev);
	disks_from(json_read_get(o, JSON_KEY_DISKS), ev, dropped);
	if (src && strcmp(src, JSON_KEY_STATES_KERNEL) == 0)
		ev->states_source = CGSTATS_KERNEL;
	else if (src && strcmp(src, JSON_KEY_STATES_PROC) == 0)
		ev->states_source = CGSTATS_PROC;
}

/*
 * The "why" of row or cgroup object o, into the room counted for this
 * sample (whys_room), or NULL.
 */
static const struct row_why *obj_why_from(struct json_read *rp, json_object *o)
{
	json_object *w = json_read_get(o, fields_get(FIELD_WHY)->key);

	if (!json_object_is_type(w, json_type_object) ||
	    rp->nwhys >= rp->capwhys)
		return NULL;
	why_from(w, &rp->whys[rp->nwhys], &rp->values_dropped);
	return &rp->whys[rp->nwhys++];
}

static void row_why_from(struct json_read *rp, json_object *o, struct row *r)
{
	const struct row_why *w = obj_why_from(rp, o);

	if (w)
		r->why = w;
}

/* A task row: the fields of the JSON layout, each through its setter. */
static void row_from(struct json_read *rp, json_object *o, struct row *r,
		     unsigned flags)
{
	const int *ids;
	int n;

	fields_row_init(r);
	r->flags = flags;
	ids = layouts_fields(FIELD_LAYOUT_JSON, &n);
	for (int i = 0; i < n; i++) {
		const struct field *f = fields_get(ids[i]);
		struct cat_figure d[NCAT];
		struct field_value v;

		if (!f->set)
			continue;
		value_from(json_read_get(o, f->key), f->type, d, &v);
		f->set(f, r, &v);
	}
	row_why_from(rp, o, r);
}

/* Room for n elements (at least one, so that [] is not NULL). */
static bool grow(void **p, size_t *cap, size_t n, size_t size)
{
	if (n == 0)
		n = 1;
	if (n <= *cap)
		return true;
	if (n > SIZE_MAX / size)
		return false;
	void *q = realloc(*p, n * size);
	if (!q)
		return false;
	*p = q;
	*cap = n;
	return true;
}

static bool ok_id(pid_t id)
{
	return id > 0 && id <= REC_CHECK_PID_MAX;
}

/* Elements of array a that are objects (the rows to make room for). */
static size_t objects_in(json_object *a)
{
	size_t n = 0, len = json_object_is_type(a, json_type_array) ?
			    json_object_array_length(a) : 0;

	for (size_t i = 0; i < len; i++)
		n += json_object_is_type(json_object_array_get_idx(a, i),
					 json_type_object);
	return n;
}

/*
 * The rows of array a into *buf, those that are tasks (see
 * json_read_sample); false when memory ran out.
 */
static bool rows_from(struct json_read *rp, json_object *a, struct row **buf,
		      size_t *cap, size_t *n, unsigned flags)
{
	size_t len = json_object_is_type(a, json_type_array) ?
		     json_object_array_length(a) : 0;
	size_t k = 0;

	if (!grow((void **)buf, cap, objects_in(a), sizeof(**buf)))
		return false;
	for (size_t i = 0; i < len; i++) {
		json_object *o = json_object_array_get_idx(a, i);
		struct row *r = &(*buf)[k];

		if (!json_object_is_type(o, json_type_object)) {
			rp->rows_skipped++;
			continue;
		}
		row_from(rp, o, r, flags);
		if (!ok_id(r->pid) || !ok_id(r->tgid)) {
			rp->rows_skipped++;
			continue;
		}
		k++;
	}
	*n = k;
	return true;
}

/* Rows (or cgroups) of array a with a "why" object. */
static size_t whys_in(json_object *a)
{
	size_t n = 0, len = json_object_is_type(a, json_type_array) ?
			    json_object_array_length(a) : 0;
	const char *k = fields_get(FIELD_WHY)->key;

	for (size_t i = 0; i < len; i++)
		n += json_object_is_type(json_read_get(
			json_object_array_get_idx(a, i), k), json_type_object);
	return n;
}

/* Room for every "why" of the sample at once: rows point into it. */
static bool whys_room(struct json_read *rp, json_object *o)
{
	size_t n = whys_in(json_read_get(o, JSON_KEY_TASKS)) +
		   whys_in(json_read_get(o, JSON_KEY_EXITED)) +
		   whys_in(json_read_get(o, JSON_KEY_THREAD_TASKS)) +
		   whys_in(json_read_get(o, JSON_KEY_THREAD_EXITED)) +
		   whys_in(json_read_get(o, JSON_KEY_CGROUPS));

	rp->nwhys = 0;
	return grow((void **)&rp->whys, &rp->capwhys, n, sizeof(*rp->whys));
}

/* "/" is 0, "/a" 1, "/a/b" 2. */
static int path_depth(const char *path)
{
	int depth = 0;

	for (const char *p = path; p && *p; p++)
		if (*p == '/' && p[1] && p[1] != '/')
			depth++;
	return depth;
}

static bool cgroups_from(struct json_read *rp, json_object *a, size_t *n)
{
	size_t len = json_object_array_length(a), k = 0;

	if (!grow((void **)&rp->cgroups, &rp->capcg, objects_in(a),
		  sizeof(*rp->cgroups)))
		return false;
	/* a name for each from its path where the recording has none */
	size_t unnamed = 0;
	for (size_t i = 0; i < len; i++)
		unnamed += !json_read_str(json_read_get(
			json_object_array_get_idx(a, i), JSON_KEY_NAME));
	if (!grow((void **)&rp->cgnames, &rp->capcgnames, unnamed,
		  sizeof(*rp->cgnames)))
		return false;
	unnamed = 0;
	for (size_t i = 0; i < len; i++) {
		json_object *o = json_object_array_get_idx(a, i);
		json_object *psi = json_read_get(o, JSON_KEY_PSI);
		struct cgroup_row *g = &rp->cgroups[k];
		long long nr = json_read_int_or(json_read_get(o, JSON_KEY_NR_TASKS), 0);

		if (!json_object_is_type(o, json_type_object) ||
		    !json_read_str(json_read_get(o, JSON_KEY_PATH))) {
			rp->rows_skipped++;
			continue;
		}
		k++;

		memset(g, 0, sizeof(*g));
		g->path = json_read_str(json_read_get(o, JSON_KEY_PATH));
		g->name = json_read_str(json_read_get(o, JSON_KEY_NAME));
		if (!g->name && g->path) {
			cgname_of(g->path, rp->cgnames[unnamed],
				  sizeof(rp->cgnames[0]));
			g->name = rp->cgnames[unnamed++];
		}
		g->depth = path_depth(g->path);
		g->have_psi = json_object_is_type(psi, json_type_object);
		if (g->have_psi)
			psi_from(psi, &g->psi);
		delay_from(json_read_get(o, fields_get(FIELD_DELAY)->key), g->d);
		g->total_pct = json_read_num(json_read_get(o, fields_get(FIELD_TOTAL)->key));
		g->nr_tasks = nr < 0 ? 0 : (size_t)nr;
		g->why = obj_why_from(rp, o);
	}
	*n = k;
	return true;
}

int json_read_sample(struct json_read *rp, json_object *o, struct sample *s)
{
	json_object *v, *cg, *tt, *te;
	bool mode_known;

	memset(s, 0, sizeof(*s));
	rp->rows_skipped = rp->values_dropped = 0;
	s->time = json_read_num(json_read_get(o, JSON_KEY_TIME));
	s->interval = json_read_num(json_read_get(o, JSON_KEY_INTERVAL));
	v = json_read_get(o, JSON_KEY_DELAYACCT);
	s->delayacct_known = json_object_is_type(v, json_type_boolean);
	s->delayacct = s->delayacct_known && json_object_get_boolean(v);
	long long ver = json_read_int_or(json_read_get(o, JSON_KEY_TASKSTATS_VERSION), 0);
	s->ts_version = ver < 0 || ver > UINT_MAX ? 0 : (unsigned)ver;
	opt_u64(json_read_get(o, JSON_KEY_EVENTS_LOST), &s->events_lost);
	opt_u64(json_read_get(o, JSON_KEY_EXIT_RECORDS_LOST), &s->exit_records_lost);
	uint64_t dropped = 0;
	opt_u64(json_read_get(o, JSON_KEY_FIGURES_DROPPED), &dropped);
	s->dropped = (size_t)dropped;
	psi_from(json_read_get(o, JSON_KEY_PSI), &s->psi);
	if (!whys_room(rp, o) ||
	    !rows_from(rp, json_read_get(o, JSON_KEY_TASKS), &rp->rows, &rp->caprows, &s->nrows, 0) ||
	    !rows_from(rp, json_read_get(o, JSON_KEY_EXITED), &rp->exited, &rp->capexited,
		       &s->nexited, ROW_EXITED))
		return -1;
	s->rows = s->nrows ? rp->rows : NULL;
	s->exited = s->nexited ? rp->exited : NULL;
	s->trigger = json_read_str(json_read_get(o, JSON_KEY_TRIGGER));
	cg = json_read_get(o, JSON_KEY_CGROUPS);
	if (json_object_is_type(cg, json_type_array)) {
		if (!cgroups_from(rp, cg, &s->ncgroups))
			return -1;
		s->cgroups = rp->cgroups;
	}
	tt = json_read_get(o, JSON_KEY_THREAD_TASKS);
	if (json_object_is_type(tt, json_type_array)) {
		if (!rows_from(rp, tt, &rp->trows, &rp->captrows,
			       &s->nthread_rows, 0))
			return -1;
		s->thread_rows = rp->trows;
	}
	te = json_read_get(o, JSON_KEY_THREAD_EXITED);
	if (json_object_is_type(te, json_type_array)) {
		if (!rows_from(rp, te, &rp->texited, &rp->captexited,
			       &s->nthread_exited, ROW_EXITED))
			return -1;
		s->thread_exited = rp->texited;
	}
	/* recordings older than these keys: per interval, and see below */
	v = json_read_get(o, JSON_KEY_ACCUMULATED);
	s->accumulated = json_object_is_type(v, json_type_boolean) &&
			 json_object_get_boolean(v);
	v = json_read_get(o, JSON_KEY_THREADS);
	mode_known = json_object_is_type(v, json_type_boolean);
	s->threads = mode_known && json_object_get_boolean(v);

	/* what the contract does not say, as far as the rows tell it */
	size_t procs = 0, threads = 0;
	for (size_t i = 0; i < s->nrows; i++) {
		const struct row *r = &s->rows[i];

		/*
		 * A recording older than the "threads" key: guess threads
		 * from a row that is not its process's main thread (so the
		 * rows of a -H recording of single-threaded processes read
		 * as processes there).
		 */
		if (!mode_known && r->pid != r->tgid)
			s->threads = true;
		if (r->pid == r->tgid)
			procs++;
		if (r->info.threads > 0)
			threads += (size_t)r->info.threads;
	}
	s->nprocs = procs;
	s->dropped += rp->values_dropped;
	if (s->threads)
		s->nthreads = s->nrows;
	else if (s->thread_rows)
		s->nthreads = s->nthread_rows;
	else
		s->nthreads = threads;
	return 0;
}


size_t json_read_room(json_object *o)
{
	size_t rows = objects_in(json_read_get(o, JSON_KEY_TASKS)) +
		      objects_in(json_read_get(o, JSON_KEY_EXITED)) +
		      objects_in(json_read_get(o, JSON_KEY_THREAD_TASKS)) +
		      objects_in(json_read_get(o, JSON_KEY_THREAD_EXITED));
	json_object *cg = json_read_get(o, JSON_KEY_CGROUPS);
	size_t whys = whys_in(json_read_get(o, JSON_KEY_TASKS)) +
		      whys_in(json_read_get(o, JSON_KEY_EXITED)) +
		      whys_in(json_read_get(o, JSON_KEY_THREAD_TASKS)) +
		      whys_in(json_read_get(o, JSON_KEY_THREAD_EXITED)) +
		      whys_in(cg);

	return rows * sizeof(struct row) +
	       objects_in(cg) * sizeof(struct cgroup_row) +
	       whys * sizeof(struct row_why);
}

/* One line (without "\n") as JSON: an object and nothing after it. */
json_object *json_read_line(json_tokener *tok, const char *s, size_t len)
{
	json_object *o;

	if (len > INT_MAX)
		return NULL;
	json_tokener_reset(tok);
	o = json_tokener_parse_ex(tok, s, (int)len);
	if (!o)
		return NULL;
	for (size_t i = json_tokener_get_parse_end(tok); i < len; i++) {
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r') {
			json_object_put(o);
			return NULL;
		}
	}
	if (!json_object_is_type(o, json_type_object)) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

json_tokener *json_read_tokener(void)
{
	json_tokener *tok = json_tokener_new_ex(JSON_SCAN_DEPTH);

	if (tok)
		json_tokener_set_flags(tok, JSON_TOKENER_STRICT |
				       JSON_TOKENER_VALIDATE_UTF8);
	return tok;
}

/* The format version of a header object, 0 when it is not one. */
int json_read_header_version(json_object *o)
{
	json_object *v = json_read_get(o, REC_MAGIC_KEY);
	long long ver;

	if (!json_object_is_type(v, json_type_int))
		return 0;
	ver = (long long)json_object_get_int64(v);
	if (ver < 1)
		return 0;
	return ver > INT_MAX ? INT_MAX : (int)ver;
}

bool json_read_is_sample(json_object *o)
{
	json_object *t = json_read_get(o, JSON_KEY_TIME);

	return (json_read_is_num(t) || json_object_is_type(t, json_type_null)) &&
	       json_object_is_type(json_read_get(o, JSON_KEY_TASKS), json_type_array);
}

void json_read_free(struct json_read *rp)
{
	free(rp->rows);
	free(rp->exited);
	free(rp->trows);
	free(rp->texited);
	free(rp->cgroups);
	free(rp->cgnames);
	free(rp->whys);
	memset(rp, 0, sizeof(*rp));
}
