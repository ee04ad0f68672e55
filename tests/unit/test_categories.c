/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The category table's columns of what explains a stall: each category's
 * evidence names groups that evidence fields belong to, every evidence
 * field explains some category, each category's causes are real causes
 * (at most WHY_HOLDS, only where it has evidence), every cause is tried
 * for some category, and the causes that hold for a category are those
 * of its row and no others, when the evidence shows every cause.
 */
#include <config.h>

#include "model/categories.h"
#include "model/evidence.h"
#include "model/rowwhy.h"
#include "model/why.h"
#include "unit.h"

/* The groups some evidence field (or a device's field) belongs to. */
static unsigned field_groups(void)
{
	unsigned all = 0;

	for (size_t i = 0; i < evidence_nfields; i++)
		all |= EVIDENCE_WANT(evidence_fields[i].group);
	for (size_t i = 0; i < evidence_io_dev_nfields; i++)
		all |= EVIDENCE_WANT(evidence_io_dev_fields[i].group);
	return all;
}

/* The groups of every category's evidence. */
static unsigned explained(void)
{
	unsigned all = 0;

	for (int c = 0; c < NCAT; c++)
		all |= categories[c].evidence;
	return all;
}

static void test_evidence_names_fields(void)
{
	unsigned fields = field_groups();

	for (int c = 0; c < NCAT; c++) {
		unsigned extra = categories[c].evidence & ~fields;

		CHECK(extra == 0);
		if (extra)
			fprintf(stderr, "category %s names evidence groups "
				"0x%x that no evidence field belongs to\n",
				categories[c].key, extra);
		CHECK(rowwhy_covers((enum cat)c) ==
		      (categories[c].evidence != 0));
	}
	/* compact and irq: the kernel shows nothing next to them */
	CHECK(categories[CAT_COMPACT].evidence == 0);
	CHECK(categories[CAT_IRQ].evidence == 0);
}

static void test_fields_explain(void)
{
	unsigned all = explained();

	for (size_t i = 0; i < evidence_nfields; i++) {
		const struct evidence_field *f = &evidence_fields[i];
		bool used = all & EVIDENCE_WANT(f->group);

		CHECK(used);
		if (!used)
			fprintf(stderr, "evidence field %s (group %d) explains "
				"no category\n", f->name, (int)f->group);
	}
	for (size_t i = 0; i < evidence_io_dev_nfields; i++)
		CHECK(all & EVIDENCE_WANT(evidence_io_dev_fields[i].group));
}

static unsigned bits(unsigned v)
{
	unsigned n = 0;

	for (; v; v &= v - 1)
		n++;
	return n;
}

static void test_causes(void)
{
	unsigned tried = 0, real = 0;

	for (int w = WHY_NONE + 1; w < NWHY; w++) {
		real |= WHY_RULE(w);
		CHECK(why_rules[w].holds != NULL);
	}
	for (int c = 0; c < NCAT; c++) {
		unsigned causes = categories[c].causes;

		CHECK((causes & ~real) == 0);
		CHECK(bits(causes) <= WHY_HOLDS);
		/* a cause is tried only for a stall with evidence */
		CHECK(!causes || categories[c].evidence);
		if ((causes & ~real) || bits(causes) > WHY_HOLDS ||
		    (causes && !categories[c].evidence))
			fprintf(stderr, "category %s: causes 0x%x, evidence "
				"0x%x\n", categories[c].key, causes,
				categories[c].evidence);
		tried |= causes;
	}
	for (int w = WHY_NONE + 1; w < NWHY; w++) {
		CHECK(tried & WHY_RULE(w));
		if (!(tried & WHY_RULE(w)))
			fprintf(stderr, "cause %s is tried for no category\n",
				why_rules[w].key);
	}
}

static struct kval val(uint64_t v)
{
	return (struct kval){ .have = true, .v = v };
}

/* Evidence that shows every cause at once. */
static void everything(struct evidence *ev)
{
	memset(ev, 0, sizeof(*ev));
	ev->interval_s = 1;
	ev->cpu_quota_us = val(20000);
	ev->cpu_periods = val(10);
	ev->cpu_throttled_periods = val(5);
	ev->allowed_cpus = val(1);
	ev->cpus_online = val(4);
	ev->runnable_threads = val(3);
	ev->sys_runnable = val(9);
	ev->mem_events_max = val(1);
	ev->mem_events_high = val(1);
	ev->sys_swap_total = val(1000);
	ev->sys_swap_free = val(1);
	ev->sys_mem_total = val(1000);
	ev->sys_mem_available = val(1);
	ev->n_io_devs = 1;
	ev->io_devs[0] = (struct evidence_io_dev){ .major = 8, .minor = 0,
		.wbps = val(1000), .wbytes = val(1000) };
	ev->n_disks = 1;
	ev->disks[0] = (struct diskstats_busy){ 8, 0, "sda", 99, 1, 0, 0 };
	ev->forks = val(1);
}

static void test_holds_by_row(void)
{
	struct evidence ev;

	everything(&ev);
	for (int c = 0; c < NCAT; c++) {
		struct why_hold h[WHY_HOLDS];
		size_t n = why_holds((enum cat)c, 1e6, &ev, h);
		unsigned got = 0;

		for (size_t i = 0; i < n; i++)
			got |= WHY_RULE(h[i].r.cause);
		CHECK_EQ_U(got, categories[c].causes);
		CHECK_EQ_U(n, bits(categories[c].causes));
		/* in the order of the causes */
		for (size_t i = 1; i < n; i++)
			CHECK(h[i - 1].r.cause < h[i].r.cause);
		if (got != categories[c].causes)
			fprintf(stderr, "category %s: causes 0x%x hold, its row "
				"has 0x%x\n", categories[c].key, got,
				categories[c].causes);
	}
}

int main(void)
{
	test_evidence_names_fields();
	test_fields_explain();
	test_causes();
	test_holds_by_row();
	return unit_done();
}
