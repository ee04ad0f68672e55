/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The player over a recording of readings (src/record/player.c with
 * model/engine.c and coarse.c), from a file written by storefile.h's writer:
 * 30 samples one second apart, a key frame every 10; task 10 waits for a
 * CPU 100 ms in 2 waits each second (10 %), task 20 likewise until
 * sample 12 and is carried (not asked: nothing moved) from 13 on, task 30
 * ends at sample 7 with its exit record.
 *  - a file's first sample is only a base: 29 samples are shown, the
 *    first with 10 % and 2 waits for task 10, task 30 among the exited
 *    in sample 7 and only there;
 *  - a jump (to sample 17) and a step back give the figures a play from
 *    the start gave, though the model started at a key frame; so does a
 *    jump to sample 21, whose key frame (20) holds task 20's reading
 *    carried: its row there is the one a play from the start made;
 *  - -a: the window's figures (sample k: 2k waits, 10 %, an interval of
 *    k seconds), task 30's row kept after it ended (14 waits, 10 % of
 *    the 7 s it lived in the window), as the live monitor keeps it;
 *    pressing it at sample 20 starts the window there, without task 30;
 *  - -d 5: samples 5, 10, 15, 20, 25 over 5 s each: 10 waits of task
 *    10; task 30's exit in sample 10's exited rows; task 20 in sample 15
 *    has its waits of 10..12 (its carried readings take the counters of
 *    its last reading), none in sample 20;
 *  - a byte flipped in sample 14 costs the samples to the next key frame,
 *    each said, and the problem counts the damaged part;
 *  - a second recording session in the file (its record before sample
 *    23): its first sample is only the base of the next, with -d too,
 *    and -a's window does not reach back over it.
 */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/categories.h"
#include "model/producer.h"
#include "record/player.h"
#include "record/storefile.h"
#include "unit.h"

#define NS 30
#define T0 1.7e9

static struct store_task tasks[3];

static void task(struct store_task *k, int32_t id, unsigned n, double mono)
{
	memset(k, 0, sizeof(*k));
	k->r.id = id;
	k->r.tgid = id;
	k->r.start = 5;
	k->r.asked_at = mono - 0.001;
	k->r.at = mono;
	k->r.born = 1;
	k->r.first_seen = 1;
	k->r.run_ns = (uint64_t)n * 500000000ull;
	k->r.have = 1u << CAT_CPU;
	k->r.cats = 1u << CAT_CPU;
	k->r.flags = READING_ONE | READING_STEADY;
	k->r.threads = 1;
	k->r.d[CAT_CPU].count = 2ull * n;
	k->r.d[CAT_CPU].total_ns = (uint64_t)n * 100000000ull;
	k->comm = id == 10 ? "ten" : id == 20 ? "twenty" : "thirty";
	k->cmdline = "";
	k->user = "root";
}

static void make(struct store_sample *s, unsigned n)
{
	size_t nt = 0;

	memset(s, 0, sizeof(*s));
	s->time = T0 + n;
	s->real = s->time;
	s->mono = 1000.0 + n;
	s->query_start = s->mono - 0.001;
	s->delayacct = STORE_DELAYACCT_ON;
	s->ts_version = 16;
	task(&tasks[nt++], 10, n, s->mono);
	task(&tasks[nt], 20, n > 12 ? 12 : n, s->mono);
	if (n > 12) {
		/* not asked: its counters are not repeated */
		tasks[nt].r.flags |= READING_CARRIED;
		tasks[nt].r.run_ns = 0;
		memset(tasks[nt].r.d, 0, sizeof(tasks[nt].r.d));
	}
	nt++;
	if (n <= 7) {
		task(&tasks[nt], 30, n, s->mono);
		if (n == 7)
			tasks[nt].r.flags |= READING_ENDED | READING_FINAL;
		nt++;
	}
	s->tasks = tasks;
	s->ntasks = nt;
	s->nprocs = nt;
}

static char path[] = "/tmp/stalltop-test-player-XXXXXX";
static uint64_t ends[NS + 1];

static void write_file(int session)
{
	int fd = mkstemp(path);
	struct store_sample s;
	struct storefile_session ss = { .program = "stalltop test",
					.hz = 100, .ncpu = 2 };

	if (fd < 0)
		exit(99);
	struct storefile_writer *w = storefile_writer_open(fd, "stalltop test",
							   10, 0);
	CHECK(w != NULL);
	ends[0] = storefile_writer_bytes(w);
	for (unsigned n = 0; n < NS; n++) {
		if ((int)n == session)
			CHECK(storefile_write_session(w, &ss) == 0);
		make(&s, n);
		CHECK(storefile_write(w, &s) == 0);
		ends[n + 1] = storefile_writer_bytes(w);
	}
	storefile_writer_free(w);
	close(fd);
}

static struct producer *open_player(void)
{
	char err[512] = "";
	struct producer *p = player_open_set(&(const char *){ path },
			    1, NAN, NAN, false, NULL, -1, err, sizeof(err));

	if (!p)
		fprintf(stderr, "player_open: %s\n", err);
	CHECK(p != NULL);
	return p;
}

static const struct row *find(const struct row *v, size_t n, pid_t pid)
{
	for (size_t i = 0; i < n; i++)
		if (v[i].pid == pid)
			return &v[i];
	return NULL;
}

static unsigned number(const struct sample *s)
{
	return (unsigned)lround(s->time - T0);
}

/* Task pid's cpu waits and share in s (count -1: no row). */
static long waits(const struct sample *s, pid_t pid, double *pct)
{
	const struct row *r = find(s->rows, s->nrows, pid);

	if (!r)
		r = find(s->exited, s->nexited, pid);
	if (!r || !r->d[CAT_CPU].avail)
		return -1;
	if (pct)
		*pct = r->d[CAT_CPU].pct;
	return (long)r->d[CAT_CPU].count;
}

/* Whether rows a and b show the same: every figure of each category. */
static bool same_row(const struct row *a, const struct row *b)
{
	if (!a || !b || a->total_pct != b->total_pct || a->flags != b->flags)
		return false;
	for (int c = 0; c < NCAT; c++) {
		const struct cat_figure *x = &a->d[c], *y = &b->d[c];

		if (x->pct != y->pct || x->avg_ms != y->avg_ms ||
		    x->max_ms != y->max_ms || x->count != y->count ||
		    x->avail != y->avail || x->have_avg != y->have_avg ||
		    x->have_max != y->have_max ||
		    x->have_count != y->have_count || x->dropped != y->dropped)
			return false;
	}
	return true;
}

static void check_plain(void)
{
	struct producer *p = open_player();
	struct sample s;
	unsigned shown = 0, exited30 = 0;
	double pct;
	struct row carried21;
	bool have21 = false;

	if (!p)
		return;
	CHECK(producer_can_accumulate(p));
	CHECK(producer_sets_interval(p));
	while (!producer_done(p)) {
		CHECK(producer_sample(p, &s) == 0);
		shown++;
		CHECK_EQ_U(number(&s), shown);
		/* counted without the first sample, only the base of the next */
		size_t at, count;
		CHECK(producer_position(p, &at, &count));
		CHECK_EQ_U(at, shown - 1);
		CHECK_EQ_U(count, NS - 1);
		CHECK(fabs(s.interval - 1.0) < 1e-9);
		CHECK_EQ_U(waits(&s, 10, &pct), 2);
		CHECK(fabs(pct - 10.0) < 1e-6);
		if (find(s.exited, s.nexited, 30)) {
			exited30++;
			CHECK_EQ_U(number(&s), 7);
		}
		CHECK_EQ_U(waits(&s, 20, NULL), number(&s) <= 12 ? 2 : 0);
		if (number(&s) == 21 && find(s.rows, s.nrows, 20)) {
			carried21 = *find(s.rows, s.nrows, 20);
			have21 = true;
		}
	}
	CHECK_EQ_U(shown, NS - 1);
	CHECK(have21);

	/* onto a key frame's span where task 20's reading is carried */
	producer_jump(p, T0 + 21);
	CHECK(producer_sample(p, &s) == 0);
	CHECK_EQ_U(number(&s), 21);
	CHECK(have21 && same_row(find(s.rows, s.nrows, 20), &carried21));
	CHECK_EQ_U(exited30, 1);

	/* back before the first sample shown: the first one (the file's
	   first sample is only its base) */
	producer_step(p, -(long)NS);
	CHECK(producer_sample(p, &s) == 0);
	CHECK_EQ_U(number(&s), 1);
	producer_jump(p, T0 - 100);
	CHECK(producer_sample(p, &s) == 0);
	CHECK_EQ_U(number(&s), 1);

	/* a jump into the second key frame's span, and a step back */
	producer_jump(p, T0 + 17.5);
	CHECK(producer_sample(p, &s) == 0);
	CHECK_EQ_U(number(&s), 17);
	CHECK_EQ_U(waits(&s, 10, &pct), 2);
	CHECK(fabs(pct - 10.0) < 1e-6);
	CHECK_EQ_U(waits(&s, 20, NULL), 0);
	producer_step(p, -6);
	CHECK(producer_sample(p, &s) == 0);
	CHECK_EQ_U(number(&s), 11);
	CHECK_EQ_U(waits(&s, 20, NULL), 2);
	producer_jump(p, T0 + 7);
	CHECK(producer_sample(p, &s) == 0);
	CHECK(find(s.exited, s.nexited, 30) != NULL);
	producer_free(p);
}

static void check_accumulate(void)
{
	struct producer *p = open_player();
	struct sample s;
	double pct;

	if (!p)
		return;
	CHECK(producer_set_accumulate(p, true) == 0);
	for (unsigned k = 1; k <= 12; k++) {
		CHECK(producer_sample(p, &s) == 0);
		CHECK_EQ_U(number(&s), k);
		CHECK(s.accumulated);
		CHECK(fabs(s.interval - k) < 1e-9);
		CHECK_EQ_U(waits(&s, 10, &pct), 2 * k);
		CHECK(fabs(pct - 10.0) < 1e-6);
		/* task 30's row stays after it ended, its window's figures,
		   as the live monitor keeps it (the file lacks it then) */
		const struct row *r30 = find(s.rows, s.nrows, 30);
		CHECK(r30 != NULL);
		CHECK(!find(s.exited, s.nexited, 30));
		CHECK_EQ_U(waits(&s, 30, &pct), 2 * (k < 7 ? k : 7));
		CHECK(fabs(pct - 10.0 * (k < 7 ? 1 : 7.0 / k)) < 1e-6);
		CHECK(!r30 || !(r30->flags & ROW_EXITED) == (k < 7));
	}
	/* stepping back re-reads the window from its start */
	producer_step(p, -4);
	CHECK(producer_sample(p, &s) == 0);
	CHECK_EQ_U(number(&s), 8);
	CHECK_EQ_U(waits(&s, 10, NULL), 16);
	/* a window from sample 20's base on */
	producer_jump(p, T0 + 20);
	CHECK(producer_sample(p, &s) == 0);
	CHECK(producer_set_accumulate(p, false) == 0);
	CHECK(producer_set_accumulate(p, true) == 0);
	producer_step(p, 0);
	CHECK(producer_sample(p, &s) == 0);
	CHECK_EQ_U(number(&s), 20);
	CHECK_EQ_U(waits(&s, 10, NULL), 2);
	/* task 30 ended before this window */
	CHECK_EQ_U(waits(&s, 30, NULL), -1);
	CHECK(producer_sample(p, &s) == 0);
	CHECK_EQ_U(number(&s), 21);
	CHECK_EQ_U(waits(&s, 10, NULL), 4);
	CHECK_EQ_U(waits(&s, 30, NULL), -1);
	CHECK(fabs(s.interval - 2.0) < 1e-9);
	producer_free(p);
}

static void check_coarse(void)
{
	struct producer *p = open_player();
	struct sample s;
	unsigned want = 5;
	double pct;

	if (!p)
		return;
	CHECK(producer_set_interval(p, 5) == 0);
	while (!producer_done(p)) {
		CHECK(producer_sample(p, &s) == 0);
		CHECK_EQ_U(number(&s), want);
		CHECK(fabs(s.interval - 5.0) < 1e-9);
		CHECK_EQ_U(waits(&s, 10, &pct), 10);
		CHECK(fabs(pct - 10.0) < 1e-6);
		if (want == 5) {
			CHECK_EQ_U(waits(&s, 30, NULL), 10);
		} else if (want == 10) {
			/* it ended at 7: its exit is in this interval */
			CHECK(find(s.exited, s.nexited, 30) != NULL);
			CHECK_EQ_U(waits(&s, 30, NULL), 4);
		} else {
			CHECK(waits(&s, 30, NULL) == -1);
		}
		if (want == 15)
			CHECK_EQ_U(waits(&s, 20, NULL), 4);
		if (want == 20)
			CHECK_EQ_U(waits(&s, 20, NULL), 0);
		want += 5;
	}
	CHECK_EQ_U(want, 30);
	/* back by one: the interval before */
	producer_step(p, -1);
	CHECK(producer_sample(p, &s) == 0);
	CHECK_EQ_U(number(&s), 20);
	CHECK_EQ_U(waits(&s, 10, NULL), 10);
	producer_free(p);
}

static void note(const char *text, void *arg)
{
	unsigned *n = arg;

	(*n)++;
	CHECK(strstr(text, "did not decode") != NULL);
	if (*n == 1)
		fprintf(stderr, "note: %s\n", text);
}

static void check_damage(void)
{
	FILE *f = fopen(path, "r+b");
	unsigned char b;
	long at = (long)(ends[14] + (ends[15] - ends[14]) / 2);

	CHECK(f != NULL);
	if (!f)
		return;
	CHECK(fseek(f, at, SEEK_SET) == 0 && fread(&b, 1, 1, f) == 1);
	b ^= 0x20;
	CHECK(fseek(f, at, SEEK_SET) == 0 && fwrite(&b, 1, 1, f) == 1);
	fclose(f);

	struct producer *p = open_player();
	struct sample s;
	unsigned notes = 0, shown = 0, last = 0;

	if (!p)
		return;
	producer_on_note(p, note, &notes);
	while (!producer_done(p)) {
		if (producer_sample(p, &s) < 0)
			break;
		shown++;
		CHECK(number(&s) > last);
		CHECK(number(&s) < 14 || number(&s) > 20);
		last = number(&s);
	}
	/* 14 is gone; 15..19 have no base; 20 is a key frame, the base of 21 */
	CHECK_EQ_U(shown, NS - 1 - 7);
	CHECK_EQ_U(notes, 6);      /* 15..20 */
	const char *const *n = producer_notices(p);
	CHECK(n && n[0] && strstr(n[0], "1 damaged part"));
	CHECK(n && n[0] && strstr(n[0], "5 samples did not decode"));
	if (n && n[0])
		fprintf(stderr, "notice: %s\n", n[0]);
	producer_free(p);
}

static void check_session(void)
{
	struct producer *p = open_player();
	struct sample s;
	unsigned shown = 0;

	if (!p)
		return;
	while (!producer_done(p)) {
		CHECK(producer_sample(p, &s) == 0);
		CHECK(number(&s) != 23);
		CHECK(fabs(s.interval - 1.0) < 1e-9);
		shown++;
	}
	CHECK_EQ_U(shown, NS - 2);
	/* the session's first sample is a base too: not counted */
	size_t at, count;
	CHECK(producer_position(p, &at, &count));
	CHECK_EQ_U(at, NS - 3);
	CHECK_EQ_U(count, NS - 2);
	/* -d longer than the recording: nothing to show, and said so */
	struct producer *q = open_player();
	if (q) {
		CHECK(producer_set_interval(q, 10 * NS) == 0);
		CHECK(producer_sample(q, &s) < 0 && errno == ENODATA);
		const char *const *told = producer_notices(q);
		int said = 0;
		while (told && *told)
			said += strstr(*told++, "no two samples") != NULL;
		CHECK_EQ_U(said, 1);
		producer_free(q);
	}
	/* -d 5: 5 .. 20, then 28 (5 s after the session's first sample) */
	CHECK(producer_set_interval(p, 5) == 0);
	producer_jump(p, T0 + 20);
	CHECK(producer_sample(p, &s) == 0);
	CHECK_EQ_U(number(&s), 20);
	CHECK(producer_sample(p, &s) == 0);
	CHECK_EQ_U(number(&s), 28);
	CHECK(fabs(s.interval - 5.0) < 1e-9);
	CHECK_EQ_U(waits(&s, 10, NULL), 10);
	/* -a from 20 on: the window restarts with the session */
	CHECK(producer_set_interval(p, 0) == 0);
	producer_jump(p, T0 + 20);
	CHECK(producer_sample(p, &s) == 0);
	CHECK(producer_set_accumulate(p, true) == 0);
	producer_jump(p, T0 + 25);
	CHECK(producer_sample(p, &s) == 0);
	CHECK_EQ_U(number(&s), 25);
	CHECK(fabs(s.interval - 2.0) < 1e-9);
	CHECK_EQ_U(waits(&s, 10, NULL), 4);
	producer_free(p);
}

int main(void)
{
	write_file(-1);
	check_plain();
	check_accumulate();
	check_coarse();
	check_damage();
	unlink(path);
	strcpy(path + strlen(path) - 6, "XXXXXX");
	write_file(23);
	check_session();
	unlink(path);
	return unit_done();
}
