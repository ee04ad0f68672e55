/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The index of a recording of readings (src/record/storeindex.c) and
 * seeking in it (storefile_seek): 30 samples, a key frame every 10, give
 * 30 entries with their times, keys at 1, 11 and 21 (entries 0, 10, 20),
 * each entry's key the one at or before it; a reader sent to the key of
 * entry 17 reads samples 11, 12, ... in order, and again after a seek
 * back to the first. A byte flipped in sample 14's record takes that
 * entry out and is counted as one damaged part; a torn end is counted
 * as the tail; a file of other bytes is no recording (sniff) and has no
 * entry. Sample 14's record twice in a row is one entry, the repeat
 * counted and no damage; a record of a type it does not know is no
 * entry and no damage; times no clock gave (NaN, -5, 1e300) are entries
 * of an unknown time (NaN), counted, the first named.
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
#include "record/storeindex.h"
#include "../lib/storetest.h"
#include "unit.h"

#define NS 30
#define NT 5

static struct store_task tasks[NT];

static void make(struct store_sample *s, unsigned n)
{
	memset(s, 0, sizeof(*s));
	s->time = 1.7e9 + 2.0 * n;
	s->mono = 100.0 + 2.0 * n;
	s->query_start = s->mono - 0.001;
	s->delayacct = STORE_DELAYACCT_ON;
	for (unsigned i = 0; i < NT; i++) {
		struct store_task *k = &tasks[i];

		memset(k, 0, sizeof(*k));
		k->r.id = (int32_t)(10 + i);
		k->r.tgid = k->r.id;
		k->r.start = 7;
		k->r.asked_at = s->query_start;
		k->r.at = s->mono;
		k->r.run_ns = (uint64_t)n * (i + 1) * 1000;
		k->r.have = 1;
		k->comm = "worker";
		k->cmdline = "";
		k->user = "";
	}
	s->tasks = tasks;
	s->ntasks = NT;
}

static int write_file(uint64_t ends[NS + 1])
{
	struct store_sample s;
	int fd = storetest_memfd("test_storeindex");
	struct storefile_writer *w = storefile_writer_open(fd, "stalltop test",
							   10, 0);
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

static unsigned number(const struct store_sample *s)
{
	return (unsigned)((s->time - 1.7e9) / 2.0 + 0.5);
}

static void check_index(int fd)
{
	struct storeindex ix;
	char err[256] = "";
	unsigned char head[4];

	CHECK(pread(fd, head, 4, 0) == 4);
	CHECK(storeindex_sniff(head, 4));
	CHECK(!storeindex_sniff("{\"st", 4));
	CHECK(lseek(fd, 0, SEEK_SET) == 0);
	CHECK(storeindex_build(&ix, fd, 1000, -1, err, sizeof(err)) == 0);
	CHECK_EQ_U(ix.n, NS);
	CHECK_EQ_U(ix.parts, 0);
	for (size_t i = 0; i < ix.n; i++) {
		CHECK(ix.e[i].time == 1.7e9 + 2.0 * (double)(i + 1));
		CHECK(ix.e[i].key == (i % 10 == 0));
		CHECK_EQ_U(storeindex_key_at(&ix, i), i / 10 * 10);
	}

	/* to the key before entry 17, then forward */
	struct storefile_reader *r = storefile_reader_new(fd);
	struct store_sample s;

	CHECK(r != NULL);
	CHECK(storefile_seek(r, ix.e[storeindex_key_at(&ix, 16)].offset) == 0);
	for (unsigned want = 11; want <= 17; want++) {
		CHECK(storefile_next(r, &s, err, sizeof(err)) == 1);
		CHECK_EQ_U(number(&s), want);
		CHECK_EQ_U(s.ntasks, NT);
		CHECK_EQ_U(s.tasks[2].r.run_ns, (uint64_t)want * 3 * 1000);
		CHECK_EQ_U(storefile_offset(r), ix.e[want - 1].offset);
	}
	/* and back to the first */
	CHECK(storefile_seek(r, ix.e[0].offset) == 0);
	CHECK(storefile_next(r, &s, err, sizeof(err)) == 1);
	CHECK_EQ_U(number(&s), 1);
	CHECK(storefile_next(r, &s, err, sizeof(err)) == 1);
	CHECK_EQ_U(number(&s), 2);
	CHECK_EQ_U(s.tasks[4].r.run_ns, 2 * 5 * 1000);
	storefile_reader_free(r);
	storeindex_free(&ix);
}

int main(void)
{
	uint64_t ends[NS + 1];
	struct storeindex ix;
	char err[256] = "";
	int fd = write_file(ends);

	check_index(fd);

	/* at most max_samples */
	CHECK(lseek(fd, 0, SEEK_SET) == 0);
	CHECK(storeindex_build(&ix, fd, 12, -1, err, sizeof(err)) == 0);
	CHECK_EQ_U(ix.n, 12);
	CHECK(ix.full);
	storeindex_free(&ix);

	/* sample 14's record twice; a record of another type after it */
	size_t size = (size_t)ends[NS], len14 = (size_t)(ends[14] - ends[13]);
	unsigned char *whole = malloc(size), other[64];

	CHECK(whole && pread(fd, whole, size, 0) == (ssize_t)size);
	storetest_insert(fd, (off_t)ends[14], whole + ends[13], len14);
	storetest_insert(fd, (off_t)(ends[14] + len14), other,
			 storetest_record(other, 17, 0, 1.7e9 + 28, "later", 5));
	CHECK(lseek(fd, 0, SEEK_SET) == 0);
	CHECK(storeindex_build(&ix, fd, 1000, -1, err, sizeof(err)) == 0);
	CHECK_EQ_U(ix.n, NS);
	CHECK_EQ_U(ix.repeats, 1);
	CHECK_EQ_U(ix.skipped, 0);
	CHECK_EQ_U(ix.parts, 0);
	for (size_t i = 0; i < ix.n; i++)
		CHECK(ix.e[i].time == 1.7e9 + 2.0 * (double)(i + 1));
	storeindex_free(&ix);
	storetest_cut(fd, 0);
	CHECK(pwrite(fd, whole, size, 0) == (ssize_t)size);

	/* times no clock gave */
	storetest_retime(fd, (off_t)ends[13], len14, NAN);
	storetest_retime(fd, (off_t)ends[14], (size_t)(ends[15] - ends[14]), -5);
	storetest_retime(fd, (off_t)ends[19], (size_t)(ends[20] - ends[19]),
			 1e300);
	CHECK(lseek(fd, 0, SEEK_SET) == 0);
	CHECK(storeindex_build(&ix, fd, 1000, -1, err, sizeof(err)) == 0);
	CHECK_EQ_U(ix.n, NS);
	CHECK_EQ_U(ix.notime, 3);
	CHECK_EQ_U(ix.first_notime, 13);
	CHECK(isnan(ix.e[13].time) && isnan(ix.e[14].time) &&
	      isnan(ix.e[19].time));
	CHECK(ix.e[15].time == 1.7e9 + 32);
	storeindex_free(&ix);
	storetest_cut(fd, 0);
	CHECK(pwrite(fd, whole, size, 0) == (ssize_t)size);
	free(whole);

	/* a byte of sample 14's record flipped: that entry is gone */
	unsigned char b;
	off_t at = (off_t)(ends[13] + (ends[14] - ends[13]) / 2);

	CHECK(pread(fd, &b, 1, at) == 1);
	b ^= 0x40;
	CHECK(pwrite(fd, &b, 1, at) == 1);
	CHECK(lseek(fd, 0, SEEK_SET) == 0);
	CHECK(storeindex_build(&ix, fd, 1000, -1, err, sizeof(err)) == 0);
	CHECK_EQ_U(ix.n, NS - 1);
	CHECK_EQ_U(ix.parts, 1);
	CHECK_EQ_U(ix.skipped, ends[14] - ends[13]);
	CHECK(ix.n > 14 && ix.e[13].time == 1.7e9 + 2.0 * 15);
	storeindex_free(&ix);
	b ^= 0x40;
	CHECK(pwrite(fd, &b, 1, at) == 1);

	/* the last record torn */
	CHECK(ftruncate(fd, (off_t)(ends[NS] - 3)) == 0);
	CHECK(lseek(fd, 0, SEEK_SET) == 0);
	CHECK(storeindex_build(&ix, fd, 1000, -1, err, sizeof(err)) == 0);
	CHECK_EQ_U(ix.n, NS - 1);
	CHECK_EQ_U(ix.tail, ends[NS] - 3 - ends[NS - 1]);
	storeindex_free(&ix);

	/* other bytes */
	char junk[4096];
	for (size_t i = 0; i < sizeof(junk); i++)
		junk[i] = (char)(i * 7 + 3);
	CHECK(ftruncate(fd, 0) == 0);
	CHECK(pwrite(fd, junk, sizeof(junk), 0) == (ssize_t)sizeof(junk));
	CHECK(!storeindex_sniff(junk, sizeof(junk)));
	CHECK(lseek(fd, 0, SEEK_SET) == 0);
	CHECK(storeindex_build(&ix, fd, 1000, -1, err, sizeof(err)) == 0);
	CHECK_EQ_U(ix.n, 0);
	CHECK_EQ_U(ix.skipped, sizeof(junk));
	CHECK_EQ_U(storeindex_key_at(&ix, 0), SIZE_MAX);
	storeindex_free(&ix);
	close(fd);
	return unit_done();
}
