/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The OpenMetrics writer over samples built by hand: every line parses
 * as the exposition format even with hostile names (quotes, backslashes,
 * newlines, invalid UTF-8, control bytes in comm and cgroup paths);
 * counters add up every row of every sample, shown or not, and never go
 * down; a dropped figure is not added and an absent one has no series;
 * a reused pid is a new series; a task that ended is shown once with its
 * last interval; only the top N tasks are shown.
 */
#include <config.h>

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/numfmt.h"
#include "unit.h"
#include "view/om_series.h"
#include "view/out_openmetrics.h"

static char *text_of(const struct out_openmetrics *m,
		     enum out_openmetrics_format fmt)
{
	char *p = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&p, &n);

	if (!f)
		exit(99);
	CHECK(out_openmetrics_write(f, m, fmt) == 0);
	fclose(f);
	return p;
}

/* A sample added, then its OpenMetrics exposition. */
static char *run(struct out_openmetrics *m, const struct sample *s)
{
	out_openmetrics_add(m, s);
	return text_of(m, OUT_OPENMETRICS_OM);
}

/* A label value up to its closing quote; only \\, \" and \n escapes. */
static const char *label_value(const char *p)
{
	for (; *p != '"'; p++) {
		if (*p == '\n' || *p == '\0' || (unsigned char)*p < 0x20 ||
		    (unsigned char)*p >= 0x80)
			return NULL;
		if (*p == '\\') {
			p++;
			if (*p != '\\' && *p != '"' && *p != 'n')
				return NULL;
		}
	}
	return p + 1;
}

static bool name_char(char c, bool first)
{
	return isalpha((unsigned char)c) || c == '_' || c == ':' ||
	       (!first && isdigit((unsigned char)c));
}

/* One sample line: name{k="v",...} number. */
static bool valid_line(const char *p)
{
	if (!name_char(*p, true))
		return false;
	while (name_char(*p, false))
		p++;
	if (*p == '{') {
		p++;
		while (*p != '}') {
			if (!name_char(*p, true))
				return false;
			while (name_char(*p, false))
				p++;
			if (p[0] != '=' || p[1] != '"')
				return false;
			p = label_value(p + 2);
			if (!p)
				return false;
			if (*p == ',')
				p++;
			else if (*p != '}')
				return false;
		}
		p++;
	}
	if (*p++ != ' ')
		return false;
	char *end;
	strtod(p, &end);
	return end != p && *end == '\n';
}

/* Every line a comment or a valid sample, and "# EOF" last. */
static void check_format(const char *text)
{
	size_t len = strlen(text);
	CHECK(len >= 6 && strcmp(text + len - 6, "# EOF\n") == 0);
	for (const char *p = text; *p;) {
		const char *nl = strchr(p, '\n');
		CHECK(nl != NULL);
		if (!nl)
			return;
		if (*p != '#' && !valid_line(p)) {
			unit_failures++;
			fprintf(stderr, "bad line: %.*s\n", (int)(nl - p), p);
		}
		p = nl + 1;
	}
}

/* The value of the series whose line starts with head + "} ", or NAN. */
static double value(const char *text, const char *head)
{
	size_t n = strlen(head);
	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : p)
		if (strncmp(p, head, n) == 0 && p[n] == '}' && p[n + 1] == ' ')
			return strtod(p + n + 2, NULL);
	return NAN;
}

static struct row task(pid_t pid, double start, const char *comm, double cpu)
{
	struct row r = {
		.pid = pid, .tgid = pid, .comm = comm, .cmdline = "",
		.info = { .start = start, .threads = 1 },
		.total_pct = cpu,
	};
	for (int c = 0; c < NCAT; c++)
		r.d[c] = (struct cat_figure){ .avail = true, .have_count = true };
	r.d[CAT_CPU].pct = cpu;
	r.d[CAT_CPU].count = cpu > 0 ? 10 : 0;
	r.d[CAT_IRQ].avail = false; /* this kernel has none */
	return r;
}

static struct sample sample_of(struct row *rows, size_t n, struct row *ex,
			       size_t nex)
{
	return (struct sample){
		.time = 1763740000, .interval = 2, .rows = rows, .nrows = n,
		.exited = ex, .nexited = nex,
	};
}

#define SEC(pid, start, comm, cat) \
	"stalltop_task_delay_seconds_total{pid=\"" pid "\",start=\"" start \
	"\",comm=\"" comm "\",category=\"" cat "\""

/* The labels of the hostile cgroup: id, name, depth. */
#define CG "id=\"/x\\\"y\\\\\\\\z\\\\n\\\\xff\",name=\"n\\\"m\\\\e\",depth=\"1\""

static void test_hostile(void)
{
	struct out_openmetrics *m = out_openmetrics_new(20);
	out_openmetrics_set_host_psi(m, true);
	struct row rows[2] = {
		task(1, 1000, "a\"b\\c\nd\xff\xfe\x1b[0m", 10),
		task(2, 1000, "\xe2\x80\xae" "evil", 5),
	};
	struct cgroup_row cg = { .path = "/x\"y\\z\n\xff", .name = "n\"m\x1b",
				 .depth = 1, .have_psi = true };
	cg.have_throttled = true;
	cg.throttled_us = 2500001;
	cg.have_mem_max = true;
	cg.mem_max = 3;
	cg.d[CAT_CPU] = (struct cat_figure){ .avail = true, .pct = 50,
					     .have_count = true, .count = 3 };
	cg.psi.s[PSI_CPU][PSI_SOME] = (struct psi_stat){ .present = true,
							 .total_us = 1234567 };
	struct sample s = sample_of(rows, 2, NULL, 0);
	s.cgroups = &cg;
	s.ncgroups = 1;
	s.psi.s[PSI_IO][PSI_FULL] = (struct psi_stat){ .present = true,
						       .total_us = 5 };
	s.events_lost = 7;
	s.dropped = 2;
	char *t = run(m, &s);

	check_format(t);
	CHECK_NEAR(value(t, SEC("1", "1000.00", "a\\\"b\\\\\\\\c\\\\nd\\\\xff\\\\xfe\\\\e[0m", "cpu")),
		   0.2, 1e-9);
	/* a bidi override is written as its bytes */
	CHECK_NEAR(value(t, SEC("2", "1000.00", "\\\\xe2\\\\x80\\\\xaeevil", "cpu")), 0.1, 1e-9);
	CHECK_NEAR(value(t, "stalltop_cgroup_delay_seconds_total{" CG ",category=\"cpu\""),
		   1.0, 1e-9);
	CHECK_NEAR(value(t, "stalltop_cgroup_delays_total{" CG ",category=\"cpu\""),
		   3, 0);
	CHECK(strstr(t, "stalltop_cgroup_pressure_waiting_seconds_total{" CG ",resource=\"cpu\"} 1.234567\n"));
	/* the kernel's counters of the cgroup as given; the absent absent */
	CHECK(strstr(t, "\nstalltop_cgroup_cpu_throttled_seconds_total{" CG "} 2.500001\n"));
	CHECK(strstr(t, "\nstalltop_cgroup_memory_events_total{" CG ",event=\"max\"} 3\n"));
	CHECK(!strstr(t, "event=\"high\""));
	CHECK(!strstr(t, "event=\"oom_kill\""));
	CHECK(strstr(t, "stalltop_pressure_stalled_seconds_total{resource=\"io\"} 0.000005\n"));
	/* a resource the kernel does not have is no series */
	CHECK(!strstr(t, "stalltop_pressure_waiting_seconds_total{resource=\"memory\"}"));
	/* irq is not available: no series, not 0 */
	CHECK(!strstr(t, "category=\"irq\""));
	CHECK(strstr(t, "\nstalltop_events_lost_total 7\n"));
	CHECK(strstr(t, "\nstalltop_dropped_figures_total 2\n"));
	CHECK(strstr(t, "# TYPE stalltop_task_delay_seconds counter\n"
		     "# UNIT stalltop_task_delay_seconds seconds\n"));
	CHECK(strstr(t, "# TYPE stalltop_events_lost counter\n"));
	CHECK(!strstr(t, "# UNIT stalltop_events_lost"));
	free(t);

	/* the dropped figures add up over the samples */
	t = run(m, &s);
	check_format(t);
	CHECK(strstr(t, "\nstalltop_dropped_figures_total 4\n"));
	CHECK_NEAR(value(t, "stalltop_cgroup_delays_total{" CG ",category=\"cpu\""),
		   6, 0);
	free(t);
	out_openmetrics_free(m);
}

#define A_CPU SEC("100", "1000.00", "a", "cpu")
#define B_CPU SEC("200", "1000.00", "b", "cpu")
#define A_IO SEC("100", "1000.00", "a", "io")
#define A_CNT "stalltop_task_delays_total{pid=\"100\",start=\"1000.00\",comm=\"a\",category=\"cpu\""

static void test_counters(void)
{
	struct out_openmetrics *m = out_openmetrics_new(1);
	struct row rows[2];
	struct sample s = sample_of(rows, 2, NULL, 0);
	char *t;

	/* A on top: B's figures are counted though not shown */
	rows[0] = task(100, 1000, "a", 50);
	rows[1] = task(200, 1000, "b", 10);
	t = run(m, &s);
	check_format(t);
	CHECK_NEAR(value(t, A_CPU), 1.0, 1e-9);
	CHECK_NEAR(value(t, A_CNT), 10, 0);
	CHECK(isnan(value(t, B_CPU)));
	free(t);

	/* B on top: with what it did while hidden; A's io dropped */
	rows[0] = task(100, 1000, "a", 0);
	rows[0].d[CAT_IO] = (struct cat_figure){ .avail = true, .pct = 99,
						 .dropped = true };
	rows[1] = task(200, 1000, "b", 40);
	t = run(m, &s);
	CHECK_NEAR(value(t, B_CPU), 0.2 + 0.8, 1e-9);
	CHECK(isnan(value(t, A_CPU)));
	free(t);

	/* A again: its counter continues, the dropped figure never added */
	rows[0] = task(100, 1000, "a", 30);
	rows[1] = task(200, 1000, "b", 0);
	t = run(m, &s);
	CHECK_NEAR(value(t, A_CPU), 1.0 + 0.6, 1e-9);
	CHECK_NEAR(value(t, A_CNT), 20, 0);
	CHECK_NEAR(value(t, A_IO), 0, 0);
	/* its stall (TOTAL) adds up the same way, once per interval */
	CHECK_NEAR(value(t, "stalltop_task_stall_seconds_total{pid=\"100\","
			 "start=\"1000.00\",comm=\"a\""), 1.0 + 0 + 0.6, 1e-9);
	free(t);

	/* pid 100 reused by another task: a new series from zero */
	rows[0] = task(100, 2000.5, "a", 25);
	t = run(m, &s);
	CHECK_NEAR(value(t, SEC("100", "2000.50", "a", "cpu")), 0.5, 1e-9);
	CHECK(isnan(value(t, A_CPU)));
	free(t);
	out_openmetrics_free(m);
}

static void test_accumulated(void)
{
	struct out_openmetrics *m = out_openmetrics_new(5);
	struct row rows[1] = { task(100, 1000, "a", 10) };
	struct sample s = sample_of(rows, 1, NULL, 0);
	char *t;

	/* -a: the figures cover the run; taken as they are, never down */
	s.accumulated = true;
	s.interval = 10;
	t = run(m, &s);
	CHECK_NEAR(value(t, A_CPU), 1.0, 1e-9);
	free(t);
	s.interval = 20;
	rows[0] = task(100, 1000, "a", 10);
	t = run(m, &s);
	CHECK_NEAR(value(t, A_CPU), 2.0, 1e-9);
	free(t);
	rows[0] = task(100, 1000, "a", 5); /* 1 s: cannot be less than 2 */
	t = run(m, &s);
	CHECK_NEAR(value(t, A_CPU), 2.0, 1e-9);
	free(t);
	out_openmetrics_free(m);
}

static void test_exited(void)
{
	struct out_openmetrics *m = out_openmetrics_new(5);
	struct row rows[1], ex[1];
	struct sample s = sample_of(rows, 1, NULL, 0);
	char *t;

	rows[0] = task(300, 1000, "c", 10);
	t = run(m, &s);
	CHECK_NEAR(value(t, SEC("300", "1000.00", "c", "cpu")), 0.2, 1e-9);
	free(t);

	/* it ended: its last interval is added and shown once */
	ex[0] = task(300, 1000, "c", 20);
	ex[0].flags = ROW_EXITED;
	s = sample_of(rows, 0, ex, 1);
	t = run(m, &s);
	CHECK_NEAR(value(t, SEC("300", "1000.00", "c", "cpu")), 0.6, 1e-9);
	free(t);

	s = sample_of(rows, 0, NULL, 0);
	t = run(m, &s);
	check_format(t);
	CHECK(!strstr(t, "pid=\"300\""));
	free(t);
	out_openmetrics_free(m);
}

static void test_top(void)
{
	struct row rows[3] = {
		task(1, 0, "low", 1), task(2, 0, "high", 30),
		task(3, 0, "mid", 20),
	};
	struct sample s = sample_of(rows, 3, NULL, 0);
	struct out_openmetrics *m = out_openmetrics_new(2);
	char *t = run(m, &s);

	check_format(t);
	/* without a start time, no start label */
	CHECK(strstr(t, "{pid=\"2\",comm=\"high\",category=\"cpu\"} 0.600000\n"));
	CHECK(strstr(t, "{pid=\"3\",comm=\"mid\",category=\"cpu\"} 0.400000\n"));
	CHECK(!strstr(t, "pid=\"1\""));
	free(t);
	out_openmetrics_free(m);

	m = out_openmetrics_new(0);
	t = run(m, &s);
	check_format(t);
	CHECK(!strstr(t, "pid="));
	CHECK(strstr(t, "# TYPE stalltop_events_lost counter\n"));
	free(t);
	out_openmetrics_free(m);
}

/* Many tasks coming and going: the state stays bounded and correct. */
static void test_churn(void)
{
	struct out_openmetrics *m = out_openmetrics_new(3);
	struct row rows[50], ex[50];

	for (int round = 0; round < 200; round++) {
		for (int i = 0; i < 50; i++) {
			rows[i] = task(1000 + round * 50 + i, 0, "n", 1);
			ex[i] = task(950 + round * 50 + i, 0, "n", 1);
			ex[i].flags = ROW_EXITED;
		}
		struct sample s = sample_of(rows, 50, ex, round ? 50 : 0);
		char *t = run(m, &s);
		if (round == 199)
			check_format(t);
		free(t);
	}
	out_openmetrics_free(m);
}

/* The sample lines (not comments) of TEXT. */
static size_t nseries(const char *text)
{
	size_t n = 0;
	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : p)
		if (*p != '#' && *p != '\n')
			n++;
	return n;
}

#define GRP(g, cat) "stalltop_group_delay_seconds_total{group=\"" g "\",category=\"" cat "\""
#define GSTALL(g) "stalltop_group_stall_seconds_total{group=\"" g "\""
#define GTASKS(g) "stalltop_group_tasks{group=\"" g "\""

/*
 * The churn of the issue: 1,000 short-lived tasks with 10 names, 10 of
 * them started and ended in each of 100 samples, add one set of series
 * per name and none per task (no --top); each group's counter is the sum
 * of its ended tasks (each 1 % of a 2 s interval: 0.02 s) and never goes
 * down.
 */
static void test_groups_churn(void)
{
	struct out_openmetrics *m = out_openmetrics_new(0);
	static const char *const names[10] = { "n0", "n1", "n2", "n3", "n4",
					       "n5", "n6", "n7", "n8", "n9" };
	struct row live[1] = { task(1, 500, "init", 0) };
	struct row ex[10];
	double last[10] = { 0 };
	size_t first_series = 0, series = 0;

	for (int round = 0; round < 100; round++) {
		for (int i = 0; i < 10; i++) {
			ex[i] = task(1000 + round * 10 + i, 1000 + round, names[i], 1);
			ex[i].flags = ROW_EXITED;
		}
		struct sample s = sample_of(live, 1, ex, 10);
		char *t = run(m, &s);
		check_format(t);
		series = nseries(t);
		if (round == 0)
			first_series = series;
		for (int i = 0; i < 10; i++) {
			char head[128];
			snprintf(head, sizeof(head), GRP("%s", "cpu"), names[i]);
			double v = value(t, head);
			CHECK(v >= last[i]);
			last[i] = v;
		}
		CHECK(!strstr(t, "pid="));
		free(t);
	}
	/* 100 tasks of each name, each 0.02 s of cpu delay */
	for (int i = 0; i < 10; i++)
		CHECK_NEAR(last[i], 2.0, 1e-6);
	/* the set of series of the first sample, not one more */
	CHECK(series == first_series);
	out_openmetrics_free(m);
}

/*
 * A group goes on as its tasks come and go, and with -a (totals since
 * start) a task's growth is what counts: its ended total stays in.
 */
static void test_groups_accumulated(void)
{
	struct out_openmetrics *m = out_openmetrics_new(0);
	struct row rows[2] = { task(1, 1000, "w", 10), task(2, 1000, "w", 20) };
	struct sample s = sample_of(rows, 2, NULL, 0);
	s.accumulated = true;
	char *t = run(m, &s);
	/* 10 % and 20 % of 2 s */
	CHECK_NEAR(value(t, GRP("w", "cpu")), 0.6, 1e-9);
	CHECK_NEAR(value(t, GTASKS("w")), 2, 0);
	free(t);

	/* task 2 ends with 30 %; task 1 now at 15 % */
	rows[0] = task(1, 1000, "w", 15);
	struct row ex[1] = { task(2, 1000, "w", 30) };
	s = sample_of(rows, 1, ex, 1);
	s.accumulated = true;
	t = run(m, &s);
	CHECK_NEAR(value(t, GRP("w", "cpu")), 0.9, 1e-9);
	CHECK_NEAR(value(t, GTASKS("w")), 1, 0);
	free(t);

	/* task 2 is gone: its 0.6 s stay in the group */
	s = sample_of(rows, 1, NULL, 0);
	s.accumulated = true;
	t = run(m, &s);
	CHECK_NEAR(value(t, GRP("w", "cpu")), 0.9, 1e-9);
	free(t);
	/* the group with no task left keeps its counter, 0 tasks */
	rows[0] = task(3, 1000, "z", 0);
	t = run(m, &s);
	CHECK_NEAR(value(t, GRP("w", "cpu")), 0.9, 1e-9);
	CHECK_NEAR(value(t, GTASKS("w")), 0, 0);
	free(t);
	out_openmetrics_free(m);
}

/* More names than groups: the rest count in "other"; the count stays. */
static void test_groups_cap(void)
{
	struct out_openmetrics *m = out_openmetrics_new(0);
	enum { N = OM_SERIES_GROUPS + 50 };
	static struct row rows[N];
	static char names[N][16];
	for (int i = 0; i < N; i++) {
		snprintf(names[i], sizeof(names[i]), "p%03d", i);
		rows[i] = task(100 + i, 1000, names[i], 1);
	}
	struct sample s = sample_of(rows, N, NULL, 0);
	char *t = run(m, &s);
	check_format(t);
	size_t ngroups = 0;
	for (const char *p = t; (p = strstr(p, "\nstalltop_group_tasks{")); p++)
		ngroups++;
	CHECK(ngroups == OM_SERIES_GROUPS);
	/* the first OM_SERIES_GROUPS - 1 names have their groups */
	CHECK_NEAR(value(t, GRP("p000", "cpu")), 0.02, 1e-9);
	CHECK(isnan(value(t, GRP("p249", "cpu"))));
	CHECK_NEAR(value(t, GTASKS("other")), N - (OM_SERIES_GROUPS - 1), 0);
	CHECK_NEAR(value(t, GRP("other", "cpu")),
		   0.02 * (N - (OM_SERIES_GROUPS - 1)), 1e-9);
	free(t);
	out_openmetrics_free(m);
}

/* Rules: the first that matches names the group; the rest by comm. */
static void test_groups_rules(void)
{
	struct om_rule rules[3];
	char err[256];
	CHECK(om_rule_parse(&rules[0], "web:comm:^(nginx|apache2)$", err,
				   sizeof(err)) == 0);
	CHECK(om_rule_parse(&rules[1], "java:cmdline:-jar [^ ]*app", err,
				   sizeof(err)) == 0);
	CHECK(om_rule_parse(&rules[2], "x:pid:1", err, sizeof(err)) < 0);
	CHECK(strstr(err, "comm") != NULL);
	CHECK(om_rule_parse(&rules[2], "x:comm:(", err, sizeof(err)) < 0);
	CHECK(om_rule_parse(&rules[2], ":comm:a", err, sizeof(err)) < 0);
	CHECK(om_rule_parse(&rules[2], "nocolon", err, sizeof(err)) < 0);

	struct out_openmetrics *m = out_openmetrics_new(0);
	out_openmetrics_set_rules(m, rules, 2);
	struct row rows[4] = {
		task(1, 1000, "nginx", 10), task(2, 1000, "apache2", 20),
		task(3, 1000, "java", 30), task(4, 1000, "nginx-helper", 5),
	};
	rows[2].cmdline = "java -Xmx1g -jar /opt/myapp.jar";
	struct sample s = sample_of(rows, 4, NULL, 0);
	/* kernel threads by their name before '/'; others as they are */
	struct row kt[3] = { task(20, 1000, "kworker/0:1-events", 10),
			     task(21, 1000, "kworker/u8:2", 10),
			     task(22, 1000, "a/b", 10) };
	kt[0].info.ppid = kt[1].info.ppid = 2;
	kt[2].info.ppid = 1;
	struct sample k = sample_of(kt, 3, NULL, 0);
	struct out_openmetrics *mk = out_openmetrics_new(0);
	char *tk = run(mk, &k);
	CHECK_NEAR(value(tk, GTASKS("kworker")), 2, 0);
	CHECK_NEAR(value(tk, GTASKS("a/b")), 1, 0);
	free(tk);
	out_openmetrics_free(mk);
	char *t = run(m, &s);
	CHECK_NEAR(value(t, GRP("web", "cpu")), 0.6, 1e-9);
	CHECK_NEAR(value(t, GRP("java", "cpu")), 0.6, 1e-9);
	CHECK_NEAR(value(t, GRP("nginx-helper", "cpu")), 0.1, 1e-9);
	CHECK_NEAR(value(t, GSTALL("web")), 0.6, 1e-9);
	CHECK(isnan(value(t, GRP("nginx", "cpu"))));
	free(t);
	out_openmetrics_free(m);
	om_rule_free(&rules[0]);
	om_rule_free(&rules[1]);
}

/*
 * What a scrape needs besides the counters: the build, when the last
 * sample was, whether delays are counted at all; the host's PSI only
 * when asked.
 */
static void test_state(void)
{
	struct out_openmetrics *m = out_openmetrics_new(0);
	char *t = text_of(m, OUT_OPENMETRICS_PROM);
	CHECK(strstr(t, "\nstalltop_build_info{version=\"" VERSION "\"} 1\n"));
	CHECK(strstr(t, "# TYPE stalltop_build_info gauge\n"));
	/* before a sample: no time, no state */
	CHECK(!strstr(t, "stalltop_last_sample_timestamp_seconds "));
	CHECK(!strstr(t, "stalltop_delay_accounting "));
	free(t);

	struct row rows[1] = { task(1, 1000, "a", 10) };
	struct sample s = sample_of(rows, 1, NULL, 0);
	s.delayacct_known = true;
	s.delayacct = false;
	s.nprocs = 7;
	s.psi.s[PSI_CPU][PSI_SOME] = (struct psi_stat){ .present = true,
							.total_us = 5 };
	t = run(m, &s);
	check_format(t);
	CHECK(strstr(t, "# TYPE stalltop_build info\n"));
	CHECK(strstr(t, "\nstalltop_last_sample_timestamp_seconds 1763740000.000000\n"));
	CHECK(strstr(t, "# UNIT stalltop_last_sample_timestamp_seconds seconds\n"));
	CHECK(strstr(t, "\nstalltop_delay_accounting 0\n"));
	CHECK(strstr(t, "\nstalltop_tasks 7\n"));
	CHECK(!strstr(t, "stalltop_pressure_"));
	free(t);
	out_openmetrics_set_host_psi(m, true);
	t = text_of(m, OUT_OPENMETRICS_OM);
	CHECK(strstr(t, "\nstalltop_pressure_waiting_seconds_total{resource=\"cpu\"} 0.000005\n"));
	free(t);
	out_openmetrics_free(m);
}

/* Lines of TEXT not starting with '#', in order. */
static char *samples_of(const char *text)
{
	char *out = calloc(1, strlen(text) + 1), *o = out;
	if (!out)
		exit(99);
	for (const char *p = text; *p;) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p + 1) : strlen(p);
		if (*p != '#') {
			memcpy(o, p, n);
			o += n;
		}
		p += n;
	}
	return out;
}

/*
 * The two formats: the same series and values; OpenMetrics names a
 * counter's family without _total, gives the unit and ends with # EOF;
 * Prometheus 0.0.4 names it with _total and has neither. A write
 * changes nothing: twice the same text.
 */
static void test_formats(void)
{
	struct out_openmetrics *m = out_openmetrics_new(20);
	struct row rows[1] = { task(1, 1000, "a", 10) };
	struct sample s = sample_of(rows, 1, NULL, 0);
	s.events_lost = 3;

	/* before any sample: the counters that need none */
	char *t = text_of(m, OUT_OPENMETRICS_PROM);
	CHECK(strstr(t, "\nstalltop_events_lost_total 0\n"));
	free(t);

	out_openmetrics_add(m, &s);
	char *om = text_of(m, OUT_OPENMETRICS_OM);
	char *om2 = text_of(m, OUT_OPENMETRICS_OM);
	char *pr = text_of(m, OUT_OPENMETRICS_PROM);
	char *pr2 = text_of(m, OUT_OPENMETRICS_PROM);

	check_format(om);
	CHECK(strcmp(om, om2) == 0);
	CHECK(strcmp(pr, pr2) == 0);
	char *a = samples_of(om), *b = samples_of(pr);
	CHECK(strcmp(a, b) == 0 && strstr(a, "stalltop_task_delay_seconds_total{"));
	free(a);
	free(b);
	CHECK(strstr(pr, "# HELP stalltop_task_delay_seconds_total "));
	CHECK(strstr(pr, "# TYPE stalltop_task_delay_seconds_total counter\n"));
	CHECK(strstr(pr, "\nstalltop_events_lost_total 3\n"));
	CHECK(!strstr(pr, "# UNIT"));
	CHECK(!strstr(pr, "# EOF"));
	CHECK(strstr(om, "# HELP stalltop_task_delay_seconds "));
	CHECK(strstr(om, "# UNIT stalltop_task_delay_seconds seconds\n"));
	CHECK(strstr(out_openmetrics_content_type(OUT_OPENMETRICS_OM),
		     "application/openmetrics-text; version=1.0.0"));
	CHECK(strstr(out_openmetrics_content_type(OUT_OPENMETRICS_PROM),
		     "text/plain; version=0.0.4"));
	free(om);
	free(om2);
	free(pr);
	free(pr2);
	out_openmetrics_free(m);
}

int main(void)
{
	test_hostile();
	test_counters();
	test_accumulated();
	test_exited();
	test_top();
	test_churn();
	test_formats();
	test_groups_churn();
	test_groups_accumulated();
	test_groups_cap();
	test_groups_rules();
	test_state();
	return unit_done();
}
