/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Fuzz target: the settings file (config_file_load_text, the parser behind
 * config_file_load). Checks that whatever the text, the options stay valid
 * (a delay in (0, 24 h], a known sort key and metric), that no more lines
 * are skipped than the text has, that settings the command line set are
 * left alone, and that NO_COLOR keeps the file from setting monochrome.
 * Whether NO_COLOR is set depends on the input's length, so both paths
 * are fuzzed.
 */
#include <config.h>

#include <math.h>
#include <string.h>

#include "config_file.h"
#include "fuzz.h"
#include "model/select.h"
#include "options.h"
#include "view/om_series.h"

#define ALL_SET (SET_DELAY | SET_SORT | SET_REVERSE | SET_ONLY_STALLED | \
		 SET_CMDLINE | SET_THREADS | SET_ACCUMULATE | SET_MONOCHROME | \
		 SET_METRIC)

static void defaults(struct options *o, unsigned set_mask)
{
	memset(o, 0, sizeof(*o));
	o->delay = 1.5;
	o->sel.sort = FIELD_TOTAL;
	o->sel.metric = METRIC_AVG;
	o->set_mask = set_mask;
}

static void check_valid(const struct options *o)
{
	FUZZ_CHECK(isfinite(o->delay) && o->delay > 0 &&
		   o->delay <= 24.0 * 3600.0);
	FUZZ_CHECK(fields_sort_name(o->sel.sort) != NULL);
	FUZZ_CHECK(o->sel.metric >= 0 && o->sel.metric < NMETRIC);
	FUZZ_CHECK(o->pids == NULL && o->npids == 0);
}

static int same(const struct options *a, const struct options *b)
{
	return a->delay == b->delay && a->sel.sort == b->sel.sort &&
	       a->sel.reverse == b->sel.reverse &&
	       a->sel.metric == b->sel.metric &&
	       a->sel.only_stalled == b->sel.only_stalled &&
	       a->cmdline == b->cmdline && a->threads == b->threads &&
	       a->accumulate == b->accumulate &&
	       a->monochrome == b->monochrome && a->set_mask == b->set_mask;
}

/*
 * Called by libFuzzer only: every skipped line is a warning on stderr,
 * and unbuffered those writes are most of the time a run takes.
 */
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static char buf[1 << 16];

	(void)argc;
	(void)argv;
	setvbuf(stderr, buf, _IOFBF, sizeof(buf));
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	struct options o, before;
	int lines = 0, ret;
	bool no_color = size & 1;

	for (size_t i = 0; i < size; i++)
		lines += data[i] == '\n';
	if (size && data[size - 1] != '\n')
		lines++;
	if (no_color)
		setenv("NO_COLOR", "1", 1);
	else
		unsetenv("NO_COLOR");

	defaults(&o, 0);
	ret = config_file_load_text(&o, text, size, "fuzz");
	FUZZ_CHECK(ret >= 0 && ret <= lines);
	check_valid(&o);
	if (no_color)
		FUZZ_CHECK(!o.monochrome);
	/* the group rules kept are those that parse */
	for (size_t i = 0; i < o.ngroup_rules; i++) {
		struct om_rule r;
		char why[256];
		FUZZ_CHECK(om_rule_parse(&r, o.group_rules[i], why,
						sizeof(why)) == 0);
		om_rule_free(&r);
	}
	options_free(&o);

	/* everything set on the command line: nothing changes */
	defaults(&o, ALL_SET);
	before = o;
	ret = config_file_load_text(&o, text, size, "fuzz");
	FUZZ_CHECK(ret >= 0 && ret <= lines);
	FUZZ_CHECK(same(&o, &before));
	options_free(&o);
	return 0;
}
