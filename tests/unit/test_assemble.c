/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The sample views see from samples of readings alone (model/assemble.h,
 * and the cgroup rows: model/cgrows.h): fixture store samples of a few
 * tasks, a thread view's readings, PSI, the machine line, a row's
 * context, cgroups; the figures worked out by hand next to each check.
 */
#include <config.h>

#include <stdio.h>
#include <string.h>

#include "model/assemble.h"
#include "model/categories.h"
#include "model/producer.h"
#include "model/cgrows.h"
#include "model/wchan.h"
#include "unit.h"

/* A whole store sample through the model: its tasks, then its threads. */
static void assemble_sample(struct assemble *a, const struct store_sample *in,
			    struct derive_state *const *states,
			    struct derive_state *const *tstates,
			    struct sample *out)
{
	assemble_begin(a, in);
	for (size_t i = 0; i < in->ntasks; i++)
		assemble_task(a, &in->tasks[i], states[i], ASSEMBLE_ROWS);
	for (size_t i = 0; i < in->nthread_tasks; i++)
		assemble_task(a, &in->thread_tasks[i], tstates[i],
			      ASSEMBLE_THREADS);
	assemble_end(a, in, out);
}

static const uint32_t ALL = (1u << NCAT) - 1;

/* A task's reading at mono time `at`, every category given and true. */
static struct store_task task(int32_t id, int32_t tgid, double at)
{
	struct store_task t;
	memset(&t, 0, sizeof(t));
	t.r.id = id;
	t.r.tgid = tgid;
	t.r.start = 1000 + (uint64_t)id;
	t.r.asked_at = at - 0.1;
	t.r.at = at;
	t.r.first_seen = 50.0;
	t.r.have = ALL;
	t.r.cats = ALL;
	t.have = STORE_HAVE_UID | STORE_HAVE_PPID | STORE_HAVE_STATE;
	t.uid = 1000;
	t.ppid = 1;
	t.state = 'S';
	t.comm = "worker";
	t.cmdline = "worker --fast";
	t.user = "alice";
	return t;
}

static void cpu(struct store_task *t, uint64_t count, uint64_t total_ns,
		uint64_t run_ns)
{
	t->r.d[CAT_CPU].count = count;
	t->r.d[CAT_CPU].total_ns = total_ns;
	t->r.run_ns = run_ns;
}

/* A sample at mono time `mono` with the machine's cpu "some" PSI total. */
static struct store_sample sample(double mono, uint64_t psi_cpu_us,
				  struct store_task *tasks, size_t n)
{
	struct store_sample s;
	memset(&s, 0, sizeof(s));
	s.time = 1.7e9 + mono;
	s.mono = mono;
	s.real = 1.7e9 + mono;
	s.delayacct = STORE_DELAYACCT_ON;
	s.ts_version = 16;
	s.psi.when = mono;
	s.psi.line[PSI_CPU][PSI_SOME].present = true;
	s.psi.line[PSI_CPU][PSI_SOME].avg10 = 1.5;
	s.psi.line[PSI_CPU][PSI_SOME].total_us = psi_cpu_us;
	s.tasks = tasks;
	s.ntasks = n;
	s.nprocs = n;
	return s;
}

/*
 * Two processes over one 2 s interval, one of which ends in it: a row,
 * an exited row, the PSI share, the clocks; the first sample is a base.
 */
static void test_rows_and_exited(void)
{
	struct assemble a;
	struct assemble_settings set = { .accumulate = false };
	struct derive_state s10 = { 0 }, s20 = { 0 };
	struct derive_state *states[] = { &s10, &s20 };
	struct sample out;

	assemble_init(&a, &set);
	struct store_task t0[2] = { task(10, 10, 100.0), task(20, 20, 100.0) };
	cpu(&t0[0], 10, 1000000000, 1000000000);
	cpu(&t0[1], 4, 400000000, 0);
	struct store_sample s0 = sample(100.0, 1000000, t0, 2);
	assemble_sample(&a, &s0, states, NULL, &out);
	/* the first readings are the base only: nothing to show yet */
	CHECK_EQ_U(out.nrows, 0);
	CHECK_EQ_U(out.nexited, 0);
	CHECK(!out.psi.s[PSI_CPU][PSI_SOME].have_pct);
	CHECK(s10.have_prev && s20.have_prev);

	struct store_task t1[2] = { task(10, 10, 102.0), task(20, 20, 101.0) };
	cpu(&t1[0], 20, 1500000000, 2000000000);
	cpu(&t1[1], 5, 500000000, 0);
	t1[1].r.flags = READING_FINAL | READING_ENDED;
	struct store_sample s1 = sample(102.0, 1500000, t1, 2);
	assemble_sample(&a, &s1, states, NULL, &out);

	CHECK_EQ_U(out.nrows, 1);
	CHECK_EQ_U(out.nexited, 1);
	const struct row *r = &out.rows[0];
	CHECK_EQ_U(r->pid, 10);
	CHECK_STR(r->comm, "worker");
	CHECK_STR(r->user, "alice");
	CHECK_EQ_U(r->uid, 1000);
	CHECK_EQ_U(r->info.ppid, 1);
	CHECK_EQ_U(r->info.state, 'S');
	/* threads not read: unknown */
	CHECK_EQ_U(r->info.threads, -1);
	/* 0.5 s of cpu delay in the 2 s window = 25 %, 10 waits of 50 ms */
	CHECK(r->d[CAT_CPU].avail);
	CHECK_NEAR(r->d[CAT_CPU].pct, 25.0, 1e-9);
	CHECK_EQ_U(r->d[CAT_CPU].count, 10);
	CHECK_NEAR(r->d[CAT_CPU].avg_ms, 50.0, 1e-9);
	/* 1 s on a CPU in 2 s = 50 % of one CPU */
	CHECK(r->have_cpu_pct);
	CHECK_NEAR(r->cpu_pct, 50.0, 1e-9);
	CHECK(!(r->flags & ROW_EXITED));

	const struct row *x = &out.exited[0];
	CHECK_EQ_U(x->pid, 20);
	CHECK(x->flags & ROW_EXITED);
	CHECK_EQ_U(x->info.state, 'X');
	/* 0.1 s more delay, 1 wait: 100 ms */
	CHECK_EQ_U(x->d[CAT_CPU].count, 1);
	CHECK_NEAR(x->d[CAT_CPU].avg_ms, 100.0, 1e-9);

	/* PSI: 0.5 s of "some" in 2 s = 25 %; the kernel's average as read */
	CHECK(out.psi.s[PSI_CPU][PSI_SOME].have_pct);
	CHECK_NEAR(out.psi.s[PSI_CPU][PSI_SOME].pct, 25.0, 1e-9);
	CHECK_NEAR(out.psi.s[PSI_CPU][PSI_SOME].avg10, 1.5, 0);
	CHECK(!out.psi.s[PSI_MEMORY][PSI_SOME].present);
	CHECK_NEAR(out.interval, 2.0, 1e-12);
	CHECK_NEAR(out.time, 1.7e9 + 102.0, 0);
	CHECK(out.delayacct && out.delayacct_known);
	CHECK_EQ_U(out.ts_version, 16);
	CHECK_EQ_U(out.nprocs, 2);
	CHECK(!out.thread_rows);

	/* a third sample repeats the ended task (shown): it is gone */
	struct store_task t2[2] = { task(10, 10, 104.0), t1[1] };
	cpu(&t2[0], 20, 1500000000, 2000000000);
	t2[1].have |= STORE_REPEAT;
	struct store_sample s2 = sample(104.0, 1500000, t2, 2);
	assemble_sample(&a, &s2, states, NULL, &out);
	CHECK_EQ_U(out.nrows, 1);
	CHECK_EQ_U(out.nexited, 0);
	/* nothing moved: 0 %, no waits, and PSI 0 % */
	CHECK_NEAR(out.rows[0].d[CAT_CPU].pct, 0.0, 0);
	CHECK_NEAR(out.psi.s[PSI_CPU][PSI_SOME].pct, 0.0, 0);

	derive_free(&s10);
	derive_free(&s20);
	assemble_free(&a);
}

/*
 * Thread readings with the process's: the thread rows apart, and the
 * process's longest wait from theirs where every wait is in one of them.
 */
static void test_thread_rows(void)
{
	struct assemble a;
	struct assemble_settings set = { .accumulate = false };
	struct derive_state sp = { 0 }, st1 = { 0 }, st2 = { 0 };
	struct derive_state *states[] = { &sp };
	struct derive_state *tstates[] = { &st1, &st2 };
	struct sample out;

	assemble_init(&a, &set);
	struct store_task p0[1] = { task(10, 10, 100.0) };
	struct store_task th0[2] = { task(10, 10, 100.0), task(11, 10, 100.0) };
	struct store_sample s0 = sample(100.0, 0, p0, 1);
	s0.thread_tasks = th0;
	s0.nthread_tasks = 2;
	s0.thread_readings = true;
	assemble_sample(&a, &s0, states, tstates, &out);

	/* the process: 10 waits, its own record knows no longest one */
	struct store_task p1[1] = { task(10, 10, 102.0) };
	cpu(&p1[0], 10, 500000000, 0);
	/* its threads: 6 waits (longest 30 ms) and 4 (longest 80 ms) */
	struct store_task th1[2] = { task(10, 10, 102.0), task(11, 10, 102.0) };
	cpu(&th1[0], 6, 100000000, 0);
	th1[0].r.d[CAT_CPU].max_ns = 30000000;
	cpu(&th1[1], 4, 400000000, 0);
	th1[1].r.d[CAT_CPU].max_ns = 80000000;
	for (int i = 0; i < 2; i++) {
		th1[i].r.have_max = 1u << CAT_CPU;
		th1[i].r.flags = READING_OWN | READING_ONE;
	}
	struct store_sample s1 = sample(102.0, 0, p1, 1);
	s1.thread_tasks = th1;
	s1.nthread_tasks = 2;
	s1.thread_readings = true;
	assemble_sample(&a, &s1, states, tstates, &out);

	CHECK_EQ_U(out.nrows, 1);
	CHECK_EQ_U(out.nthread_rows, 2);
	CHECK_EQ_U(out.nthread_exited, 0);
	CHECK(out.thread_rows[0].d[CAT_CPU].have_max);
	CHECK(out.thread_rows[1].d[CAT_CPU].have_max);
	/* 6 + 4 = its 10 waits: the longest is the threads' 80 ms */
	CHECK_EQ_U(out.rows[0].d[CAT_CPU].count, 10);
	CHECK(out.rows[0].d[CAT_CPU].have_max);
	CHECK_NEAR(out.rows[0].d[CAT_CPU].max_ms, 80.0, 1e-9);

	derive_free(&sp);
	derive_free(&st1);
	derive_free(&st2);
	assemble_free(&a);
}

/* --cgroup: rows outside the subtree are not made, but are rebased. */
static void test_within(void)
{
	struct assemble a;
	struct assemble_settings set = { .cgroup_within = "/system.slice" };
	struct derive_state s10 = { 0 }, s20 = { 0 };
	struct derive_state *states[] = { &s10, &s20 };
	struct sample out;

	assemble_init(&a, &set);
	struct store_task t0[2] = { task(10, 10, 100.0), task(20, 20, 100.0) };
	t0[0].cgroup = "/system.slice/a.service";
	t0[1].cgroup = "/user.slice";
	struct store_sample s0 = sample(100.0, 0, t0, 2);
	assemble_sample(&a, &s0, states, NULL, &out);
	struct store_task t1[2] = { t0[0], t0[1] };
	t1[0].r.at = t1[1].r.at = 102.0;
	t1[0].r.asked_at = t1[1].r.asked_at = 101.9;
	struct store_sample s1 = sample(102.0, 0, t1, 2);
	assemble_sample(&a, &s1, states, NULL, &out);
	CHECK_EQ_U(out.nrows, 1);
	CHECK_EQ_U(out.rows[0].pid, 10);
	CHECK_STR(out.rows[0].cgroup, "/system.slice/a.service");
	/* the one outside was rebased all the same */
	CHECK_NEAR(s20.prev_at, 101.9, 0);
	assemble_free(&a);
}

/* The machine line from its counters, and what makes a figure unknown. */
static void test_machine(void)
{
	struct assemble a;
	struct assemble_settings set = { .accumulate = false };
	struct sample out;

	assemble_init(&a, &set);
	struct store_sample s0 = sample(100.0, 0, NULL, 0);
	s0.machine = (struct store_machine){
		.have = STORE_M_LOAD | STORE_M_CPU | STORE_M_MEM | STORE_M_SWAP,
		.load = { 0.5, 0.25, 0.125 }, .cpu_idle = 100, .cpu_total = 400,
		.mem_total = 8192, .mem_available = 2048,
		.swap_total = 1024, .swap_free = 1024,
	};
	assemble_sample(&a, &s0, NULL, NULL, &out);
	/* the first counters: no interval for the CPUs yet */
	CHECK(!out.machine.have_cpu);
	CHECK(out.machine.have_load);
	CHECK_NEAR(out.machine.load[2], 0.125, 0);
	/* 8192 - 2048 available = 6144 in use; no swap used */
	CHECK(out.machine.have_mem);
	CHECK_EQ_U(out.machine.mem_used, 6144);
	CHECK(out.machine.have_swap);
	CHECK_EQ_U(out.machine.swap_used, 0);

	struct store_sample s1 = s0;
	s1.mono = 102.0;
	s1.machine.cpu_idle = 150;
	s1.machine.cpu_total = 600;
	/* more available than there is: not true, not shown */
	s1.machine.mem_available = 9000;
	assemble_sample(&a, &s1, NULL, NULL, &out);
	/* 200 ticks, 50 of them idle: 75 % busy */
	CHECK(out.machine.have_cpu);
	CHECK_NEAR(out.machine.cpu_busy, 75.0, 1e-9);
	CHECK(!out.machine.have_mem);

	/* a CPU gone offline took ticks away: no figure */
	struct store_sample s2 = s1;
	s2.mono = 104.0;
	s2.machine.cpu_idle = 160;
	s2.machine.cpu_total = 500;
	assemble_sample(&a, &s2, NULL, NULL, &out);
	CHECK(!out.machine.have_cpu);
	assemble_free(&a);
}

/*
 * Wait channels kept once: the same pointer for the same name, none for
 * an empty one, and at most TASK_WCHAN_MAX - 1 bytes of a longer one.
 */
static void test_wchan(void)
{
	char longer[TASK_WCHAN_MAX + 8];
	const char *a = wchan_keep("rq_qos_wait");
	char again[] = "rq_qos_wait";

	CHECK(a != NULL && strcmp(a, "rq_qos_wait") == 0);
	CHECK(wchan_keep(again) == a);
	CHECK(wchan_keep("rq_qos_wai") != a);
	CHECK(wchan_keep("") == NULL);
	memset(longer, 'x', sizeof(longer) - 1);
	longer[sizeof(longer) - 1] = '\0';
	const char *l = wchan_keep(longer);
	CHECK(l != NULL && strlen(l) == TASK_WCHAN_MAX - 1);
	CHECK(l && strncmp(l, longer, TASK_WCHAN_MAX - 1) == 0);
	/* another name of the same first bytes is the same kept name */
	longer[TASK_WCHAN_MAX] = 'y';
	CHECK(wchan_keep(longer) == l);
}

/* A row's context: as read, and rates between consecutive samples. */
static void test_context(void)
{
	struct assemble a;
	struct assemble_settings set = { .accumulate = false };
	struct sample out;
	struct task_ctx x;

	assemble_init(&a, &set);
	struct store_sample s0 = sample(100.0, 0, NULL, 0);
	assemble_sample(&a, &s0, NULL, NULL, &out);
	struct store_task prev = task(10, 10, 100.0);
	prev.have |= STORE_HAVE_CTX_AT | STORE_HAVE_IO | STORE_HAVE_MAJFLT;
	prev.ctx_at = 100.5;   /* read after sample 0's readings */
	prev.read_bytes = 1000;
	prev.write_bytes = 5000;
	prev.majflt = 7;
	struct store_sample s1 = sample(102.0, 0, NULL, 0);
	assemble_sample(&a, &s1, NULL, NULL, &out);
	struct store_task cur = prev;
	cur.have |= STORE_HAVE_RSS | STORE_HAVE_NICE | STORE_HAVE_WCHAN;
	cur.rss_kib = 4096;
	cur.nice = -5;
	snprintf(cur.wchan, sizeof(cur.wchan), "%s", "io_schedule");
	cur.ctx_at = 102.5;
	cur.read_bytes = 9000;
	cur.write_bytes = 4000; /* went back: another task's, no rate */
	cur.majflt = 8;
	assemble_context(&a, &prev, &cur, &x);
	/* (9000 - 1000) bytes in 2 s = 4000 B/s; 1 fault in 2 s = 0.5/s */
	CHECK(x.have & CTX_READ);
	CHECK_NEAR(x.read_bps, 4000.0, 1e-9);
	CHECK(!(x.have & CTX_WRITE));
	CHECK(x.have & CTX_MAJFLT);
	CHECK_NEAR(x.majflt_ps, 0.5, 1e-12);
	CHECK(x.have & CTX_RSS);
	CHECK_EQ_U(x.rss_kib, 4096);
	CHECK(!(x.have & CTX_SWAP));
	CHECK(x.have & CTX_NICE);
	CHECK_EQ_U(x.nice, -5);
	CHECK(x.have & CTX_WCHAN);
	CHECK_STR(x.wchan, "io_schedule");
	/* one copy of a name, whichever row it comes from */
	const char *kept = x.wchan;
	assemble_context(&a, &prev, &cur, &x);
	CHECK(x.wchan == kept);

	/* the previous read is older than the previous sample: no rates */
	prev.ctx_at = 99.0;
	assemble_context(&a, &prev, &cur, &x);
	CHECK(!(x.have & (CTX_READ | CTX_MAJFLT)));
	CHECK(x.have & CTX_RSS);
	/* none before: values as read only */
	assemble_context(&a, NULL, &cur, &x);
	CHECK(!(x.have & CTX_READ));
	assemble_free(&a);
}

/* A task row of cpu delay pct % in count waits, in cgroup cg. */
static struct row cg_row(const char *cg, double pct, uint64_t count)
{
	struct row r;
	memset(&r, 0, sizeof(r));
	r.cgroup = cg;
	r.d[CAT_CPU].avail = true;
	r.d[CAT_CPU].have_count = true;
	r.d[CAT_CPU].pct = pct;
	r.d[CAT_CPU].count = count;
	r.total_pct = pct;
	return r;
}

/*
 * Cgroup rows from their readings (model/cgrows.h): the PSI share since
 * the previous reading, the kernel's counters as given, the task rows
 * summed into their cgroup and each ancestor, --cgroup's subtree.
 */
static void test_cgroups(void)
{
	struct cgrows_state st_root = { .name = "/" };
	struct cgrows_state st_a = { .name = "a.service" };
	struct cgrows_state *state[] = { &st_root, &st_a };
	struct store_cgroup cg[2];
	struct cgroup_row out[2];
	unsigned scratch[2];

	memset(cg, 0, sizeof(cg));
	cg[0].path = "/";
	cg[1].path = "/a.service";
	cg[1].have = STORE_CG_PSI | STORE_CG_THROTTLED;
	cg[1].psi.when = 100.0;
	cg[1].psi.line[PSI_CPU][PSI_SOME].present = true;
	cg[1].psi.line[PSI_CPU][PSI_SOME].total_us = 2000000;
	cg[1].throttled_us = 777;
	cgrows_build(cg, state, 2, NULL, 0, NULL, 0, 2.0, NULL, out, scratch);
	/* the first reading: no share yet */
	CHECK(out[1].have_psi);
	CHECK(!out[1].psi.s[PSI_CPU][PSI_SOME].have_pct);
	CHECK(!out[0].have_psi);

	/* 2 s later, 0.5 s more "some": 25 % */
	cg[1].psi.when = 102.0;
	cg[1].psi.line[PSI_CPU][PSI_SOME].total_us = 2500000;
	struct row rows[2] = { cg_row("/a.service", 10.0, 3),
			       cg_row("/b.service", 5.0, 1) };
	struct row gone[1] = { cg_row("/a.service/x", 20.0, 1) };
	cgrows_build(cg, state, 2, rows, 2, gone, 1, 2.0, NULL, out, scratch);
	CHECK_NEAR(out[1].psi.s[PSI_CPU][PSI_SOME].pct, 25.0, 1e-9);
	CHECK_STR(out[1].name, "a.service");
	CHECK_EQ_U(out[1].depth, 1);
	CHECK(out[1].have_throttled);
	CHECK_EQ_U(out[1].throttled_us, 777);
	CHECK(!out[1].have_mem_max);
	/* a.service: 10 % + its child's 20 % (ended) = 30 %, 4 waits */
	CHECK_NEAR(out[1].d[CAT_CPU].pct, 30.0, 1e-9);
	CHECK_EQ_U(out[1].d[CAT_CPU].count, 4);
	CHECK_EQ_U(out[1].nr_tasks, 2);
	/* the root: all three, 35 % */
	CHECK_NEAR(out[0].d[CAT_CPU].pct, 35.0, 1e-9);
	CHECK_EQ_U(out[0].nr_tasks, 3);

	/* --cgroup /a.service: b.service's row is not summed into the root */
	cgrows_build(cg, state, 2, rows, 2, NULL, 0, 2.0, "/a.service", out,
		     scratch);
	CHECK_NEAR(out[0].d[CAT_CPU].pct, 10.0, 1e-9);
	CHECK_EQ_U(out[0].nr_tasks, 1);
}

/* Rows reserved for are made in place: the array is not moved. */
static void test_reserve(void)
{
	struct assemble_settings set = { .accumulate = false };
	struct assemble a;

	assemble_init(&a, &set);
	assemble_reserve(&a, 5000);
	CHECK(a.caprows >= 5000);
	const struct row *at = a.rows;
	bool moved = false;
	for (int i = 0; i < 5000; i++)
		if (!producer_push_row(&a.rows, &a.nrows, &a.caprows) || a.rows != at)
			moved = true;
	CHECK(!moved);
	assemble_reserve(&a, 100); /* room enough: kept */
	CHECK(a.rows == at);
	assemble_free(&a);
}

int main(void)
{
	test_reserve();
	test_cgroups();
	test_wchan();
	test_context();
	test_machine();
	test_rows_and_exited();
	test_thread_rows();
	test_within();
	return unit_done();
}
