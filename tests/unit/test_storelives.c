/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Lives of one pid in a recording (src/store/schema*.c, codec*.c through
 * src/record/storefile.c): a sample holding two lives of pid 50 whose
 * start is unknown (0: the ended one and the one that took its pid), and
 * three of pid 60 with the same start tick (two ended in the interval,
 * one alive); a pid reused by a thread (two lives of tid 70 in the
 * thread readings); a life that ends and one of the same (id, start)
 * that begins in the next sample (a removed and an added entity of one
 * id in one delta), across key frames (one every 3 samples). Every
 * sample is written (storefile_write 0) and reads back with every life
 * apart: its (id, start, life), its counters, whether it ended.
 * A sample the format cannot hold (two tasks of one id, start and life)
 * is left out (storefile_write 1, EINVAL, no byte written), and the
 * recording goes on: the samples after it read back, the first of them
 * a key frame (nothing skipped).
 */
#include <config.h>

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "record/storefile.h"
#include "store/frame.h"
#include "../lib/storetest.h"
#include "unit.h"

#define NS 8
#define MAXT 8

/* One life as written: (id, start, life), its run time, ended. */
struct life {
	int32_t id;
	uint64_t start;
	uint32_t life;
	uint64_t run_ns;
	bool ended;
};

/* What each sample holds: its tasks, then its threads. */
struct plan {
	struct life tasks[MAXT], threads[MAXT];
	size_t ntasks, nthreads;
};

static struct plan plans[NS];
static struct store_task tv[MAXT], hv[MAXT];

#define L(i, s, l, run, e) { .id = (i), .start = (s), .life = (l), \
			     .run_ns = (run), .ended = (e) }

static void make_plans(void)
{
	/* 1: pid 50 and three lives' ancestor of 60, thread 70 */
	plans[0] = (struct plan){
		.tasks = { L(50, 0, 0, 1000, false), L(60, 900, 0, 5000, false) },
		.ntasks = 2,
		.threads = { L(70, 5, 0, 700, false) }, .nthreads = 1 };
	/* 2: 50's pid reused (both starts unknown); 60 reused twice in one
	   interval within one tick; tid 70 ends and a thread takes it */
	plans[1] = (struct plan){
		.tasks = { L(50, 0, 0, 2000, true), L(50, 0, 1, 30, false),
			   L(60, 900, 0, 6000, true), L(60, 900, 1, 10, true),
			   L(60, 900, 2, 20, false) },
		.ntasks = 5,
		.threads = { L(70, 5, 0, 800, true), L(70, 5, 1, 9, false) },
		.nthreads = 2 };
	/* 3: the later lives go on (a key frame) */
	plans[2] = (struct plan){
		.tasks = { L(50, 0, 1, 60, false), L(60, 900, 2, 40, false) },
		.ntasks = 2,
		.threads = { L(70, 5, 1, 19, false) }, .nthreads = 1 };
	/* 4: 50's life 1 ends, life 2 begins (a delta) */
	plans[3] = (struct plan){
		.tasks = { L(50, 0, 1, 90, true), L(50, 0, 2, 5, false),
			   L(60, 900, 2, 80, false) },
		.ntasks = 3,
		.threads = { L(70, 5, 1, 29, false) }, .nthreads = 1 };
	/* 5: life 1 gone, life 2 on */
	plans[4] = (struct plan){
		.tasks = { L(50, 0, 2, 15, false), L(60, 900, 2, 90, false) },
		.ntasks = 2 };
	/* 6 (a key frame), 7, 8: as 5, moving */
	for (unsigned n = 5; n < NS; n++) {
		plans[n] = plans[4];
		plans[n].tasks[0].run_ns += 100 * n;
		plans[n].tasks[1].run_ns += 100 * n;
	}
}

static void task_of(struct store_task *k, const struct life *l,
		    const struct store_sample *s)
{
	memset(k, 0, sizeof(*k));
	k->r.id = l->id;
	k->r.tgid = l->id;
	k->r.start = l->start;
	k->r.life = l->life;
	k->r.asked_at = s->query_start;
	k->r.at = s->mono;
	k->r.run_ns = l->run_ns;
	k->r.d[0].count = l->run_ns / 10;
	k->r.d[0].total_ns = l->run_ns * 3;
	k->r.have = 1;
	k->r.flags = l->ended ? READING_ENDED | READING_FINAL : 0;
	k->comm = l->ended ? "old" : "new";
	k->cmdline = "";
	k->user = "root";
}

static void make(struct store_sample *s, const struct plan *p, unsigned n)
{
	memset(s, 0, sizeof(*s));
	s->time = 1.7e9 + n;
	s->mono = 100.0 + n;
	s->real = s->time;
	s->query_start = s->mono - 0.001;
	s->delayacct = STORE_DELAYACCT_ON;
	s->ts_version = 16;
	s->thread_readings = true;
	for (size_t i = 0; i < p->ntasks; i++)
		task_of(&tv[i], &p->tasks[i], s);
	for (size_t i = 0; i < p->nthreads; i++)
		task_of(&hv[i], &p->threads[i], s);
	s->tasks = tv;
	s->ntasks = p->ntasks;
	s->thread_tasks = hv;
	s->nthread_tasks = p->nthreads;
}

/* Every life of want among got (and no other): 1 when all hold. */
static int same_lives(const struct life *want, size_t n,
		      const struct store_task *got, size_t ngot)
{
	int ok = n == ngot;

	for (size_t i = 0; i < n; i++) {
		const struct store_task *k = NULL;

		for (size_t j = 0; j < ngot; j++)
			if (got[j].r.id == want[i].id &&
			    got[j].r.start == want[i].start &&
			    got[j].r.life == want[i].life)
				k = &got[j];
		if (!k) {
			fprintf(stderr, "life (%d, %llu, %u) missing\n",
				(int)want[i].id,
				(unsigned long long)want[i].start,
				(unsigned)want[i].life);
			ok = 0;
			continue;
		}
		if (k->r.run_ns != want[i].run_ns ||
		    k->r.d[0].total_ns != want[i].run_ns * 3 ||
		    !!(k->r.flags & READING_ENDED) != want[i].ended ||
		    strcmp(k->comm, want[i].ended ? "old" : "new") != 0) {
			fprintf(stderr, "life (%d, %llu, %u): run %llu\n",
				(int)want[i].id,
				(unsigned long long)want[i].start,
				(unsigned)want[i].life,
				(unsigned long long)k->r.run_ns);
			ok = 0;
		}
	}
	return ok;
}

/* Read fd from the start: each sample checked against plans[first..]. */
static size_t read_back(int fd, const unsigned *which, size_t nwhich,
			struct storefile_damage *d)
{
	struct storefile_reader *r;
	struct store_sample s;
	char why[512];
	size_t n = 0;
	int st;

	CHECK(lseek(fd, 0, SEEK_SET) == 0);
	r = storefile_reader_new(fd);
	CHECK(r != NULL);
	if (!r)
		return 0;
	while ((st = storefile_next(r, &s, why, sizeof(why))) == 1) {
		CHECK(n < nwhich);
		if (n >= nwhich)
			break;
		const struct plan *p = &plans[which[n]];

		CHECK(s.time == 1.7e9 + which[n]);
		CHECK(same_lives(p->tasks, p->ntasks, s.tasks, s.ntasks));
		CHECK(same_lives(p->threads, p->nthreads, s.thread_tasks,
				 s.nthread_tasks));
		n++;
	}
	CHECK(st == 0);
	*d = storefile_damage(r);
	storefile_reader_free(r);
	return n;
}

/* The kinds of fd's sample records in order, 'K' key and 'D' delta. */
static void kinds(int fd, char *out, size_t size)
{
	struct frame_reader *r;
	struct frame f;
	char why[256];
	size_t n = 0;

	CHECK(lseek(fd, 0, SEEK_SET) == 0);
	r = frame_reader_new(fd);
	CHECK(r != NULL);
	while (r && n + 1 < size && frame_reader_next(r, &f, why, sizeof(why)) == 1)
		if (f.type == FRAME_KEY || f.type == FRAME_DELTA)
			out[n++] = f.type == FRAME_KEY ? 'K' : 'D';
	out[n] = '\0';
	frame_reader_free(r);
}

int main(void)
{
	char k[NS + 1];
	struct store_sample s;
	struct storefile_damage d;
	unsigned all[NS];
	int fd = storetest_memfd("test_storelives");
	struct storefile_writer *w;

	make_plans();

	/* every churn recorded, every life read back apart */
	w = storefile_writer_open(fd, "stalltop test", 3, 0);
	CHECK(w != NULL);
	for (unsigned n = 0; n < NS; n++) {
		make(&s, &plans[n], n);
		int ret = storefile_write(w, &s);

		CHECK(ret == 0);
		if (ret)
			fprintf(stderr, "sample %u: %s\n", n + 1, strerror(errno));
		all[n] = n;
	}
	storefile_writer_free(w);
	kinds(fd, k, sizeof(k));
	CHECK(strcmp(k, "KDDKDDKD") == 0);
	CHECK_EQ_U(read_back(fd, all, NS, &d), NS);
	CHECK(d.bytes == 0 && d.parts == 0 && d.records == 0 && d.deltas == 0);

	/*
	 * Sample 3 (index 2) twice over in one: one key, two tasks. Left
	 * out, no byte written; the ones after it are recorded.
	 */
	CHECK(ftruncate(fd, 0) == 0 && lseek(fd, 0, SEEK_SET) == 0);
	w = storefile_writer_open(fd, "stalltop test", 60, 0);
	CHECK(w != NULL);
	size_t nw = 0;
	unsigned kept[NS];

	for (unsigned n = 0; n < NS; n++) {
		make(&s, &plans[n], n);
		if (n == 2) {
			uint64_t before = storefile_writer_bytes(w);

			tv[1] = tv[0];
			errno = 0;
			CHECK(storefile_write(w, &s) == 1);
			CHECK(errno == EINVAL);
			CHECK(storefile_writer_bytes(w) == before);
			continue;
		}
		CHECK(storefile_write(w, &s) == 0);
		kept[nw++] = n;
	}
	storefile_writer_free(w);
	kinds(fd, k, sizeof(k));
	/* 1 2 (3 left out) 4 5 6 7 8: the one after the gap a key frame */
	CHECK(strcmp(k, "KDKDDDD") == 0);
	CHECK_EQ_U(read_back(fd, kept, nw, &d), NS - 1);
	/* sample 4 stands on nothing before it: no delta skipped */
	CHECK(d.bytes == 0 && d.parts == 0 && d.records == 0 && d.deltas == 0);
	close(fd);
	return unit_done();
}
