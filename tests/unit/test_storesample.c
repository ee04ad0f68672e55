/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The readings a sample was made of, handed out whole: the container
 * (live/storesample.h), a row's details made from a store task
 * (assemble_info, and assemble_context for what stands next to a stall:
 * what the have bits do not give stays unknown), and
 * the live monitor on this machine, recording or not: recording, its
 * producer_readings() holds a store task for every row it gave, whose
 * details make the row's; not recording, it keeps none.
 */
#include <config.h>

#include <string.h>
#include <unistd.h>

#include "live/monitor.h"
#include "live/storesample.h"
#include "model/assemble.h"
#include "model/producer.h"
#include "unit.h"

static void test_container(void)
{
	struct storesample *w = storesample_new();
	struct store_task t = { .r = { .id = 7, .tgid = 7 }, .comm = "a" };
	struct store_sample in = { .mono = 5.0, .thread_readings = false };

	CHECK(w != NULL);
	CHECK(storesample_get(w) == NULL); /* nothing yet */
	storesample_begin(w);
	for (int i = 0; i < 300; i++) { /* past the first growth */
		t.r.id = 100 + i;
		CHECK(storesample_push(w, false, &t) != NULL);
	}
	CHECK(storesample_push(w, true, &t) != NULL);
	for (int i = 0; i < 20; i++) { /* past the first growth */
		struct store_evidence ev = { .id = 100 + i, .start = 9 };

		storesample_push_evidence(w, &ev);
	}
	CHECK(storesample_get(w) == NULL); /* not ended yet */
	storesample_end(w, &in, NULL, 3);
	const struct store_sample *s = storesample_get(w);
	CHECK(s != NULL);
	if (s) {
		CHECK_EQ_U(s->ntasks, 300);
		CHECK_EQ_U(s->tasks[299].r.id, 399);
		CHECK_NEAR(s->mono, 5.0, 0);
		/* no thread readings taken: none handed out */
		CHECK(s->thread_tasks == NULL);
		CHECK_EQ_U(s->nthread_tasks, 0);
		CHECK_EQ_U(s->ncgroups, 0); /* cgroups NULL: not collected */
		CHECK_EQ_U(s->nevidence, 20);
		CHECK(s->evidence && s->evidence[19].id == 119);
	}
	/* the next reading drops the last one's */
	storesample_begin(w);
	CHECK(storesample_get(w) == NULL);
	in.thread_readings = true;
	storesample_push(w, true, &t);
	storesample_end(w, &in, NULL, 0);
	s = storesample_get(w);
	CHECK(s && s->ntasks == 0 && s->nthread_tasks == 1);
	CHECK(s && s->nevidence == 0 && s->evidence == NULL);
	storesample_free(w);
}

static void test_info(void)
{
	struct assemble a;
	struct task_info info;
	struct task_ctx ctx;
	struct store_task t;

	assemble_init(&a, &(struct assemble_settings){ .accumulate = false });
	memset(&t, 0, sizeof(t));
	/* values present but no have bit: all unknown */
	t.ppid = 3;
	t.state = 'D';
	t.threads = 4;
	t.start_real = 1.7e9;
	t.rss_kib = 100;
	t.nice = 5;
	assemble_info(&t, &info);
	assemble_context(&a, NULL, &t, &ctx);
	CHECK_EQ_U(info.ppid, 0);
	CHECK(info.state == '\0');
	CHECK(info.threads == -1);
	CHECK_NEAR(info.start, 0, 0);
	CHECK_EQ_U(ctx.have, 0);

	t.have = STORE_HAVE_PPID | STORE_HAVE_STATE | STORE_HAVE_THREADS |
		 STORE_HAVE_START | STORE_HAVE_RSS | STORE_HAVE_NICE;
	assemble_info(&t, &info);
	assemble_context(&a, NULL, &t, &ctx);
	CHECK_EQ_U(info.ppid, 3);
	CHECK(info.state == 'D');
	CHECK(info.threads == 4);
	CHECK_NEAR(info.start, 1.7e9, 0);
	CHECK_EQ_U(ctx.have, CTX_RSS | CTX_NICE);
	CHECK(ctx.rss_kib == 100 && ctx.nice == 5);
	assemble_free(&a);
}

/* What two readings make (the rates): not of one store task alone. */
#define RATES (CTX_READ | CTX_WRITE | CTX_MAJFLT)

static const struct store_task *find(const struct store_sample *s, pid_t pid)
{
	for (size_t i = 0; i < s->ntasks; i++)
		if (s->tasks[i].r.id == pid)
			return &s->tasks[i];
	return NULL;
}

/* Every row of out has its store task, and its details are made of it. */
static void check_rows(const struct sample *out, const struct store_sample *s)
{
	struct assemble a;
	size_t matched = 0;

	assemble_init(&a, &(struct assemble_settings){ .accumulate = false });
	for (size_t i = 0; i < out->nrows; i++) {
		const struct row *r = &out->rows[i];
		const struct store_task *t = find(s, r->pid);
		struct task_info info;
		struct task_ctx ctx;

		CHECK(t != NULL);
		if (!t) {
			fprintf(stderr, "row %d (%s) has no store task\n",
				(int)r->pid, r->comm);
			continue;
		}
		assemble_info(t, &info);
		assemble_context(&a, NULL, t, &ctx);
		if (info.state != r->info.state || info.ppid != r->info.ppid ||
		    info.threads != r->info.threads ||
		    info.start != r->info.start ||
		    (ctx.have & ~RATES) != (r->ctx.have & ~RATES) ||
		    ctx.nice != r->ctx.nice ||
		    ctx.rss_kib != r->ctx.rss_kib ||
		    strcmp(t->comm, r->comm) != 0) {
			fprintf(stderr, "row %d: state %c ppid %d threads %d "
				"rss %lld, its store task %c %d %d %lld\n",
				(int)r->pid, r->info.state ? r->info.state : '-',
				(int)r->info.ppid, r->info.threads,
				r->ctx.rss_kib,
				info.state ? info.state : '-', (int)info.ppid,
				info.threads, ctx.rss_kib);
			CHECK(!"a row's details are its store task's");
		}
		matched++;
	}
	CHECK(matched > 0);
	assemble_free(&a);
}

/*
 * Contexts (read or kept) and evidence are dated at the sample's
 * reading time, as its counters are: the number of those that are not,
 * and of those that are (some must be: this process's context is read).
 */
static void check_dated(const struct store_sample *s)
{
	unsigned long long dated = 0, undated = 0;

	for (int set = 0; set < 2; set++) {
		const struct store_task *k = set ? s->thread_tasks : s->tasks;
		size_t n = set ? s->nthread_tasks : s->ntasks;

		for (size_t i = 0; i < n; i++) {
			if (!(k[i].have & STORE_HAVE_CTX_AT))
				continue;
			if (k[i].ctx_at == s->mono)
				dated++;
			else
				undated++;
		}
	}
	for (size_t i = 0; i < s->nevidence; i++) {
		if (s->evidence[i].r.when == s->mono)
			dated++;
		else
			undated++;
	}
	CHECK_EQ_U(undated, 0);
	CHECK(dated > 0);
}

static void test_live(void)
{
	struct monitor_opts mo = { .record = true, .record_threads = true,
				   .machine = true };
	int code;
	struct sample out;

	unit_live_lock();
	struct producer *p = monitor_new(&mo, NULL, &code);
	CHECK(p != NULL);
	if (!p)
		return;
	/* the baseline's readings first: what the first interval starts at */
	const struct store_sample *s = producer_readings(p);
	CHECK(s != NULL);
	CHECK(s && find(s, getpid()) != NULL);
	CHECK(s && s->nthread_tasks > 0 && s->thread_readings);
	CHECK(producer_sample(p, &out) == 0);
	s = producer_readings(p);
	CHECK(s != NULL);
	if (s) {
		const struct store_task *me = find(s, getpid());
		CHECK(me != NULL);
		CHECK(me && (me->have & STORE_HAVE_STATE) && me->state == 'R');
		CHECK(s->ntasks >= out.nrows + out.nexited);
		CHECK(s->nthread_tasks >= s->ntasks);
		CHECK((s->machine.have & (STORE_M_CPU | STORE_M_MEM)) ==
		      (STORE_M_CPU | STORE_M_MEM));
		CHECK_EQ_U(s->nprocs, out.nprocs);
		check_rows(&out, s);
		check_dated(s);
	}
	producer_free(p);

	/* not recording: nothing kept */
	mo.record = mo.record_threads = false;
	p = monitor_new(&mo, NULL, &code);
	CHECK(p != NULL);
	if (!p)
		return;
	CHECK(producer_sample(p, &out) == 0);
	CHECK(producer_readings(p) == NULL);
	producer_free(p);
}

int main(void)
{
	test_container();
	test_info();
	test_live();
	return unit_done();
}
