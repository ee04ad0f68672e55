/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The task table: lookup, pid reuse by start time, growth, removal; the
 * lives of one id numbered apart while a sample may hold two of them.
 */
#include <config.h>

#include "live/tasktable.h"
#include "unit.h"

static bool odd(struct task *k, void *arg)
{
	(void)arg;
	return k->id % 2;
}

static void count(struct task *k, void *arg)
{
	(void)k;
	(*(size_t *)arg)++;
}

static bool not_first(struct task *k, void *arg)
{
	return k != arg;
}

static bool is_task(struct task *k, void *arg)
{
	return k == arg;
}

static const uint64_t S = 1000000000ULL;

/*
 * Lives of one id whose start is unknown (0) numbered apart: the one
 * that ended (retired, still to be shown) and each that took the id
 * after it; one past a life that left since the last sample was given
 * (that sample holds its key); 0 again once a sample without it passed.
 */
static void test_lives(void)
{
	struct tasktable *t = tasktable_new();
	bool created;
	struct task *a, *b, *c, *d, *e;

	CHECK(t != NULL);
	if (!t)
		return;
	a = tasktable_get(t, 5, 0, &created);
	CHECK(a && created && a->life == 0);
	tasktable_retire(t, a);
	b = tasktable_get(t, 5, 0, &created);
	CHECK(b && created && b->life == 1);
	tasktable_retire(t, b);
	c = tasktable_get(t, 5, 0, &created);
	CHECK(c && created && c->life == 2);
	/* a sample showed a, b and c; a and b let go, then c ends */
	tasktable_given(t);
	tasktable_free_retired(t);
	tasktable_retire(t, c);
	tasktable_free_retired(t);
	d = tasktable_get(t, 5, 0, &created);
	CHECK(d && created && d->life == 3);
	/* a sample with d alone; d ends and goes at the next */
	tasktable_given(t);
	tasktable_retire(t, d);
	tasktable_given(t);
	tasktable_free_retired(t);
	e = tasktable_get(t, 5, 0, &created);
	CHECK(e && created && e->life == 4);
	/* a sample with none of 5 since: numbered from 0 */
	tasktable_given(t);
	tasktable_retire(t, e);
	tasktable_free_retired(t);
	tasktable_given(t);
	a = tasktable_get(t, 5, 0, &created);
	CHECK(a && created && a->life == 0);
	/* another start: a life of its own, numbered all the same */
	tasktable_retire(t, a);
	b = tasktable_get(t, 5, 777, &created);
	CHECK(b && created && b->life == 1);
	tasktable_free(t);
}

/* When lives began, from each source's clock, and how they order. */
static void test_spans(void)
{
	/* /proc: start 1000 ticks at 100 Hz is [10 s, 10.01 s) */
	struct tt_span p = tasktable_span_ticks(1000, 100);
	CHECK_EQ_U(p.lo, 10 * S);
	CHECK_EQ_U(p.hi, 10 * S + 10000000 - 1);
	CHECK_EQ_U(tasktable_span_ticks(0, 100).hi, 0); /* unknown */
	CHECK(tasktable_order(p, tasktable_span_ticks(1001, 100)) == TT_BEFORE);
	CHECK(tasktable_order(tasktable_span_ticks(1001, 100), p) == TT_AFTER);
	CHECK(tasktable_order(p, tasktable_span_ticks(1000, 100)) == TT_SAME);
	CHECK(tasktable_order(p, (struct tt_span){ 0, 0 }) == TT_SAME);

	/* a fork event: monotonic time, the boot clock 3 s ahead */
	struct tt_clocks now = { .mono_ns = 50 * S, .boot_ns = 53 * S,
				 .real_ns = 1700000053 * S };
	struct tt_span f = tasktable_span_fork(7 * S + 5000000, &now);
	CHECK_EQ_U(f.hi, 10 * S + 5000000);
	CHECK(f.lo < 10 * S);
	CHECK(tasktable_order(p, f) == TT_SAME);
	CHECK(tasktable_order(tasktable_span_ticks(900, 100), f) == TT_BEFORE);

	/* an exit record read at 53 s: it lived 43 s, began in second 10 */
	struct ts_reading r = { .kind = TS_KIND_PID, .have_basic = true,
				.btime = 1700000010, .etime_us = 43 * 1000000 };
	struct tt_span e = tasktable_span_exit(&r, &now);
	CHECK_EQ_U(e.hi, 10 * S);
	CHECK(e.lo >= 8 * S && e.lo < 9 * S);
	CHECK(tasktable_order(p, e) == TT_SAME);
	/* read 40 s late: the start second still bounds it from above */
	now.boot_ns += 40 * S;
	now.mono_ns += 40 * S;
	now.real_ns += 40 * S;
	e = tasktable_span_exit(&r, &now);
	CHECK(e.hi > 11 * S && e.hi < 12 * S);
	CHECK(tasktable_order(tasktable_span_ticks(1500, 100), e) == TT_AFTER);
	/* the wall clock was set since: only the elapsed time bounds it */
	now.real_ns += 3600 * S;
	e = tasktable_span_exit(&r, &now);
	CHECK_EQ_U(e.lo, 0);
	CHECK_EQ_U(e.hi, 50 * S);
	/* a process record carries no start: unknown */
	r.kind = TS_KIND_TGID;
	CHECK_EQ_U(tasktable_span_exit(&r, &now).hi, 0);
	/* a lifetime longer than the machine is up: unknown */
	r.kind = TS_KIND_PID;
	r.etime_us = 1000 * 1000000ULL;
	CHECK_EQ_U(tasktable_span_exit(&r, &now).hi, 0);

	/* a task's span: its /proc start where known, else what events said */
	struct task k = { .born = f };
	CHECK(tasktable_task_span(&k, 100).hi == f.hi);
	k.start = 1000;
	CHECK(tasktable_task_span(&k, 100).hi == p.hi);
}

int main(void)
{
	struct tasktable *t = tasktable_new();
	bool created;
	struct task *k = tasktable_get(t, 100, 5000, &created);
	CHECK(k && created);
	k->ds.have_prev = true;
	k->ds.prev.d[CAT_CPU].total_ns = 123;
	tasktable_set_details(k, "old", "old --flag", "root");

	/* same id, same start: the same task */
	struct task *again = tasktable_get(t, 100, 5000, &created);
	CHECK(again == k && !created);
	/* unknown start (from a fork event) matches too */
	again = tasktable_get(t, 100, 0, &created);
	CHECK(again == k && !created);

	/* same id, other start: the pid was reused, a new task with no past */
	struct task *reused = tasktable_get(t, 100, 9000, &created);
	CHECK(reused && created);
	CHECK(!reused->ds.have_prev);
	CHECK(reused->comm == NULL);
	CHECK(tasktable_count(t) == 1);
	CHECK(tasktable_find(t, 100) == reused);

	/* many tasks: the table grows and finds them all */
	for (pid_t id = 1; id <= 20000; id++)
		if (id != 100)
			tasktable_get(t, id, (unsigned long long)id, &created);
	CHECK_EQ_U(tasktable_count(t), 20000);
	int missing = 0;
	for (pid_t id = 1; id <= 20000; id++)
		missing += tasktable_find(t, id) == NULL;
	CHECK_EQ_U(missing, 0);
	CHECK(tasktable_find(t, 20001) == NULL);

	tasktable_remove_if(t, odd, NULL);
	CHECK_EQ_U(tasktable_count(t), 10000);
	size_t n = 0;
	tasktable_foreach(t, count, &n);
	CHECK_EQ_U(n, 10000);
	CHECK(tasktable_find(t, 3) == NULL);
	CHECK(tasktable_find(t, 4) != NULL);
	tasktable_remove(t, 4);
	CHECK(tasktable_find(t, 4) == NULL);
	CHECK_EQ_U(tasktable_count(t), 9999);

	tasktable_set_details(tasktable_find(t, 6), "a", NULL, NULL);
	tasktable_set_details(tasktable_find(t, 6), "b", "b c", NULL);
	CHECK_STR(tasktable_find(t, 6)->comm, "b");
	CHECK_STR(tasktable_find(t, 6)->cmdline, "b c");

	/* a thread shares its process's names, and keeps them as they were */
	{
		struct task *p = tasktable_find(t, 30), *th = tasktable_find(t, 34);
		tasktable_set_details(p, "srv", "srv -x", "root");
		tasktable_set_details(th, "srv", NULL, NULL);
		tasktable_share_details(th, p);
		CHECK(th->cmdline == p->cmdline && th->user == p->user &&
		      th->comm == p->comm);
		struct task *w = tasktable_find(t, 32);
		tasktable_set_details(w, "worker", NULL, NULL);
		tasktable_share_details(w, p);
		CHECK(w->cmdline == p->cmdline && w->comm != p->comm);
		CHECK_STR(w->comm, "worker");
		tasktable_set_details(p, "new", "new -y", NULL); /* it exec'd */
		CHECK_STR(th->comm, "srv");
		CHECK_STR(th->cmdline, "srv -x");
		CHECK_STR(p->cmdline, "new -y");
		tasktable_remove(t, 30); /* the thread outlives what it shared */
		CHECK_STR(th->cmdline, "srv -x");
		CHECK_STR(w->user, "root");
	}
	/* retiring: out of the index at once, kept until freed or trimmed */
	struct task *r6 = tasktable_find(t, 6);
	tasktable_retire(t, r6);
	CHECK(tasktable_find(t, 6) == NULL);
	CHECK_EQ_U(tasktable_retired_count(t), 1);
	struct task *fresh = tasktable_get(t, 6, 0, &created);
	CHECK(fresh && created && fresh != r6);
	for (pid_t id = 8; id <= 20; id += 2)
		tasktable_retire(t, tasktable_find(t, id));
	CHECK_EQ_U(tasktable_retired_count(t), 8);
	CHECK_EQ_U(tasktable_trim_retired(t, 3), 5);
	CHECK_EQ_U(tasktable_retired_count(t), 3);
	size_t seen = 0;
	tasktable_foreach_retired(t, count, &seen);
	CHECK_EQ_U(seen, 3);
	tasktable_free(t);

	/* the retired ones by id: the oldest that fits comes first */
	t = tasktable_new();
	struct task *lives[3];
	for (int i = 0; i < 3; i++) {
		lives[i] = tasktable_get(t, 42, 1000 + (unsigned long long)i, &created);
		tasktable_retire(t, lives[i]);
	}
	struct task *live = tasktable_get(t, 42, 2000, &created);
	CHECK(created);
	CHECK(tasktable_find_retired(t, 42, NULL, NULL) == lives[0]);
	CHECK(tasktable_find_retired(t, 42, not_first, lives[0]) == lives[1]);
	CHECK(tasktable_find_retired(t, 43, NULL, NULL) == NULL);
	/* many retired: the index grows and still finds them */
	for (pid_t id = 1000; id < 6000; id++)
		tasktable_retire(t, tasktable_get(t, id, 1, &created));
	CHECK(tasktable_find_retired(t, 42, NULL, NULL) == lives[0]);
	CHECK(tasktable_find_retired(t, 5999, NULL, NULL) != NULL);
	/* trimming and freeing take them out of the index */
	tasktable_free_retired_if(t, is_task, lives[0]);
	CHECK(tasktable_find_retired(t, 42, NULL, NULL) == lives[1]);
	CHECK_EQ_U(tasktable_trim_retired(t, 100), 4902);
	CHECK(tasktable_find_retired(t, 42, NULL, NULL) == NULL);
	CHECK(tasktable_find_retired(t, 1000, NULL, NULL) == NULL);
	CHECK(tasktable_find_retired(t, 5999, NULL, NULL) != NULL);
	tasktable_free_retired(t);
	CHECK(tasktable_find_retired(t, 5999, NULL, NULL) == NULL);
	/* detached, the id is free for another entry; attached, it is back */
	tasktable_detach(t, live);
	CHECK(tasktable_find(t, 42) == NULL);
	struct task *other = tasktable_get(t, 42, 3000, &created);
	CHECK(created && other != live);
	tasktable_retire(t, other);
	tasktable_attach(t, live);
	CHECK(tasktable_find(t, 42) == live);
	CHECK(tasktable_find_retired(t, 42, NULL, NULL) == other);
	tasktable_free(t);

	test_spans();
	test_lives();
	return unit_done();
}
