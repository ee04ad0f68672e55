/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Store samples to a file and back (src/record/storefile.c): 30 samples,
 * a key frame every 10, come back whole and in order; a byte flipped in
 * a delta of the middle costs that sample and the deltas after it up to
 * the next key frame, where the reader resumes (counted: one damaged
 * part, six deltas without their base); a torn last record costs that
 * sample alone, its bytes counted; garbage is no sample at all.
 * A delta's record twice in a row costs nothing but the repeat (counted,
 * the 30 samples whole); records of a type the reader does not know
 * between two deltas of a stream (one stored as it is, one deflated
 * alone) cost nothing; a record's time that no clock gave (NaN, -5)
 * reads as unknown (NaN), the sample itself whole.
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

#include "record/storefile.h"
#include "../lib/storetest.h"
#include "unit.h"

#define NS 30
#define NT 20

static struct store_task tasks[NT];
static double times[NS];        /* of the samples read_all read */

static void make(struct store_sample *s, unsigned n)
{
	memset(s, 0, sizeof(*s));
	s->time = 1.7e9 + 2.0 * n;
	s->mono = 100.0 + 2.0 * n;
	s->query_start = s->mono - 0.001;
	s->delayacct = STORE_DELAYACCT_ON;
	s->ts_version = 16;
	for (unsigned i = 0; i < NT; i++) {
		struct store_task *k = &tasks[i];

		memset(k, 0, sizeof(*k));
		k->r.id = (int32_t)(10 + i);
		k->r.tgid = k->r.id;
		k->r.start = 7;
		k->r.asked_at = s->query_start;
		k->r.at = s->mono;
		k->r.run_ns = (uint64_t)n * (i + 1) * 1000;
		k->r.d[0].count = n * i;
		k->r.d[0].total_ns = (uint64_t)n * i * 333;
		k->r.have = 1;
		k->comm = "worker";
		k->cmdline = "worker --fast";
		k->user = "root";
	}
	s->tasks = tasks;
	s->ntasks = NT;
}

/* The file of NS samples: its fd and where each sample's record ends. */
static int write_file(uint64_t ends[NS + 1])
{
	struct store_sample s;
	int fd = storetest_memfd("test_storefile");
	struct storefile_writer *w = storefile_writer_open(fd, "stalltop test", 10, 0);

	CHECK(w != NULL);
	ends[0] = storefile_writer_bytes(w);
	for (unsigned n = 1; n <= NS; n++) {
		make(&s, n);
		CHECK(storefile_write(w, &s) == 0);
		ends[n] = storefile_writer_bytes(w);
	}
	storefile_writer_free(w);
	return fd;
}

/* Read fd from the start: the samples' numbers into got, how many. */
static size_t read_all(int fd, unsigned got[NS], struct storefile_damage *dmg)
{
	struct storefile_reader *r;
	struct store_sample s;
	char err[256] = "";
	size_t n = 0;
	int st;

	CHECK(lseek(fd, 0, SEEK_SET) == 0);
	r = storefile_reader_new(fd);
	CHECK(r != NULL);
	while ((st = storefile_next(r, &s, err, sizeof(err))) == 1 && n < NS) {
		/* a time unknown: the sample after the one before */
		unsigned k = isnan(s.time) ? (n ? got[n - 1] + 1 : 1) :
			     (unsigned)((s.time - 1.7e9) / 2.0 + 0.5);
		struct store_sample want;

		make(&want, k);
		CHECK_EQ_U(s.ntasks, NT);
		for (size_t i = 0; i < s.ntasks && i < NT; i++) {
			CHECK_EQ_U(s.tasks[i].r.id, tasks[i].r.id);
			CHECK_EQ_U(s.tasks[i].r.run_ns, tasks[i].r.run_ns);
			CHECK_EQ_U(s.tasks[i].r.d[0].total_ns, tasks[i].r.d[0].total_ns);
			CHECK(s.tasks[i].r.at == want.mono);
			CHECK_STR(s.tasks[i].cmdline, "worker --fast");
		}
		times[n] = s.time;
		got[n++] = k;
	}
	if (st < 0)
		fprintf(stderr, "read: %s (%s)\n", err, strerror(errno));
	CHECK(st == 0);
	*dmg = storefile_damage(r);
	storefile_reader_free(r);
	return n;
}

int main(void)
{
	uint64_t ends[NS + 1];
	unsigned got[NS];
	struct storefile_damage d;
	int fd = write_file(ends);

	/* whole */
	CHECK_EQ_U(read_all(fd, got, &d), NS);
	for (unsigned i = 0; i < NS; i++)
		CHECK_EQ_U(got[i], i + 1);
	CHECK(d.bytes == 0 && d.parts == 0 && d.deltas == 0 && d.records == 0);
	CHECK_EQ_U(d.repeats, 0);

	size_t size = (size_t)ends[NS];
	unsigned char *whole = malloc(size);

	CHECK(whole && pread(fd, whole, size, 0) == (ssize_t)size);

	/* sample 14's record (a delta of a stream) twice */
	size_t len14 = (size_t)(ends[14] - ends[13]);

	storetest_insert(fd, (off_t)ends[14], whole + ends[13], len14);
	CHECK_EQ_U(read_all(fd, got, &d), NS);
	for (unsigned i = 0; i < NS; i++)
		CHECK_EQ_U(got[i], i + 1);
	CHECK(d.bytes == 0 && d.parts == 0 && d.deltas == 0 && d.records == 0);
	CHECK_EQ_U(d.repeats, 1);
	storetest_cut(fd, 0);
	CHECK(pwrite(fd, whole, size, 0) == (ssize_t)size);

	/* records of a type it does not know after sample 14's */
	unsigned char other[128], z[64];
	uLongf zn = sizeof(z);
	size_t n1 = storetest_record(other, 17, 0, 1.7e9 + 28, "later", 5);

	CHECK(compress2(z + 1, &zn, (const Bytef *)"later!", 6, 6) == Z_OK);
	z[2] = 6; /* the length it inflates to, then raw deflate data */
	size_t n2 = storetest_record(other + n1, 18, 1, 1.7e9 + 28, z + 2,
				     zn - 1 - 4);
	storetest_insert(fd, (off_t)ends[14], other, n1 + n2);
	CHECK_EQ_U(read_all(fd, got, &d), NS);
	for (unsigned i = 0; i < NS; i++)
		CHECK_EQ_U(got[i], i + 1);
	CHECK(d.bytes == 0 && d.parts == 0 && d.deltas == 0 && d.records == 0);
	storetest_cut(fd, 0);
	CHECK(pwrite(fd, whole, size, 0) == (ssize_t)size);

	/* times no clock gave: unknown */
	storetest_retime(fd, (off_t)ends[13], len14, NAN);
	storetest_retime(fd, (off_t)ends[14], (size_t)(ends[15] - ends[14]), -5);
	CHECK_EQ_U(read_all(fd, got, &d), NS);
	CHECK(isnan(times[13]) && isnan(times[14]));
	CHECK(times[12] == 1.7e9 + 26 && times[15] == 1.7e9 + 32);
	CHECK(d.bytes == 0 && d.parts == 0 && d.deltas == 0 && d.records == 0);
	storetest_cut(fd, 0);
	CHECK(pwrite(fd, whole, size, 0) == (ssize_t)size);
	free(whole);

	/* a byte of sample 14's record (a delta) flipped */
	unsigned char b;
	off_t at = (off_t)(ends[13] + (ends[14] - ends[13]) / 2);

	CHECK(pread(fd, &b, 1, at) == 1);
	b ^= 0x40;
	CHECK(pwrite(fd, &b, 1, at) == 1);
	size_t n = read_all(fd, got, &d);

	CHECK_EQ_U(n, 13 + 10);     /* 1..13, then the key frame 21 on */
	CHECK_EQ_U(got[12], 13);
	if (n > 13)
		CHECK_EQ_U(got[13], 21);
	CHECK_EQ_U(d.parts, 1);
	CHECK_EQ_U(d.bytes, ends[14] - ends[13]);
	CHECK_EQ_U(d.deltas, 6);    /* 15..20 */
	b ^= 0x40;
	CHECK(pwrite(fd, &b, 1, at) == 1);

	/* the last record torn */
	CHECK(ftruncate(fd, (off_t)(ends[NS] - 3)) == 0);
	CHECK_EQ_U(read_all(fd, got, &d), NS - 1);
	CHECK_EQ_U(d.bytes, ends[NS] - 3 - ends[NS - 1]);

	/* garbage */
	CHECK(ftruncate(fd, 0) == 0);
	char junk[4096];
	for (size_t i = 0; i < sizeof(junk); i++)
		junk[i] = (char)(i * 7 + 3);
	CHECK(pwrite(fd, junk, sizeof(junk), 0) == (ssize_t)sizeof(junk));
	CHECK_EQ_U(read_all(fd, got, &d), 0);
	CHECK_EQ_U(d.bytes, sizeof(junk));
	close(fd);
	return unit_done();
}
