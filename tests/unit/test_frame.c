/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Records in a file (src/store/frame.c): random payloads of any size,
 * compressed or not, come back byte for byte with their type and time;
 * a torn end of every length is counted and the records before it kept;
 * a byte flipped anywhere in a record costs that record alone, and the
 * reader says how many bytes it skipped; lengths that lie (beyond the
 * file, beyond the largest record, a payload that inflates to more or
 * less than it says) are skipped without allocating what they claim;
 * parts of deflate streams come back the same, and those whose stream's
 * start was not read come out unread up to the next that opens one; a
 * newer format version, and versions 1 to 4 (development builds'), are
 * refused with their number;
 * a file of garbage yields nothing, all of it counted.
 */
#include <config.h>

#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <zlib.h>

#include "store/frame.h"
#include "../lib/storetest.h"
#include "unit.h"

#define NREC 40

#define rnd storetest_rnd

struct rec {
	int type;
	double time;
	unsigned char *data;
	size_t len;
};

static struct rec recs[NREC];

/* Payloads: empty, one byte, random, repetitive (compressible), large. */
static void make_recs(void)
{
	for (size_t i = 0; i < NREC; i++) {
		struct rec *r = &recs[i];
		size_t len = i == 0 ? 0 : i == 1 ? 1 : i == 2 ? 70000 :
			     rnd() % 3000;

		r->type = i % 5 == 0 ? FRAME_KEY : i % 7 == 0 ?
			  FRAME_OTHER + 3 : FRAME_DELTA;
		r->time = 1763740000.0 + (double)i * 0.25;
		r->data = malloc(len ? len : 1);
		r->len = len;
		for (size_t k = 0; k < len; k++)
			r->data[k] = i % 2 ? (unsigned char)rnd() :
				     (unsigned char)("abcabd"[k % 6]);
		/* the magic inside a payload must not confuse the reader */
		if (len > 10)
			memcpy(r->data + 3, "\xf5STK", 4);
	}
}

static int write_file(bool compress, uint64_t *offsets)
{
	int fd = storetest_memfd("frame");
	struct frame_writer *w = frame_writer_open(fd, compress, "test_frame");

	if (fd < 0 || !w) {
		perror("write_file");
		exit(99);
	}
	for (size_t i = 0; i < NREC; i++) {
		offsets[i] = frame_writer_bytes(w);
		CHECK(frame_write(w, recs[i].type, recs[i].time, recs[i].data,
				  recs[i].len) == 0);
	}
	offsets[NREC] = frame_writer_bytes(w);
	CHECK_EQ_U((uint64_t)lseek(fd, 0, SEEK_END), offsets[NREC]);
	frame_writer_free(w);
	return fd;
}

static bool same_rec(const struct frame *f, size_t i)
{
	const struct rec *r = &recs[i];
	bool ok = f->type == r->type && f->time == r->time &&
		  f->len == r->len && (!r->len || !memcmp(f->data, r->data, r->len));

	if (!ok)
		fprintf(stderr, "record %zu: type %d, time %.17g, %zu bytes; "
			"expected type %d, time %.17g, %zu bytes\n", i, f->type,
			f->time, f->len, r->type, r->time, r->len);
	return ok;
}

/*
 * Read fd back: the records of keep[] in order, `skipped` damaged bytes
 * before record `gap_at` (NREC: none) and `tail` at the end.
 */
static void read_back(int fd, const bool *keep, size_t gap_at,
		      uint64_t skipped, uint64_t tail)
{
	struct frame_reader *r = frame_reader_new(fd);
	struct frame f;
	char err[256];
	size_t i = 0;
	int rc;

	lseek(fd, 0, SEEK_SET);
	while ((rc = frame_reader_next(r, &f, err, sizeof(err))) == 1) {
		while (i < NREC && !keep[i])
			i++;
		if (i >= NREC)
			fprintf(stderr, "a record more than written: type %d, "
				"time %.17g, %zu bytes\n", f.type, f.time, f.len);
		CHECK(i < NREC);
		if (i >= NREC)
			break;
		CHECK(same_rec(&f, i));
		if (f.skipped != (i == gap_at ? skipped : 0))
			fprintf(stderr, "record %zu: %llu bytes skipped before "
				"it\n", i, (unsigned long long)f.skipped);
		CHECK_EQ_U(f.skipped, i == gap_at ? skipped : 0);
		i++;
	}
	CHECK_EQ_U(rc, 0);
	while (i < NREC && !keep[i])
		i++;
	CHECK_EQ_U(i, NREC);
	CHECK_EQ_U(frame_reader_version(r), FRAME_VERSION);
	CHECK_EQ_U(frame_reader_tail(r), tail);
	CHECK_EQ_U(frame_reader_skipped(r), skipped + tail);
	CHECK_EQ_U(frame_reader_gaps(r), (skipped > 0) + (tail > 0));
	frame_reader_free(r);
}

static bool all[NREC];

static void test_round_trip(void)
{
	uint64_t off[NREC + 1], off_z[NREC + 1];
	int fd = write_file(false, off), fdz = write_file(true, off_z);

	read_back(fd, all, NREC, 0, 0);
	read_back(fdz, all, NREC, 0, 0);
	/* raw: header, payload, CRC; compressed: the repetitive ones shrink */
	for (size_t i = 0; i < NREC; i++) {
		size_t raw = FRAME_HEADER_SIZE + recs[i].len + FRAME_TRAILER_SIZE;
		CHECK_EQ_U(off[i + 1] - off[i], raw);
		size_t z = off_z[i + 1] - off_z[i];
		if (z > raw || (i % 2 == 0 && recs[i].len > 100 && z >= raw / 4))
			fprintf(stderr, "record %zu: %zu bytes compressed, %zu raw\n",
				i, z, raw);
		CHECK(z <= raw);
		if (i % 2 == 0 && recs[i].len > 100)
			CHECK(z < raw / 4);
	}
	close(fd);
	close(fdz);
}

/* Cut the file inside its last three records. */
static void test_torn(bool compress)
{
	uint64_t off[NREC + 1];
	int fd = write_file(compress, off);
	bool keep[NREC];

	/* from the end back (a cut keeps what is before it): every byte
	 * near the ends, every 7th in between */
	for (uint64_t cut = off[NREC] - 1; cut >= off[NREC - 3];
	     cut -= cut - off[NREC - 3] < 64 || off[NREC] - cut < 64 ? 1 : 7) {
		size_t whole = 0;
		while (whole < NREC && off[whole + 1] <= cut)
			whole++;
		CHECK(ftruncate(fd, (off_t)cut) == 0);
		for (size_t i = 0; i < NREC; i++)
			keep[i] = i < whole;
		read_back(fd, keep, NREC, 0, cut - off[whole]);
	}
	close(fd);
}

/* A byte flipped at each place of a record, or a run of them zeroed. */
static void test_flipped(bool compress)
{
	uint64_t off[NREC + 1];
	bool keep[NREC];
	size_t k = 5;           /* a key frame, 20 + 1000-odd bytes */
	int fd = write_file(compress, off);

	for (size_t i = 0; i < NREC; i++)
		keep[i] = i != k;
	for (uint64_t at = off[k]; at < off[k + 1]; at++) {
		unsigned char b, x;

		/* every byte of the header and the CRC, every 13th between */
		if (at >= off[k] + FRAME_HEADER_SIZE + 4 &&
		    at < off[k + 1] - FRAME_TRAILER_SIZE && at % 13)
			continue;
		CHECK(pread(fd, &b, 1, (off_t)at) == 1);
		x = b ^ (unsigned char)(1u << (at % 8));
		CHECK(pwrite(fd, &x, 1, (off_t)at) == 1);
		read_back(fd, keep, k + 1, off[k + 1] - off[k], 0);
		CHECK(pwrite(fd, &b, 1, (off_t)at) == 1);
	}
	/* two records gone in the middle: one gap of both */
	unsigned char zero[64] = { 0 };
	CHECK(pwrite(fd, zero, 8, (off_t)off[k] + 4) == 8);
	CHECK(pwrite(fd, zero, 8, (off_t)off[k + 1] + 12) == 8);
	keep[k + 1] = false;
	read_back(fd, keep, k + 2, off[k + 2] - off[k], 0);
	close(fd);
}

/* A record put together by hand, with a good CRC. */
static size_t forge(unsigned char *p, int type, int flags, uint32_t len,
		    const void *payload, size_t n)
{
	memcpy(p, "\xf5STK", 4);
	p[4] = (unsigned char)type;
	p[5] = (unsigned char)flags;
	p[6] = p[7] = 0;
	for (int i = 0; i < 4; i++)
		p[8 + i] = (unsigned char)(len >> (8 * i));
	memset(p + 12, 0, 8);
	memcpy(p + 20, payload, n);
	uint32_t crc = (uint32_t)crc32(0, p, (uInt)(20 + n));
	for (int i = 0; i < 4; i++)
		p[20 + n + i] = (unsigned char)(crc >> (8 * i));
	return 24 + n;
}

/* Lengths that lie, in front of the good records. */
static void test_hostile(void)
{
	static unsigned char bad[4096];
	unsigned char payload[64], *z = payload + 1;
	uint64_t off[NREC + 1];
	size_t n = 0;
	uLongf zlen = sizeof(payload) - 1;

	/* beyond the largest record, beyond the file */
	n += forge(bad + n, FRAME_KEY, 0, UINT32_MAX, "", 0);
	n += forge(bad + n, FRAME_KEY, 0, FRAME_MAX_STORED, "", 0);
	n += forge(bad + n, FRAME_KEY, 0, 1000000, "", 0);
	/* an unknown flag; type 0 */
	n += forge(bad + n, FRAME_KEY, 0x80, 0, "", 0);
	n += forge(bad + n, 0, 0, 0, "", 0);
	/* compressed payloads that claim 16 MiB + 1, 16 MiB, 1 byte too
	 * many, none; and one that is not deflate */
	payload[0] = 0;
	const char text[] = "only these few bytes";
	z_stream zs = { 0 };
	deflateInit2(&zs, 9, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY);
	zs.next_in = (unsigned char *)(uintptr_t)text;
	zs.avail_in = sizeof(text);
	zs.next_out = z + 4;
	zs.avail_out = (uInt)zlen - 4;
	CHECK(deflate(&zs, Z_FINISH) == Z_STREAM_END);
	zlen = zs.total_out;
	deflateEnd(&zs);
	static const unsigned char claims[][4] = {
		{ 0x81, 0x80, 0x80, 0x08 },     /* 16 MiB + 1 */
		{ 0x80, 0x80, 0x80, 0x08 },     /* 16 MiB */
		{ 0x96, 0x80, 0x80, 0x00 },     /* 22: one too many */
		{ 0x80, 0x80, 0x80, 0x00 },     /* 0 */
	};
	for (size_t i = 0; i < 4; i++) {
		memcpy(z, claims[i], 4);
		n += forge(bad + n, FRAME_DELTA, FRAME_F_DEFLATE,
			   (uint32_t)(4 + zlen), z, 4 + zlen);
	}
	n += forge(bad + n, FRAME_DELTA, FRAME_F_DEFLATE, 8, "\x05garbage", 8);
	/* and the right claim is taken: the control */
	memcpy(z, "\x95\x80\x80\x00", 4);       /* 21 bytes */
	size_t good = forge(bad + n, FRAME_OTHER, FRAME_F_DEFLATE,
			    (uint32_t)(4 + zlen), z, 4 + zlen);

	int fd = write_file(false, off);
	struct frame_reader *r = frame_reader_new(fd);
	struct frame f;
	char err[256];
	/* the records before: header, 0, 1, 2, 3; then the forged ones */
	unsigned char *rest = malloc(off[NREC] - off[4]);
	CHECK(pread(fd, rest, off[NREC] - off[4], (off_t)off[4]) ==
	      (ssize_t)(off[NREC] - off[4]));
	CHECK(pwrite(fd, bad, n + good, (off_t)off[4]) == (ssize_t)(n + good));
	CHECK(pwrite(fd, rest, off[NREC] - off[4], (off_t)(off[4] + n + good))
	      == (ssize_t)(off[NREC] - off[4]));
	free(rest);
	lseek(fd, 0, SEEK_SET);
	for (size_t i = 0; i < 4; i++) {
		CHECK_EQ_U(frame_reader_next(r, &f, err, sizeof(err)), 1);
		CHECK(same_rec(&f, i));
	}
	CHECK_EQ_U(frame_reader_next(r, &f, err, sizeof(err)), 1);
	CHECK_EQ_U(f.skipped, n);
	CHECK_EQ_U(f.type, FRAME_OTHER);
	CHECK_EQ_U(f.len, sizeof(text));
	CHECK(f.len == sizeof(text) && !memcmp(f.data, text, f.len));
	for (size_t i = 4; i < NREC; i++) {
		CHECK_EQ_U(frame_reader_next(r, &f, err, sizeof(err)), 1);
		CHECK(same_rec(&f, i));
	}
	CHECK_EQ_U(frame_reader_next(r, &f, err, sizeof(err)), 0);
	CHECK_EQ_U(frame_reader_skipped(r), n);
	frame_reader_free(r);
	close(fd);
}

/*
 * Key and delta frames written as parts of deflate streams (a key frame
 * opens one, so does a delta after a record alone): they come back byte
 * for byte; a part whose stream's start was not read (a record of it
 * damaged, a reader seeking past its start) comes out unread, without
 * a payload, up to the next part that opens a stream.
 */
static void test_streams(void)
{
	int fd = storetest_memfd("frame");
	struct frame_writer *w = frame_writer_open(fd, true, "test_frame");
	uint64_t off[NREC + 1];
	bool opens[NREC], stream[NREC];
	struct frame f;
	char err[256];

	CHECK(fd >= 0 && w);
	for (size_t i = 0; i < NREC; i++) {
		const struct rec *r = &recs[i];

		off[i] = frame_writer_bytes(w);
		stream[i] = r->type == FRAME_KEY || r->type == FRAME_DELTA;
		opens[i] = stream[i] && (r->type == FRAME_KEY || !i ||
					 !stream[i - 1]);
		CHECK((stream[i] ? frame_write_stream(w, r->type, r->time,
						      r->data, r->len,
						      r->type == FRAME_KEY) :
			frame_write(w, r->type, r->time, r->data, r->len)) == 0);
	}
	off[NREC] = frame_writer_bytes(w);
	frame_writer_free(w);
	/* the flags as said: a stream opened where asked and after a record alone */
	for (size_t i = 0; i < NREC; i++) {
		unsigned char h[FRAME_HEADER_SIZE];
		int want = opens[i] ? FRAME_F_OPENS : stream[i] ?
			   FRAME_F_FOLLOWS : -1;

		CHECK(pread(fd, h, sizeof(h), (off_t)off[i]) == (ssize_t)sizeof(h));
		if (want >= 0 && h[5] != want)
			fprintf(stderr, "record %zu: flags %d, expected %d\n", i,
				h[5], want);
		CHECK(want < 0 || h[5] == want);
	}

	/* whole: every record as written */
	struct frame_reader *r = frame_reader_new(fd);
	lseek(fd, 0, SEEK_SET);
	for (size_t i = 0; i < NREC; i++) {
		CHECK_EQ_U(frame_reader_next(r, &f, err, sizeof(err)), 1);
		CHECK(!f.unread && same_rec(&f, i));
	}
	CHECK_EQ_U(frame_reader_next(r, &f, err, sizeof(err)), 0);

	/* seeking to a part that follows: unread up to the next opening */
	size_t j = 1;
	while (j < NREC && (opens[j] || !stream[j]))
		j++;
	CHECK(j < NREC);
	CHECK(frame_reader_seek(r, off[j]) == 0);
	for (size_t i = j; i < NREC; i++) {
		CHECK_EQ_U(frame_reader_next(r, &f, err, sizeof(err)), 1);
		if (!opens[i] && stream[i] && (i == j || !opens[i - 1]))
			CHECK(f.unread && !f.data && !f.len &&
			      f.type == recs[i].type && f.time == recs[i].time);
		if (opens[i] || !stream[i])
			break;
	}
	frame_reader_free(r);

	/* a byte flipped in a key frame that deltas follow */
	size_t k = 0;
	while (k < NREC && !(opens[k] && k + 1 < NREC && stream[k + 1] &&
			     !opens[k + 1] && recs[k].len > 0))
		k++;
	CHECK(k < NREC);
	unsigned char b;
	off_t at = (off_t)off[k] + FRAME_HEADER_SIZE + 1;
	CHECK(pread(fd, &b, 1, at) == 1);
	b ^= 0x40;
	CHECK(pwrite(fd, &b, 1, at) == 1);
	r = frame_reader_new(fd);
	lseek(fd, 0, SEEK_SET);
	size_t unread = 0, expect = 0;
	for (size_t i = k + 1; i < NREC && stream[i] && !opens[i]; i++)
		expect++;
	for (size_t i = 0; i < NREC; i++) {
		if (i == k)
			continue;       /* damaged: skipped, counted */
		CHECK_EQ_U(frame_reader_next(r, &f, err, sizeof(err)), 1);
		if (f.unread) {
			unread++;
			CHECK(i > k && i <= k + expect);
		} else {
			CHECK(same_rec(&f, i));
		}
		if (i == k + 1)
			CHECK_EQ_U(f.skipped, off[k + 1] - off[k]);
	}
	CHECK_EQ_U(frame_reader_next(r, &f, err, sizeof(err)), 0);
	if (unread != expect)
		fprintf(stderr, "%zu parts unread after the damage, expected "
			"%zu\n", unread, expect);
	CHECK_EQ_U(unread, expect);
	CHECK(expect > 0);
	frame_reader_free(r);
	close(fd);
}

/*
 * A file of a newer version, and one of each version before 5 (1 to 4,
 * never released), refused by name; the older ones with the version
 * read.
 */
static void test_version(void)
{
	static const unsigned versions[] = { FRAME_VERSION + 1, 1, 2, 3, 4 };

	for (size_t i = 0; i < sizeof(versions) / sizeof(versions[0]); i++) {
		unsigned char p[64], pay[6];
		int fd = storetest_memfd("frame");
		struct frame_reader *r = frame_reader_new(fd);
		struct frame f;
		char err[256] = "", says[32];

		snprintf(says, sizeof(says), "version %u", versions[i]);
		pay[0] = (unsigned char)versions[i];
		pay[1] = 0;
		memcpy(pay + 2, "next", 4);
		size_t n = forge(p, FRAME_HEADER, 0, 6, (const char *)pay, 6);
		CHECK(write(fd, p, n) == (ssize_t)n);
		lseek(fd, 0, SEEK_SET);
		errno = 0;
		CHECK_EQ_U(frame_reader_next(r, &f, err, sizeof(err)), -1);
		CHECK_EQ_U(errno, ENOTSUP);
		if (!strstr(err, says))
			fprintf(stderr, "the message does not name %s: %s\n",
				says, err);
		CHECK(strstr(err, says) != NULL);
		if (versions[i] < FRAME_VERSION)
			CHECK(strstr(err, "reads version 5: record it again"));
		frame_reader_free(r);
		close(fd);
	}
}

static void test_garbage(void)
{
	static unsigned char junk[100000];
	int fd = storetest_memfd("frame");
	struct frame_reader *r = frame_reader_new(fd);
	struct frame f;
	char err[256];

	for (size_t i = 0; i < sizeof(junk); i++)
		junk[i] = i % 97 == 0 ? 0xf5 : (unsigned char)rnd();
	CHECK(write(fd, junk, sizeof(junk)) == (ssize_t)sizeof(junk));
	lseek(fd, 0, SEEK_SET);
	CHECK_EQ_U(frame_reader_next(r, &f, err, sizeof(err)), 0);
	CHECK_EQ_U(frame_reader_tail(r), sizeof(junk));
	CHECK_EQ_U(frame_reader_version(r), 0);
	frame_reader_free(r);
	/* empty: nothing, nothing skipped */
	CHECK(ftruncate(fd, 0) == 0);
	r = frame_reader_new(fd);
	CHECK_EQ_U(frame_reader_next(r, &f, err, sizeof(err)), 0);
	CHECK_EQ_U(frame_reader_skipped(r), 0);
	frame_reader_free(r);
	close(fd);
	/* a write that fails says why */
	int p[2];
	CHECK(pipe(p) == 0);
	close(p[0]);
	signal(SIGPIPE, SIG_IGN);
	errno = 0;
	CHECK(frame_writer_open(p[1], false, "x") == NULL);
	CHECK_EQ_U(errno, EPIPE);
	close(p[1]);
}

int main(void)
{
	for (size_t i = 0; i < NREC; i++)
		all[i] = true;
	make_recs();
	test_round_trip();
	test_torn(false);
	test_torn(true);
	test_flipped(false);
	test_flipped(true);
	test_hostile();
	test_streams();
	test_version();
	test_garbage();
	for (size_t i = 0; i < NREC; i++)
		free(recs[i].data);
	return unit_done();
}
