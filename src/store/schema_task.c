/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Tasks and threads of a store sample as the schema's rows and back
 * (schema.h says what is stored how).
 */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/schema.h"
#include "store/schema_impl.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

/*
 * A time's whole microseconds, rounded (0 for one that is not a time:
 * not finite, negative or past 10^12 s), the base of a stored age.
 */
static uint64_t us_of(double t)
{
	return isfinite(t) && t >= 0 && t < 1e12 ? (uint64_t)llround(t * 1e6) : 0;
}

/* The age the live monitor makes without a thread's own record. */
static double age_from(double at, double born)
{
	return born > 0 && at > born ? at - born : 0;
}

static int task_cmp(const void *a, const void *b)
{
	const struct schema_task *x = a, *y = b;

	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return (x->life > y->life) - (x->life < y->life);
}

/*
 * A value of a task that reads back as zero when not written: every
 * number but the key and those whose being written says something
 * (the times stored where they differ from the sample's, the age).
 */
static bool zero_by_default(const struct codec_field *f)
{
	switch (f->id) {
	case T_TGID: case T_ASKED_AT: case T_AT: case T_AGE: case T_AGE_US:
	case T_AGE_REL: case T_CTX_AT: case T_CTX_NS:
		return false;
	}
	return f->type != CODEC_STRING && !(f->flags & CODEC_KEY);
}

/* Zeros not written: most of a task's counters are (+0.0 of doubles). */
static void unknown_zeros(const struct codec_table *t, struct schema_task *o)
{
	static const unsigned char zero[8];

	for (size_t i = 0; i < t->nfields; i++) {
		const struct codec_field *f = &t->fields[i];

		if (zero_by_default(f) &&
		    memcmp((const unsigned char *)o + f->offset, zero, 8) == 0)
			schema_set(t, o, f->id, false);
	}
}

/*
 * The counters a carried reading stands on, from the task's previous row
 * where that holds them: then READING_STANDING says they are there.
 * Counters given with the reading (READING_STANDING) are kept.
 */
static void carry(struct schema_task *o, const struct schema_task *prev,
		  size_t nprev)
{
	const struct schema_task *p;

	if (o->flags & READING_STANDING)
		return;
	p = prev && nprev ?
		bsearch(o, prev, nprev, sizeof(*prev), task_cmp) : NULL;
	if (!p || ((p->flags & READING_CARRIED) &&
		   !(p->flags & READING_STANDING)))
		return; /* not known: zero */
	o->flags |= READING_STANDING;
	o->run_ns = p->run_ns;
	memcpy(o->count, p->count, sizeof(o->count));
	memcpy(o->total_ns, p->total_ns, sizeof(o->total_ns));
	memcpy(o->max_ns, p->max_ns, sizeof(o->max_ns));
	memcpy(o->max_at, p->max_at, sizeof(o->max_at));
}

/*
 * A time total that is whole microseconds (as the live monitor reads
 * them: ts_decode.h) stored as their count in the field of id us,
 * that of id ns left unknown (its member keeps the nanoseconds, for
 * carry()); any other as nanoseconds.
 */
static void time_in_us(const struct codec_table *t, struct schema_task *o,
		       uint64_t ns, uint64_t *us, unsigned ns_id, unsigned us_id)
{
	if (!codec_known(t, o, ns_id) || ns % 1000)
		return;
	*us = ns / 1000;
	schema_set(t, o, ns_id, false);
	schema_set(t, o, us_id, true);
}

static void times_in_us(const struct codec_table *t, struct schema_task *o)
{
	time_in_us(t, o, o->run_ns, &o->run_us, 10, T_RUN_US);
	for (unsigned c = 0; c < READING_NCAT; c++)
		time_in_us(t, o, o->total_ns[c], &o->total_us[c], T_TOTAL + c,
			   T_TOTAL_US + c);
}

static void task_reading_in(const struct codec_table *t,
			    struct schema_task *o, const struct task_reading *r,
			    const struct store_sample *in, double at0)
{
	o->id = (uint64_t)(int64_t)r->id;
	o->start = r->start;
	o->life = r->life;
	schema_set(t, o, T_LIFE, r->life != 0);
	o->tgid = (uint64_t)(int64_t)r->tgid;
	schema_set(t, o, T_TGID, r->tgid != r->id);
	o->asked_at = r->asked_at;
	o->at = r->at;
	schema_set(t, o, T_ASKED_AT, !schema_same(r->asked_at, in->query_start));
	schema_set(t, o, T_AT, !schema_same(r->at, at0));
	o->born = r->born;
	o->first_seen = r->first_seen;
	if (!schema_same(r->age, age_from(r->at, r->born))) {
		bool us = schema_whole(r->age, 1e6, &o->age_us);

		o->age = r->age;
		o->age_rel = (int64_t)(o->age_us - us_of(r->at));
		schema_set(t, o, us ? T_AGE_REL : T_AGE, true);
	}
	o->run_ns = r->run_ns;
	o->have = r->have;
	o->have_max = r->have_max;
	o->have_max_at = r->have_max_at;
	o->no_count = r->no_count;
	o->cats = r->cats;
	o->flags = r->flags;
	o->rthreads = r->threads;
	for (int c = 0; c < READING_NCAT; c++) {
		o->count[c] = r->d[c].count;
		o->total_ns[c] = r->d[c].total_ns;
		o->max_ns[c] = r->d[c].max_ns;
		o->max_at[c] = r->max_at[c];
	}
}

/*
 * A time as the live monitor makes it of a timespec, (double)tv_sec +
 * (double)tv_nsec / 1e9, as its whole nanoseconds: true when one gives
 * x back exactly (ns_time).
 */
static double ns_time(int64_t ns)
{
	return (double)(ns / 1000000000) + (double)(ns % 1000000000) / 1e9;
}

static bool time_ns(double x, int64_t *ns)
{
	if (!(x >= 0 && x < 4e9))
		return false;
	/* tv_nsec near 1e9 may have rounded x up to the next second */
	for (int64_t s = (int64_t)x; s >= (int64_t)x - 1 && s >= 0; s--) {
		int64_t n = llround((x - (double)s) * 1e9);

		for (int64_t k = n - 1; k <= n + 1; k++) {
			if (k < 0 || k >= 1000000000)
				continue;
			*ns = s * 1000000000 + k;
			if (schema_same(ns_time(*ns), x))
				return true;
		}
	}
	return false;
}

/* The members of a store_task its have mask says are known. */
static void task_have_in(const struct codec_table *t, struct schema_task *o,
			 const struct store_task *k, double ctx0)
{
	static const struct { uint32_t bit; unsigned id; } ids[] = {
		{ STORE_HAVE_UID, T_UID }, { STORE_HAVE_PPID, T_PPID },
		{ STORE_HAVE_STATE, T_STATE }, { STORE_HAVE_THREADS, T_THREADS },
		{ STORE_HAVE_START, T_START_REAL }, { STORE_HAVE_RSS, T_RSS },
		{ STORE_HAVE_SWAP, T_SWAP }, { STORE_HAVE_NICE, T_NICE },
		{ STORE_HAVE_IO, T_READ }, { STORE_HAVE_IO, T_WRITE },
		{ STORE_HAVE_MAJFLT, T_MAJFLT },
	};

	o->shave = k->have;
	o->uid = k->uid;
	o->ppid = k->ppid;
	o->threads = k->threads;
	o->state = k->state;
	o->nice = k->nice;
	o->start_real = k->start_real;
	o->rss_kib = k->rss_kib;
	o->swap_kib = k->swap_kib;
	o->read_bytes = k->read_bytes;
	o->write_bytes = k->write_bytes;
	o->majflt = k->majflt;
	for (size_t i = 0; i < N(ids); i++)
		schema_set(t, o, ids[i].id, k->have & ids[i].bit);
	o->ctx_at = k->ctx_at;
	schema_set(t, o, T_CTX_AT,
	    (k->have & STORE_HAVE_CTX_AT) && !schema_same(k->ctx_at, ctx0));
	int64_t ns, ns0;
	if (codec_known(t, o, T_CTX_AT) && time_ns(ctx0, &ns0) &&
	    time_ns(k->ctx_at, &ns)) {
		o->ctx_ns = ns - ns0;
		schema_set(t, o, T_CTX_AT, false);
		schema_set(t, o, T_CTX_NS, true);
	}
	if (k->have & STORE_HAVE_WCHAN)
		o->wchan = k->wchan;
	schema_set(t, o, T_WCHAN, k->have & STORE_HAVE_WCHAN);
}

static bool tasks_sorted(const struct schema_task *o, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (task_cmp(&o[i - 1], &o[i]) > 0)
			return false;
	return true;
}

int schema_task_in(struct schema_rows *r, int set_, const struct store_task *k,
		   size_t n, const struct store_sample *in,
		   const struct schema_rows *prev)
{
	const struct codec_table *t = &schema_tables[set_];

	if (n > r->cap[set_] || r->cap[set_] > SCHEMA_SHRINK(n)) {
		void *p = realloc(r->task[set_], (n ? n : 1) * sizeof(*r->task[set_]));

		if (!p)
			return -1;
		r->task[set_] = p;
		r->cap[set_] = n;
	}
	struct schema_task known;

	/* what every task starts knowing: all but the times and its age */
	memset(&known, 0, sizeof(known));
	for (size_t f = 0; f < t->nfields; f++)
		schema_set(t, &known, t->fields[f].id, true);
	schema_set(t, &known, T_AGE_REL, false);
	for (unsigned id = T_ASKED_AT; id <= T_AGE_US; id++)
		schema_set(t, &known, id, false);
	schema_set(t, &known, 6, true);
	schema_set(t, &known, 7, true);
	schema_set(t, &known, T_CTX_AT, false);
	schema_set(t, &known, T_CTX_NS, false);
	schema_set(t, &known, T_LIKE, false);
	schema_set(t, &known, T_RUN_US, false);
	for (unsigned c = 0; c < READING_NCAT; c++)
		schema_set(t, &known, T_TOTAL_US + c, false);
	for (size_t i = 0; i < n; i++) {
		struct schema_task *o = &r->task[set_][i];

		memset(o, 0, sizeof(*o));
		memcpy(o->known, known.known, sizeof(o->known));
		task_reading_in(t, o, &k[i].r, in, r->at0);
		task_have_in(t, o, &k[i], r->ctx0);
		o->comm = schema_str(k[i].comm);
		o->user = schema_str(k[i].user);
		o->cmdline = schema_str(k[i].cmdline);
		o->cgroup = k[i].cgroup;
		schema_set(t, o, T_CGROUP, k[i].cgroup != NULL);
	}
	if (!tasks_sorted(r->task[set_], n))
		qsort(r->task[set_], n, sizeof(*r->task[set_]), task_cmp);
	for (size_t i = 0; i < n; i++) {
		if (r->task[set_][i].flags & READING_CARRIED)
			carry(&r->task[set_][i], prev ? prev->task[set_] : NULL,
			      prev ? prev->rows[set_].n : 0);
		times_in_us(t, &r->task[set_][i]);
		unknown_zeros(t, &r->task[set_][i]);
	}
	r->rows[set_].rows = r->task[set_];
	r->rows[set_].n = n;
	return 0;
}

/* The task row of o's key in the n rows of p (key order), or NULL. */
static const struct schema_task *task_of(const struct schema_task *o,
					 const struct schema_task *p, size_t n)
{
	return n ? bsearch(o, p, n, sizeof(*p), task_cmp) : NULL;
}

const struct schema_task *schema_task_find(const struct schema_task *p,
					   size_t n, uint64_t id,
					   uint64_t start)
{
	size_t lo = 0, hi = n;

	/* the first row after every life of (id, start) */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (p[mid].id < id || (p[mid].id == id && p[mid].start <= start))
			lo = mid + 1;
		else
			hi = mid;
	}
	/* of them the latest life: the one alive */
	return lo && p[lo - 1].id == id && p[lo - 1].start == start ?
		&p[lo - 1] : NULL;
}

/* Whether f of rows a and b is the same: known in both, the same value. */
static bool same_field(const struct codec_table *t, const void *a,
		       const void *b, const struct codec_field *f)
{
	if (!codec_known(t, a, f->id) || !codec_known(t, b, f->id))
		return false;
	if (f->type == CODEC_STRING)
		return strcmp(schema_str_of(a, f), schema_str_of(b, f)) == 0;
	return schema_bits_at(a, f) == schema_bits_at(b, f);
}

/*
 * The fields a thread row written like its task's may lack where the
 * task has them, bit i of like >> 1 for the i-th: never reorder, only
 * append.
 */
static const unsigned like_lack_ids[] = {
	T_TGID, T_ASKED_AT, T_AT, T_AGE, T_AGE_US, T_CTX_AT, 72, 73, 75,
	T_CGROUP, T_AGE_REL, T_CTX_NS,
};

/*
 * Whether field id of o may be its own at all: a wait channel and when
 * its context was read only where its have says it has them (else what
 * o is given of p's is not read).
 */
static bool has_own(const struct schema_task *o, unsigned id)
{
	if (id == T_WCHAN)
		return o->shave & STORE_HAVE_WCHAN;
	if (id == T_CTX_AT || id == T_CTX_NS)
		return o->shave & STORE_HAVE_CTX_AT;
	return true;
}

/* The bit of field id in like >> 1, or -1 when it has none. */
static int like_lack_bit(unsigned id)
{
	for (size_t i = 0; i < sizeof(like_lack_ids) / sizeof(like_lack_ids[0]); i++)
		if (like_lack_ids[i] == id)
			return (int)i;
	return -1;
}

/*
 * The counters a thread row has of its context (read with its context,
 * at its own time, not with its reading): where they are not its
 * process's (its context read at another sample than the process's),
 * the row holds its own and says so with LIKE_OWN_CTX, since their
 * difference from the process's would move each sample as the
 * process's do; where they are the process's, their difference (zero,
 * not written).
 */
#define LIKE_OWN_CTX (1ull << 63)

static bool ctx_counter(unsigned id)
{
	return id == T_READ || id == T_WRITE || id == T_MAJFLT;
}

/*
 * Thread row o as its difference from its task's row p: numbers that
 * read back as zero when absent as differences (zero: not written), the
 * others (strings, times, its age) only where not p's, and those it
 * lacks where p has them named in like (a thread row does not know its
 * process's cgroup: the same each sample, so nothing in a delta). False
 * when that cannot be said.
 */
static bool like_in(const struct codec_table *t, struct schema_task *o,
		    const struct schema_task *p)
{
	uint64_t lack = 0;

	for (size_t i = 0; i < t->nfields; i++) {
		const struct codec_field *f = &t->fields[i];
		int bit;

		if ((f->flags & CODEC_KEY) || zero_by_default(f))
			continue;
		if (same_field(t, o, p, f))
			schema_set(t, o, f->id, false);
		else if (codec_known(t, o, f->id) || !codec_known(t, p, f->id) ||
			 !has_own(o, f->id))
			continue;
		else if ((bit = like_lack_bit(f->id)) >= 0)
			lack |= 1ull << bit;
		else
			return false;
	}
	bool own = false;

	for (size_t i = 0; i < t->nfields; i++)
		if (ctx_counter(t->fields[i].id))
			own |= schema_value_of(t, o, &t->fields[i]) !=
			       schema_value_of(t, p, &t->fields[i]);
	for (size_t i = 0; i < t->nfields; i++) {
		const struct codec_field *f = &t->fields[i];

		if (zero_by_default(f) && !(own && ctx_counter(f->id))) {
			schema_bits_put(o, f, schema_value_of(t, o, f) - schema_value_of(t, p, f));
			schema_set(t, o, f->id, true);
		}
	}
	o->like = 1 | lack << 1 | (own ? LIKE_OWN_CTX : 0);
	schema_set(t, o, T_LIKE, true);
	unknown_zeros(t, o);
	return true;
}

/* The thread rows as written: like_in where their task is there. */
int schema_task_like(struct schema_rows *r)
{
	const struct codec_table *t = &schema_tables[SCHEMA_THREADS];
	size_t n = r->rows[SCHEMA_THREADS].n;

	if (n > r->caplike || r->caplike > SCHEMA_SHRINK(n)) {
		void *p = realloc(r->like, (n ? n : 1) * sizeof(*r->like));

		if (!p)
			return -1;
		r->like = p;
		r->caplike = n;
	}
	for (size_t i = 0; i < n; i++) {
		struct schema_task *o = &r->like[i];
		const struct schema_task *p;

		*o = r->task[SCHEMA_THREADS][i];
		p = task_of(o, r->task[SCHEMA_TASKS], r->rows[SCHEMA_TASKS].n);
		if (p && !like_in(t, o, p))
			*o = r->task[SCHEMA_THREADS][i];
	}
	r->rows[SCHEMA_THREADS].rows = r->like;
	return 0;
}

/*
 * A thread row written as a difference (like_in) back into *o: its
 * numbers first, then what it left to the task's (but what like says
 * it lacks, and what has_own says it cannot have).
 */
static void like_out(const struct codec_table *t, struct schema_task *o,
		     const struct schema_task *p)
{
	uint64_t lack = (o->like & ~LIKE_OWN_CTX) >> 1;
	bool own = o->like & LIKE_OWN_CTX;

	for (size_t i = 0; i < t->nfields; i++) {
		const struct codec_field *f = &t->fields[i];

		if (zero_by_default(f))
			schema_bits_put(o, f, schema_value_of(t, o, f) +
				       (own && ctx_counter(f->id) ? 0 :
					schema_value_of(t, p, f)));
	}
	for (size_t i = 0; i < t->nfields; i++) {
		const struct codec_field *f = &t->fields[i];
		int bit = like_lack_bit(f->id);

		if ((f->flags & CODEC_KEY) || zero_by_default(f) ||
		    codec_known(t, o, f->id) || !codec_known(t, p, f->id) ||
		    (bit >= 0 && (lack >> bit & 1)) || !has_own(o, f->id))
			continue;
		memcpy((unsigned char *)o + f->offset,
		       (const unsigned char *)p + f->offset,
		       f->type == CODEC_STRING ? sizeof(const char *) : 8);
		schema_set(t, o, f->id, true);
	}
}

static void task_reading_out(const struct codec_table *t,
			     const struct schema_task *o, struct task_reading *r,
			     const struct store_sample *out, double at0)
{
	memset(r, 0, sizeof(*r));
	r->id = (int32_t)o->id;
	r->tgid = codec_known(t, o, T_TGID) ? (int32_t)o->tgid : r->id;
	r->start = o->start;
	r->life = (uint32_t)o->life;
	r->asked_at = codec_known(t, o, T_ASKED_AT) ? o->asked_at :
			out->query_start;
	r->at = codec_known(t, o, T_AT) ? o->at : at0;
	r->born = o->born;
	r->first_seen = o->first_seen;
	if (codec_known(t, o, T_AGE))
		r->age = o->age;
	else if (codec_known(t, o, T_AGE_REL))
		r->age = (double)(uint64_t)((uint64_t)o->age_rel +
					    us_of(r->at)) / 1e6;
	else if (codec_known(t, o, T_AGE_US))
		r->age = (double)o->age_us / 1e6;
	else
		r->age = age_from(r->at, r->born);
	r->have = (uint32_t)o->have;
	r->have_max = (uint32_t)o->have_max;
	r->have_max_at = (uint32_t)o->have_max_at;
	r->no_count = (uint32_t)o->no_count;
	r->cats = (uint32_t)o->cats;
	r->flags = (uint32_t)o->flags;
	r->threads = (int32_t)o->rthreads;
	if ((r->flags & READING_CARRIED) && !(r->flags & READING_STANDING))
		return;         /* the previous counters stand: not repeated */
	/* one of the two is written, the other is zero (time_in_us) */
	r->run_ns = o->run_ns + o->run_us * 1000;
	for (int c = 0; c < READING_NCAT; c++) {
		r->d[c].count = o->count[c];
		r->d[c].total_ns = o->total_ns[c] + o->total_us[c] * 1000;
		r->d[c].max_ns = o->max_ns[c];
		r->max_at[c] = o->max_at[c];
	}
}

static void task_out(const struct codec_table *t, const struct schema_task *o,
		     struct store_task *k, const struct store_sample *out,
		     double at0, double ctx0)
{
	memset(k, 0, sizeof(*k));
	task_reading_out(t, o, &k->r, out, at0);
	k->have = (uint32_t)o->shave;
	k->uid = (uint32_t)o->uid;
	k->ppid = (int32_t)o->ppid;
	k->threads = (int32_t)o->threads;
	k->state = (char)o->state;
	k->nice = (int8_t)o->nice;
	k->start_real = o->start_real;
	k->rss_kib = o->rss_kib;
	k->swap_kib = o->swap_kib;
	k->read_bytes = o->read_bytes;
	k->write_bytes = o->write_bytes;
	k->majflt = o->majflt;
	int64_t ns0;
	if (!(k->have & STORE_HAVE_CTX_AT))
		;
	else if (codec_known(t, o, T_CTX_NS) && time_ns(ctx0, &ns0) &&
		 o->ctx_ns <= INT64_MAX - ns0 && o->ctx_ns >= -ns0)
		k->ctx_at = ns_time(ns0 + o->ctx_ns);
	else
		k->ctx_at = codec_known(t, o, T_CTX_AT) ? o->ctx_at : ctx0;
	if (codec_known(t, o, T_WCHAN))
		snprintf(k->wchan, sizeof(k->wchan), "%s", o->wchan);
	k->comm = schema_str(o->comm);
	k->user = schema_str(o->user);
	k->cmdline = schema_str(o->cmdline);
	k->cgroup = codec_known(t, o, T_CGROUP) ? o->cgroup : NULL;
}

int schema_task_out(struct schema_rows *r, int set_,
		    const struct codec_rows *in, const struct codec_rows *tasks,
		    const struct store_sample *out)
{
	const struct codec_table *t = &schema_tables[set_];

	if (!in->n)
		return 0;
	struct store_task *k = schema_grow(r->out[set_], &r->capout[set_], in->n,
				    sizeof(*k));

	if (!k)
		return -1;
	r->out[set_] = k;
	for (size_t i = 0; i < in->n; i++) {
		struct schema_task o = ((const struct schema_task *)in->rows)[i];
		const struct schema_task *p;

		if (set_ == SCHEMA_THREADS && codec_known(t, &o, T_LIKE) &&
		    (o.like & 1) && (p = task_of(&o, tasks->rows, tasks->n)))
			like_out(t, &o, p);
		task_out(t, &o, &k[i], out, r->at0, r->ctx0);
	}
	return 0;
}

