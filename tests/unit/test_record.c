/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Record and replay: hand-built samples (absent categories and PSI, exited
 * and thread rows, ended threads, cgroups, a trigger, hostile names, -a
 * and -H) written as stalltop 0.1.0 wrote recordings of format 1
 * (tests/lib/ndjson_rec.c) to plain and .gz files and read back
 * field by field and byte by byte; recordings older than the "threads"
 * and "accumulated" keys, and then cgroup names (named from their
 * paths); what the monitor makes of replayed samples for
 * a view of processes and one of threads; every sample played from start
 * to end, the last one included; then damaged files: torn,
 * corrupt, from a future version, empty, not a recording, compressed and
 * cut short or damaged, written by a recorder that was killed, resumed
 * after a crash.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/numfmt.h"
#include "model/producer.h"
#include "view/output.h"
#include "record/player.h"
#include "record/record.h"
#include "../lib/ndjson_rec.h"
#include "record/replay.h"
#include "unit.h"

static char dir[256];
static char err[512];

/* A name process-controlled bytes could give: ESC, BEL, newline, bad UTF-8. */
#define HOSTILE_COMM "\x1b]0;pwned\x07\nnext\xff\xc3("
/* ...and what comes back: JSON cannot carry invalid UTF-8 (U+FFFD each). */
#define HOSTILE_BACK "\x1b]0;pwned\x07\nnext\xef\xbf\xbd\xef\xbf\xbd("

static struct row rows[3], exited[1], trows[3], texited[2];
static struct cgroup_row cgroups[2];
static struct sample s1, s2;

static void figure(struct cat_figure *f, double pct, uint64_t count,
		   double avg, bool have_max, double max)
{
	*f = (struct cat_figure){ .avail = true, .pct = pct, .count = count,
		.have_avg = count > 0, .avg_ms = avg, .have_max = have_max,
		.max_ms = max, .have_count = true };
}

static void build(void)
{
	struct psi_sample *p = &s1.psi;
	struct row *r;

	memset(&s1, 0, sizeof(s1));
	p->s[PSI_CPU][PSI_SOME] = (struct psi_stat){ true, 1.2, 0.8, 0.3, 123456, true, 2.1 };
	p->s[PSI_CPU][PSI_FULL] = (struct psi_stat){ true, 0, 0, 0, 4567, false, 0 };
	p->s[PSI_IO][PSI_SOME] = (struct psi_stat){ true, 0.5, 0.25, 0.1, UINT64_MAX, true, 0 };
	p->s[PSI_IRQ][PSI_FULL] = (struct psi_stat){ true, 0.1, 0.05, 0.01, 42, true, 0.4 };

	/* a process with every kind of figure */
	r = &rows[0];
	*r = (struct row){
		.pid = 1234, .tgid = 1234, .comm = "postgres",
		.cmdline = "postgres -D \"/var/lib/pg\" \\x \xe2\x80\xa8 \xc3\xbc",
		.uid = 106, .user = "postgres",
		.info = { .ppid = 1, .state = 'S', .threads = 4 },
		.have_cpu_pct = true, .cpu_pct = 37.5, .total_pct = 15.55,
		.cgroup = "/system.slice/postgresql@15-main.service",
		.flags = ROW_NEW, .age = 0.5,
	};
	r->ctx = (struct task_ctx){
		.have = CTX_RSS | CTX_SWAP | CTX_NICE | CTX_READ | CTX_WRITE |
			CTX_MAJFLT,
		.rss_kib = 123456, .swap_kib = 789, .nice = -5,
		.read_bps = 1048576, .write_bps = 524288.5, .majflt_ps = 12.5,
	};
	figure(&r->d[CAT_CPU], 12.5, 40, 3.125, true, 9.8);
	figure(&r->d[CAT_IO], 3.0, 7, 4.2857142, false, 0);
	figure(&r->d[CAT_SWAP], 0, 0, 0, true, 0);
	figure(&r->d[CAT_RECLAIM], 0, 4294967296ULL, 1.0 / 6, false, 0);
	r->d[CAT_RECLAIM].have_count = false; /* /proc gives no count */
	/* thrashing and compact: not provided by this kernel */
	figure(&r->d[CAT_WPCOPY], 0.05, 3, 1.0 / 6, true, 0.3);
	figure(&r->d[CAT_IRQ], NAN, 0, INFINITY, false, 0);
	r->d[CAT_IRQ].have_avg = true; /* not finite: written as null */

	/* a hostile name, nothing known but the figures, no cgroup */
	r = &rows[1];
	*r = (struct row){
		.pid = 4321, .tgid = 4321, .comm = HOSTILE_COMM,
		.cmdline = "", .uid = (uid_t)-1, .user = NULL,
		.info = { .ppid = 0, .state = '\0', .threads = -1 },
		.have_cpu_pct = false, .total_pct = 0,
	};
	figure(&r->d[CAT_CPU], 0, 0, 0, false, 0);

	/* NULL strings everywhere */
	r = &rows[2];
	*r = (struct row){ .pid = 99, .tgid = 99,
			   .info = { .ppid = 2, .state = 'D', .threads = 1 },
			   .uid = 0, .user = "0",
			   .have_cpu_pct = true, .cpu_pct = 100 };
	/* in D: its wait channel, and nothing else known */
	r->ctx.have = CTX_WCHAN;
	r->ctx.wchan = "folio_wait_bit_common";

	r = &exited[0];
	*r = (struct row){
		.pid = 777, .tgid = 777, .comm = "sh",
		.cmdline = "sh -c true", .user = "builduser1",
		.info = { .ppid = 1234, .state = 'X', .threads = 1 },
		.total_pct = 50, .flags = ROW_EXITED,
		.cgroup = "/user.slice/with space",
	};
	figure(&r->d[CAT_CPU], 50, 1, 500, true, 500);

	for (int i = 0; i < 3; i++) {
		r = &trows[i];
		*r = (struct row){
			.pid = 1234 + i, .tgid = 1234,
			.comm = i ? "worker" : "postgres", .cmdline = "postgres",
			.user = "postgres",
			.info = { .ppid = 1, .state = i == 2 ? 'R' : 'S',
				  .threads = 4 },
			.have_cpu_pct = true, .cpu_pct = 10.125 * i,
			.total_pct = 4.5 * i,
		};
		figure(&r->d[CAT_CPU], 4.5 * i, (uint64_t)i * 10, 0.45, i == 1, 2.5);
	}

	/* threads that ended: final figures, one with nothing but the cpu */
	texited[0] = (struct row){
		.pid = 1240, .tgid = 1234, .comm = "worker",
		.cmdline = "postgres", .user = "postgres",
		.info = { .ppid = 1, .state = 'X', .threads = -1 },
		.have_cpu_pct = true, .cpu_pct = 87.5,
		.total_pct = 31.25, .flags = ROW_EXITED,
	};
	figure(&texited[0].d[CAT_CPU], 25, 17, 1.5, true, 7.75);
	figure(&texited[0].d[CAT_IO], 6.25, 3, 20.5, false, 0);
	texited[1] = (struct row){ .pid = 1241, .tgid = 1234,
				   .info = { .state = 'X', .threads = -1 },
				   .flags = ROW_EXITED };
	figure(&texited[1].d[CAT_CPU], 0, 0, 0, false, 0);

	cgroups[0] = (struct cgroup_row){ .path = "/", .name = "/", .depth = 0,
					  .have_psi = true,
					  .total_pct = 65.55, .nr_tasks = 3 };
	cgroups[0].psi.s[PSI_MEMORY][PSI_FULL] =
		(struct psi_stat){ true, 3.25, 2.5, 1.75, 98765, true, 7.125 };
	figure(&cgroups[0].d[CAT_CPU], 62.5, 41, 3.0, true, 500);
	cgroups[1] = (struct cgroup_row){ .path = "/system.slice/postgresql@15-main.service",
					  .name = "postgresql@15-main.service",
					  .depth = 2, .have_psi = false,
					  .total_pct = 15.55, .nr_tasks = 1 };
	figure(&cgroups[1].d[CAT_IO], 3.0, 7, 4.2857142, false, 0);

	s1 = (struct sample){
		.time = 1763740000.5, .interval = 1.002,
		.delayacct = true, .delayacct_known = true,
		.ts_version = 16, .events_lost = 1ULL << 40,
		.exit_records_lost = (1ULL << 40) - 3,
		.psi = s1.psi,
		.rows = rows, .nrows = 3, .exited = exited, .nexited = 1,
		.trigger = "memory some 150ms/1s",
		.cgroups = cgroups, .ncgroups = 2,
		.thread_rows = trows, .nthread_rows = 3,
		.thread_exited = texited, .nthread_exited = 2,
		.accumulated = true,
		.nprocs = 3, .nthreads = 6,
	};

	/* the sparse one: nothing optional, unknown switch, no PSI at all */
	s2 = (struct sample){
		.time = 1763740001.5, .interval = NAN,
		.delayacct_known = false, .ts_version = 0,
		.rows = &rows[1], .nrows = 1,
	};
}

/* --- comparison: what out_json wrote, read back --- */

/* v as out_json writes it with that many decimals; NAN for null. */
static double as_written(double v, int decimals)
{
	char buf[64];

	return numfmt_fixed(buf, sizeof(buf), v, decimals) ? strtod(buf, NULL) : NAN;
}

static int num_failures(const char *what, const char *field, double got,
			double want)
{
	if ((isnan(got) && isnan(want)) || got == want)
		return 0;
	fprintf(stderr, "%s: %s == %.17g, expected %.17g\n", what, field, got, want);
	return 1;
}

#define NUM(what, field, got, want, dec) \
	bad += num_failures(what, field, got, as_written(want, dec))

static int str_failures(const char *what, const char *field, const char *got,
			const char *want)
{
	if ((!got && !want) || (got && want && strcmp(got, want) == 0))
		return 0;
	fprintf(stderr, "%s: %s == \"%s\", expected \"%s\"\n", what, field,
		got ? got : "(null)", want ? want : "(null)");
	return 1;
}

#define STR(what, field, got, want) bad += str_failures(what, field, got, want)
#define EQ(what, field, got, want) do { \
	if ((long long)(got) != (long long)(want)) { \
		fprintf(stderr, "%s: %s == %lld, expected %lld\n", what, field, \
			(long long)(got), (long long)(want)); \
		bad++; \
	} \
} while (0)

static int cmp_figures(const char *what, const struct cat_figure *got,
		       const struct cat_figure *want)
{
	int bad = 0;

	for (int c = 0; c < NCAT; c++) {
		const struct cat_figure *g = &got[c], *w = &want[c];
		bool have_avg = w->have_avg && isfinite(w->avg_ms);
		bool have_max = w->have_max && isfinite(w->max_ms);
		const char *k = categories[c].key;

		EQ(what, k, g->avail, w->avail);
		if (!w->avail)
			continue;
		NUM(what, k, g->pct, w->pct, 3);
		EQ(what, k, g->have_count, w->have_count);
		if (w->have_count)
			EQ(what, k, g->count, w->count);
		EQ(what, k, g->have_avg, have_avg);
		if (have_avg)
			NUM(what, k, g->avg_ms, w->avg_ms, 3);
		EQ(what, k, g->have_max, have_max);
		if (have_max)
			NUM(what, k, g->max_ms, w->max_ms, 3);
	}
	return bad;
}

static int cmp_psi(const char *what, const struct psi_sample *got,
		   const struct psi_sample *want)
{
	int bad = 0;

	for (int r = 0; r < NPSI; r++) {
		for (int k = 0; k < NPSI_KIND; k++) {
			const struct psi_stat *g = &got->s[r][k], *w = &want->s[r][k];

			EQ(what, psi_res_name[r], g->present, w->present);
			if (!w->present)
				continue;
			NUM(what, "avg10", g->avg10, w->avg10, 2);
			NUM(what, "avg60", g->avg60, w->avg60, 2);
			NUM(what, "avg300", g->avg300, w->avg300, 2);
			EQ(what, "total_us", g->total_us == w->total_us, 1);
			EQ(what, "have_pct", g->have_pct, w->have_pct);
			if (w->have_pct)
				NUM(what, "pct", g->pct, w->pct, 3);
		}
	}
	return bad;
}

/* A row read back; the hostile comm comes back with U+FFFD. */
static int cmp_row(const char *what, const struct row *g, const struct row *w,
		   unsigned flags)
{
	char want_state[2] = { w->info.state, '\0' };
	char got_state[2] = { g->info.state, '\0' };
	int bad = 0;

	EQ(what, "pid", g->pid, w->pid);
	EQ(what, "tgid", g->tgid, w->tgid);
	EQ(what, "ppid", g->info.ppid, w->info.ppid);
	STR(what, "comm", g->comm,
	    w->comm && strcmp(w->comm, HOSTILE_COMM) == 0 ? HOSTILE_BACK : w->comm);
	STR(what, "cmdline", g->cmdline, w->cmdline);
	EQ(what, "uid", g->uid, (uid_t)-1); /* not in the contract */
	STR(what, "user", g->user, w->user);
	STR(what, "cgroup", g->cgroup, w->cgroup);
	STR(what, "state", got_state, want_state);
	EQ(what, "threads", g->info.threads, w->info.threads);
	/* what stands next to a stall: each known one as it was */
	EQ(what, "ctx.have", g->ctx.have, w->ctx.have);
	if (w->ctx.have & CTX_RSS)
		EQ(what, "rss_kib", g->ctx.rss_kib, w->ctx.rss_kib);
	if (w->ctx.have & CTX_SWAP)
		EQ(what, "swap_kib", g->ctx.swap_kib, w->ctx.swap_kib);
	if (w->ctx.have & CTX_NICE)
		EQ(what, "nice", g->ctx.nice, w->ctx.nice);
	if (w->ctx.have & CTX_READ)
		NUM(what, "read_bps", g->ctx.read_bps, w->ctx.read_bps, 3);
	if (w->ctx.have & CTX_WRITE)
		NUM(what, "write_bps", g->ctx.write_bps, w->ctx.write_bps, 3);
	if (w->ctx.have & CTX_MAJFLT)
		NUM(what, "majflt_ps", g->ctx.majflt_ps, w->ctx.majflt_ps, 3);
	if (w->ctx.have & CTX_WCHAN)
		STR(what, "wchan", g->ctx.wchan, w->ctx.wchan);
	EQ(what, "have_cpu_pct", g->have_cpu_pct, w->have_cpu_pct);
	if (w->have_cpu_pct)
		NUM(what, "cpu_pct", g->cpu_pct, w->cpu_pct, 3);
	bad += cmp_figures(what, g->d, w->d);
	NUM(what, "total_pct", g->total_pct, w->total_pct, 3);
	EQ(what, "flags", g->flags, flags);
	NUM(what, "age", g->age, 0, 3);
	return bad;
}

static int cmp_rows(const char *what, const struct row *g, size_t ng,
		    const struct row *w, size_t nw, unsigned flags)
{
	int bad = 0;

	EQ(what, "count", ng, nw);
	for (size_t i = 0; i < ng && i < nw; i++) {
		char name[64];

		snprintf(name, sizeof(name), "%s[%zu]", what, i);
		bad += cmp_row(name, &g[i], &w[i],
			       flags |
			       (w[i].info.state == 'X' ? ROW_EXITED : 0));
	}
	return bad;
}

static void cmp_sample(const struct sample *g, const struct sample *w)
{
	int bad = 0;
	const char *what = "sample";

	NUM(what, "time", g->time, w->time, 3);
	NUM(what, "interval", g->interval, w->interval, 3);
	EQ(what, "delayacct_known", g->delayacct_known, w->delayacct_known);
	EQ(what, "delayacct", g->delayacct, w->delayacct_known && w->delayacct);
	EQ(what, "ts_version", g->ts_version, w->ts_version);
	EQ(what, "events_lost", g->events_lost == w->events_lost, 1);
	EQ(what, "exit_records_lost",
	   g->exit_records_lost == w->exit_records_lost, 1);
	bad += cmp_psi("psi", &g->psi, &w->psi);
	bad += cmp_rows("tasks", g->rows, g->nrows, w->rows, w->nrows, 0);
	bad += cmp_rows("exited", g->exited, g->nexited, w->exited, w->nexited,
			ROW_EXITED);
	STR(what, "trigger", g->trigger, w->trigger);
	EQ(what, "cgroups", g->cgroups != NULL, w->cgroups != NULL);
	EQ(what, "ncgroups", g->ncgroups, w->ncgroups);
	for (size_t i = 0; g->cgroups && i < g->ncgroups && i < w->ncgroups; i++) {
		const struct cgroup_row *gc = &g->cgroups[i], *wc = &w->cgroups[i];

		STR("cgroup", "path", gc->path, wc->path);
		STR("cgroup", "name", gc->name, wc->name);
		EQ("cgroup", "depth", gc->depth, wc->depth);
		EQ("cgroup", "have_psi", gc->have_psi, wc->have_psi);
		if (wc->have_psi)
			bad += cmp_psi("cgroup psi", &gc->psi, &wc->psi);
		bad += cmp_figures("cgroup", gc->d, wc->d);
		NUM("cgroup", "total_pct", gc->total_pct, wc->total_pct, 3);
		EQ("cgroup", "nr_tasks", gc->nr_tasks, wc->nr_tasks);
	}
	EQ(what, "thread_rows", g->thread_rows != NULL, w->thread_rows != NULL);
	bad += cmp_rows("thread_tasks", g->thread_rows, g->nthread_rows,
			w->thread_rows, w->nthread_rows, 0);
	EQ(what, "thread_exited", g->thread_exited != NULL,
	   w->thread_exited != NULL);
	bad += cmp_rows("thread_exited", g->thread_exited, g->nthread_exited,
			w->thread_exited, w->nthread_exited, ROW_EXITED);
	EQ(what, "threads", g->threads, w->threads);
	EQ(what, "accumulated", g->accumulated, w->accumulated);
	/* not in the contract: derived from the rows */
	EQ(what, "nprocs", g->nprocs, w->nrows);

	unit_checks++;
	if (bad)
		unit_failures++;
}

/* --- helpers --- */

static char *json_line(const struct sample *s)
{
	char *p = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&p, &n);

	if (!f)
		exit(99);
	out_json(f, s);
	fclose(f);
	return p;
}

static char *tmp_path(const char *name)
{
	static char path[4][512];
	static int next;
	char *p = path[next++ % 4];

	snprintf(p, sizeof(path[0]), "%s/%s", dir, name);
	return p;
}

static char *fixture_path(const char *name)
{
	static char path[4096];

	snprintf(path, sizeof(path), "%s/recording/%s", FIXTURES, name);
	return path;
}

static void copy_fixture(const char *name, const char *to)
{
	size_t len;
	char *text = unit_fixture(name, &len);
	FILE *f = fopen(to, "wb");

	if (!f || fwrite(text, 1, len, f) != len || fclose(f) != 0)
		exit(99);
	free(text);
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n = 0, got;

	if (!f)
		exit(99);
	do {
		if (n == cap) {
			cap = cap ? cap * 2 : 4096;
			buf = realloc(buf, cap + 1);
			if (!buf)
				exit(99);
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
	} while (got > 0);
	fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
}

static off_t file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 ? st.st_size : -1;
}

static void cut(const char *path, off_t size)
{
	if (truncate(path, size) < 0)
		exit(99);
}

/* Open, expect success and n samples; the problem must hold want (or be NULL). */
static struct replay *open_ok(const char *path, size_t n, const char *want)
{
	struct replay *rp = replay_open_opts(path, NULL, err, sizeof(err));

	CHECK(rp != NULL);
	if (!rp) {
		fprintf(stderr, "%s: %s\n", path, err);
		return NULL;
	}
	CHECK_EQ_U(replay_count(rp), n);
	if (!want) {
		CHECK(replay_problem(rp) == NULL);
		if (replay_problem(rp))
			fprintf(stderr, "unexpected problem: %s\n", replay_problem(rp));
	} else {
		CHECK(replay_problem(rp) && strstr(replay_problem(rp), want));
		if (!replay_problem(rp) || !strstr(replay_problem(rp), want))
			fprintf(stderr, "%s: problem \"%s\", expected \"%s\"\n",
				path, replay_problem(rp) ? replay_problem(rp) : "(null)",
				want);
	}
	return rp;
}

static void open_fails(const char *path, const char *want1, const char *want2)
{
	struct replay *rp = replay_open_opts(path, NULL, err, sizeof(err));

	CHECK(rp == NULL);
	CHECK(strstr(err, want1) != NULL);
	CHECK(!want2 || strstr(err, want2) != NULL);
	if (rp || !strstr(err, want1) || (want2 && !strstr(err, want2)))
		fprintf(stderr, "%s: \"%s\", expected \"%s\"/\"%s\"\n", path, err,
			want1, want2 ? want2 : "");
	replay_close(rp);
}

/* --- the round trip --- */

static void round_trip(const char *name)
{
	const char *path = tmp_path(name);
	struct ndjson_rec *rec;
	struct replay *rp;
	struct sample got;
	char host[256] = "";
	char *want1 = json_line(&s1), *want2 = json_line(&s2);

	/* two sessions: s1 s2, then s1 again */
	rec = ndjson_rec_open(path, err, sizeof(err));
	CHECK(rec != NULL);
	if (!rec) {
		fprintf(stderr, "%s: %s\n", path, err);
		return;
	}
	CHECK(ndjson_rec_write(rec, &s1) == 0);
	CHECK(ndjson_rec_write(rec, &s2) == 0);
	CHECK(ndjson_rec_close(rec) == 0);
	rec = ndjson_rec_open(path, err, sizeof(err));
	CHECK(rec != NULL);
	s1.time += 1000;
	CHECK(rec && ndjson_rec_write(rec, &s1) == 0);
	s1.time -= 1000;
	CHECK(ndjson_rec_close(rec) == 0);

	rp = open_ok(path, 3, NULL);
	if (!rp)
		return;
	CHECK(replay_get(rp, 0, &got) == 0);
	cmp_sample(&got, &s1);
	/* byte for byte: replaying and writing JSON gives the recorded line */
	char *again = json_line(&got);
	CHECK_STR(again, want1);
	free(again);

	CHECK(replay_get(rp, 1, &got) == 0);
	cmp_sample(&got, &s2);
	CHECK(got.cgroups == NULL && got.thread_rows == NULL && !got.trigger);
	CHECK(isnan(got.interval));
	again = json_line(&got);
	CHECK_STR(again, want2);
	free(again);

	CHECK(replay_get(rp, 2, &got) == 0);
	CHECK_NEAR(got.time, s1.time + 1000, 1e-6);
	/* back again: random access */
	CHECK(replay_get(rp, 0, &got) == 0);
	cmp_sample(&got, &s1);
	CHECK(replay_get(rp, 3, &got) == -1 && errno == EINVAL);
	CHECK(got.rows == NULL && got.nrows == 0);


	const struct rec_header *h0 = replay_header(rp, 0), *h2 = replay_header(rp, 2);
	gethostname(host, sizeof(host) - 1);
	CHECK(h0 && h2 && h0 != h2);
	if (h0 && h2) {
		CHECK_EQ_U(h0->version, REC_FORMAT_VERSION);
		CHECK_STR(h0->program, PACKAGE_NAME " " PACKAGE_VERSION);
		CHECK_STR(h0->hostname, host);
		CHECK(h0->kernel && *h0->kernel);
		CHECK(h0->hz > 0 && h0->ncpu > 0);
		CHECK(h0->started > 1.6e9 && h2->started >= h0->started);
	}
	CHECK(replay_header(rp, 1) == h0);
	replay_close(rp);
	free(want1);
	free(want2);
}

/*
 * A recording from before cgroups had names (no "name" key): each cgroup
 * read back is named from its path, as the live monitor names it.
 */
static void unnamed_cgroups(void)
{
	const char *path = tmp_path("unnamed.ndjson");
	const char *names[2] = { cgroups[0].name, cgroups[1].name };
	struct ndjson_rec *rec = ndjson_rec_open(path, err, sizeof(err));
	struct replay *rp;
	struct sample got;

	CHECK(rec != NULL);
	if (!rec)
		return;
	cgroups[0].name = cgroups[1].name = NULL;
	CHECK(ndjson_rec_write(rec, &s1) == 0);
	cgroups[0].name = names[0];
	cgroups[1].name = names[1];
	CHECK(ndjson_rec_close(rec) == 0);
	char *text = NULL;
	FILE *f = fopen(path, "r");
	size_t cap = 0;
	bool named = false;
	while (f && getline(&text, &cap, f) > 0)
		named |= strstr(text, "\"name\"") != NULL;
	CHECK(f && !named);
	if (f)
		fclose(f);
	free(text);
	if (!(rp = open_ok(path, 1, NULL)))
		return;
	CHECK(replay_get(rp, 0, &got) == 0);
	CHECK(got.ncgroups == 2);
	/* everything as recorded, the names made from the paths */
	cmp_sample(&got, &s1);
	replay_close(rp);
}

/* The plain file is the lines themselves: headers, then out_json's lines. */
static void plain_layout(void)
{
	size_t len;
	char *text = slurp(tmp_path("rec.ndjson"), &len);
	char *want1 = json_line(&s1), *want2 = json_line(&s2);
	char *l2 = strchr(text, '\n');
	size_t lines = 0;

	for (size_t i = 0; i < len; i++)
		lines += text[i] == '\n';
	CHECK_EQ_U(lines, 5); /* header s1 s2 header s1 */
	CHECK(strncmp(text, "{\"stalltop_recording\":1,\"program\":\"stalltop ", 43) == 0);
	CHECK(l2 && strncmp(l2 + 1, want1, strlen(want1)) == 0);
	CHECK(l2 && strstr(l2 + 1, want2) == l2 + 1 + strlen(want1));
	CHECK(text[len - 1] == '\n');
	/* nothing raw that a name held */
	CHECK(memchr(text, 0x1b, len) == NULL && memchr(text, 0x07, len) == NULL);
	free(text);
	free(want1);
	free(want2);
	CHECK_EQ_U(file_size(tmp_path("rec.ndjson")) > 0, 1);
}

static void gz_layout(void)
{
	size_t len;
	char *gz = slurp(tmp_path("rec.ndjson.gz"), &len);

	CHECK(len > 2 && (unsigned char)gz[0] == 0x1f && (unsigned char)gz[1] == 0x8b);
	free(gz);
}

/* --- damaged files --- */

static void fixtures(void)
{
	struct replay *rp;
	struct sample s;

	rp = open_ok(fixture_path("good.ndjson"), 3, NULL);
	if (rp) {
		CHECK(replay_get(rp, 2, &s) == 0);
		CHECK_NEAR(s.time, 1763740003.0, 1e-6);
		CHECK_EQ_U(s.nrows, 1);
		CHECK_STR(s.rows[0].comm, "postgres");
		CHECK(s.rows[0].cgroup == NULL); /* no "cgroup": NULL */
		CHECK(s.cgroups == NULL && s.thread_rows == NULL);
		CHECK(!s.psi.s[PSI_CPU][PSI_FULL].present);
		CHECK(s.psi.s[PSI_CPU][PSI_SOME].present);
		CHECK(!s.rows[0].d[CAT_IO].have_max);
		CHECK_EQ_U(s.rows[0].d[CAT_IO].count, 7);
		CHECK_STR(replay_header(rp, 0)->hostname, "fixture");
		CHECK_STR(replay_header(rp, 0)->kernel, "6.18.0");
		replay_close(rp);
	}

	/* power lost in the middle of the third sample */
	rp = open_ok(fixture_path("torn.ndjson"), 2, "torn");
	if (rp) {
		CHECK(replay_get(rp, 1, &s) == 0);
		CHECK_NEAR(s.time, 1763740002.0, 1e-6);
		replay_close(rp);
	}

	/* line 4 cut short: skipped, the samples around it replayed */
	rp = open_ok(fixture_path("corrupt.ndjson"), 3,
		     "line 4 was skipped: it ends in the middle of its JSON "
		     "object (cut short)");
	if (rp) {
		CHECK(replay_get(rp, 2, &s) == 0);
		CHECK_NEAR(s.time, 1763740004.0, 1e-6);
		replay_close(rp);
	}

	/* line 4 has the shape of a sample but is not JSON: found when read */
	rp = open_ok(fixture_path("corrupt-syntax.ndjson"), 4, NULL);
	if (rp) {
		const char *why = "line 4 was skipped: it is not valid JSON";

		CHECK(replay_get(rp, 1, &s) == 0);
		CHECK(replay_skipped(rp) == NULL);
		CHECK(replay_get(rp, 2, &s) == -1 && errno == EBADMSG);
		CHECK(s.rows == NULL && s.nrows == 0);
		CHECK_STR(replay_skipped(rp), why);
		CHECK_STR(replay_problem(rp), why);
		CHECK(replay_get(rp, 3, &s) == 0);
		CHECK_NEAR(s.time, 1763740004.0, 1e-6);
		CHECK(replay_skipped(rp) == NULL);
		/* asked again: still skipped, and counted once */
		CHECK(replay_get(rp, 2, &s) == -1 && errno == EBADMSG);
		CHECK_STR(replay_problem(rp), why);
		replay_close(rp);
	}

	open_fails(fixture_path("future.ndjson"), "format version 999", "up to 1");
	open_fails(fixture_path("empty.ndjson"), "is empty", NULL);
	open_fails(fixture_path("not-recording.txt"), "not a stalltop recording", NULL);
	open_fails(fixture_path("batch-json.ndjson"), "not a stalltop recording", NULL);
	open_fails(tmp_path("does-not-exist"), "cannot open", NULL);
	open_fails(dir, "cannot open", NULL);

	/* a session of a newer version: what precedes it */
	rp = open_ok(fixture_path("future-session.ndjson"), 1, "line 3 starts a session of format version 2");
	replay_close(rp);

	/* a crash, then recording resumed: the fragment is skipped */
	rp = open_ok(fixture_path("resumed.ndjson"), 2, "line 3 is torn");
	if (rp) {
		CHECK(replay_header(rp, 0) != replay_header(rp, 1));
		CHECK(replay_get(rp, 1, &s) == 0);
		CHECK_NEAR(s.time, 1763740102.0, 1e-6);
		replay_close(rp);
	}

	/* fields a reader does not know are ignored; missing ones are unknown */
	rp = open_ok(fixture_path("extra-fields.ndjson"), 1, NULL);
	if (rp) {
		CHECK(replay_get(rp, 0, &s) == 0);
		CHECK_EQ_U(s.nrows, 1);
		CHECK(!s.delayacct_known && s.ts_version == 0 && s.events_lost == 0);
		CHECK(s.exit_records_lost == 0);
		CHECK(!s.psi.s[PSI_CPU][PSI_SOME].present);
		if (s.nrows == 1) {
			const struct row *r = &s.rows[0];

			CHECK(r->pid == 7 && r->tgid == 7 && r->info.ppid == 0);
			CHECK_STR(r->comm, "a");
			CHECK(!r->cmdline && !r->user && !r->cgroup);
			CHECK(r->info.state == '\0' && r->info.threads == -1);
			CHECK(!r->have_cpu_pct);
			CHECK(r->d[CAT_CPU].avail && r->d[CAT_CPU].count == 2);
			CHECK(!r->d[CAT_CPU].have_max);
			CHECK(!r->d[CAT_IO].avail);
		}
		CHECK_EQ_U(replay_header(rp, 0)->ncpu, 2);
		replay_close(rp);
	}

	/* a header and nothing else */
	const char *only = tmp_path("header-only.ndjson");
	struct ndjson_rec *rec = ndjson_rec_open(only, err, sizeof(err));
	CHECK(rec != NULL);
	ndjson_rec_close(rec);
	rp = open_ok(only, 0, NULL);
	if (rp) {
		CHECK(replay_get(rp, 0, &s) == -1);
		CHECK(replay_header(rp, 0) != NULL);
		replay_close(rp);
	}
}

/* Compressed files cut short or damaged. */
static void gz_damage(void)
{
	const char *good = tmp_path("rec.ndjson.gz");
	const char *bad = tmp_path("cut.ndjson.gz");
	size_t len;
	char *gz = slurp(good, &len);
	struct replay *rp;
	FILE *f;

	/* no gzip trailer (killed before record_close): every line is there */
	f = fopen(bad, "wb");
	CHECK(f && fwrite(gz, 1, len - 8, f) == len - 8);
	fclose(f);
	rp = open_ok(bad, 3, "not closed");
	replay_close(rp);
	/* ...and cannot be appended to */
	CHECK(ndjson_rec_open(bad, err, sizeof(err)) == NULL);
	CHECK(strstr(err, "not closed cleanly") != NULL);

	/* cut in the middle of the data */
	cut(bad, (off_t)len / 2);
	rp = replay_open_opts(bad, NULL, err, sizeof(err));
	CHECK(rp && replay_count(rp) < 3 && replay_problem(rp));
	replay_close(rp);

	/* bytes overwritten in the last session: what comes before is replayed */
	f = fopen(bad, "wb");
	for (size_t i = len - 48; i < len - 32; i++)
		gz[i] ^= 0x5a;
	CHECK(f && fwrite(gz, 1, len, f) == len);
	fclose(f);
	rp = replay_open_opts(bad, NULL, err, sizeof(err));
	CHECK(rp && replay_count(rp) >= 2 && replay_problem(rp));

	replay_close(rp);
	free(gz);
}

/* A recorder killed without record_close: what it flushed can be replayed. */
static void killed(const char *name)
{
	const char *p = tmp_path(name);
	int status;
	pid_t pid = fork();

	if (pid < 0)
		exit(99);
	if (pid == 0) {
		struct ndjson_rec *rec = ndjson_rec_open(p, err, sizeof(err));

		if (!rec || ndjson_rec_write(rec, &s1) < 0 || ndjson_rec_write(rec, &s2) < 0)
			_exit(1);
		_exit(0); /* no record_close: as if killed */
	}
	CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	      WEXITSTATUS(status) == 0);
	struct replay *rp = open_ok(p, 2, strstr(name, ".gz") ? "not closed" : NULL);
	struct sample got;

	if (rp) {
		CHECK(replay_get(rp, 1, &got) == 0);
		cmp_sample(&got, &s2);
		replay_close(rp);
	}
	unlink(p);
}

/* -H: the rows are threads, and the sample says so. */
static void thread_mode(void)
{
	const char *p = tmp_path("threads.ndjson");
	struct sample t = s2, got;
	struct ndjson_rec *rec;
	struct replay *rp;

	t.rows = trows;
	t.nrows = 3;
	t.threads = true;
	rec = ndjson_rec_open(p, err, sizeof(err));
	CHECK(rec && ndjson_rec_write(rec, &t) == 0);
	ndjson_rec_close(rec);
	rp = open_ok(p, 1, NULL);
	if (rp) {
		CHECK(replay_get(rp, 0, &got) == 0);
		CHECK(got.threads);
		CHECK_EQ_U(got.nprocs, 1);   /* the main thread's row */
		CHECK_EQ_U(got.nthreads, 3);
		CHECK(cmp_rows("threads", got.rows, got.nrows, trows, 3, 0) == 0);
		replay_close(rp);
	}
	unlink(p);

	/*
	 * A single-threaded process's only row is its main thread (pid ==
	 * tgid): threads all the same, and the other way round the key wins
	 * over the rows too.
	 */
	rec = ndjson_rec_open(p, err, sizeof(err));
	t.rows = trows;
	t.nrows = 1;
	CHECK(rec && ndjson_rec_write(rec, &t) == 0);
	t.rows = &trows[1];
	t.threads = false;
	t.accumulated = true;
	t.time += 1; /* a sample at the same time would be skipped */
	CHECK(rec && ndjson_rec_write(rec, &t) == 0);
	ndjson_rec_close(rec);
	rp = open_ok(p, 2, NULL);
	if (rp) {
		CHECK(replay_get(rp, 0, &got) == 0);
		CHECK(got.threads && !got.accumulated);
		CHECK_EQ_U(got.nthreads, 1);
		CHECK(replay_get(rp, 1, &got) == 0);
		CHECK(!got.threads && got.accumulated);
		replay_close(rp);
	}
	unlink(p);

	/* recordings older than the keys: the rows tell, as well as they can */
	rp = open_ok(fixture_path("no-mode.ndjson"), 3, NULL);
	if (rp) {
		CHECK(replay_get(rp, 0, &got) == 0);
		CHECK(got.threads && !got.accumulated);  /* a row of thread 1235 */
		CHECK(replay_get(rp, 1, &got) == 0);
		CHECK(!got.threads && !got.accumulated); /* only main threads */
		CHECK(replay_get(rp, 2, &got) == 0);
		CHECK(got.threads && !got.accumulated);  /* not true/false: the same */
		replay_close(rp);
	}

	/* process rows: the thread rows, else the processes' thread counts */
	rp = open_ok(tmp_path("rec.ndjson"), 3, NULL);
	if (rp) {
		CHECK(replay_get(rp, 0, &got) == 0);
		CHECK(!got.threads);
		CHECK_EQ_U(got.nthreads, 3);
		replay_close(rp);
	}
	t = s2;
	t.rows = rows;
	t.nrows = 3;  /* threads 4, unknown, 1 */
	rec = ndjson_rec_open(p, err, sizeof(err));
	CHECK(rec && ndjson_rec_write(rec, &t) == 0);
	ndjson_rec_close(rec);
	rp = open_ok(p, 1, NULL);
	if (rp) {
		CHECK(replay_get(rp, 0, &got) == 0);
		CHECK_EQ_U(got.nprocs, 3);
		CHECK_EQ_U(got.nthreads, 5);
		replay_close(rp);
	}
	unlink(p);
}

/* The pids of n rows, in order, as text: "1234 1235". */
static const char *pids(const struct row *r, size_t n)
{
	static char buf[256];
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n && len < sizeof(buf); i++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%d",
					i ? " " : "", (int)r[i].pid);
	return buf;
}

/* One sample through the monitor, and the view it gives; -a or not. */
static bool view(struct producer *m, long step, bool threads, pid_t tgid,
		 const char *want_rows, const char *want_exited,
		 bool want_threads)
{
	struct sample got;

	producer_set_threads(m, threads, tgid);
	producer_step(m, step);
	CHECK(producer_sample(m, &got) == 0);
	CHECK_STR(pids(got.rows, got.nrows), want_rows);
	CHECK_STR(pids(got.exited, got.nexited), want_exited);
	CHECK(got.threads == want_threads);
	for (size_t i = 0; i < got.nexited; i++)
		CHECK(got.exited[i].flags & ROW_EXITED);
	return got.accumulated;
}

/*
 * Replayed through the monitor, a view of processes or of threads gets
 * what the recording has of them: a recording of threads (-H) gives its
 * thread rows to both, ended threads included; one of processes gives its
 * thread rows and ended threads to a view of threads; one without thread
 * rows gives a view of threads nothing.
 */
static void replay_views(void)
{
	const char *p = tmp_path("views.ndjson");
	struct row hrows[3] = { trows[0], trows[1], rows[2] };
	struct sample h = s2, proc = s1, old = s2;
	struct ndjson_rec *rec;
	struct producer *m;

	h.rows = hrows;       /* 1234 and its thread 1235; 99, single-threaded */
	h.nrows = 3;
	h.exited = texited;   /* threads 1240 and 1241 of 1234 ended */
	h.nexited = 2;
	h.threads = true;
	h.accumulated = true;
	old.rows = rows;
	old.nrows = 3;
	/* one after the other in time: else they would be skipped */
	proc.time = h.time + 1;
	old.time = h.time + 2;
	rec = ndjson_rec_open(p, err, sizeof(err));
	CHECK(rec && ndjson_rec_write(rec, &h) == 0 && ndjson_rec_write(rec, &proc) == 0 &&
	      ndjson_rec_write(rec, &old) == 0);
	ndjson_rec_close(rec);

	m = player_open_set(&(const char *){ p },
			    1, NAN, NAN, false, NULL, -1, err, sizeof(err));
	CHECK(m != NULL);
	if (!m)
		return;
	/* the recording of threads: threads, however the view is set */
	CHECK(view(m, 0, false, 0, "1234 1235 99", "1240 1241", true));
	view(m, 0, true, 0, "1234 1235 99", "1240 1241", true);
	view(m, 0, true, 99, "99", "", true);
	view(m, 0, true, 1234, "1234 1235", "1240 1241", true);
	/* the recording of processes: each view its own rows */
	CHECK(view(m, 1, false, 0, "1234 4321 99", "777", false));
	view(m, 0, true, 0, "1234 1235 1236", "1240 1241", true);
	view(m, 0, true, 1234, "1234 1235 1236", "1240 1241", true);
	view(m, 0, true, 4321, "", "", true);
	/* no thread rows recorded: none for a view of threads */
	CHECK(!view(m, 1, true, 0, "", "", false));
	view(m, 0, false, 0, "1234 4321 99", "", false);
	producer_free(m);
	unlink(p);
}

/*
 * Played from start to end as stalltop -b --replay does (a sample until
 * the producer is done): every recorded sample once, in order, the last
 * one included; for one file, and for two files as one timeline.
 */
static size_t play(struct producer *m, double *times, size_t cap)
{
	struct sample got;
	size_t n = 0;

	while (!producer_done(m) && n < cap + 1) {
		CHECK(producer_sample(m, &got) == 0);
		if (n < cap)
			times[n] = got.time;
		n++;
	}
	return n;
}

static void play_through(void)
{
	const char *a = tmp_path("play-a.ndjson"), *b = tmp_path("play-b.ndjson.gz");
	const char *both[] = { a, b };
	double want[5], got[5];
	struct sample smp = s1;
	struct ndjson_rec *rec;
	struct producer *m;
	size_t n;

	for (int f = 0; f < 2; f++) {
		rec = ndjson_rec_open(f ? b : a, err, sizeof(err));
		CHECK(rec != NULL);
		if (!rec)
			return;
		for (int i = 0; i < (f ? 2 : 3); i++) {
			smp.time = s1.time + 10 * (3 * f + i);
			want[3 * f + i] = smp.time;
			CHECK(ndjson_rec_write(rec, &smp) == 0);
		}
		CHECK(ndjson_rec_close(rec) == 0);
	}

	m = player_open_set(&(const char *){ a },
			    1, NAN, NAN, false, NULL, -1, err, sizeof(err));
	CHECK(m != NULL);
	if (m) {
		n = play(m, got, 5);
		CHECK_EQ_U(n, 3);
		for (size_t i = 0; i < n && i < 3; i++)
			CHECK_NEAR(got[i], want[i], 1e-6);
		producer_free(m);
	}

	m = player_open_set(both, 2, NAN, NAN, false, NULL, -1, err,
			    sizeof(err));
	CHECK(m != NULL);
	if (m) {
		n = play(m, got, 5);
		CHECK_EQ_U(n, 5);
		for (size_t i = 0; i < n && i < 5; i++)
			CHECK_NEAR(got[i], want[i], 1e-6);
		producer_free(m);
	}
	unlink(a);
	unlink(b);
}

/* What record_open does with what is already there. */
static void append_checks(void)
{
	const char *p = tmp_path("not-rec.txt");
	size_t before, after;
	char *text;
	struct ndjson_rec *rec;
	struct replay *rp;

	copy_fixture("recording/not-recording.txt", p);
	before = (size_t)file_size(p);
	CHECK(ndjson_rec_open(p, err, sizeof(err)) == NULL);
	CHECK(strstr(err, "not a stalltop recording") != NULL);
	after = (size_t)file_size(p);
	CHECK_EQ_U(after, before); /* untouched */

	p = tmp_path("future.ndjson");
	copy_fixture("recording/future.ndjson", p);
	CHECK(ndjson_rec_open(p, err, sizeof(err)) == NULL);
	CHECK(strstr(err, "999") && strstr(err, "version 1"));

	/* compressed data under a plain name, and the other way round */
	p = tmp_path("really-gz.ndjson");
	text = slurp(tmp_path("rec.ndjson.gz"), &before);
	FILE *f = fopen(p, "wb");
	CHECK(f && fwrite(text, 1, before, f) == before);
	fclose(f);
	free(text);
	CHECK(ndjson_rec_open(p, err, sizeof(err)) == NULL);
	CHECK(strstr(err, "is compressed") != NULL);
	rp = open_ok(p, 3, NULL); /* reading goes by content, not name */
	replay_close(rp);
	p = tmp_path("plain.ndjson.gz");
	copy_fixture("recording/good.ndjson", p);
	CHECK(ndjson_rec_open(p, err, sizeof(err)) == NULL);
	CHECK(strstr(err, "not compressed") != NULL);
	rp = open_ok(p, 3, NULL);
	replay_close(rp);

	/* torn: the fragment is ended, a new session follows */
	p = tmp_path("torn.ndjson");
	copy_fixture("recording/torn.ndjson", p);
	rec = ndjson_rec_open(p, err, sizeof(err));
	CHECK(rec != NULL);
	CHECK(rec && ndjson_rec_write(rec, &s2) == 0);
	CHECK(ndjson_rec_close(rec) == 0);
	rp = open_ok(p, 3, "line 4 is torn");
	replay_close(rp);

	/*
	 * (the mode of a new recording is the recorder's: test_recorder
	 * holds it; this writer of 0.1.0's format only makes test files)
	 */
	const char *sg = tmp_path("setgid");
	CHECK(mkdir(sg, 0750) == 0);
	char sgp[600];
	snprintf(sgp, sizeof(sgp), "%s/rec.ndjson.gz", sg);
	rec = ndjson_rec_create(sgp, err, sizeof(err));
	CHECK(rec != NULL);

	/* record_create: never one that is there */
	CHECK(ndjson_rec_create(sgp, err, sizeof(err)) == NULL && errno == EEXIST);

	/* removed while written: the write after says so (ENOENT) */
	CHECK(rec && ndjson_rec_write(rec, &s1) == 0);
	CHECK(unlink(sgp) == 0);
	errno = 0;
	CHECK(rec && ndjson_rec_write(rec, &s2) < 0 && errno == ENOENT);
	CHECK(ndjson_rec_close(rec) == 0);
	CHECK(rmdir(sg) == 0);

	/* a full disk: said when the header cannot be written */
	CHECK(ndjson_rec_open("/dev/full", err, sizeof(err)) == NULL);
	CHECK(strstr(err, "cannot write to /dev/full") != NULL);

	/* a directory cannot be recorded to */
	CHECK(ndjson_rec_open(dir, err, sizeof(err)) == NULL);
	CHECK(strstr(err, "cannot open") != NULL);
}

/* A header line is told from anything else. */
static void header_version(void)
{
	const char *h = "{\"stalltop_recording\":1,\"program\":\"x\"}";
	const char *h7 = "{\"stalltop_recording\":7}";

	CHECK_EQ_U(replay_header_version(h, strlen(h)), 1);
	CHECK_EQ_U(replay_header_version(h7, strlen(h7)), 7);
	CHECK_EQ_U(replay_header_version(h, strlen(h) - 1), 0);
	CHECK_EQ_U(replay_header_version("{\"stalltop_recording\":\"1\"}", 26), 0);
	CHECK_EQ_U(replay_header_version("{\"stalltop_recording\":0}", 24), 0);
	CHECK_EQ_U(replay_header_version("[1]", 3), 0);
	CHECK_EQ_U(replay_header_version("", 0), 0);
	CHECK_EQ_U(replay_header_version("{\"stalltop_recording\":1} x", 26), 0);
}

static void cleanup(void)
{
	static const char *names[] = {
		"rec.ndjson", "rec.ndjson.gz", "cut.ndjson.gz", "not-rec.txt",
		"future.ndjson", "really-gz.ndjson", "plain.ndjson.gz",
		"torn.ndjson", "mode.ndjson", "header-only.ndjson",
		"views.ndjson", "unnamed.ndjson",
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		unlink(tmp_path(names[i]));
	rmdir(dir);
}

int main(void)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(dir, sizeof(dir), "%s/test_record.XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 99;
	}
	build();
	round_trip("rec.ndjson");
	unnamed_cgroups();
	plain_layout();
	round_trip("rec.ndjson.gz");
	gz_layout();
	header_version();
	fixtures();
	gz_damage();
	thread_mode();
	replay_views();
	play_through();
	killed("killed.ndjson");
	killed("killed.ndjson.gz");
	append_checks();
	cleanup();
	return unit_done();
}
