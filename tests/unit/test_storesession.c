/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Session records of a recording of readings (record/storefile.h): two
 * sessions in one file, each sample read back with the session it
 * belongs to; the first sample of a session is a key frame (the last
 * delta of the session before damaged costs nothing after it); a field
 * of a later version is skipped; a session record that does not parse
 * is counted and leaves the session before it in place.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "record/storefile.h"
#include "store/frame.h"
#include "store/varint.h"
#include "../lib/storetest.h"
#include "unit.h"

static struct store_task task;

static void make(struct store_sample *s, unsigned n)
{
	memset(s, 0, sizeof(*s));
	memset(&task, 0, sizeof(task));
	s->time = 1.7e9 + n;
	s->mono = 100.0 + n;
	task.r.id = task.r.tgid = 42;
	task.r.start = 9;
	task.r.at = s->mono;
	task.r.run_ns = (uint64_t)n * 1000;
	task.comm = "w";
	task.cmdline = "";
	task.user = "root";
	s->tasks = &task;
	s->ntasks = 1;
}

static const struct storefile_session A = {
	.program = "stalltop 9.9", .hostname = "db1", .kernel = "6.18.0",
	.hz = 100, .ncpu = 2, .started = 1.7e9 + 0.25, .threads = false,
};
static const struct storefile_session B = {
	.program = "stalltop 10.0", .hostname = "db2", .kernel = "6.19.1",
	.hz = 250, .ncpu = 64, .started = 1.7e9 + 3.5, .threads = true,
};

static void check_session(const struct storefile_session *got,
			  const struct storefile_session *want)
{
	CHECK(got != NULL);
	if (!got)
		return;
	CHECK_STR(got->program, want->program);
	CHECK_STR(got->hostname, want->hostname);
	CHECK_STR(got->kernel, want->kernel);
	CHECK_EQ_U(got->hz, want->hz);
	CHECK_EQ_U(got->ncpu, want->ncpu);
	CHECK_NEAR(got->started, want->started, 0);
	CHECK(got->threads == want->threads);
}

/* Samples 1-3 in session A, 4-5 in B; where sample 3's record ends. */
static int write_file(uint64_t *end3)
{
	struct store_sample s;
	int fd = storetest_memfd("test_storesession");
	struct storefile_writer *w = storefile_writer_open(fd, "stalltop", 0, 0);
	CHECK(w != NULL);
	CHECK(storefile_write_session(w, &A) == 0);
	for (unsigned n = 1; n <= 5; n++) {
		if (n == 4)
			CHECK(storefile_write_session(w, &B) == 0);
		make(&s, n);
		CHECK(storefile_write(w, &s) == 0);
		if (n == 3)
			*end3 = storefile_writer_bytes(w);
	}
	storefile_writer_free(w);
	return fd;
}

/* Read fd from the start; each sample's number and session's host. */
static size_t read_all(int fd, unsigned got[8], const char *hosts[8],
		       struct storefile_damage *d)
{
	struct storefile_reader *r;
	struct store_sample s;
	char err[256] = "";
	size_t n = 0;
	int st;

	CHECK(lseek(fd, 0, SEEK_SET) == 0);
	r = storefile_reader_new(fd);
	CHECK(r != NULL);
	CHECK(storefile_session(r) == NULL); /* none read yet */
	while ((st = storefile_next(r, &s, err, sizeof(err))) == 1 && n < 8) {
		const struct storefile_session *ss = storefile_session(r);

		got[n] = (unsigned)(s.time - 1.7e9 + 0.5);
		hosts[n] = ss ? ss->hostname : NULL;
		if (got[n] <= 3)
			check_session(ss, &A);
		else
			check_session(ss, &B);
		CHECK_EQ_U(s.ntasks, 1);
		CHECK_EQ_U(s.tasks[0].r.run_ns, got[n] * 1000);
		n++;
	}
	if (st < 0)
		fprintf(stderr, "read: %s\n", err);
	CHECK(st == 0);
	*d = storefile_damage(r);
	storefile_reader_free(r);
	return n;
}

/* A session record of the payload p, appended to fd. */
static void append_raw(int fd, const unsigned char *p, size_t len)
{
	CHECK(lseek(fd, 0, SEEK_END) > 0);
	struct frame_writer *fw = frame_writer_open(fd, false, "raw");
	CHECK(fw != NULL);
	CHECK(frame_write(fw, STOREFILE_SESSION, 1.7e9 + 6, p, len) == 0);
	frame_writer_free(fw);
}

int main(void)
{
	uint64_t end3 = 0;
	unsigned got[8];
	const char *hosts[8];
	struct storefile_damage d;
	int fd = write_file(&end3);

	CHECK_EQ_U(read_all(fd, got, hosts, &d), 5);
	CHECK(d.parts == 0 && d.records == 0 && d.deltas == 0);

	/* sample 3 (a delta of session A) damaged: 4 is a key frame */
	unsigned char b;
	CHECK(pread(fd, &b, 1, (off_t)end3 - 6) == 1);
	b ^= 0x11;
	CHECK(pwrite(fd, &b, 1, (off_t)end3 - 6) == 1);
	size_t n = read_all(fd, got, hosts, &d);
	CHECK_EQ_U(n, 4);
	if (n == 4)
		CHECK(got[2] == 4 && got[3] == 5);
	CHECK_EQ_U(d.parts, 1);
	CHECK_EQ_U(d.deltas, 0);
	b ^= 0x11;
	CHECK(pwrite(fd, &b, 1, (off_t)end3 - 6) == 1);

	/* a field of a later version (id 99), then the hostname: skipped */
	unsigned char p[64];
	size_t len = 0;
	len += varint_put(p + len, 99);
	len += varint_put(p + len, 3);
	memcpy(p + len, "new", 3);
	len += 3;
	len += varint_put(p + len, 2);
	len += varint_put(p + len, 3);
	memcpy(p + len, "db3", 3);
	len += 3;
	append_raw(fd, p, len);
	struct store_sample s;
	struct storefile_writer *w = storefile_writer_open(fd, "stalltop", 0, 0);
	make(&s, 6);
	CHECK(w && storefile_write(w, &s) == 0);
	storefile_writer_free(w);
	/* a session whose length runs past its record: does not parse */
	unsigned char bad[] = { 2, 40, 'x' };
	append_raw(fd, bad, sizeof(bad));
	w = storefile_writer_open(fd, "stalltop", 0, 0);
	make(&s, 7);
	CHECK(w && storefile_write(w, &s) == 0);
	storefile_writer_free(w);

	struct storefile_reader *r;
	char err[256];
	CHECK(lseek(fd, 0, SEEK_SET) == 0);
	r = storefile_reader_new(fd);
	n = 0;
	while (r && storefile_next(r, &s, err, sizeof(err)) == 1) {
		const struct storefile_session *ss = storefile_session(r);
		unsigned k = (unsigned)(s.time - 1.7e9 + 0.5);

		n++;
		if (k >= 6) {
			/* 6 and 7: the session of db3, the bad one skipped */
			CHECK(ss && ss->hostname && !strcmp(ss->hostname, "db3"));
			CHECK(ss && !ss->program && ss->hz == 0 && !ss->threads);
		}
	}
	CHECK_EQ_U(n, 7);
	if (r)
		CHECK_EQ_U(storefile_damage(r).records, 1);
	storefile_reader_free(r);
	close(fd);
	return unit_done();
}
