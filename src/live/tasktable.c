/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The task table: a chained hash table keyed by task id, and the retired
 * tasks in the order they ended, indexed by id too.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "live/tasktable.h"

/* How much before its fork event a task may have been stamped as started. */
#define FORK_SLACK_NS 100000000ULL
/* ac_btime is within a second of the start; the clocks move a little. */
#define BTIME_SLACK_NS 1050000000LL

/* Slots of the lives that left since the last sample (power of two). */
#define TT_GONE_SLOTS 4096u

struct tasktable {
	struct task **bucket;
	size_t nbucket;   /* power of two */
	size_t count;
	struct task **retired;
	size_t nretired, capretired;
	struct task **rbucket;      /* the retired ones by id */
	size_t nrbucket;            /* power of two */
	uint32_t epoch;             /* samples given (tasktable_given) + 1 */
	/*
	 * Of the lives that left since the last sample, by id's slot: one
	 * past the latest's life number (ids that share a slot share it: a
	 * new life numbered higher than it needed is as good)
	 */
	struct tt_gone {
		uint32_t epoch;     /* of the sample it is good until */
		uint32_t next;
	} gone[TT_GONE_SLOTS];
};

static size_t hash_slot(size_t n, pid_t id)
{
	uint32_t h = (uint32_t)id * 2654435761u;
	return h & (n - 1);
}

static size_t slot(const struct tasktable *t, pid_t id)
{
	return hash_slot(t->nbucket, id);
}

struct tasktable *tasktable_new(void)
{
	struct tasktable *t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->nbucket = 1024;
	t->bucket = calloc(t->nbucket, sizeof(*t->bucket));
	t->nrbucket = 256;
	t->epoch = 1;
	t->rbucket = calloc(t->nrbucket, sizeof(*t->rbucket));
	if (!t->bucket || !t->rbucket) {
		free(t->bucket);
		free(t->rbucket);
		free(t);
		return NULL;
	}
	return t;
}

/*
 * A task's names (comm, cmdline, user) are counted strings: the threads
 * of a process share its command line and user, and its name where they
 * bear it, instead of a copy each. A task holds one reference to each.
 */
struct tt_str {
	size_t refs;
	char s[];
};

static struct tt_str *str_head(char *s)
{
	return (struct tt_str *)(void *)(s - offsetof(struct tt_str, s));
}

static char *str_new(const char *src)
{
	size_t n = strlen(src) + 1;
	struct tt_str *h = malloc(sizeof(*h) + n);
	if (!h)
		return NULL;
	h->refs = 1;
	memcpy(h->s, src, n);
	return h->s;
}

static char *str_ref(char *s)
{
	str_head(s)->refs++;
	return s;
}

static void str_unref(char *s)
{
	if (s && --str_head(s)->refs == 0)
		free(str_head(s));
}

/*
 * A task's reading, malloc'd, with room for when a final one came: k->cur
 * points to its first member.
 */
struct tt_reading {
	struct ts_reading r;
	double at;
};

static struct tt_reading *reading_of(const struct task *k)
{
	return (struct tt_reading *)(void *)k->cur;
}

/*
 * A life of id leaves the table (t: to remember it by; NULL at the end):
 * until the next sample a new life of id is numbered past it, so that
 * its key is not that of the one the last sample gave (next_life).
 */
static void task_free(struct tasktable *t, struct task *k)
{
	if (t) {
		struct tt_gone *g = &t->gone[hash_slot(TT_GONE_SLOTS, k->id)];

		if (g->epoch != t->epoch || g->next <= k->life) {
			g->next = k->life + 1;
			g->epoch = t->epoch;
		}
	}
	str_unref(k->comm);
	str_unref(k->cmdline);
	str_unref(k->user);
	if (k->proc) {
		free(k->proc->cgroup);
		free(k->proc->cgroups);
		free(k->proc->ev);
		free(k->proc);
	}
	derive_free(&k->ds);
	free(reading_of(k));
	free(k->ctx);
	free(k);
}

void tasktable_free(struct tasktable *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->nbucket; i++) {
		struct task *k = t->bucket[i];
		while (k) {
			struct task *n = k->hnext;
			task_free(NULL, k);
			k = n;
		}
	}
	for (size_t i = 0; i < t->nretired; i++)
		task_free(NULL, t->retired[i]);
	free(t->retired);
	free(t->rbucket);
	free(t->bucket);
	free(t);
}

size_t tasktable_count(const struct tasktable *t)
{
	return t->count;
}

struct task *tasktable_find(const struct tasktable *t, pid_t id)
{
	for (struct task *k = t->bucket[slot(t, id)]; k; k = k->hnext)
		if (k->id == id)
			return k;
	return NULL;
}

static void grow(struct tasktable *t)
{
	size_t n = t->nbucket * 2;
	struct task **b = calloc(n, sizeof(*b));
	if (!b)
		return; /* keep working with longer chains */
	struct task **old = t->bucket;
	size_t oldn = t->nbucket;
	t->bucket = b;
	t->nbucket = n;
	for (size_t i = 0; i < oldn; i++) {
		struct task *k = old[i];
		while (k) {
			struct task *next = k->hnext;
			size_t s = slot(t, k->id);
			k->hnext = b[s];
			b[s] = k;
			k = next;
		}
	}
	free(old);
}

void tasktable_remove(struct tasktable *t, pid_t id)
{
	struct task **pp = &t->bucket[slot(t, id)];
	for (; *pp; pp = &(*pp)->hnext) {
		if ((*pp)->id == id) {
			struct task *k = *pp;
			*pp = k->hnext;
			task_free(t, k);
			t->count--;
			return;
		}
	}
}

/*
 * The life number of a new task of id: one past the latest of the lives
 * of id the table still holds (live, being replaced, or retired: in a
 * sample they may all be) or let go since the last sample (which that
 * sample may hold), so that none of them has its (id, start, life) even
 * where their starts are the same or unknown; 0 when there are none.
 */
static uint32_t next_life(const struct tasktable *t, pid_t id,
			  const struct task *live)
{
	const struct tt_gone *g = &t->gone[hash_slot(TT_GONE_SLOTS, id)];
	bool any = live != NULL;
	uint32_t life = live ? live->life : 0;

	if (g->epoch == t->epoch && g->next && (!any || g->next - 1 > life)) {
		life = g->next - 1;
		any = true;
	}

	for (const struct task *k = t->rbucket[hash_slot(t->nrbucket, id)]; k;
	     k = k->rnext)
		if (k->id == id) {
			if (!any || k->life > life)
				life = k->life;
			any = true;
		}
	return any ? life + 1 : 0;
}

struct task *tasktable_get(struct tasktable *t, pid_t id, unsigned long long start,
		    bool *created)
{
	struct task *k = tasktable_find(t, id);
	*created = false;
	if (k && (k->start == start || !start || !k->start)) {
		if (!k->start)
			k->start = start;
		return k;
	}
	uint32_t life = next_life(t, id, k);
	if (k)
		tasktable_remove(t, id); /* the id was reused: a new task */
	if (t->count >= t->nbucket)
		grow(t);
	k = calloc(1, sizeof(*k));
	if (!k)
		return NULL;
	k->id = id;
	k->start = start;
	k->life = life;
	k->uid = (uid_t)-1;
	k->info = TASK_INFO_UNKNOWN;
	size_t s = slot(t, id);
	k->hnext = t->bucket[s];
	t->bucket[s] = k;
	t->count++;
	*created = true;
	return k;
}

void tasktable_given(struct tasktable *t)
{
	t->epoch++;
}

void tasktable_foreach(struct tasktable *t, void (*fn)(struct task *, void *),
		void *arg)
{
	for (size_t i = 0; i < t->nbucket; i++)
		for (struct task *k = t->bucket[i]; k; k = k->hnext)
			fn(k, arg);
}

/* Unlink every task pred picks; retire it, or free it. */
static void unlink_if(struct tasktable *t, bool (*pred)(struct task *, void *),
		      void *arg, bool retire);

void tasktable_remove_if(struct tasktable *t, bool (*pred)(struct task *, void *),
		  void *arg)
{
	unlink_if(t, pred, arg, false);
}

/* Index the retired tasks by id in twice as many slots (if memory allows). */
static void grow_retired_index(struct tasktable *t)
{
	size_t n = t->nrbucket * 2;
	struct task **b = calloc(n, sizeof(*b));
	if (!b)
		return; /* keep working with longer chains */
	free(t->rbucket);
	t->rbucket = b;
	t->nrbucket = n;
	/* oldest first, each in front: every chain runs newest first */
	for (size_t i = 0; i < t->nretired; i++) {
		struct task *k = t->retired[i];
		size_t s = hash_slot(n, k->id);
		k->rnext = b[s];
		b[s] = k;
	}
}

static int push_retired(struct tasktable *t, struct task *k)
{
	if (t->nretired == t->capretired) {
		size_t n = t->capretired ? t->capretired * 2 : 64;
		struct task **p = realloc(t->retired, n * sizeof(*p));
		if (!p)
			return -1;
		t->retired = p;
		t->capretired = n;
	}
	t->retired[t->nretired++] = k;
	if (t->nretired > t->nrbucket) {
		grow_retired_index(t); /* indexes k as well */
		if (t->nretired <= t->nrbucket)
			return 0;
	}
	size_t s = hash_slot(t->nrbucket, k->id);
	k->rnext = t->rbucket[s];
	t->rbucket[s] = k;
	return 0;
}

static void unindex_retired(struct tasktable *t, struct task *k)
{
	struct task **pp = &t->rbucket[hash_slot(t->nrbucket, k->id)];
	for (; *pp; pp = &(*pp)->rnext) {
		if (*pp == k) {
			*pp = k->rnext;
			k->rnext = NULL;
			return;
		}
	}
}

void tasktable_retire(struct tasktable *t, struct task *k)
{
	struct task **pp = &t->bucket[slot(t, k->id)];
	for (; *pp; pp = &(*pp)->hnext) {
		if (*pp == k) {
			*pp = k->hnext;
			k->hnext = NULL;
			t->count--;
			if (push_retired(t, k) < 0)
				task_free(t, k); /* out of memory: lose the row */
			return;
		}
	}
}

void tasktable_retire_if(struct tasktable *t, bool (*pred)(struct task *, void *),
		  void *arg)
{
	unlink_if(t, pred, arg, true);
}

static void unlink_if(struct tasktable *t, bool (*pred)(struct task *, void *),
		      void *arg, bool retire)
{
	for (size_t i = 0; i < t->nbucket; i++) {
		struct task **pp = &t->bucket[i];
		while (*pp) {
			struct task *k = *pp;
			if (!pred(k, arg)) {
				pp = &k->hnext;
				continue;
			}
			*pp = k->hnext;
			k->hnext = NULL;
			t->count--;
			if (!retire || push_retired(t, k) < 0)
				task_free(t, k);
		}
	}
}

size_t tasktable_retired_count(const struct tasktable *t)
{
	return t->nretired;
}

void tasktable_foreach_retired(struct tasktable *t,
			void (*fn)(struct task *, void *), void *arg)
{
	for (size_t i = 0; i < t->nretired; i++)
		fn(t->retired[i], arg);
}

void tasktable_free_retired(struct tasktable *t)
{
	for (size_t i = 0; i < t->nretired; i++)
		task_free(t, t->retired[i]);
	t->nretired = 0;
	memset(t->rbucket, 0, t->nrbucket * sizeof(*t->rbucket));
}

size_t tasktable_trim_retired(struct tasktable *t, size_t max)
{
	if (t->nretired <= max)
		return 0;
	size_t drop = t->nretired - max;
	for (size_t i = 0; i < drop; i++) {
		unindex_retired(t, t->retired[i]);
		task_free(t, t->retired[i]);
	}
	memmove(t->retired, t->retired + drop, max * sizeof(*t->retired));
	t->nretired = max;
	return drop;
}

void tasktable_free_retired_if(struct tasktable *t,
			bool (*pred)(struct task *, void *), void *arg)
{
	size_t kept = 0;
	for (size_t i = 0; i < t->nretired; i++) {
		if (pred(t->retired[i], arg)) {
			unindex_retired(t, t->retired[i]);
			task_free(t, t->retired[i]);
		} else {
			t->retired[kept++] = t->retired[i];
		}
	}
	t->nretired = kept;
}

struct task *tasktable_find_retired(const struct tasktable *t, pid_t id,
			     bool (*pred)(struct task *, void *), void *arg)
{
	struct task *oldest = NULL;
	for (struct task *k = t->rbucket[hash_slot(t->nrbucket, id)]; k;
	     k = k->rnext)
		if (k->id == id && (!pred || pred(k, arg)))
			oldest = k; /* the chain runs newest first */
	return oldest;
}

void tasktable_detach(struct tasktable *t, struct task *k)
{
	struct task **pp = &t->bucket[slot(t, k->id)];
	for (; *pp; pp = &(*pp)->hnext) {
		if (*pp == k) {
			*pp = k->hnext;
			k->hnext = NULL;
			t->count--;
			return;
		}
	}
}

void tasktable_attach(struct tasktable *t, struct task *k)
{
	size_t s = slot(t, k->id);
	k->hnext = t->bucket[s];
	t->bucket[s] = k;
	t->count++;
}

static void replace(char **dst, const char *src)
{
	if (!src)
		return;
	if (*dst && strcmp(*dst, src) == 0)
		return;
	char *n = str_new(src);
	if (!n)
		return;
	str_unref(*dst);
	*dst = n;
}

/* *dst becomes the counted string src (kept when src is NULL). */
static void share(char **dst, char *src)
{
	if (!src || *dst == src)
		return;
	str_unref(*dst);
	*dst = str_ref(src);
}

bool tasktable_set_reading(struct task *k, const struct ts_reading *r)
{
	struct tt_reading *b = reading_of(k);

	if (!b && !(b = malloc(sizeof(*b)))) {
		k->have_cur = false;
		return false;
	}
	b->r = *r;
	b->at = 0;
	k->cur = &b->r;
	k->have_cur = true;
	/* a thread's own record names its parent; a process record leaves it 0 */
	if (r->kind == TS_KIND_PID && r->have_basic && r->ppid)
		k->rec_ppid = (pid_t)r->ppid;
	return true;
}

bool tasktable_set_final(struct task *k, const struct ts_reading *r, double at)
{
	if (!tasktable_set_reading(k, r))
		return false;
	reading_of(k)->at = at;
	return true;
}

double tasktable_final_at(const struct task *k)
{
	return reading_of(k)->at;
}

void tasktable_drop_reading(struct task *k)
{
	free(reading_of(k));
	k->cur = NULL;
	k->have_cur = false;
}

bool tasktable_make_proc(struct task *k)
{
	if (!k->proc)
		k->proc = calloc(1, sizeof(*k->proc));
	return k->proc != NULL;
}

const char *tasktable_cgroup(const struct task *k)
{
	return k->proc ? k->proc->cgroup : NULL;
}

struct tt_ctx *tasktable_ctx(struct task *k)
{
	if (!k->ctx)
		k->ctx = calloc(1, sizeof(*k->ctx));
	return k->ctx;
}

void tasktable_set_details(struct task *k, const char *comm, const char *cmdline,
		      const char *user)
{
	replace(&k->comm, comm);
	replace(&k->cmdline, cmdline);
	replace(&k->user, user);
}

void tasktable_share_details(struct task *k, const struct task *p)
{
	share(&k->cmdline, p->cmdline);
	share(&k->user, p->user);
	if (k->comm && p->comm && strcmp(k->comm, p->comm) == 0)
		share(&k->comm, p->comm);
}

struct tt_span tasktable_span_ticks(unsigned long long ticks, long hz)
{
	struct tt_span s = { 0, 0 };
	if (!ticks || hz <= 0)
		return s;
	uint64_t tick = 1000000000ULL / (uint64_t)hz;
	s.lo = (uint64_t)ticks * tick;
	s.hi = s.lo + tick - 1;
	return s;
}

uint64_t tasktable_boot_ns(uint64_t mono_ns, const struct tt_clocks *now)
{
	/* the two clocks part only while the machine sleeps */
	uint64_t asleep = now->boot_ns > now->mono_ns ?
			  now->boot_ns - now->mono_ns : 0;
	return mono_ns + asleep;
}

struct tt_span tasktable_span_fork(uint64_t event_ns, const struct tt_clocks *now)
{
	struct tt_span s = { 0, 0 };
	if (!event_ns)
		return s;
	s.hi = tasktable_boot_ns(event_ns, now);
	s.lo = s.hi > FORK_SLACK_NS ? s.hi - FORK_SLACK_NS : 0;
	return s;
}

struct tt_span tasktable_span_exit(const struct ts_reading *r,
			    const struct tt_clocks *now)
{
	struct tt_span s = { 0, 0 };
	if (r->kind != TS_KIND_PID || !r->have_basic)
		return s;
	/* it ended before now, etime after it began */
	uint64_t lived = r->etime_us * 1000;
	if (r->etime_us > UINT64_MAX / 1000 || lived >= now->boot_ns)
		return s; /* longer than the machine is up: no figure */
	s.hi = now->boot_ns - lived;
	if (!r->btime)
		return s;
	/* the start second, moved from the wall clock to the boot clock */
	int64_t wall_minus_boot = (int64_t)now->real_ns - (int64_t)now->boot_ns;
	if (r->btime > (uint64_t)INT64_MAX / 1000000000ULL)
		return s;
	int64_t at = (int64_t)r->btime * 1000000000LL - wall_minus_boot;
	int64_t lo = at - BTIME_SLACK_NS, hi = at + BTIME_SLACK_NS;
	if (hi <= 0 || (lo > 0 && (uint64_t)lo > s.hi))
		return s; /* the wall clock was set since: only the bound */
	return tasktable_span_meet(s, (struct tt_span){ lo > 0 ? (uint64_t)lo : 0,
							(uint64_t)hi });
}

struct tt_span tasktable_task_span(const struct task *k, long hz)
{
	if (k->start)
		return tasktable_span_ticks(k->start, hz);
	return k->born;
}

struct tt_span tasktable_span_meet(struct tt_span a, struct tt_span b)
{
	if (!a.hi)
		return b;
	if (!b.hi)
		return a;
	return (struct tt_span){ a.lo > b.lo ? a.lo : b.lo,
				 a.hi < b.hi ? a.hi : b.hi };
}

enum tasktable_order tasktable_order(struct tt_span a, struct tt_span b)
{
	if (!a.hi || !b.hi)
		return TT_SAME;
	if (a.hi < b.lo)
		return TT_BEFORE;
	if (a.lo > b.hi)
		return TT_AFTER;
	return TT_SAME;
}
