/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A row's evidence end to end without the kernel: which rows count as
 * stalled, the WHY column's choice, the JSON "why" object written and
 * read back field for field (limits "max", absent values null, devices,
 * disks, causes), a row without evidence keeping its old keys, and the
 * manual page naming every evidence field and every cause's key.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/fields.h"
#include "model/delta.h"
#include "model/rowwhy.h"
#include "record/json_read.h"
#include "view/output.h"
#include "view/output.h"
#include "unit.h"

static void test_stalled(void)
{
	struct cat_figure d[NCAT] = { 0 };

	CHECK(!rowwhy_wanted(d));
	d[CAT_COMPACT] = (struct cat_figure){ .pct = 50, .avail = true };
	CHECK(!rowwhy_wanted(d));          /* no rules for compact */
	d[CAT_CPU] = (struct cat_figure){ .pct = 0.5, .avail = true };
	CHECK(!rowwhy_wanted(d));          /* below 1 % */
	d[CAT_CPU].pct = 1.0;
	CHECK(rowwhy_wanted(d));
	d[CAT_CPU].dropped = true;
	CHECK(!rowwhy_wanted(d));          /* an impossible figure */
}

/* A spinner under a quota that also waited for a busy disk. */
static void make_row(struct row *r, struct row_why *w)
{
	fields_row_init(r);
	r->pid = r->tgid = 42;
	r->comm = "spin";
	r->cmdline = "spin";
	r->user = "root";
	r->d[CAT_CPU] = (struct cat_figure){ .pct = 80, .avail = true };
	r->d[CAT_IO] = (struct cat_figure){ .pct = 90, .avail = true };
	r->d[CAT_RECLAIM] = (struct cat_figure){ .pct = 5, .avail = true };
	memset(w, 0, sizeof(*w));
	struct evidence *ev = &w->ev;
	ev->interval_s = 2;
	ev->cpu_cgroup_version = 1;
	ev->cpu_quota_us = (struct kval){ .have = true, .v = 20000 };
	ev->cpu_period_us = (struct kval){ .have = true, .v = 100000 };
	ev->cpu_throttled_us = (struct kval){ .have = true, .v = 1580000 };
	ev->mem_max = (struct kval){ .have = true, .max = true };
	ev->sys_mem_total = (struct kval){ .have = true, .v = 1ull << 40 };
	ev->n_io_devs = 1;
	ev->io_devs[0] = (struct evidence_io_dev){ .major = 8, .minor = 0,
		.name = "sda", .wbps = { .have = true, .v = 1048576 },
		.rbps = { .have = true, .max = true },
		.wbytes = { .have = true, .v = 2000000 } };
	ev->n_disks = 1;
	ev->disks[0] = (struct diskstats_busy){ 8, 0, "sda", 98.5, 1.25, 0,
						52428800 };
	ev->states_source = CGSTATS_KERNEL;
	ev->tasks_running = (struct kval){ .have = true, .v = 1 };
	r->have_cpu_pct = true;
	r->cpu_pct = 10;
	r->total_pct = delta_total(r->d, true, r->cpu_pct, 0);
	rowwhy_eval(w, r->d, r->total_pct, true, r->cpu_pct, 2, WHY_NONE);
	r->why = w;
}

static void test_eval(void)
{
	struct row r;
	struct row_why w;

	make_row(&r, &w);
	CHECK(w.c[CAT_CPU].stalled && w.c[CAT_CPU].r.cause == WHY_CPU_QUOTA);
	CHECK_STR(w.c[CAT_CPU].text, "cpu quota");
	CHECK(w.c[CAT_IO].stalled && w.c[CAT_IO].r.cause == WHY_IO_LIMIT);
	CHECK(w.c[CAT_RECLAIM].stalled && w.c[CAT_RECLAIM].r.cause == WHY_NONE);
	CHECK(!w.c[CAT_SWAP].stalled);
	/* the largest share binds: io (90 %) over cpu (80 % less the part
	 * inside reclaim); the disk holds too, but the limit took it all */
	CHECK_STR(rowwhy_main(&r), w.c[CAT_IO].text);
	CHECK_EQ_U(w.nranked, 3);
	CHECK(w.ranked[0].r.cause == WHY_IO_LIMIT);
	CHECK_NEAR(w.ranked[0].share_pct, 90, 1e-9);
	CHECK(w.ranked[1].r.cause == WHY_CPU_QUOTA);
	CHECK_NEAR(w.ranked[1].share_pct, 80 * (1 - 5.0 / 90), 1e-9);
	CHECK(w.ranked[2].r.cause == WHY_DISK_BUSY);
	CHECK_NEAR(w.ranked[2].share_pct, 0, 1e-9);
	CHECK(rowwhy_first(&w) == WHY_IO_LIMIT);
	r.why = NULL;
	CHECK_STR(rowwhy_main(&r), "");
}

/*
 * The ranking across categories and its hysteresis: a memory-limited
 * process beside a CPU competitor (the measured figures of one thread of
 * wl_mem -a 200 in a 64 MiB memory cgroup sharing its CPU with a
 * spinner: cpu 50, reclaim 57.2, swap 6.7, CPU% 50.1).
 */
static void test_rank(void)
{
	struct row_why w;
	struct cat_figure d[NCAT] = { 0 };
	double total, part[NCAT], sum = 0;

	d[CAT_CPU] = (struct cat_figure){ .pct = 50, .avail = true };
	d[CAT_RECLAIM] = (struct cat_figure){ .pct = 57.2, .avail = true };
	d[CAT_SWAP] = (struct cat_figure){ .pct = 6.7, .avail = true };
	total = delta_total(d, true, 50.1, 100);
	/* the parts add up to TOTAL; cpu's is its delay outside the
	 * memory work, reclaim and swap share the rest by their delays */
	rowwhy_parts(d, total, true, 50.1, part);
	for (int c = 0; c < NCAT; c++)
		sum += part[c];
	CHECK_NEAR(sum, total, 1e-9);
	CHECK_NEAR(part[CAT_CPU], 50 * (1 - 63.9 / 100.1), 1e-9);
	CHECK_NEAR(part[CAT_RECLAIM] / part[CAT_SWAP], 57.2 / 6.7, 1e-9);

	memset(&w, 0, sizeof(w));
	w.ev.interval_s = 1;
	w.ev.mem_max = (struct kval){ .have = true, .v = 64 << 20 };
	w.ev.mem_current = (struct kval){ .have = true, .v = 64 << 20 };
	w.ev.allowed_cpus = (struct kval){ .have = true, .v = 2 };
	w.ev.sys_runnable = (struct kval){ .have = true, .v = 4 };
	rowwhy_eval(&w, d, total, true, 50.1, 1, WHY_NONE);
	CHECK_EQ_U(w.nranked, 2);
	CHECK(rowwhy_first(&w) == WHY_MEM_LIMIT);
	CHECK_NEAR(w.ranked[0].share_pct, part[CAT_RECLAIM] + part[CAT_SWAP],
		   1e-6);
	CHECK(w.ranked[1].r.cause == WHY_CPU_CONTENTION);
	CHECK_NEAR(w.ranked[1].share_pct, part[CAT_CPU], 1e-6);
	CHECK_NEAR(w.ranked[0].share_pct + w.ranked[1].share_pct, total, 1e-6);

	/* more contention (cpu 90, CPU% 10, reclaim 40): contention's
	 * share (90 x 0.6 = 54) passes the limit's (40), but not by
	 * ROWWHY_KEEP times: the limit, first before, stays first */
	d[CAT_CPU].pct = 90;
	d[CAT_RECLAIM].pct = 40;
	d[CAT_SWAP].pct = 0;
	total = delta_total(d, true, 10, 100);
	CHECK_NEAR(total, 94, 1e-9);
	rowwhy_eval(&w, d, total, true, 10, 1, WHY_NONE);
	CHECK(rowwhy_first(&w) == WHY_CPU_CONTENTION);
	CHECK_NEAR(w.ranked[0].share_pct, 54, 1e-9);
	CHECK_NEAR(w.ranked[1].share_pct, 40, 1e-9);
	rowwhy_eval(&w, d, total, true, 10, 1, WHY_MEM_LIMIT);
	CHECK(rowwhy_first(&w) == WHY_MEM_LIMIT);
	CHECK(w.ranked[1].r.cause == WHY_CPU_CONTENTION);
	/* at ROWWHY_KEEP times it takes over (reclaim 36: contention
	 * 90 x 0.64 = 57.6 >= 1.5 x 36 = 54) */
	d[CAT_RECLAIM].pct = 36;
	total = delta_total(d, true, 10, 100);
	rowwhy_eval(&w, d, total, true, 10, 1, WHY_MEM_LIMIT);
	CHECK(rowwhy_first(&w) == WHY_CPU_CONTENTION);
	CHECK(w.ranked[0].share_pct >= ROWWHY_KEEP * w.ranked[1].share_pct);
	/* just below it, kept (reclaim 38: 90 x 0.62 = 55.8 < 1.5 x 38
	 * = 57) */
	d[CAT_RECLAIM].pct = 38;
	total = delta_total(d, true, 10, 100);
	rowwhy_eval(&w, d, total, true, 10, 1, WHY_MEM_LIMIT);
	CHECK(rowwhy_first(&w) == WHY_MEM_LIMIT);
	/* the other way round too: contention first before, kept */
	rowwhy_eval(&w, d, total, true, 10, 1, WHY_CPU_CONTENTION);
	CHECK(rowwhy_first(&w) == WHY_CPU_CONTENTION);
	/* a previous cause that no longer holds is not kept */
	w.ev.mem_current = (struct kval){ .have = true, .v = 1 << 20 };
	rowwhy_eval(&w, d, total, true, 10, 1, WHY_MEM_LIMIT);
	CHECK(rowwhy_first(&w) == WHY_CPU_CONTENTION);
	CHECK_EQ_U(w.nranked, 1);
}

/* Batch text shows WHY where a row has a cause; CSV its stable key. */
static void test_text_csv(void)
{
	struct row rows[2];
	struct row_why w;
	struct sample s = { .time = 1, .interval = 2, .rows = rows, .nrows = 2 };
	struct out_opts o = { .format = OUT_CSV };
	char *p = NULL;
	size_t n = 0;
	FILE *f;

	make_row(&rows[0], &w);
	rows[1] = rows[0];
	rows[1].pid = rows[1].tgid = 43;
	rows[1].why = NULL;
	f = open_memstream(&p, &n);
	out_text(f, &o, &s);
	fclose(f);
	CHECK(strstr(p, " WHY ") != NULL);
	CHECK(strstr(p, "io limit sda") != NULL);
	free(p);
	f = open_memstream(&p, &n);
	out_csv(f, &o, &s);
	fclose(f);
	/* why, then what stands next to a stall (none known here) */
	CHECK(strstr(p, ",command,why,nice,") != NULL);
	CHECK(strstr(p, ",spin,io_limit,,") != NULL);
	CHECK(strstr(p, ",spin,,,") != NULL);   /* no evidence: empty */
	free(p);
	/* no row with a cause: no WHY column */
	rows[0].why = NULL;
	f = open_memstream(&p, &n);
	out_text(f, &o, &s);
	fclose(f);
	CHECK(strstr(p, "WHY") == NULL);
	free(p);
}

static bool same_kval(const struct kval *a, const struct kval *b)
{
	return a->have == b->have && a->max == b->max && a->v == b->v;
}

static void test_json(void)
{
	struct row rows[2];
	struct row_why w;
	struct sample s = { .time = 1, .interval = 2, .rows = rows, .nrows = 2 };
	char *p = NULL;
	size_t n = 0;
	FILE *f;

	make_row(&rows[0], &w);
	fields_row_init(&rows[1]);
	rows[1].pid = rows[1].tgid = 7;
	if (!(f = open_memstream(&p, &n)))
		exit(99);
	out_json(f, &s);
	fclose(f);
	CHECK(strstr(p, "\"cpu_quota_us\":20000") != NULL);
	CHECK(strstr(p, "\"mem_max\":\"max\"") != NULL);
	CHECK(strstr(p, "\"mem_high\":null") != NULL);
	CHECK(strstr(p, "\"cpu\":{\"cause\":\"cpu_quota\",\"text\":\"cpu quota\"}") != NULL);
	CHECK(strstr(p, "\"reclaim\":{\"cause\":null,\"text\":null}") != NULL);
	CHECK(strstr(p, "\"states_source\":\"cgroupstats\"") != NULL);
	/* the row without evidence has its "why" key, null: one key set */
	CHECK(strstr(strstr(p, "\"pid\":7"), "\"why\":null") != NULL);

	json_tokener *tok = json_read_tokener();
	json_object *o = json_read_line(tok, p, strcspn(p, "\n"));
	struct json_read rp = { 0 };
	struct sample back;
	CHECK(o && json_read_sample(&rp, o, &back) == 0);
	CHECK(back.nrows == 2 && back.rows[0].why && !back.rows[1].why);
	if (back.nrows == 2 && back.rows[0].why) {
		const struct row_why *b = back.rows[0].why;
		for (size_t i = 0; i < evidence_nfields; i++) {
			const struct evidence_field *fd = &evidence_fields[i];
			if (!same_kval(evidence_value(&w.ev, fd),
				       evidence_value(&b->ev, fd))) {
				fprintf(stderr, "field %s differs\n", fd->name);
				CHECK(false);
			}
		}
		CHECK(b->ev.n_io_devs == 1 && b->ev.io_devs[0].major == 8);
		CHECK_STR(b->ev.io_devs[0].name, "sda");
		for (size_t i = 0; i < evidence_io_dev_nfields; i++)
			CHECK(same_kval(evidence_value(&w.ev.io_devs[0],
						       &evidence_io_dev_fields[i]),
					evidence_value(&b->ev.io_devs[0],
						       &evidence_io_dev_fields[i])));
		CHECK(b->ev.n_disks == 1);
		CHECK_NEAR(b->ev.disks[0].util_pct, 98.5, 0.01);
		CHECK(b->ev.disks[0].write_bytes == 52428800);
		CHECK_NEAR(b->ev.interval_s, 2, 0.001);
		CHECK(b->ev.cpu_cgroup_version == 1 && !b->ev.mem_cgroup_version);
		CHECK(b->ev.states_source == CGSTATS_KERNEL);
		for (int c = 0; c < NCAT; c++) {
			CHECK(b->c[c].stalled == w.c[c].stalled);
			CHECK(b->c[c].r.cause == w.c[c].r.cause);
			CHECK_STR(b->c[c].text, w.c[c].text);
		}
		CHECK_STR(rowwhy_main(&back.rows[0]), rowwhy_main(&rows[0]));
	}
	json_object_put(o);
	json_tokener_free(tok);
	json_read_free(&rp);
	free(p);
}

/* Garbage in a "why" object: absent values, never a crash or a 0. */
static void test_json_garbage(void)
{
	static const char line[] =
		"{\"time\":1,\"interval\":1,\"tasks\":[{\"pid\":1,\"tgid\":1,\"why\":"
		"{\"interval_s\":\"x\",\"causes\":{\"cpu\":{\"cause\":\"nope\","
		"\"text\":5},\"io\":[]},\"cpu_quota_us\":-5,\"mem_max\":\"min\","
		"\"mem_current\":1.5,\"io_devices\":[{\"device\":\"8\"},7],"
		"\"disks\":{},\"cpu_cgroup_version\":3}}],\"exited\":[]}";
	json_tokener *tok = json_read_tokener();
	json_object *o = json_read_line(tok, line, strlen(line));
	struct json_read rp = { 0 };
	struct sample s;

	CHECK(o && json_read_sample(&rp, o, &s) == 0);
	CHECK(s.nrows == 1 && s.rows[0].why);
	if (s.nrows == 1 && s.rows[0].why) {
		const struct row_why *w = s.rows[0].why;
		CHECK(w->c[CAT_CPU].stalled && w->c[CAT_CPU].r.cause == WHY_NONE);
		CHECK(!w->c[CAT_IO].stalled);
		CHECK(!w->ev.cpu_quota_us.have && !w->ev.mem_max.have &&
		      !w->ev.mem_current.have);
		CHECK(w->ev.n_io_devs == 0 && w->ev.n_disks == 0);
		CHECK(w->ev.cpu_cgroup_version == 0 && w->ev.interval_s == 0);
		CHECK_STR(rowwhy_main(&s.rows[0]), "");
	}
	json_object_put(o);
	json_tokener_free(tok);
	json_read_free(&rp);
}

/*
 * A recording made before causes were ranked: each category's cause and
 * no "ranked" list. The WHY column shows the cause of the largest stall
 * that has one, as it did when the recording was made.
 */
static void test_json_unranked(void)
{
	static const char line[] =
		"{\"time\":1,\"interval\":1,\"tasks\":[{\"pid\":1,\"tgid\":1,"
		"\"delay\":{\"cpu\":{\"pct\":20},\"io\":{\"pct\":60}},"
		"\"why\":{\"interval_s\":1,\"causes\":{"
		"\"cpu\":{\"cause\":\"cpu_quota\",\"text\":\"cpu quota\"},"
		"\"io\":{\"cause\":\"disk_busy\",\"text\":\"disk sda 98%\"}}}}],"
		"\"exited\":[]}";
	json_tokener *tok = json_read_tokener();
	json_object *o = json_read_line(tok, line, strlen(line));
	struct json_read rp = { 0 };
	struct sample s;

	CHECK(o && json_read_sample(&rp, o, &s) == 0);
	CHECK(s.nrows == 1 && s.rows[0].why && !s.rows[0].why->nranked);
	if (s.nrows == 1 && s.rows[0].why)
		CHECK_STR(rowwhy_main(&s.rows[0]), "disk sda 98%");
	json_object_put(o);
	json_tokener_free(tok);
	json_read_free(&rp);
}

/* The manual page's WHY IT STALLS names every field and every cause. */
static void test_man(void)
{
	char *man = unit_fixture("../../man/stalltop.1", NULL);
	char *sec = strstr(man, "\n.SH WHY IT STALLS");
	char *end = sec ? strstr(sec + 1, "\n.SH ") : NULL;
	char name[64];

	CHECK(sec && end);
	if (!sec || !end)
		return;
	*end = '\0';
	for (size_t i = 0; i < evidence_nfields; i++) {
		snprintf(name, sizeof(name), ".BR %s ", evidence_fields[i].name);
		if (!strstr(sec, name)) {
			fprintf(stderr, "field %s is not in the manual\n",
				evidence_fields[i].name);
			CHECK(false);
		}
	}
	for (size_t i = 0; i < evidence_io_dev_nfields; i++) {
		snprintf(name, sizeof(name), ".BR %s ",
			 evidence_io_dev_fields[i].name);
		CHECK(strstr(sec, name) != NULL);
	}
	for (size_t i = 0; i < evidence_disk_nfields; i++)
		CHECK(strstr(sec, evidence_disk_fields[i]) != NULL);
	for (int r = WHY_NONE + 1; r < NWHY; r++) {
		snprintf(name, sizeof(name), "(%s)", why_rules[r].key);
		if (!strstr(sec, name)) {
			fprintf(stderr, "cause %s is not in the manual\n",
				why_rules[r].key);
			CHECK(false);
		}
	}
	CHECK(strstr(sec, "\n.B w\n") != NULL);
	free(man);
}

int main(void)
{
	test_stalled();
	test_eval();
	test_rank();
	test_text_csv();
	test_json();
	test_json_garbage();
	test_json_unranked();
	test_man();
	return unit_done();
}
