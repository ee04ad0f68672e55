/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The task table: a chained hash table keyed by task id. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "tasktable.h"

struct tasktable {
	struct task **bucket;
	size_t nbucket;   /* power of two */
	size_t count;
	struct task **retired;
	size_t nretired, capretired;
};

static size_t slot(const struct tasktable *t, pid_t id)
{
	uint32_t h = (uint32_t)id * 2654435761u;
	return h & (t->nbucket - 1);
}

struct tasktable *tt_new(void)
{
	struct tasktable *t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->nbucket = 1024;
	t->bucket = calloc(t->nbucket, sizeof(*t->bucket));
	if (!t->bucket) {
		free(t);
		return NULL;
	}
	return t;
}

static void task_free(struct task *k)
{
	free(k->comm);
	free(k->cmdline);
	free(k->user);
	free(k->cgroup);
	free(k);
}

void tt_free(struct tasktable *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->nbucket; i++) {
		struct task *k = t->bucket[i];
		while (k) {
			struct task *n = k->hnext;
			task_free(k);
			k = n;
		}
	}
	tt_free_retired(t);
	free(t->retired);
	free(t->bucket);
	free(t);
}

size_t tt_count(const struct tasktable *t)
{
	return t->count;
}

struct task *tt_find(const struct tasktable *t, pid_t id)
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

void tt_remove(struct tasktable *t, pid_t id)
{
	struct task **pp = &t->bucket[slot(t, id)];
	for (; *pp; pp = &(*pp)->hnext) {
		if ((*pp)->id == id) {
			struct task *k = *pp;
			*pp = k->hnext;
			task_free(k);
			t->count--;
			return;
		}
	}
}

struct task *tt_get(struct tasktable *t, pid_t id, unsigned long long start,
		    bool *created)
{
	struct task *k = tt_find(t, id);
	*created = false;
	if (k && (k->start == start || !start || !k->start)) {
		if (!k->start)
			k->start = start;
		return k;
	}
	if (k)
		tt_remove(t, id); /* the id was reused: a new task */
	if (t->count >= t->nbucket)
		grow(t);
	k = calloc(1, sizeof(*k));
	if (!k)
		return NULL;
	k->id = id;
	k->start = start;
	k->uid = (uid_t)-1;
	k->threads = -1;
	size_t s = slot(t, id);
	k->hnext = t->bucket[s];
	t->bucket[s] = k;
	t->count++;
	*created = true;
	return k;
}

void tt_foreach(struct tasktable *t, void (*fn)(struct task *, void *),
		void *arg)
{
	for (size_t i = 0; i < t->nbucket; i++)
		for (struct task *k = t->bucket[i]; k; k = k->hnext)
			fn(k, arg);
}

/* Unlink every task pred picks; retire it, or free it. */
static void unlink_if(struct tasktable *t, bool (*pred)(struct task *, void *),
		      void *arg, bool retire);

void tt_remove_if(struct tasktable *t, bool (*pred)(struct task *, void *),
		  void *arg)
{
	unlink_if(t, pred, arg, false);
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
	return 0;
}

void tt_retire(struct tasktable *t, struct task *k)
{
	struct task **pp = &t->bucket[slot(t, k->id)];
	for (; *pp; pp = &(*pp)->hnext) {
		if (*pp == k) {
			*pp = k->hnext;
			k->hnext = NULL;
			t->count--;
			if (push_retired(t, k) < 0)
				task_free(k); /* out of memory: lose the row */
			return;
		}
	}
}

void tt_retire_if(struct tasktable *t, bool (*pred)(struct task *, void *),
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
				task_free(k);
		}
	}
}

size_t tt_retired_count(const struct tasktable *t)
{
	return t->nretired;
}

void tt_foreach_retired(struct tasktable *t,
			void (*fn)(struct task *, void *), void *arg)
{
	for (size_t i = 0; i < t->nretired; i++)
		fn(t->retired[i], arg);
}

void tt_free_retired(struct tasktable *t)
{
	for (size_t i = 0; i < t->nretired; i++)
		task_free(t->retired[i]);
	t->nretired = 0;
}

size_t tt_trim_retired(struct tasktable *t, size_t max)
{
	if (t->nretired <= max)
		return 0;
	size_t drop = t->nretired - max;
	for (size_t i = 0; i < drop; i++)
		task_free(t->retired[i]);
	memmove(t->retired, t->retired + drop, max * sizeof(*t->retired));
	t->nretired = max;
	return drop;
}

void tt_free_retired_if(struct tasktable *t,
			bool (*pred)(struct task *, void *), void *arg)
{
	size_t kept = 0;
	for (size_t i = 0; i < t->nretired; i++) {
		if (pred(t->retired[i], arg))
			task_free(t->retired[i]);
		else
			t->retired[kept++] = t->retired[i];
	}
	t->nretired = kept;
}

static void replace(char **dst, const char *src)
{
	if (!src)
		return;
	if (*dst && strcmp(*dst, src) == 0)
		return;
	char *n = strdup(src);
	if (!n)
		return;
	free(*dst);
	*dst = n;
}

void task_set_details(struct task *k, const char *comm, const char *cmdline,
		      const char *user)
{
	replace(&k->comm, comm);
	replace(&k->cmdline, cmdline);
	replace(&k->user, user);
}
