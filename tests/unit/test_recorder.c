/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The recorder (record/record.h) and what it does with the file it is
 * given: a new file starts with a session record and a key frame, mode
 * 0600 (0640 in a set-group-ID directory); recording again appends a
 * session of its own, after a torn end left where it is, and both
 * sessions read back whole; a recording of format 1 (NDJSON, plain or
 * compressed), one of formats 2 to 4 (never released: no longer read),
 * a file that is not a recording and a name ending in .gz
 * are refused with a message naming the file, the file untouched; a file
 * removed while written, a full disk and a directory are said; a sample
 * the format cannot hold (two tasks of one key) is left out (1, EINVAL),
 * the file as it was, and the samples after it are written and read
 * back.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "record/record.h"
#include "record/storefile.h"
#include "store/frame.h"
#include "unit.h"

static char dir[] = "/tmp/stalltop-recorder-XXXXXX";
static char err[1024];
static struct store_task task = { .r = { .id = 7, .tgid = 7, .start = 3 },
				   .comm = "worker", .cmdline = "worker -x",
				   .user = "root" };

static const char *tmp_path(const char *name)
{
	static char buf[4][600];
	static int i;

	i = (i + 1) % 4;
	snprintf(buf[i], sizeof(buf[i]), "%s/%s", dir, name);
	return buf[i];
}

static struct store_sample sample(unsigned n)
{
	task.r.run_ns = n * 1000000ull;
	task.r.d[0].total_ns = n * 5000ull;
	return (struct store_sample){ .time = 1.7e9 + n, .mono = 100.0 + n,
				      .real = 1.7e9 + n, .tasks = &task,
				      .ntasks = 1 };
}

static long long file_size(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 ? (long long)st.st_size : -1;
}

/*
 * Read p: the samples' numbers into got, the number of sessions met
 * into *sessions, the torn bytes skipped into *torn; how many samples.
 */
static size_t read_back(const char *p, unsigned got[16], unsigned *sessions,
			uint64_t *torn)
{
	int fd = open(p, O_RDONLY | O_CLOEXEC);
	struct storefile_reader *r = fd < 0 ? NULL : storefile_reader_new(fd);
	uint64_t last = UINT64_MAX;
	struct store_sample s;
	char why[512];
	size_t n = 0;
	int st = -1;

	*sessions = 0;
	CHECK(r != NULL);
	while (r && (st = storefile_next(r, &s, why, sizeof(why))) == 1) {
		const struct storefile_session *ss = storefile_session(r);

		CHECK(ss != NULL);
		if (ss && ss->offset != last) {
			(*sessions)++;
			last = ss->offset;
			CHECK(ss->program && !strcmp(ss->program,
						     PACKAGE_NAME " " PACKAGE_VERSION));
			CHECK(ss->hz > 0 && ss->ncpu > 0 && ss->kernel);
			CHECK(ss->started > 1.7e9);
		}
		CHECK_EQ_U(s.ntasks, 1);
		if (n < 16)
			got[n] = (unsigned)(s.time - 1.7e9 + 0.5);
		if (s.ntasks == 1)
			CHECK_EQ_U(s.tasks[0].r.run_ns, (uint64_t)got[n] * 1000000);
		n++;
	}
	CHECK(st == 0);
	*torn = r ? storefile_damage(r).bytes : 0;
	storefile_reader_free(r);
	if (fd >= 0)
		close(fd);
	return n;
}

static void write_n(struct recorder *rec, unsigned from, unsigned to)
{
	for (unsigned n = from; n <= to; n++) {
		struct store_sample s = sample(n);

		CHECK(rec && record_write(rec, &s) == 0);
	}
}

/* A new file, a second session, a torn end. */
static void sessions(void)
{
	const char *p = tmp_path("rec.stk");
	unsigned got[16], ns;
	uint64_t torn;
	struct recorder *rec = record_open(p, true, err, sizeof(err));

	CHECK(rec != NULL);
	write_n(rec, 1, 3);
	CHECK(rec && record_size(rec) == (uint64_t)file_size(p));
	CHECK(record_close(rec) == 0);
	CHECK_EQ_U(read_back(p, got, &ns, &torn), 3);
	CHECK_EQ_U(ns, 1);
	CHECK_EQ_U(torn, 0);

	/* a crash tore the last record: 7 bytes of it are gone */
	CHECK(truncate(p, file_size(p) - 7) == 0);
	CHECK_EQ_U(read_back(p, got, &ns, &torn), 2);
	CHECK(torn > 0);
	uint64_t before = (uint64_t)file_size(p);
	rec = record_open(p, true, err, sizeof(err));
	CHECK(rec != NULL);
	/* the torn end stays where it is: appended after */
	CHECK(rec && record_size(rec) > before);
	write_n(rec, 4, 6);
	CHECK(record_close(rec) == 0);
	size_t n = read_back(p, got, &ns, &torn);
	CHECK_EQ_U(n, 5);
	CHECK_EQ_U(ns, 2);
	if (n == 5)
		CHECK(got[0] == 1 && got[1] == 2 && got[2] == 4 && got[4] == 6);
	/* what the reader skipped: the torn record, no more */
	CHECK(torn > 0 && torn < 200);
}

/* A copy of text into p. */
static void put_file(const char *p, const void *text, size_t len)
{
	FILE *f = fopen(p, "wb");

	CHECK(f && fwrite(text, 1, len, f) == len);
	if (f)
		fclose(f);
}

/* Recording to p is refused with a message that says want; p untouched. */
static void refused(const char *p, const char *want)
{
	long long before = file_size(p);

	CHECK(record_open(p, true, err, sizeof(err)) == NULL);
	if (!strstr(err, want) || !strstr(err, p)) {
		fprintf(stderr, "%s: \"%s\", expected \"%s\" and the name\n", p,
			err, want);
		CHECK(!"the message says why, naming the file");
	}
	CHECK(file_size(p) == before);
}

static void refusals(void)
{
	static const char ndjson[] =
		"{\"stalltop_recording\":1,\"program\":\"stalltop 0.1.0\"}\n"
		"{\"time\":1.5,\"tasks\":[]}\n";
	static const unsigned char gz[] = { 0x1f, 0x8b, 8, 0, 0, 0, 0, 0 };
	const char *p = tmp_path("old.ndjson");

	put_file(p, ndjson, sizeof(ndjson) - 1);
	refused(p, "older text format (NDJSON)");
	refused(p, "record to a new file");
	p = tmp_path("old.ndjson.gz");
	put_file(p, gz, sizeof(gz));
	refused(p, "older text format (NDJSON)");
	p = tmp_path("notes.txt");
	put_file(p, "hello\n", 6);
	refused(p, "not a stalltop recording");
	/* a recording of format version 2 to 4 (never released): neither
	   read nor appended to */
	for (unsigned v = 2; v < FRAME_VERSION; v++) {
		unsigned char h[FRAME_HEADER_SIZE + 6 + FRAME_TRAILER_SIZE] = {
			0xf5, 'S', 'T', 'K', FRAME_HEADER, 0, 0, 0, 6 };
		char says[64];

		memcpy(h + FRAME_HEADER_SIZE, (unsigned char[]){ v, 0 }, 2);
		memcpy(h + FRAME_HEADER_SIZE + 2, "next", 4);
		uint32_t crc = (uint32_t)crc32(0, h, FRAME_HEADER_SIZE + 6);
		for (int i = 0; i < 4; i++)
			h[FRAME_HEADER_SIZE + 6 + i] = (unsigned char)(crc >> (8 * i));
		p = tmp_path("old.stk");
		put_file(p, h, sizeof(h));
		snprintf(says, sizeof(says), "format version %u, of a "
			 "development build", v);
		refused(p, says);
		refused(p, "reads version 5: record it again");
	}
	/* a new name ending in .gz: the records are compressed already */
	p = tmp_path("new.stk.gz");
	CHECK(record_open(p, true, err, sizeof(err)) == NULL);
	CHECK(strstr(err, "without .gz") && strstr(err, RECORD_SUFFIX));
	CHECK(file_size(p) < 0);
}

static void modes_and_faults(void)
{
	struct stat st;
	struct recorder *rec;
	mode_t old = umask(0);
	const char *p = tmp_path("mode.stk");

	/* 0600: it holds what /proc shows only to each task's owner */
	rec = record_open(p, true, err, sizeof(err));
	CHECK(record_close(rec) == 0);
	CHECK(stat(p, &st) == 0 && (st.st_mode & 0777) == 0600);
	const char *sg = tmp_path("setgid");
	CHECK(mkdir(sg, 02750) == 0 && chmod(sg, 02750) == 0);
	char sgp[700];
	snprintf(sgp, sizeof(sgp), "%s/rec.stk", sg);
	rec = record_create(sgp, true, err, sizeof(err));
	CHECK(rec != NULL);
	CHECK(stat(sgp, &st) == 0 && (st.st_mode & 0777) == 0640);
	umask(old);
	/* record_create: never one that is there */
	CHECK(record_create(sgp, true, err, sizeof(err)) == NULL &&
	      errno == EEXIST);

	/* removed while written: the write after says so (ENOENT) */
	write_n(rec, 1, 1);
	CHECK(unlink(sgp) == 0);
	struct store_sample s = sample(2);
	errno = 0;
	CHECK(rec && record_write(rec, &s) < 0 && errno == ENOENT);
	CHECK(record_close(rec) == 0);
	CHECK(rmdir(sg) == 0);

	/* a full disk: said when the session cannot be written */
	CHECK(record_open("/dev/full", true, err, sizeof(err)) == NULL);
	CHECK(strstr(err, "cannot write to /dev/full") != NULL);
	/* a directory cannot be recorded to */
	CHECK(record_open(dir, true, err, sizeof(err)) == NULL);
	CHECK(strstr(err, "cannot open") != NULL);
}

/* A sample that cannot be made into a record: left out, the rest kept. */
static void left_out(void)
{
	const char *p = tmp_path("left.stk");
	struct recorder *rec = record_open(p, true, err, sizeof(err));
	struct store_task two[2] = { task, task };
	struct store_sample s = sample(2);
	unsigned got[16], ns;
	uint64_t torn;

	CHECK(rec != NULL);
	write_n(rec, 1, 1);
	long long size = file_size(p);

	s.tasks = two;
	s.ntasks = 2;
	errno = 0;
	CHECK(rec && record_write(rec, &s) == 1 && errno == EINVAL);
	CHECK(file_size(p) == size);
	write_n(rec, 3, 4);
	CHECK(record_close(rec) == 0);
	CHECK_EQ_U(read_back(p, got, &ns, &torn), 3);
	CHECK(got[0] == 1 && got[1] == 3 && got[2] == 4);
	CHECK_EQ_U(torn, 0);
}

int main(void)
{
	char cmd[256];

	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 99;
	}
	sessions();
	refusals();
	modes_and_faults();
	left_out();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	CHECK(system(cmd) == 0);
	return unit_done();
}
