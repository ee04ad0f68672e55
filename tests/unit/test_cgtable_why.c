/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The evidence kept in the table of cgroups (live/cgtable.h), without
 * the kernel: a v2 cgroup directory with its controllers (cpu.max with a
 * quota, cpu.stat throttling, memory.events, cgroup.threads) and a /proc
 * of its two threads, made in a scratch directory and changed between
 * two rounds.
 *
 * A cgroup row: the first round has current values only; the second has
 * the interval's throttling and events, and the causes (cpu quota, mem
 * limit) of the row's stalls; a second gathering in a round gives the
 * first one's evidence; the root has no task states; missing files are
 * absent, never 0. Then the JSON "why" of a cgroup written and read back
 * field for field.
 *
 * Processes: the cgroups' evidence of N stalled processes in one cgroup
 * is read once a round (the table's count of readings, and a file
 * changed after the first reading that the others do not see), more
 * only for a group not read yet; the next round reads afresh; the table
 * forgets cgroups of processes not read in the round before.
 */
#include <config.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kernel/kval.h"
#include "kernel/cg_layout.h"
#include "kernel/sysinfo.h"
#include "live/cgtable.h"
#include "live/evidence_read.h"
#include "model/rowwhy.h"
#include "record/json_read.h"
#include "view/output.h"
#include "unit.h"

static char top[1024];

static void put(const char *rel, const char *text)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", top, rel);
	if (!(f = fopen(path, "w")) || fputs(text, f) < 0 || fclose(f) != 0) {
		fprintf(stderr, "cannot write %s\n", path);
		exit(99);
	}
}

static void dir(const char *rel)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", top, rel);
	if (mkdir(path, 0755) < 0) {
		fprintf(stderr, "cannot make %s\n", path);
		exit(99);
	}
}

static int open_rel(const char *rel)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", top, rel);
	return kval_open_dir(-1, path);
}

/* The files at the first reading. */
static void first_files(void)
{
	/* a machine with memory to spare and no swap */
	put("proc/meminfo", "MemTotal:       16000000 kB\n"
	    "MemFree:         8000000 kB\nMemAvailable:    9000000 kB\n"
	    "SwapTotal:             0 kB\nSwapFree:              0 kB\n");
	put("proc/100/stat", "100 (spin) R 1 100 100 0 -1 4194304\n");
	put("proc/101/stat", "101 (spin) S 1 100 100 0 -1 4194304\n");
	put("cg/cgroup.threads", "100\n101\n");
	put("cg/cpu.max", "20000 100000\n");
	put("cg/cpu.stat", "usage_usec 1000000\nuser_usec 900000\n"
	    "system_usec 100000\nnr_periods 10\nnr_throttled 8\n"
	    "throttled_usec 500000\n");
	put("cg/cpu.pressure",
	    "some avg10=80.00 avg60=40.00 avg300=10.00 total=1000000\n"
	    "full avg10=70.00 avg60=30.00 avg300=8.00 total=900000\n");
	put("cg/memory.max", "268435456\n");
	put("cg/memory.high", "max\n");
	put("cg/memory.current", "100000000\n");
	put("cg/memory.events", "low 0\nhigh 0\nmax 10\noom 0\noom_kill 0\n");
	put("bare/cpu.pressure",
	    "some avg10=1.00 avg60=1.00 avg300=1.00 total=5000\n");
}

/* The scratch directory: a cgroup, one without controllers, /proc. */
static void make_tree(void)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(top, sizeof(top), "%s/stalltop-cgtable-why-XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(top))
		exit(99);
	dir("cg");
	dir("bare");
	dir("proc");
	dir("proc/100");
	dir("proc/101");
	first_files();
}

/* A second later: throttled 0.6 s more, 5 more max events. */
static void advance(void)
{
	put("cg/cpu.stat", "usage_usec 1200000\nuser_usec 1080000\n"
	    "system_usec 120000\nnr_periods 20\nnr_throttled 16\n"
	    "throttled_usec 1100000\n");
	put("cg/cpu.pressure",
	    "some avg10=80.00 avg60=40.00 avg300=10.00 total=1800000\n"
	    "full avg10=70.00 avg60=30.00 avg300=8.00 total=1600000\n");
	put("cg/memory.events", "low 0\nhigh 0\nmax 15\noom 0\noom_kill 0\n");
}

static void clean(void)
{
	char cmd[4200];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	if (system(cmd) != 0)
		fprintf(stderr, "cannot remove %s\n", top);
}

/* The delays of a cgroup that waited for the CPU and reclaim. */
static void make_cg(struct cgroup_row *g, const char *path)
{
	memset(g, 0, sizeof(*g));
	g->path = path;
	g->depth = 1;
	g->d[CAT_CPU] = (struct cat_figure){ .pct = 100, .avail = true };
	g->d[CAT_RECLAIM] = (struct cat_figure){ .pct = 10, .avail = true };
	g->total_pct = 110;
	g->nr_tasks = 1;
}

static struct evidence_dirs dirs_of(const char *cg, int proc)
{
	struct evidence_dirs d = EVIDENCE_DIRS_NONE;

	d.cg2 = open_rel(cg);
	d.proc = proc;
	return d;
}

static void test_gather(struct cgtable *t, struct cgroup_row *g)
{
	int proc = open_rel("proc");
	struct evidence_dirs d = dirs_of("cg", proc);
	struct evidence_reading sys;
	struct sysinfo_mem mem;
	const struct evidence *ev;
	struct cgroup_row idle;

	/* the machine-wide part, as the monitor makes it once a round */
	sysinfo_read_mem(proc, &mem);
	d.mem = &mem;
	memset(&sys, 0, sizeof(sys));
	evidence_read_system(&d, &sys);

	CHECK(d.cg2 >= 0 && proc >= 0);
	make_cg(g, "/t");
	memset(&idle, 0, sizeof(idle));
	idle.path = "/idle";
	CHECK(rowwhy_wanted(g->d) && !rowwhy_wanted(idle.d));

	/* the first reading: current values, no interval */
	CHECK(cgtable_why_gather(t, NULL, g, &d, &sys, 1, 1.0, NULL, NULL, NULL) == 0);
	CHECK(g->why != NULL);
	ev = &g->why->ev;
	CHECK(ev->interval_s == 0);
	CHECK(ev->cpu_cgroup_version == 2 && ev->mem_cgroup_version == 2);
	CHECK(ev->cpu_quota_us.have && ev->cpu_quota_us.v == 20000);
	CHECK(ev->cpu_period_us.have && ev->cpu_period_us.v == 100000);
	CHECK(!ev->cpu_throttled_us.have);      /* no interval: no delta */
	CHECK(ev->mem_max.have && ev->mem_max.v == 268435456);
	CHECK(ev->mem_high.have && ev->mem_high.max);
	CHECK(!ev->mem_events_max.have);
	CHECK(ev->states_source == CGSTATS_PROC);
	CHECK(ev->tasks_running.have && ev->tasks_running.v == 1);
	CHECK(ev->tasks_sleeping.have && ev->tasks_sleeping.v == 1);
	CHECK(ev->tasks_stopped.have && ev->tasks_stopped.v == 0);
	CHECK(!ev->tasks_io_wait.have);         /* /proc cannot tell */
	/* what belongs to one process is absent on a cgroup */
	CHECK(!ev->allowed_cpus.have && !ev->task_read_bytes.have &&
	      !ev->forks.have && !ev->private_bytes.have);
	CHECK(ev->sys_mem_total.have);
	CHECK(g->why->c[CAT_CPU].stalled &&
	      g->why->c[CAT_CPU].r.cause == WHY_NONE);
	CHECK(g->why->c[CAT_RECLAIM].r.cause == WHY_NONE);
	CHECK_STR(rowwhy_main_cg(g), "");
	CHECK(cgtable_count(t) == 1);
	close(d.cg2);

	/* the next round: the interval's throttling and events */
	advance();
	d = dirs_of("cg", proc);
	make_cg(g, "/t");
	CHECK(cgtable_why_gather(t, NULL, g, &d, &sys, 2, 1.0, NULL, NULL,
				 NULL) == 0);
	ev = &g->why->ev;
	CHECK(ev->interval_s > 0);
	CHECK(ev->cpu_throttled_us.have && ev->cpu_throttled_us.v == 600000);
	CHECK(ev->cpu_throttled_periods.have &&
	      ev->cpu_throttled_periods.v == 8);
	CHECK(ev->cpu_periods.have && ev->cpu_periods.v == 10);
	CHECK(ev->cpu_some_us.have && ev->cpu_some_us.v == 800000);
	CHECK(ev->cpu_full_us.have && ev->cpu_full_us.v == 700000);
	CHECK(ev->mem_events_max.have && ev->mem_events_max.v == 5);
	CHECK(g->why->c[CAT_CPU].r.cause == WHY_CPU_QUOTA);
	CHECK_STR(g->why->c[CAT_CPU].text, "cpu quota");
	CHECK(g->why->c[CAT_RECLAIM].r.cause == WHY_MEM_LIMIT);
	CHECK_STR(rowwhy_main_cg(g), "cpu quota");
	close(d.cg2);

	/* again in the same round: the same evidence, nothing read */
	put("cg/cpu.max", "max 100000\n");
	d = dirs_of("cg", proc);
	{
		struct cgroup_row again;
		make_cg(&again, "/t");
		CHECK(cgtable_why_have(t, &again, 2) && again.why == g->why);
		CHECK(cgtable_why_gather(t, NULL, &again, &d, &sys, 2, 1.0,
					 NULL, NULL, NULL) == 0);
		CHECK(again.why == g->why &&
		      again.why->ev.cpu_quota_us.v == 20000);
		CHECK(!cgtable_why_have(t, &again, 3));
	}
	close(d.cg2);
	put("cg/cpu.max", "20000 100000\n");

	/* the root: no task states (its cgroup.threads is everyone) */
	{
		struct cgroup_row root;
		make_cg(&root, "/");
		d = dirs_of("cg", proc);
		d.no_states = true;
		CHECK(cgtable_why_gather(t, NULL, &root, &d, &sys, 2, 1.0,
					 NULL, NULL, NULL) == 0);
		CHECK(root.why && root.why->ev.states_source == CGSTATS_NONE &&
		      !root.why->ev.tasks_running.have);
		CHECK(root.why->ev.cpu_quota_us.have);
		close(d.cg2);
	}

	/* a v2 directory without controllers: absent, never an error */
	{
		struct cgroup_row bare;
		make_cg(&bare, "/bare");
		d = dirs_of("bare", proc);
		d.no_states = false;
		CHECK(cgtable_why_gather(t, NULL, &bare, &d, &sys, 2, 1.0,
					 NULL, NULL, NULL) == 0);
		CHECK(bare.why && !bare.why->ev.cpu_quota_us.have &&
		      !bare.why->ev.mem_max.have &&
		      !bare.why->ev.cpu_throttled_us.have);
		CHECK(bare.why->ev.states_source == CGSTATS_NONE);
		CHECK(bare.why->c[CAT_CPU].r.cause == WHY_NONE);
		close(d.cg2);
	}
	CHECK(cgtable_count(t) == 3);
	close(proc);
}

static bool same_kval(const struct kval *a, const struct kval *b)
{
	return a->have == b->have && a->max == b->max && a->v == b->v;
}

static void test_json(const struct cgroup_row *g)
{
	struct cgroup_row cgs[2];
	struct sample s = { .time = 1, .interval = 1, .cgroups = cgs,
			    .ncgroups = 2 };
	char *p = NULL;
	size_t n = 0;
	FILE *f;

	cgs[0] = *g;
	memset(&cgs[1], 0, sizeof(cgs[1]));
	cgs[1].path = "/idle";
	cgs[1].depth = 1;
	if (!(f = open_memstream(&p, &n)))
		exit(99);
	out_json(f, &s);
	fclose(f);
	CHECK(strstr(p, "\"path\":\"/t\"") != NULL);
	CHECK(strstr(p, "\"cpu\":{\"cause\":\"cpu_quota\",\"text\":\"cpu quota\"}") != NULL);
	CHECK(strstr(p, "\"reclaim\":{\"cause\":\"mem_limit\",\"text\":\"mem limit\"}") != NULL);
	CHECK(strstr(p, "\"states_source\":\"proc\"") != NULL);
	CHECK(strstr(p, "\"allowed_cpus\":null") != NULL);
	CHECK(strstr(p, "\"mem_high\":\"max\"") != NULL);
	/* a cgroup without evidence has no "why" key: older output unchanged */
	CHECK(strstr(strstr(p, "\"path\":\"/idle\""), "\"why\"") == NULL);

	json_tokener *tok = json_read_tokener();
	json_object *o = json_read_line(tok, p, strcspn(p, "\n"));
	struct json_read rp = { 0 };
	struct sample back;
	CHECK(o && json_read_sample(&rp, o, &back) == 0);
	CHECK(back.ncgroups == 2 && back.cgroups[0].why && !back.cgroups[1].why);
	if (back.ncgroups == 2 && back.cgroups[0].why) {
		const struct row_why *b = back.cgroups[0].why, *w = g->why;
		for (size_t i = 0; i < evidence_nfields; i++) {
			const struct evidence_field *fd = &evidence_fields[i];
			if (!same_kval(evidence_value(&w->ev, fd),
				       evidence_value(&b->ev, fd))) {
				fprintf(stderr, "field %s differs\n", fd->name);
				CHECK(false);
			}
		}
		CHECK(b->ev.states_source == CGSTATS_PROC);
		CHECK(b->ev.cpu_cgroup_version == 2);
		for (int c = 0; c < NCAT; c++) {
			CHECK(b->c[c].stalled == w->c[c].stalled);
			CHECK(b->c[c].r.cause == w->c[c].r.cause);
			CHECK_STR(b->c[c].text, w->c[c].text);
		}
		CHECK_STR(rowwhy_main_cg(&back.cgroups[0]), "cpu quota");
	}
	json_object_put(o);
	json_tokener_free(tok);
	json_read_free(&rp);
	free(p);
}

/* The table of a v2 hierarchy mounted at the scratch directory. */
static struct cgtable *table_here(void)
{
	char mountinfo[2048];
	struct cg_layout l;

	snprintf(mountinfo, sizeof(mountinfo),
		 "27 24 0:25 / %s rw - cgroup2 cgroup2 rw\n", top);
	if (cg_layout_parse(mountinfo, &l) < 0)
		exit(99);
	return cgtable_new(&l);
}

#define WANT_CPU EVIDENCE_WANT(EVIDENCE_CPU)
#define WANT_MEM EVIDENCE_WANT(EVIDENCE_MEMORY)
#define NPROCS 5

/* Stalled processes of one cgroup: its evidence read once a round. */
static void test_members(void)
{
	struct cgtable *t = table_here();
	const struct cgtable_members *m[NPROCS], *o;
	int proc = open_rel("proc");

	CHECK(t && proc >= 0);
	first_files();          /* the first reading's files again */
	for (int i = 0; i < NPROCS; i++) {
		m[i] = cgtable_members_read(t, NULL, proc, "0::/cg\n", 1,
					    WANT_CPU);
		/* after the first reading the file changes: not seen */
		if (i == 0)
			put("cg/cpu.max", "max 100000\n");
		CHECK(m[i] && m[i] == m[0]);
	}
	CHECK_EQ_U(cgtable_reads(t), 1);
	CHECK(m[0]->cur_have == WANT_CPU);
	CHECK(m[0]->cur.cpu.quota_us.have && m[0]->cur.cpu.quota_us.v == 20000);
	CHECK(m[0]->cur.cpu.throttled_us.have &&
	      m[0]->cur.cpu.throttled_us.v == 500000);
	CHECK(!m[0]->cur.mem.max.have);          /* not asked for */
	/* a group not read yet this round is read, once */
	o = cgtable_members_read(t, NULL, proc, "0::/cg\n", 1, WANT_MEM);
	CHECK(o == m[0] && o->cur.mem.max.have &&
	      o->cur.mem.max.v == 268435456);
	o = cgtable_members_read(t, NULL, proc, "0::/cg\n", 1,
				 WANT_CPU | WANT_MEM);
	CHECK_EQ_U(cgtable_reads(t), 2);
	CHECK(o->cur.cpu.quota_us.v == 20000);    /* still the first one */
	/* other cgroups are other readings */
	o = cgtable_members_read(t, NULL, proc, "0::/bare\n", 1, WANT_CPU);
	CHECK(o && o != m[0] && !o->cur.cpu.quota_us.have);
	CHECK_EQ_U(cgtable_reads(t), 3);
	CHECK(cgtable_count(t) == 2);
	/* not a /proc/PID/cgroup text */
	CHECK(cgtable_members_read(t, NULL, proc, "/cg", 1, 0) == NULL);

	/* the next round: read once again, from nothing */
	advance();
	for (int i = 0; i < NPROCS; i++)
		m[i] = cgtable_members_read(t, NULL, proc, "0::/cg\n", 2,
					    WANT_CPU);
	CHECK_EQ_U(cgtable_reads(t), 4);
	CHECK(m[0] && m[NPROCS - 1] == m[0]);
	CHECK(m[0]->cur_have == WANT_CPU && !m[0]->cur.mem.max.have);
	CHECK(m[0]->cur.cpu.throttled_us.v == 1100000);
	CHECK(m[0]->cur.cpu.quota_us.have && m[0]->cur.cpu.quota_us.max);

	/* a round later "/bare" (not read in round 2) is forgotten */
	cgtable_prune(t, 3);
	CHECK(cgtable_count(t) == 1);
	cgtable_prune(t, 4);
	CHECK(cgtable_count(t) == 0);
	close(proc);
	cgtable_free(t);
}

/*
 * What the processes of a cgroup will want, said first: the first of them
 * read gets all of it, in one reading, whatever it asks for itself.
 */
static void test_members_expect(void)
{
	struct cgtable *t = table_here();
	const struct cgtable_members *m, *o;
	int proc = open_rel("proc");

	CHECK(t && proc >= 0);
	CHECK(cgtable_members_expect(t, "0::/cg\n", 7, WANT_CPU) == 0);
	CHECK(cgtable_members_expect(t, "0::/cg\n", 7, WANT_MEM) == 0);
	CHECK(cgtable_members_expect(t, "/cg", 7, WANT_MEM) == -1);
	m = cgtable_members_read(t, NULL, proc, "0::/cg\n", 7, WANT_CPU);
	CHECK(m && m->cur_have == (WANT_CPU | WANT_MEM));
	CHECK(m->cur.cpu.quota_us.have && m->cur.mem.max.have);
	o = cgtable_members_read(t, NULL, proc, "0::/cg\n", 7, WANT_MEM);
	CHECK(o == m);
	CHECK_EQ_U(cgtable_reads(t), 1);
	/* what was said of a round holds for that round only */
	m = cgtable_members_read(t, NULL, proc, "0::/cg\n", 8, WANT_CPU);
	CHECK(m && m->cur_have == WANT_CPU && !m->cur.mem.max.have);
	CHECK_EQ_U(cgtable_reads(t), 2);
	close(proc);
	cgtable_free(t);
}

/* A build without the rows' cgroups forgets them and their evidence. */
static void test_forget(struct cgtable *t)
{
	struct cgroup_row *out;
	size_t n;

	cgtable_prune(t, 4);            /* rows are the builds' to forget */
	CHECK(cgtable_count(t) == 3);
	CHECK(cgtable_build(t, NULL, 0, NULL, 0, 1.0, NULL, &out, &n) == 0);
	CHECK(n == 0 && cgtable_count(t) == 0);
}

int main(void)
{
	struct cgtable *t;
	struct cgroup_row g;

	make_tree();
	if (!(t = table_here()))
		return 99;
	test_gather(t, &g);
	test_json(&g);
	test_forget(t);
	cgtable_free(t);
	test_members();
	test_members_expect();
	clean();
	return unit_done();
}
