/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Group rules against hostile subjects. A task names itself: its command
 * line is up to 64 KiB of its own choosing. Checked:
 * - the expressions of rules mean what POSIX's extended ones (regcomp
 *   with REG_EXTENDED | REG_NOSUB, as the rules were read before) mean
 *   for them, pattern by pattern, on subjects with newlines, UTF-8 and
 *   long runs; a pattern that does not compile, or GNU's \< and \>, is
 *   refused with where in it;
 * - patterns that backtrack without end on such subjects
 *   (^(a*)*\1$, (a|aa)+$, (.*)(.*)(.*)(.*)q, ([a-z]+)+-worker) end
 *   within one match's limits: each match reaches a limit at most once
 *   (the limit count grows by one, not more) and is no match; work is
 *   counted in limit hits, not in time;
 * - in the metrics' series, such a rule does not hold for the task, the
 *   task is in its comm's group, one note names the rule however many
 *   tasks and samples reach the limit, a later rule still holds, and
 *   the task's rule is not matched again at the next sample (no more
 *   limit hits) unless its command line changed;
 * - a sample's matching stops when its time is spent (OM_RULE_SAMPLE_MS):
 *   of 2,000 tasks whose match each reaches the limit (about 3 ms each
 *   here, 6 s for all) far fewer are matched in one sample, a note says
 *   so once, every task is still counted (in its comm's group), and the
 *   next sample goes on where this one stopped.
 */
#include <config.h>

#include <locale.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"
#include "view/om_rule.h"
#include "view/om_series.h"

/* A sample's time to match where limits are counted, not time (long
 * enough for valgrind's pace) */
#define LONG_MS 1e9

/* What POSIX says of pattern on subject: 1 match, 0 not. */
static int posix_match(const char *pattern, const char *subject)
{
	regex_t re;
	if (regcomp(&re, pattern, REG_EXTENDED | REG_NOSUB) != 0)
		return -1;
	int ret = regexec(&re, subject, 0, NULL, 0) == 0;
	regfree(&re);
	return ret;
}

static void test_same_as_posix(void)
{
	static const char *const patterns[] = {
		"^(nginx|apache2)$", "-jar [^ ]*app", "-jar .*/app\\.jar",
		"a.b", "x$", "^x", "^$", "[[:digit:]]+", "^[[:alpha:]]+$",
		"^.{3}$", "^(ab)\\1$", "a{2,3}", "^a{2,3}$", "(foo|bar)baz",
		"[^a-z]", "\\.jar$", "^[0-9]+(\\.[0-9]+)*$", "(a|b)*c",
		"worker-[0-9]+", "\\w+\\s\\w+", "[]x]", "[a-]",
	};
	static const char *const subjects[] = {
		"nginx", "apache2", "nginx-helper", "java -jar /opt/app.jar",
		"java -jar /opt/myapp.jar", "a\nb", "axb", "x\n", "x", "\nx",
		"", "12345", "äöü", "abc", "abab", "ab", "aa", "aaaa",
		"foobaz", "barbaz", "bazbaz", "1.2.3", "1..2", "ababc",
		"worker-17", "hello world", "]", "-", "python3 -m http.server",
	};
	struct om_rule_matcher *m = om_rule_matcher_new();
	CHECK(m != NULL);
	if (!m)
		return;
	om_rule_matcher_set_sample_ms(m, LONG_MS);
	for (size_t i = 0; i < sizeof(patterns) / sizeof(*patterns); i++) {
		char text[256], err[256];
		struct om_rule r;
		snprintf(text, sizeof(text), "g:cmdline:%s", patterns[i]);
		if (om_rule_parse(&r, text, err, sizeof(err)) < 0) {
			fprintf(stderr, "%s: %s\n", patterns[i], err);
			CHECK(!"a POSIX pattern compiles");
			continue;
		}
		CHECK_STR(r.group, "g");
		CHECK(r.cmdline);
		for (size_t j = 0; j < sizeof(subjects) / sizeof(*subjects); j++) {
			enum om_rule_result got = om_rule_match(m, &r, subjects[j]);
			int want = posix_match(patterns[i], subjects[j]);
			if ((got == OM_RULE_MATCH) != (want == 1))
				fprintf(stderr, "'%s' on '%s': %d, POSIX %d\n",
					patterns[i], subjects[j], (int)got, want);
			CHECK((got == OM_RULE_MATCH) == (want == 1));
		}
		om_rule_free(&r);
	}
	CHECK_EQ_U(om_rule_matcher_limits(m), 0);
	om_rule_matcher_free(m);
}

static void test_refused(void)
{
	struct om_rule r;
	char err[256];
	CHECK(om_rule_parse(&r, "x:pid:1", err, sizeof(err)) < 0);
	CHECK(strstr(err, "comm") != NULL);
	CHECK(om_rule_parse(&r, "x:comm:a(b", err, sizeof(err)) < 0);
	CHECK(strstr(err, "offset 3") != NULL);
	CHECK(om_rule_parse(&r, "x:comm:\\<word\\>", err, sizeof(err)) < 0);
	CHECK(strstr(err, "offset 0") != NULL && strstr(err, "\\b") != NULL);
	/* an escaped backslash before < is a backslash and a < */
	CHECK(om_rule_parse(&r, "x:comm:a\\\\<", err, sizeof(err)) == 0);
	om_rule_free(&r);
	CHECK(om_rule_parse(&r, ":comm:a", err, sizeof(err)) < 0);
	CHECK(om_rule_parse(&r, "nocolon", err, sizeof(err)) < 0);
	/* the rule's own colons: the expression is what follows the second */
	CHECK(om_rule_parse(&r, "g:comm:^a:b$", err, sizeof(err)) == 0);
	CHECK_STR(r.text, "g:comm:^a:b$");
	om_rule_free(&r);
}

/* n bytes of 'a' and an end that no pattern below accepts. */
static char *run_of_a(size_t n, char end)
{
	char *s = malloc(n + 2);
	if (!s)
		exit(99);
	memset(s, 'a', n);
	s[n] = end;
	s[n + 1] = '\0';
	return s;
}

static void test_catastrophic(void)
{
	static const struct {
		const char *rule;
		size_t len;
	} cases[] = {
		{ "evil:cmdline:^(a*)*\\1$", 3000 },
		{ "evil:cmdline:^(a*)*\\1$", 65534 },
		{ "evil:cmdline:(a|aa)+$", 65534 },
		{ "evil:cmdline:(.*)(.*)(.*)(.*)q", 5000 },
		{ "g:cmdline:([a-z]+)+-worker", 60000 },
		{ "g:cmdline:(a+)+b", 65534 },
	};
	struct om_rule_matcher *m = om_rule_matcher_new();
	CHECK(m != NULL);
	if (!m)
		return;
	om_rule_matcher_set_sample_ms(m, LONG_MS);
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct om_rule r;
		char err[256];
		CHECK(om_rule_parse(&r, cases[i].rule, err, sizeof(err)) == 0);
		char *s = run_of_a(cases[i].len, '!');
		unsigned long before = om_rule_matcher_limits(m);
		om_rule_matcher_begin(m);
		enum om_rule_result got = om_rule_match(m, &r, s);
		CHECK(got == OM_RULE_NOMATCH || got == OM_RULE_LIMIT);
		/* one match: one limit reached at most, then it ended */
		CHECK(om_rule_matcher_limits(m) - before <= 1);
		CHECK((got == OM_RULE_LIMIT) ==
		      (om_rule_matcher_limits(m) - before == 1));
		if (strncmp(cases[i].rule, "evil", 4) == 0)
			CHECK(got == OM_RULE_LIMIT);
		free(s);
		om_rule_free(&r);
	}
	/* a pattern that runs through 64 KiB once stays within the limit */
	struct om_rule r;
	char err[256];
	CHECK(om_rule_parse(&r, "g:cmdline:.*x.*y.*z", err, sizeof(err)) == 0);
	char *s = run_of_a(65534, 'z');
	unsigned long before = om_rule_matcher_limits(m);
	om_rule_matcher_begin(m);
	CHECK(om_rule_match(m, &r, s) == OM_RULE_NOMATCH);
	CHECK_EQ_U(om_rule_matcher_limits(m), before);
	free(s);
	om_rule_free(&r);
	om_rule_matcher_free(m);
}

static struct row task(pid_t pid, const char *comm, const char *cmdline)
{
	struct row r = {
		.pid = pid, .tgid = pid, .comm = comm, .cmdline = cmdline,
		.info = { .start = 1000 + pid, .threads = 1 },
		.total_pct = 10,
	};
	for (int c = 0; c < NCAT; c++)
		r.d[c] = (struct cat_figure){ .avail = true, .have_count = true };
	r.d[CAT_CPU].pct = 10;
	r.d[CAT_CPU].count = 1;
	return r;
}

static struct sample sample_of(struct row *rows, size_t n)
{
	return (struct sample){ .time = 1763740000, .interval = 1,
				.rows = rows, .nrows = n };
}

struct notes {
	int n;
	char last[1024];
};

static void on_note(const char *text, void *arg)
{
	struct notes *ns = arg;
	ns->n++;
	snprintf(ns->last, sizeof(ns->last), "%s", text);
}

/* The tasks of group name in the last sample; -1: no such group. */
static long group_tasks(const struct om_series *t, const char *name)
{
	size_t n;
	struct om_group **g = om_series_groups(t, &n);
	long ret = -1;
	for (size_t i = 0; i < n; i++)
		if (strcmp(g[i]->name, name) == 0)
			ret = (long)g[i]->ntasks;
	free(g);
	return ret;
}

static void test_series(void)
{
	struct om_rule rules[2];
	char err[256];
	CHECK(om_rule_parse(&rules[0], "evil:cmdline:^(a*)*\\1$", err,
			    sizeof(err)) == 0);
	CHECK(om_rule_parse(&rules[1], "web:comm:^nginx$", err,
			    sizeof(err)) == 0);
	struct om_series *t = om_series_new(0);
	struct notes ns = { 0, "" };
	om_series_set_rules(t, rules, 2);
	om_series_on_note(t, on_note, &ns);
	om_rule_matcher_set_sample_ms(t->matcher, LONG_MS);
	char *evil = run_of_a(3000, '!');
	struct row rows[3] = { task(10, "sleep", evil), task(11, "nginx", evil),
			       task(12, "sleep", "sleep 300") };
	struct sample s = sample_of(rows, 3);
	unsigned long before = om_rule_matcher_limits(t->matcher);
	om_series_add(t, &s);
	CHECK_EQ_U(om_rule_matcher_limits(t->matcher) - before, 2);
	CHECK_EQ_U(group_tasks(t, "sleep"), 2);
	CHECK_EQ_U(group_tasks(t, "web"), 1);
	CHECK(group_tasks(t, "evil") == -1);
	CHECK_EQ_U(ns.n, 1);
	CHECK(strstr(ns.last, "evil:cmdline:^(a*)*\\1$") != NULL);
	/* the next sample: the rules of the same tasks are known */
	om_series_add(t, &s);
	CHECK_EQ_U(om_rule_matcher_limits(t->matcher) - before, 2);
	CHECK_EQ_U(group_tasks(t, "sleep"), 2);
	CHECK_EQ_U(ns.n, 1);
	/* a changed command line is matched again */
	rows[0].cmdline = "aaaa";
	om_series_add(t, &s);
	CHECK_EQ_U(group_tasks(t, "evil"), 1);
	CHECK_EQ_U(group_tasks(t, "sleep"), 1);
	om_series_free(t);
	free(evil);
	om_rule_free(&rules[0]);
	om_rule_free(&rules[1]);
}

#define NBUDGET 2000

static void test_sample_time(void)
{
	struct om_rule rule;
	char err[256];
	CHECK(om_rule_parse(&rule, "evil:cmdline:^(a*)*\\1$", err,
			    sizeof(err)) == 0);
	struct om_series *t = om_series_new(0);
	struct notes ns = { 0, "" };
	om_series_set_rules(t, &rule, 1);
	om_series_on_note(t, on_note, &ns);
	char *evil = run_of_a(3000, '!');
	struct row *rows = malloc(NBUDGET * sizeof(*rows));
	if (!rows)
		exit(99);
	for (int i = 0; i < NBUDGET; i++)
		rows[i] = task(100 + i, "sleep", evil);
	struct sample s = sample_of(rows, NBUDGET);
	om_series_add(t, &s);
	unsigned long first = om_rule_matcher_limits(t->matcher);
	printf("matches that reached a limit in one sample: %lu of %d\n",
	       first, NBUDGET);
	CHECK(first >= 1 && first < NBUDGET / 2);
	/* the limit's note, then the time's */
	CHECK_EQ_U(ns.n, 2);
	CHECK(strstr(ns.last, "ms") != NULL);
	CHECK_EQ_U(group_tasks(t, "sleep"), NBUDGET);
	om_series_add(t, &s);
	unsigned long second = om_rule_matcher_limits(t->matcher) - first;
	CHECK(second >= 1 && second < NBUDGET / 2);
	CHECK_EQ_U(ns.n, 2);
	CHECK_EQ_U(group_tasks(t, "sleep"), NBUDGET);
	om_series_free(t);
	free(rows);
	free(evil);
	om_rule_free(&rule);
}

int main(void)
{
	/* as stalltop runs: characters of the locale (UTF-8 here) */
	if (!setlocale(LC_ALL, "C.UTF-8"))
		unit_skip("no C.UTF-8 locale");
	test_same_as_posix();
	test_refused();
	test_catastrophic();
	test_series();
	test_sample_time();
	return unit_done();
}
