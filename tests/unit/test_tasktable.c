/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The task table: lookup, pid reuse by start time, growth, removal. */
#include <config.h>

#include "tasktable.h"
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

int main(void)
{
	struct tasktable *t = tt_new();
	bool created;
	struct task *k = tt_get(t, 100, 5000, &created);
	CHECK(k && created);
	k->have_prev = true;
	k->prev.d[CAT_CPU].total_ns = 123;
	task_set_details(k, "old", "old --flag", "root");

	/* same id, same start: the same task */
	struct task *again = tt_get(t, 100, 5000, &created);
	CHECK(again == k && !created);
	/* unknown start (from a fork event) matches too */
	again = tt_get(t, 100, 0, &created);
	CHECK(again == k && !created);

	/* same id, other start: the pid was reused, a new task with no past */
	struct task *reused = tt_get(t, 100, 9000, &created);
	CHECK(reused && created);
	CHECK(!reused->have_prev);
	CHECK(reused->comm == NULL);
	CHECK(tt_count(t) == 1);
	CHECK(tt_find(t, 100) == reused);

	/* many tasks: the table grows and finds them all */
	for (pid_t id = 1; id <= 20000; id++)
		if (id != 100)
			tt_get(t, id, (unsigned long long)id, &created);
	CHECK_EQ_U(tt_count(t), 20000);
	int missing = 0;
	for (pid_t id = 1; id <= 20000; id++)
		missing += tt_find(t, id) == NULL;
	CHECK_EQ_U(missing, 0);
	CHECK(tt_find(t, 20001) == NULL);

	tt_remove_if(t, odd, NULL);
	CHECK_EQ_U(tt_count(t), 10000);
	size_t n = 0;
	tt_foreach(t, count, &n);
	CHECK_EQ_U(n, 10000);
	CHECK(tt_find(t, 3) == NULL);
	CHECK(tt_find(t, 4) != NULL);
	tt_remove(t, 4);
	CHECK(tt_find(t, 4) == NULL);
	CHECK_EQ_U(tt_count(t), 9999);

	task_set_details(tt_find(t, 6), "a", NULL, NULL);
	task_set_details(tt_find(t, 6), "b", "b c", NULL);
	CHECK_STR(tt_find(t, 6)->comm, "b");
	CHECK_STR(tt_find(t, 6)->cmdline, "b c");
	/* retiring: out of the index at once, kept until freed or trimmed */
	struct task *r6 = tt_find(t, 6);
	tt_retire(t, r6);
	CHECK(tt_find(t, 6) == NULL);
	CHECK_EQ_U(tt_retired_count(t), 1);
	struct task *fresh = tt_get(t, 6, 0, &created);
	CHECK(fresh && created && fresh != r6);
	for (pid_t id = 8; id <= 20; id += 2)
		tt_retire(t, tt_find(t, id));
	CHECK_EQ_U(tt_retired_count(t), 8);
	CHECK_EQ_U(tt_trim_retired(t, 3), 5);
	CHECK_EQ_U(tt_retired_count(t), 3);
	size_t seen = 0;
	tt_foreach_retired(t, count, &seen);
	CHECK_EQ_U(seen, 3);
	tt_free(t);
	return unit_done();
}
