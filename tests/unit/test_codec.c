/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Samples through the codec (src/store/codec.c) and back, with a schema
 * shaped like the readings (tests/lib/store_schema.h): random samples
 * and edge values (0, the largest counters, counters that wrap, NaN, -0,
 * infinities, empty and longest strings, control bytes) come back field
 * for field, a field made unknown comes back unknown; a reader starting
 * at any record decodes from the next key frame on; a lost key frame or
 * delta makes the deltas up to the next key frame skipped, never applied
 * to the wrong sample; a newer file's fields and tables are skipped by
 * an older reader, and an older file reads with a newer schema; damaged
 * payloads are refused with the reason; the encoder refuses entities
 * without a key or with one key twice.
 */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "store/codec.h"
#include "store/frame.h"
#include "store/varint.h"
#include "../lib/store_schema.h"
#include "../lib/storetest.h"
#include "unit.h"

#define NSAMPLES 240
#define MAXTASKS 200

#define rnd storetest_rnd
#define chance storetest_chance

/* One sample of the truth, as the producer would hand it over. */
struct truth {
	double time;
	struct st_task tasks[MAXTASKS];
	struct st_cgroup cgroups[4];
	struct st_system system;
	size_t ntasks, ncgroups;
};

static const uint64_t edges[] = {
	0, 1, 127, 128, 16383, 16384, UINT32_MAX, (uint64_t)INT64_MAX,
	(uint64_t)INT64_MAX + 1, UINT64_MAX - 1, UINT64_MAX,
};

static uint64_t any_u64(void)
{
	if (chance(20))
		return edges[rnd() % (sizeof(edges) / sizeof(edges[0]))];
	uint64_t v = rnd();

	return v >> (rnd() % 64);
}

/*
 * A string of up to max bytes (now and then 200 KiB, longer than any
 * fixed field of old), control bytes too, no NUL.
 */
static const char *any_string(size_t max)
{
	static char buf[200 << 10];
	size_t n = chance(1) ? sizeof(buf) : chance(10) ? max : rnd() % max;

	for (size_t i = 0; i < n; i++)
		buf[i] = (char)(1 + rnd() % 255);
	return storetest_keep(buf, n);
}

static void set_known(const struct codec_table *t, void *row, bool all)
{
	for (size_t i = 0; i < t->nfields; i++)
		codec_set_known(t, row, t->fields[i].id,
				all || (t->fields[i].flags & CODEC_KEY) ||
				!chance(10));
}

static void new_task(struct st_task *k, uint64_t tid)
{
	memset(k, 0, sizeof(*k));
	k->tid = tid;
	k->start = any_u64();
	k->tgid = rnd() % 4194304;
	k->ppid = any_u64();
	k->nice = (int64_t)any_u64();
	for (int i = 0; i < ST_NCNT; i++)
		k->cnt[i] = any_u64();
	k->comm = any_string(16);
	k->cmdline = any_string(256);
	k->cgroup = any_string(256);
	set_known(&st_tables[ST_TASKS], k, chance(50));
}

static double any_double(void)
{
	static const double odd[] = { 0.0, -0.0, 1e-310, 1e308, -1.5 };

	switch (rnd() % 8) {
	case 0:
		return NAN;
	case 1:
		return rnd() % 2 ? INFINITY : -INFINITY;
	case 2:
		return odd[rnd() % 5];
	}
	return (double)(rnd() % 100000) / 100.0;
}

/* The next sample from the one before: tasks come, go and move. */
static void evolve(struct truth *s, const struct truth *prev)
{
	const struct codec_table *tt = &st_tables[ST_TASKS];

	*s = *prev;
	s->time = prev->time + 10;
	for (size_t i = 0; i < s->ntasks; i++) {
		struct st_task *k = &s->tasks[i];

		if (chance(3)) {
			s->tasks[i--] = s->tasks[--s->ntasks];
			continue;
		}
		if (chance(30))
			for (int c = 0; c < ST_NCNT; c++)
				if (chance(40))
					k->cnt[c] += chance(5) ? any_u64() :
						     rnd() % 5000;
		if (chance(5))
			k->comm = any_string(16);
		if (chance(5))
			k->nice = (int64_t)any_u64();
		if (chance(4)) {
			unsigned id = tt->fields[2 + rnd() % (tt->nfields - 2)].id;
			codec_set_known(tt, k, id, !codec_known(tt, k, id));
		}
	}
	while (s->ntasks < MAXTASKS && chance(60)) {
		/* a new task; now and then a pid used again, a new start */
		uint64_t tid = s->ntasks && chance(20) ?
			s->tasks[rnd() % s->ntasks].tid : 1 + rnd() % 100000;
		new_task(&s->tasks[s->ntasks++], tid);
		for (size_t j = 0; j + 1 < s->ntasks; j++)
			if (st_key_cmp(tt, &s->tasks[j],
				       &s->tasks[s->ntasks - 1]) == 0) {
				s->ntasks--;
				break;
			}
	}
	for (size_t i = 0; i < s->ncgroups; i++)
		if (chance(50))
			s->cgroups[i].cnt[rnd() % 8] += rnd() % 100000;
	for (int i = 0; i < 6; i++)
		s->system.psi_total[i] += rnd() % 1000;
	if (chance(50))
		s->system.avg10[rnd() % 3] = any_double();
	/* a clock: ten seconds on, now and then any double (NaN, -0...) */
	s->system.clock = chance(5) ? any_double() : prev->system.clock + 10.0;
}

static struct truth *truths;

static void make_truths(void)
{
	struct truth *t = &truths[0];
	const char *paths[] = { "/", "/system.slice",
				"/system.slice/a\x1b[31m.service",
				"/user.slice" };

	memset(t, 0, sizeof(*t));
	t->time = 1763740000.5;
	t->ncgroups = 4;
	for (size_t i = 0; i < 4; i++) {
		t->cgroups[i].path = paths[i];
		set_known(&st_tables[ST_CGROUPS], &t->cgroups[i], true);
	}
	set_known(&st_tables[ST_SYSTEM], &t->system, true);
	for (int i = 0; i < 3; i++)
		t->system.avg10[i] = any_double();
	for (uint64_t tid = 1; tid <= 60; tid++)
		new_task(&t->tasks[t->ntasks++], tid);
	for (size_t i = 1; i < NSAMPLES; i++)
		evolve(&truths[i], &truths[i - 1]);
}

static struct codec_rows rows_of[ST_NTABLES];

static struct codec_sample sample_of(struct truth *t)
{
	rows_of[ST_TASKS] = (struct codec_rows){ t->tasks, t->ntasks };
	rows_of[ST_CGROUPS] = (struct codec_rows){ t->cgroups, t->ncgroups };
	rows_of[ST_SYSTEM] = (struct codec_rows){ &t->system, 1 };
	return (struct codec_sample){ t->time, rows_of };
}

/* A table decoded against the truth's: key order, every row the same. */
static bool same_table(const struct codec_table *t, const struct codec_rows *r,
		       const void *want, size_t n, size_t sample)
{
	if (r->n != n) {
		fprintf(stderr, "sample %zu, %s: %zu rows, expected %zu\n",
			sample, t->name, r->n, n);
		return false;
	}
	for (size_t i = 0; i < r->n; i++) {
		const unsigned char *row = (unsigned char *)r->rows + i * t->size;
		const unsigned char *w = NULL;

		if (i && st_key_cmp(t, row - t->size, row) >= 0) {
			fprintf(stderr, "sample %zu, %s: row %zu out of order\n",
				sample, t->name, i);
			return false;
		}
		for (size_t j = 0; j < n && !w; j++)
			if (st_key_cmp(t, row, (const unsigned char *)want +
				       j * t->size) == 0)
				w = (const unsigned char *)want + j * t->size;
		unsigned id = w ? st_row_diff(t, row, w) : 0;
		if (!w || id) {
			fprintf(stderr, "sample %zu, %s: row %zu %s (field %u)\n",
				sample, t->name, i,
				w ? "differs" : "not in the truth", id);
			return false;
		}
	}
	return true;
}

static bool same_sample(const struct codec_sample *s, const struct truth *t,
			size_t i)
{
	if (memcmp(&s->time, &t->time, sizeof(double)) != 0) {
		fprintf(stderr, "sample %zu: time %.17g, expected %.17g\n", i,
			s->time, t->time);
		return false;
	}
	return same_table(&st_tables[ST_TASKS], &s->tables[ST_TASKS],
			  t->tasks, t->ntasks, i) &&
	       same_table(&st_tables[ST_CGROUPS], &s->tables[ST_CGROUPS],
			  t->cgroups, t->ncgroups, i) &&
	       same_table(&st_tables[ST_SYSTEM], &s->tables[ST_SYSTEM],
			  &t->system, 1, i);
}

/* Every truth encoded into a file of records; the record types. */
static int encode_file(bool compress, unsigned key_every, int *types)
{
	int fd = storetest_memfd("codec");
	struct frame_writer *w = frame_writer_open(fd, compress, "test_codec");
	struct codec_enc *e = codec_enc_new(&st_schema, key_every, 0);

	if (!w || !e) {
		perror("encode_file");
		exit(99);
	}
	for (size_t i = 0; i < NSAMPLES; i++) {
		struct codec_sample s = sample_of(&truths[i]);
		const unsigned char *p;
		size_t len;

		if (codec_enc_sample(e, &s, &p, &len, &types[i]) < 0 ||
		    frame_write(w, types[i], s.time, p, len) < 0) {
			perror("encode_file");
			exit(99);
		}
	}
	codec_enc_free(e);
	frame_writer_free(w);
	lseek(fd, 0, SEEK_SET);
	return fd;
}

/*
 * Decode fd from record `from` on, leaving out record `drop` (-1: none):
 * a key frame decodes, a delta only when the record before it did; each
 * decoded sample checked against its truth. The samples decoded.
 */
static size_t decode_file(int fd, size_t from, long drop, const int *types)
{
	struct frame_reader *r = frame_reader_new(fd);
	struct codec_dec *d = codec_dec_new(&st_schema);
	struct frame f;
	char err[256];
	size_t n = 0, decoded = 0;
	bool prev_ok = false;

	lseek(fd, 0, SEEK_SET);
	for (; frame_reader_next(r, &f, err, sizeof(err)) == 1; n++) {
		CHECK_EQ_U(f.skipped, 0);
		CHECK_EQ_U(f.type, types[n]);
		if (n < from || (long)n == drop) {
			prev_ok = false;
			continue;
		}
		int rc = codec_dec_frame(d, f.type, f.time, f.data, f.len, err,
					 sizeof(err));
		CHECK_EQ_U(rc, f.type == FRAME_KEY || prev_ok ? 1 : 0);
		prev_ok = rc == 1;
		if (rc == 1) {
			decoded++;
			CHECK(same_sample(codec_dec_sample(d), &truths[n], n));
		}
	}
	CHECK_EQ_U(n, NSAMPLES);
	CHECK_EQ_U(frame_reader_version(r), FRAME_VERSION);
	CHECK_EQ_U(frame_reader_skipped(r), 0);
	codec_dec_free(d);
	frame_reader_free(r);
	return decoded;
}

static void test_round_trip(bool compress, unsigned key_every)
{
	int types[NSAMPLES];
	int fd = encode_file(compress, key_every, types);
	size_t keys = 0;

	for (size_t i = 0; i < NSAMPLES; i++)
		keys += types[i] == FRAME_KEY;
	/* the first, then every key_every samples */
	CHECK_EQ_U(keys, key_every ? (NSAMPLES + key_every - 1) / key_every : 1);
	CHECK_EQ_U(decode_file(fd, 0, -1, types), NSAMPLES);
	/* a reader starting anywhere: from the next key frame on */
	for (size_t from = 1; from < NSAMPLES; from += 37) {
		size_t next = from;
		while (next < NSAMPLES && types[next] != FRAME_KEY)
			next++;
		CHECK_EQ_U(decode_file(fd, from, -1, types), NSAMPLES - next);
	}
	close(fd);
}

/* A lost key frame, a lost delta: skipped up to the next key frame. */
static void test_lost(void)
{
	int types[NSAMPLES];
	int fd = encode_file(true, 20, types);

	CHECK_EQ_U(types[40], FRAME_KEY);
	/* samples 40 to 59 need record 40 */
	CHECK_EQ_U(decode_file(fd, 0, 40, types), NSAMPLES - 20);
	/* samples 45 to 59 need record 45 */
	CHECK_EQ_U(decode_file(fd, 0, 45, types), NSAMPLES - 15);
	close(fd);
}

/* Damage to a key frame's record inside a file: the reader skips it, the
 * decoder the deltas after it, and both say so. */
static void test_damaged_key_record(void)
{
	int types[NSAMPLES];
	int fd = encode_file(false, 10, types);
	struct frame_reader *r = frame_reader_new(fd);
	struct codec_dec *d = codec_dec_new(&st_schema);
	uint64_t offset[NSAMPLES + 1];
	struct frame f;
	char err[256];
	size_t n = 0, decoded = 0, skipped = 0;

	while (frame_reader_next(r, &f, err, sizeof(err)) == 1)
		offset[n++] = f.offset;
	offset[n] = (uint64_t)lseek(fd, 0, SEEK_END);
	CHECK_EQ_U(n, NSAMPLES);
	frame_reader_free(r);
	/* a byte in the middle of record 30, a key frame */
	CHECK_EQ_U(types[30], FRAME_KEY);
	unsigned char b;
	off_t at = (off_t)(offset[30] + offset[31]) / 2;
	CHECK(pread(fd, &b, 1, at) == 1);
	b ^= 0x10;
	CHECK(pwrite(fd, &b, 1, at) == 1);
	lseek(fd, 0, SEEK_SET);
	r = frame_reader_new(fd);
	while (frame_reader_next(r, &f, err, sizeof(err)) == 1) {
		size_t i = (size_t)((f.time - truths[0].time) / 10 + 0.5);

		if (i >= NSAMPLES || f.time != truths[i].time)
			fprintf(stderr, "a record of time %.17g, no sample's\n",
				f.time);
		CHECK(i < NSAMPLES && f.time == truths[i].time);
		if (i >= NSAMPLES)
			break;
		CHECK_EQ_U(f.skipped, i == 31 ? offset[31] - offset[30] : 0);
		int rc = codec_dec_frame(d, f.type, f.time, f.data, f.len, err,
					 sizeof(err));
		/* 31 to 39 skipped: their key frame is gone */
		CHECK_EQ_U(rc, i > 30 && i < 40 ? 0 : 1);
		if (rc == 1) {
			decoded++;
			CHECK(same_sample(codec_dec_sample(d), &truths[i], i));
		} else {
			skipped++;
		}
	}
	CHECK_EQ_U(frame_reader_gaps(r), 1);
	CHECK_EQ_U(frame_reader_skipped(r), offset[31] - offset[30]);
	/* 31 to 39 skipped: their key frame is gone */
	CHECK_EQ_U(skipped, 9);
	CHECK_EQ_U(codec_dec_skipped(d), 9);
	CHECK_EQ_U(decoded, NSAMPLES - 10);
	codec_dec_free(d);
	frame_reader_free(r);
	close(fd);
}

/* ---- a newer schema: more fields, one more table ---- */

struct task2 {
	struct st_task old;
	uint64_t extra;
	double extra_d;
	const char *extra_s;
	int64_t extra_i;
};

static struct codec_field task2_fields[ST_NFIELDS(st_task_fields) + 4];
static struct codec_table tables2[ST_NTABLES + 1];
static const struct codec_schema schema2 = { tables2, ST_NTABLES + 1 };

static void make_schema2(void)
{
	size_t n = ST_NFIELDS(st_task_fields);

	memcpy(task2_fields, st_task_fields, sizeof(st_task_fields));
	task2_fields[n] = (struct codec_field){ 40, CODEC_U64, CODEC_COUNTER,
		offsetof(struct task2, extra), "extra" };
	task2_fields[n + 1] = (struct codec_field){ 41, CODEC_DOUBLE, 0,
		offsetof(struct task2, extra_d), "extra_d" };
	task2_fields[n + 2] = (struct codec_field){ 42, CODEC_STRING, 0,
		offsetof(struct task2, extra_s), "extra_s" };
	task2_fields[n + 3] = (struct codec_field){ 43, CODEC_S64, 0,
		offsetof(struct task2, extra_i), "extra_i" };
	memcpy(tables2, st_tables, sizeof(st_tables));
	tables2[ST_TASKS].size = sizeof(struct task2);
	tables2[ST_TASKS].fields = task2_fields;
	tables2[ST_TASKS].nfields = n + 4;
	/* a table the older reader does not know, like the system's */
	tables2[ST_NTABLES] = st_tables[ST_SYSTEM];
	tables2[ST_NTABLES].id = 9;
	tables2[ST_NTABLES].name = "newer";
}

static void test_versions(void)
{
	static struct task2 t2[MAXTASKS];
	struct codec_rows rows2[ST_NTABLES + 1];
	struct codec_enc *e = codec_enc_new(&schema2, 50, 0);
	struct codec_dec *d = codec_dec_new(&st_schema);
	struct codec_dec *d2 = codec_dec_new(&schema2);
	struct codec_enc *e1 = codec_enc_new(&st_schema, 50, 0);
	struct st_system newer;
	char err[256];
	const unsigned char *p;
	size_t len;
	int type;

	CHECK(codec_schema_check(&schema2, err, sizeof(err)) == 0);
	memset(&newer, 0, sizeof(newer));
	set_known(&st_tables[ST_SYSTEM], &newer, true);
	for (size_t i = 0; i < NSAMPLES; i++) {
		struct truth *t = &truths[i];

		for (size_t k = 0; k < t->ntasks; k++) {
			t2[k].old = t->tasks[k];
			/* every task's new fields move at every sample */
			t2[k].extra = i * 1000 + k;
			t2[k].extra_d = (double)i / 3;
			char x[8];

			snprintf(x, sizeof(x), "s%zu", i % 1000);
			t2[k].extra_s = storetest_keep(x, strlen(x));
			t2[k].extra_i = -(int64_t)i;
			for (unsigned id = 40; id <= 43; id++)
				codec_set_known(&tables2[ST_TASKS], &t2[k], id,
						true);
		}
		newer.psi_total[0] = i;
		rows2[ST_TASKS] = (struct codec_rows){ t2, t->ntasks };
		rows2[ST_CGROUPS] = (struct codec_rows){ t->cgroups,
							 t->ncgroups };
		rows2[ST_SYSTEM] = (struct codec_rows){ &t->system, 1 };
		rows2[ST_NTABLES] = (struct codec_rows){ &newer, 1 };
		struct codec_sample s2 = { t->time, rows2 };
		/* newer writer, older reader */
		CHECK(codec_enc_sample(e, &s2, &p, &len, &type) == 0);
		int rc = codec_dec_frame(d, type, t->time, p, len, err,
					 sizeof(err));
		CHECK_EQ_U(rc, 1);
		if (rc != 1)
			fprintf(stderr, "sample %zu: %s\n", i, err);
		CHECK(rc == 1 && same_sample(codec_dec_sample(d), t, i));
		/* older writer, newer reader: the new fields unknown */
		struct codec_sample s = sample_of(t);
		CHECK(codec_enc_sample(e1, &s, &p, &len, &type) == 0);
		CHECK_EQ_U(codec_dec_frame(d2, type, t->time, p, len, err,
					   sizeof(err)), 1);
		const struct codec_sample *got = codec_dec_sample(d2);
		CHECK_EQ_U(got->tables[ST_TASKS].n, t->ntasks);
		CHECK_EQ_U(got->tables[ST_NTABLES].n, 0);
		for (size_t k = 0; k < got->tables[ST_TASKS].n; k++) {
			const struct task2 *r =
				(struct task2 *)got->tables[ST_TASKS].rows + k;
			for (unsigned id = 40; id <= 43; id++)
				CHECK(!codec_known(&tables2[ST_TASKS], r, id));
		}
	}
	codec_enc_free(e);
	codec_enc_free(e1);
	codec_dec_free(d);
	codec_dec_free(d2);
}

/* ---- damaged payloads, built by hand ---- */

/*
 * A key frame of one task (tid 1, start 1), seq 1, for the deltas below:
 * its count, the columns of ids 1 and 2 (tag 4: a step of 1, wire 0;
 * every entity; a block of base 1, zigzagged 2, shift 0, no bits) and
 * their end.
 */
static const unsigned char base[] = { 1, 1, 12, 1, 4, 0, 2, 0, 0, 4, 0, 2, 0,
	0, 0 };

static void damaged(const char *what, const unsigned char *p, size_t len,
		    bool delta, const char *reason)
{
	struct codec_dec *d = codec_dec_new(&st_schema);
	char err[256] = "";
	/* the delta after it, seq 3: changes nothing */
	static const unsigned char next[] = { 3 };

	if (delta)
		CHECK_EQ_U(codec_dec_frame(d, FRAME_KEY, 1, base, sizeof(base),
					   err, sizeof(err)), 1);
	errno = 0;
	int rc = codec_dec_frame(d, delta ? FRAME_DELTA : FRAME_KEY, 2, p, len,
				 err, sizeof(err));
	if (rc != -1 || errno != EBADMSG || !strstr(err, reason))
		fprintf(stderr, "%s: rc %d, errno %d, \"%s\", expected \"%s\"\n",
			what, rc, errno, err, reason);
	CHECK(rc == -1 && errno == EBADMSG && strstr(err, reason));
	/* no base any more: the next delta is skipped, not applied */
	CHECK_EQ_U(codec_dec_frame(d, FRAME_DELTA, 3, next, sizeof(next), err,
				   sizeof(err)), 0);
	codec_dec_free(d);
}

#define DAMAGED(what, delta, reason, ...) do { \
	static const unsigned char p_[] = { __VA_ARGS__ }; \
	damaged(what, p_, sizeof(p_), delta, reason); \
} while (0)

static void test_damaged_payloads(void)
{
	char err[256];
	struct codec_dec *d = codec_dec_new(&st_schema);

	DAMAGED("huge count", false, "more entities", 1, 1, 3, 0xff, 0xff,
		0x7f);
	/* a key frame's columns (see base): ids 1 and 2, each of 1 */
	DAMAGED("no key", false, "without its key", 1, 1, 7, 1, 4, 0, 10, 0, 0,
		0);
	/* id 1 with wire 1 (tag 5) */
	DAMAGED("wrong wire", false, "wrong type", 1, 1, 7, 1, 5, 0, 2, 0, 0,
		0);
	/* id 6 (from 2, a step of 4), a string (wire 2): tag 18 */
	DAMAGED("NUL", false, "with a NUL", 1, 1, 17, 1, 4, 0, 2, 0, 0, 4, 0,
		2, 0, 0, 18, 0, 2, 'a', 0, 0);
	DAMAGED("string past the end", false, "string runs past", 1, 1, 16, 1,
		4, 0, 2, 0, 0, 4, 0, 2, 0, 0, 18, 0, 40, 'a', 0);
	/* two entities, both of tid 1 and start 1 */
	DAMAGED("twice", false, "one key", 1, 1, 12, 2, 4, 0, 2, 0, 0, 4, 0, 2,
		0, 0, 0);
	/* id 6, then a step of 0 and the same wire (a column of id 6 again) */
	DAMAGED("same field again", false, "out of order", 1, 1, 20, 1, 4, 0,
		2, 0, 0, 4, 0, 2, 0, 0, 18, 0, 1, 'a', 2, 0, 1, 'b', 0);
	/* five steps of 2^62 - 1 after id 1 (each a tag, every entity, a block
	 * of 0): past 64 bits */
	DAMAGED("ids past 64 bits", false, "out of order", 1, 1, 77, 1, 4, 0,
		2, 0, 0, /* id 1 */
		0xfc, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01,
		0, 0, 0, 0,
		0xfc, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01,
		0, 0, 0, 0,
		0xfc, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01,
		0, 0, 0, 0,
		0xfc, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01,
		0, 0, 0, 0,
		0xfc, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01,
		0, 0, 0, 0,
		0);
	/* 100 entities in the 6 bytes after their count: more than 8 a byte */
	DAMAGED("count past its bytes", false, "more entities", 1, 1, 7, 100,
		4, 0, 2, 0, 0, 0);
	DAMAGED("table past the end", false, "table runs past", 1, 1, 50, 0);
	DAMAGED("runaway varint", false, "number runs past", 0xff, 0xff, 0xff,
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff);
	DAMAGED("after a table", false, "bytes after", 1, 1, 4, 0, 0, 7, 7);
	DAMAGED("same table twice", false, "given twice", 1, 1, 2, 0, 0, 1, 2,
		0, 0);
	DAMAGED("removed, not there", true, "not there", 2, 1, 3, 1, 5, 0);
	DAMAGED("changed, not there", true, "not there", 2, 1, 6, 0, 1, 1, 0,
		0, 0);
	DAMAGED("changed, removed", true, "not there", 2, 1, 7, 1, 0, 1, 0, 0,
		0, 0);
	DAMAGED("key changed", true, "key that changed", 2, 1, 8, 0, 1, 0, 4,
		0, 2, 0, 0);
	/* columns: a kind not 0 or 1, a presence past the end */
	DAMAGED("column kind", true, "wrong kind", 2, 1, 8, 0, 1, 0, 36, 2, 5,
		0, 0);
	DAMAGED("column past the end", true, "column runs past", 2, 1, 5, 0,
		1, 0, 36, 1);
	/* field 9 became unknown (wire 3), then a column of it of wire 2 */
	DAMAGED("columns out of order", true, "out of order", 2, 1, 8, 0, 1,
		0, 39, 0, 2, 0, 0);
	/* id 6 unknown (wire 3, tag 19) in a key frame */
	DAMAGED("unknown in a key frame", false, "wrong type", 1, 1, 14, 1, 4,
		0, 2, 0, 0, 4, 0, 2, 0, 0, 19, 0, 0);
	/* blocks (in a delta, as "column kind"): a head past 64 bits */
	DAMAGED("block of 65 bits", true, "wrong kind", 2, 1, 11, 0, 1, 0, 36,
		0, 0, 0, 130, 1, 0, 0);
	/* exceptions: with 64 bits, none, one past the block */
	DAMAGED("exceptions of 64 bits", true, "wrong kind", 2, 1, 14, 0, 1, 0,
		36, 0, 0, 0, 129, 1, 1, 0, 1, 0, 0);
	DAMAGED("no exceptions", true, "wrong kind", 2, 1, 11, 0, 1, 0, 36, 0,
		0, 0, 1, 0, 0, 0);
	DAMAGED("exception past the block", true, "wrong kind", 2, 1, 13, 0, 1,
		0, 36, 0, 0, 0, 1, 1, 1, 1, 0, 0);
	/* 8 bits (head 16) of one number, and no byte for it */
	DAMAGED("bits past the end", true, "column runs past", 2, 1, 8, 0, 1,
		0, 36, 0, 0, 0, 16);

	/* a delta out of sequence is skipped, the base dropped */
	static const unsigned char d3[] = { 3 }, d2[] = { 2 };
	CHECK_EQ_U(codec_dec_frame(d, FRAME_KEY, 1, base, sizeof(base), err,
				   sizeof(err)), 1);
	CHECK_EQ_U(codec_dec_frame(d, FRAME_DELTA, 2, d3, 1, err,
				   sizeof(err)), 0);
	CHECK_EQ_U(codec_dec_frame(d, FRAME_DELTA, 2, d2, 1, err,
				   sizeof(err)), 0);
	CHECK_EQ_U(codec_dec_skipped(d), 2);
	/* unknown field ids of every wire type and an unknown table pass */
	static const unsigned char newer[] = {
		1, 1, 28, 1, 4, 0, 2, 0, 0, 4, 0, 2, 0, 0,
		0x98, 0x01, 0, 0xfe, 0x03, 0, 0, /* id 2 + 38: 255 */
		5, 0, 2, 0, 0,                  /* id 41, wire 1: 1 */
		6, 0, 1, 'x',                   /* id 42, a string */
		0,
		77, 2, 0xde, 0xad,              /* table 77 */
	};
	CHECK_EQ_U(codec_dec_frame(d, FRAME_KEY, 1, newer, sizeof(newer), err,
				   sizeof(err)), 1);
	CHECK_EQ_U(codec_dec_sample(d)->tables[ST_TASKS].n, 1);
	codec_dec_free(d);
}

/* Every cut of a real key frame and delta: refused or decoded, never a
 * crash or a read past the cut (valgrind, ASan). */
static void test_cuts(void)
{
	struct codec_enc *e = codec_enc_new(&st_schema, 0, 0);
	struct codec_sample s0 = sample_of(&truths[0]);
	const unsigned char *p;
	unsigned char *key, *cut;
	size_t keylen, len;
	int type;
	char err[256];

	CHECK(codec_enc_sample(e, &s0, &p, &keylen, &type) == 0);
	key = malloc(keylen);
	memcpy(key, p, keylen);
	struct codec_sample s1 = sample_of(&truths[1]);
	CHECK(codec_enc_sample(e, &s1, &p, &len, &type) == 0);
	CHECK_EQ_U(type, FRAME_DELTA);
	for (size_t n = 0; n < keylen + len; n++) {
		bool delta = n >= keylen;
		size_t at = delta ? n - keylen : n;
		struct codec_dec *d = codec_dec_new(&st_schema);

		if (delta)
			CHECK_EQ_U(codec_dec_frame(d, FRAME_KEY, 0, key, keylen,
						   err, sizeof(err)), 1);
		/* exactly the bytes before the cut, in a buffer of their own */
		cut = malloc(at ? at : 1);
		memcpy(cut, delta ? p : key, at);
		int rc = codec_dec_frame(d, delta ? FRAME_DELTA : FRAME_KEY, 0,
					 cut, at, err, sizeof(err));
		if (rc != -1 && rc != 1)
			fprintf(stderr, "cut at %zu of the %s: %d\n", at,
				delta ? "delta" : "key frame", rc);
		CHECK(rc == -1 || rc == 1);
		free(cut);
		codec_dec_free(d);
	}
	free(key);
	codec_enc_free(e);
}

/*
 * A delta of format version 5 decodes, and those of the versions before
 * it, never released and no longer read, are damage, never taken for
 * another change: version 2 wrote a changed entity's fields after its
 * gap, 3 the changed entities' fields in columns of varints, 4 numeric
 * columns as blocks of byte planes, 5 as blocks of packed bits with
 * exceptions. The same change each time: counter 9 of task (1, 1),
 * unknown before, becomes 5.
 */
static void test_layouts(void)
{
	static const struct {
		unsigned version;
		unsigned char p[16];
		size_t len;
	} deltas[] = {
		{ 2, { 2, 1, 7, 0, 1, 0, 36, 5, 0, 0 }, 10 },
		{ 3, { 2, 1, 8, 0, 1, 0, 36, 0, 5, 0, 0 }, 11 },
		/* a block of one: base 0, shift 0, width 1, a plane of 5 */
		{ 4, { 2, 1, 11, 0, 1, 0, 36, 0, 0, 0, 1, 5, 0, 0 }, 14 },
		/* base 0, shift 0, 3 bits (head 6), no exceptions: 5 packed */
		{ 5, { 2, 1, 11, 0, 1, 0, 36, 0, 0, 0, 6, 5, 0, 0 }, 14 },
	};
	size_t nd = sizeof(deltas) / sizeof(deltas[0]);
	char err[256];

	CHECK_EQ_U(deltas[nd - 1].version, FRAME_VERSION);
	for (size_t w = 0; w < nd; w++) {
		struct codec_dec *d = codec_dec_new(&st_schema);

		CHECK_EQ_U(codec_dec_frame(d, FRAME_KEY, 1, base, sizeof(base),
					   err, sizeof(err)), 1);
		int rc = codec_dec_frame(d, FRAME_DELTA, 2, deltas[w].p,
					 deltas[w].len, err, sizeof(err));
		if (deltas[w].version != FRAME_VERSION) {
			CHECK_EQ_U(rc, -1);
			codec_dec_free(d);
			continue;
		}
		CHECK_EQ_U(rc, 1);
		const struct codec_rows *r =
			&codec_dec_sample(d)->tables[ST_TASKS];
		const struct st_task *t = r->rows;

		CHECK_EQ_U(r->n, 1);
		CHECK(codec_known(&st_tables[ST_TASKS], t, ST_CNT_ID));
		CHECK_EQ_U(t->cnt[0], 5);
		codec_dec_free(d);
	}
}

/*
 * A key frame of t and the delta after it, with change() made to t in
 * between, decoded and checked: the delta's length.
 */
static size_t delta_of(struct truth *t, void (*change)(struct truth *, int),
		       int arg)
{
	struct codec_enc *e = codec_enc_new(&st_schema, 0, 0);
	struct codec_dec *d = codec_dec_new(&st_schema);
	struct codec_sample s = sample_of(t);
	const unsigned char *p;
	size_t len = 0;
	int type;
	char err[256];

	CHECK(codec_enc_sample(e, &s, &p, &len, &type) == 0);
	CHECK_EQ_U(codec_dec_frame(d, type, t->time, p, len, err, sizeof(err)), 1);
	change(t, arg);
	CHECK(codec_enc_sample(e, &s, &p, &len, &type) == 0);
	CHECK_EQ_U(type, FRAME_DELTA);
	CHECK_EQ_U(codec_dec_frame(d, type, t->time, p, len, err, sizeof(err)), 1);
	CHECK(same_sample(codec_dec_sample(d), t, 0));
	codec_enc_free(e);
	codec_dec_free(d);
	return len;
}

/* Every task's first counter up by step times 1 to 5. */
static void steps(struct truth *t, int step)
{
	for (size_t k = 0; k < t->ntasks; k++)
		t->tasks[k].cnt[0] += (uint64_t)step * (k % 5 + 1);
}

/* Differences of both signs and of all 64 bits, a signed field's ends. */
static void extremes(struct truth *t, int unused)
{
	(void)unused;
	for (size_t k = 0; k < t->ntasks; k++) {
		struct st_task *x = &t->tasks[k];

		x->cnt[1] += k % 2 ? UINT64_MAX - k : k;
		x->cnt[2] -= k;
		x->nice = k % 3 == 0 ? INT64_MIN : k % 3 == 1 ? INT64_MAX : -1;
	}
	t->system.avg10[0] = -0.0;
	t->system.avg10[1] = NAN;
	t->system.clock = -t->system.clock;
}

/* steps() of 1, and task k % 16 == 3's first counter up by 2^40 more. */
static void outliers(struct truth *t, int unused)
{
	(void)unused;
	steps(t, 1);
	for (size_t k = 3; k < t->ntasks; k += 16)
		t->tasks[k].cnt[0] += UINT64_C(1) << 40;
}

/*
 * Numeric columns as blocks (format version 5): differences of either
 * sign and of all 64 bits come back as they were. Sizes, of a delta
 * where each of n tasks' first counter changed: besides a byte for each
 * task's gap and 16 for the rest, differences of 1 to 5 take 3 bits
 * each (version 4 took a byte); in steps of 4096 (an IO byte count's
 * pages) no more, but the one byte that the base's 4096 takes more than
 * its 1 (the shift); and a few differences of 2^40 among them cost their
 * own bytes, 8 each at most (an index and the high bits), not the
 * others' (version 4 gave every difference their six bytes).
 */
static void test_blocks(void)
{
	static struct truth t;
	size_t len[3];

	for (int i = 0; i < 3; i++) {
		t = truths[0];
		for (size_t k = 0; k < t.ntasks; k++)
			set_known(&st_tables[ST_TASKS], &t.tasks[k], true);
		len[i] = i == 2 ? delta_of(&t, outliers, 0) :
			 delta_of(&t, steps, i ? 4096 : 1);
	}
	size_t n = t.ntasks, nout = (n + 12) / 16;

	if (len[0] > 16 + n + (3 * n + 7) / 8 || len[1] > len[0] + 1 ||
	    len[2] > len[0] + 8 * nout)
		fprintf(stderr, "%zu tasks, steps of 1: %zu bytes, of 4096: "
			"%zu, %zu outliers: %zu\n", n, len[0], len[1], nout,
			len[2]);
	CHECK(len[0] <= 16 + n + (3 * n + 7) / 8);
	CHECK(len[1] <= len[0] + 1);
	CHECK(len[2] <= len[0] + 8 * nout);
	CHECK(n >= 50);
	t = truths[0];
	for (size_t k = 0; k < t.ntasks; k++)
		set_known(&st_tables[ST_TASKS], &t.tasks[k], true);
	set_known(&st_tables[ST_SYSTEM], &t.system, true);
	delta_of(&t, extremes, 0);
}

/* Only what changed: nothing costs the sequence number alone, a wrapped
 * counter its difference; bad input to the encoder is refused. */
static void test_encoder(void)
{
	struct codec_enc *e = codec_enc_new(&st_schema, 0, 0);
	struct codec_dec *d = codec_dec_new(&st_schema);
	static struct truth t;
	struct codec_sample s;
	const unsigned char *p;
	size_t len;
	int type;
	char err[256];

	t = truths[0];
	s = sample_of(&t);
	CHECK(codec_enc_sample(e, &s, &p, &len, &type) == 0);
	CHECK_EQ_U(type, FRAME_KEY);
	CHECK_EQ_U(codec_dec_frame(d, type, t.time, p, len, err, sizeof(err)), 1);
	CHECK(codec_enc_sample(e, &s, &p, &len, &type) == 0);
	CHECK_EQ_U(type, FRAME_DELTA);
	CHECK_EQ_U(len, 1);
	CHECK_EQ_U(codec_dec_frame(d, type, t.time, p, len, err, sizeof(err)), 1);
	/* a counter wraps: its difference is 6, one byte */
	t.tasks[7].cnt[3] = UINT64_MAX - 2;
	codec_set_known(&st_tables[ST_TASKS], &t.tasks[7], ST_CNT_ID + 3, true);
	CHECK(codec_enc_sample(e, &s, &p, &len, &type) == 0);
	CHECK_EQ_U(codec_dec_frame(d, type, t.time, p, len, err, sizeof(err)), 1);
	t.tasks[7].cnt[3] += 6;
	CHECK(codec_enc_sample(e, &s, &p, &len, &type) == 0);
	/* seq, table id, length, 0 removed, 1 changed, its gap, the
	 * column's tag, all of the changed in it, its block (the difference
	 * as the base, shift 0, width 0: no planes), the end of the
	 * columns, 0 added: thirteen bytes, one per item */
	CHECK_EQ_U(len, 13);
	CHECK_EQ_U(codec_dec_frame(d, type, t.time, p, len, err, sizeof(err)), 1);
	CHECK(same_sample(codec_dec_sample(d), &t, 0));
	/* refused: a key twice, a key unknown, two systems */
	t.tasks[1] = t.tasks[0];
	CHECK(codec_enc_sample(e, &s, &p, &len, &type) < 0 && errno == EINVAL);
	t = truths[0];
	codec_set_known(&st_tables[ST_TASKS], &t.tasks[2], 2, false);
	CHECK(codec_enc_sample(e, &s, &p, &len, &type) < 0 && errno == EINVAL);
	t = truths[0];
	rows_of[ST_SYSTEM].n = 2;
	CHECK(codec_enc_sample(e, &s, &p, &len, &type) < 0 && errno == EINVAL);
	/* and after them the encoder goes on from the last good sample */
	t = truths[1];
	s = sample_of(&t);
	CHECK(codec_enc_sample(e, &s, &p, &len, &type) == 0);
	CHECK_EQ_U(type, FRAME_DELTA);
	CHECK_EQ_U(codec_dec_frame(d, type, t.time, p, len, err, sizeof(err)), 1);
	CHECK(same_sample(codec_dec_sample(d), &t, 1));
	codec_enc_free(e);
	codec_dec_free(d);
}

/* A key frame every key_seconds too. */
static void test_key_seconds(void)
{
	struct codec_enc *e = codec_enc_new(&st_schema, 0, 60);
	const unsigned char *p;
	size_t len;
	int type, keys = 0;

	for (size_t i = 0; i < 30; i++) {
		struct codec_sample s = sample_of(&truths[i]);
		CHECK(codec_enc_sample(e, &s, &p, &len, &type) == 0);
		/* samples are 10 s apart: 0, 60, 120 ... are key frames */
		CHECK_EQ_U(type, i % 6 == 0 ? FRAME_KEY : FRAME_DELTA);
		keys += type == FRAME_KEY;
	}
	codec_enc_restart(e);
	struct codec_sample s = sample_of(&truths[30]);
	CHECK(codec_enc_sample(e, &s, &p, &len, &type) == 0);
	CHECK_EQ_U(type, FRAME_KEY);
	CHECK_EQ_U(keys, 5);
	codec_enc_free(e);
}

/*
 * Strings: a command line of 3 MiB round-trips whole; a sample whose
 * strings pass CODEC_STRINGS_MAX is refused by the encoder (EFBIG) and
 * taken as damage by the decoder (a payload built by hand: two tasks of
 * 9 MiB strings), so a file cannot make a reader hold more.
 */
static void test_strings_bound(void)
{
	struct codec_enc *e = codec_enc_new(&st_schema, 0, 0);
	struct codec_dec *d = codec_dec_new(&st_schema);
	static struct truth t;
	const size_t big = 9u << 20, at = 3u << 20;
	char *long_cmd = malloc(big + 1), err[256];
	unsigned char *p2 = malloc(2 * big + 64);
	const unsigned char *p;
	size_t len, n = 0;
	int type;

	if (!long_cmd || !p2)
		exit(99);
	memset(long_cmd, 'x', big);
	long_cmd[at] = '\0';
	t = truths[0];
	struct codec_sample s = sample_of(&t);
	t.tasks[3].cmdline = long_cmd;
	codec_set_known(&st_tables[ST_TASKS], &t.tasks[3], 7, true);
	CHECK(codec_enc_sample(e, &s, &p, &len, &type) == 0);
	CHECK(len > at);
	CHECK_EQ_U(codec_dec_frame(d, type, t.time, p, len, err, sizeof(err)), 1);
	CHECK(same_sample(codec_dec_sample(d), &t, 0));
	long_cmd[at] = 'x';
	long_cmd[big] = '\0';
	t.tasks[4].cmdline = long_cmd;
	codec_set_known(&st_tables[ST_TASKS], &t.tasks[4], 7, true);
	errno = 0;
	CHECK(codec_enc_sample(e, &s, &p, &len, &type) < 0);
	CHECK_EQ_U(errno, EFBIG);

	/*
	 * seq 1, table 1 (its length: 4 bytes for 18 MiB and more), two
	 * tasks: the columns of tid (1 and 2: base 1, one bit each), start
	 * (1 for both) and a 9 MiB cmdline each (id 7, wire 2), the end
	 */
	unsigned char v[VARINT_MAX];
	size_t vlen = varint_put(v, big);
	size_t body = 1 + 6 + 5 + 2 + 2 * (vlen + big) + 1;
	static const unsigned char keys[] = {
		2,                              /* two tasks */
		1 << 2, 0, 2, 0, 1 << 1, 0x02,  /* id 1: 1 + 0, 1 + 1 */
		1 << 2, 0, 2, 0, 0,             /* id 2: 1, 1 */
		5 << 2 | 2, 0,                  /* id 7, strings, of both */
	};

	p2[n++] = 1;
	p2[n++] = 1;
	n += varint_put(p2 + n, body);
	memcpy(p2 + n, keys, sizeof(keys));
	n += sizeof(keys);
	for (unsigned k = 1; k <= 2; k++) {
		memcpy(p2 + n, v, vlen);
		n += vlen;
		memset(p2 + n, 'y', big);
		n += big;
	}
	p2[n++] = 0;
	CHECK_EQ_U(codec_dec_frame(d, FRAME_KEY, 1, p2, n, err, sizeof(err)),
		   (uint64_t)-1);
	if (!strstr(err, "more strings"))
		fprintf(stderr, "two 9 MiB strings: \"%s\"\n", err);
	CHECK(strstr(err, "more strings") != NULL);
	free(p2);
	free(long_cmd);
	codec_enc_free(e);
	codec_dec_free(d);
}

int main(void)
{
	char err[256];

	storetest_seed(88172645463325252ull);
	CHECK(codec_schema_check(&st_schema, err, sizeof(err)) == 0);
	truths = calloc(NSAMPLES, sizeof(*truths));
	if (!truths)
		return 99;
	make_truths();
	make_schema2();
	test_round_trip(false, 0);
	test_round_trip(true, 60);
	test_round_trip(true, 7);
	test_lost();
	test_damaged_key_record();
	test_versions();
	test_damaged_payloads();
	test_layouts();
	test_blocks();
	test_cuts();
	test_encoder();
	test_key_seconds();
	test_strings_bound();
	free(truths);
	storetest_strings_free();
	return unit_done();
}
