/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Rotating recordings, with hand-built store samples whose times are
 * chosen (a "day" of 10 s, as STALLTOP_ROTATE_SECONDS makes it): a file
 * per period, named after the period's start; the sample at a boundary
 * opens the next file, none lost or written twice; each file complete
 * and readable on its own (its session record, a key frame first);
 * retention removing the files of old periods, those of format 1 of the
 * same naming too, and nothing else; the size limit starting numbered
 * files of the same period; a restart never appending; every sample of
 * the directory once; a file cut short keeping what it
 * held before its torn end.
 */
#include <config.h>

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <fcntl.h>

#include "record/rotate.h"
#include "record/storefile.h"
#include "../lib/storetest.h"
#include "unit.h"

#define PERIOD 10

static char dir[] = "/tmp/stalltop-rotate-XXXXXX";
static char err[1024];
static struct store_task task = { .r = { .id = 1, .tgid = 1, .start = 5 },
				   .comm = "init", .cmdline = "", .user = "" };
/* the wall clock minus the boot clock, as a sample would have it */
static double offset;

static double clock_s(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* A sample at wall clock t and boot clock boot. */
static struct store_sample at_boot(double t, double boot)
{
	return (struct store_sample){ .time = t, .boot = boot, .mono = boot,
				      .real = t, .tasks = &task, .ntasks = 1 };
}

/* A sample at wall clock t, the clocks agreeing (no jump). */
static struct store_sample at(double t)
{
	return at_boot(t, t - offset);
}

/* The name a period starting at t gets in directory d, number seq. */
static void name_in(const char *d, time_t t, unsigned seq, char *buf,
		    size_t size)
{
	char stamp[64], num[16] = "";
	struct tm tm;

	localtime_r(&t, &tm);
	strftime(stamp, sizeof(stamp), "%Y-%m-%d-%H%M%S", &tm);
	if (seq)
		snprintf(num, sizeof(num), ".%u", seq);
	snprintf(buf, size, "%s/stalltop-%s%s.stk", d, stamp, num);
}

static void name_of(time_t t, unsigned seq, char *buf, size_t size)
{
	name_in(dir, t, seq, buf, size);
}

static bool exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

/* The files of dir that are ours (stalltop-*), counted. */
/*
 * A number that looks random for (k, i): a counter's step that neither
 * deflate nor the store's blocks can shorten much (a sequence in steps
 * of a constant, they do).
 */
static uint64_t noise(unsigned k, unsigned i)
{
	uint64_t x = (k + 1) * UINT64_C(0x9E3779B97F4A7C15) ^
		     (i + 1) * UINT64_C(0xC2B2AE3D27D4EB4F);

	x ^= x >> 29;
	x *= UINT64_C(0xBF58476D1CE4E5B9);
	return x ^ x >> 32;
}

/*
 * The sample times a file holds into got (at most max), read on its
 * own: how many; its damage into *d. A file starts with its session.
 */
static size_t read_times(const char *path, double *got, size_t max,
			 struct storefile_damage *d)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct storefile_reader *rd = fd < 0 ? NULL : storefile_reader_new(fd);
	struct store_sample s;
	size_t n = 0;
	int st = -1;

	CHECK(rd != NULL);
	while (rd && (st = storefile_next(rd, &s, err, sizeof(err))) == 1) {
		const struct storefile_session *ss = storefile_session(rd);

		CHECK(ss && ss->threads && ss->program &&
		      strncmp(ss->program, "stalltop ", 9) == 0);
		CHECK(s.ntasks == 1 || s.ntasks == 200);
		if (n < max)
			got[n] = s.time;
		n++;
	}
	if (st < 0)
		fprintf(stderr, "  %s: %s\n", path, err);
	CHECK(st == 0);
	if (rd)
		*d = storefile_damage(rd);
	storefile_reader_free(rd);
	if (fd >= 0)
		close(fd);
	return n;
}

/* A file reads on its own, cleanly, with these sample times. */
static void replays(const char *path, const double *times, size_t n)
{
	double got[64];
	struct storefile_damage d = { 0 };
	size_t k = read_times(path, got, 64, &d);

	CHECK_EQ_U(k, n);
	CHECK(d.bytes == 0 && d.records == 0 && d.deltas == 0);
	for (size_t i = 0; i < n && i < k; i++)
		CHECK_NEAR(got[i], times[i], 1e-3);
}

static int by_time(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Every sample of the files of d into got: how many. */
static size_t dir_times(const char *d, double *got, size_t max)
{
	char *names[64], path[4096];
	size_t nn = 0, n = 0;
	struct dirent *e;
	DIR *dd = opendir(d);

	while (dd && (e = readdir(dd)) && nn < 64)
		if (strncmp(e->d_name, "stalltop-", 9) == 0 &&
		    strstr(e->d_name, ".stk"))
			names[nn++] = strdup(e->d_name);
	if (dd)
		closedir(dd);
	for (size_t i = 0; i < nn; i++) {
		struct storefile_damage dmg;

		snprintf(path, sizeof(path), "%s/%s", d, names[i]);
		n += read_times(path, got + n, max - n, &dmg);
		free(names[i]);
	}
	return n;
}

/* Write s, which must go in; the note it left (or NULL) in *note. */
static void put(struct rotator *r, struct store_sample s, char *note,
		size_t size)
{
	const char *w;

	CHECK(rotate_write(r, &s, err, sizeof(err)) == 0);
	w = rotate_warning(r);
	snprintf(note, size, "%s", w ? w : "");
}

/* A rotator over a new directory d (a template, filled in). */
static struct rotator *start(char *d, unsigned keep)
{
	struct rotate_opts o = { .max_size = 0, .keep = keep, .period = PERIOD,
				 .threads = true };
	struct rotator *r;

	if (!mkdtemp(d)) {
		perror("mkdtemp");
		exit(99);
	}
	r = rotate_open(d, &o, err, sizeof(err));
	CHECK(r != NULL);
	if (!r) {
		fprintf(stderr, "rotate_open %s: %s\n", d, err);
		exit(unit_done());
	}
	return r;
}

static void remove_dir(const char *d)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", d);
	CHECK(system(cmd) == 0);
}

/*
 * The wall clock jumps 10 days ahead for one sample, then comes back:
 * six periods of files (keep 7) are all left, the jump and the return
 * are noted, the sample of the jump goes into a file of its own, the
 * return into a new file of the period. Then the files are aged by the
 * time that really passes: they go when the boot clock says they are 7
 * periods old, and the file of the jump, named 10 days ahead, stays.
 */
static void jump_forward(void)
{
	char d[] = "/tmp/stalltop-rotate-jump-XXXXXX", path[4096], note[1024];
	double now = clock_s(CLOCK_REALTIME);
	time_t base = (time_t)now - (time_t)now % PERIOD;
	/* six periods of recordings: base (opened at start), five before */
	struct rotator *r = start(d, 0);
	double t, ahead = 10 * 86400.0;

	for (t = base - 5 * PERIOD; t < base; t += 2.5)
		put(r, at(t), note, sizeof(note));
	rotate_close(r);
	CHECK_EQ_U(storetest_count_files(d), 6);

	{
		struct rotate_opts o = { .keep = 7, .period = PERIOD,
					 .threads = true };

		r = rotate_open(d, &o, err, sizeof(err));
		CHECK(r != NULL);
		if (!r)
			return;
	}
	t = base + 1;
	put(r, at(t), note, sizeof(note));
	CHECK_STR(note, "");
	/* a step of 1 s (a leap second) is not a jump */
	put(r, at_boot(t + 3.0, t + 2.0 - offset), note, sizeof(note));
	CHECK_STR(note, "");
	t += 1.0;    /* the offset is now 1 s larger */
	/* 10 days ahead, 2.5 s later by the boot clock */
	put(r, at_boot(t + 2.5 + ahead, t + 2.5 - offset), note, sizeof(note));
	CHECK(strstr(note, "jumped forward by 10.0 days") != NULL);
	name_in(d, (time_t)(base + ahead), 0, path, sizeof(path));
	CHECK(exists(path));
	/* back, 2.5 s later */
	t += 5;
	put(r, at_boot(t, t - 1.0 - offset), note, sizeof(note));
	CHECK(strstr(note, "jumped back by 10.0 days") != NULL);
	CHECK_EQ_U(storetest_count_files(d), 9); /* six, base.1 (the start), the jump's,
				      base.2 (the return) */
	for (int i = 0; i <= 5; i++) {
		name_in(d, base - i * PERIOD, 0, path, sizeof(path));
		CHECK(exists(path));
	}
	name_in(d, base, 2, path, sizeof(path));
	CHECK(rotate_path(r) && strcmp(rotate_path(r), path) == 0);

	/*
	 * Then time passes, the clocks agreeing: period base - 50 ends at
	 * base - 40, 7 periods (70 s) before base + 30, so it goes when
	 * period base + 30 begins, and not before.
	 */
	name_in(d, base - 5 * PERIOD, 0, path, sizeof(path));
	for (t += 2.5; t < base + 3 * PERIOD; t += 2.5)
		put(r, at_boot(t, t - 1.0 - offset), note, sizeof(note));
	CHECK(exists(path));
	/* (the leap second left the wall clock 1 s ahead of the boot clock) */
	put(r, at_boot(base + 3 * PERIOD + 1, base + 3 * PERIOD - offset),
	    note, sizeof(note));
	CHECK(!exists(path));
	name_in(d, base - 4 * PERIOD, 0, path, sizeof(path));
	CHECK(exists(path));
	/* the file of the jump is 10 days ahead of the retention clock */
	name_in(d, (time_t)(base + ahead), 0, path, sizeof(path));
	CHECK(exists(path));
	CHECK(rotate_close(r) == 0);
	remove_dir(d);
}

/*
 * The wall clock was 1000 s behind and is set right (a jump forward that
 * stays). The file written before is aged by the time that really passed,
 * not by the new clock; the offsets of before are forgotten once keep + 1
 * periods passed (the window), and the files written since are then aged
 * by the new clock, not 1000 s late.
 */
static void jump_stays(void)
{
	char d[] = "/tmp/stalltop-rotate-stay-XXXXXX", before[4096],
	     after[4096], note[1024];
	struct rotator *r = start(d, 2);
	double now = clock_s(CLOCK_REALTIME);
	time_t base = (time_t)now - (time_t)now % PERIOD;
	double t, boot, fix = 1000;

	/* period base: a file opened at start, its last sample at base + 8.5 */
	for (t = base + 1; t < base + PERIOD; t += 2.5)
		put(r, at(t), note, sizeof(note));
	boot = t - offset;
	t += fix;
	put(r, at_boot(t, boot), note, sizeof(note));
	CHECK(strstr(note, "jumped forward by 1000.0 s") != NULL);
	name_in(d, base, 0, before, sizeof(before));
	name_in(d, base + fix + PERIOD, 0, after, sizeof(after));
	CHECK(exists(after));
	/*
	 * By the new clock the file of period base is 100 periods old; it
	 * stays until the boot clock says it ended 2 periods ago (at the
	 * first period that begins at least 20 s after base + 10)...
	 */
	for (t += 2.5, boot += 2.5; t < base + fix + 3 * PERIOD;
	     t += 2.5, boot += 2.5)
		put(r, at_boot(t, boot), note, sizeof(note));
	CHECK(exists(before));
	put(r, at_boot(t, boot), note, sizeof(note));
	CHECK(!exists(before));
	/*
	 * ...and the file of period base + 1010 goes as the new clock says,
	 * when period base + 1040 begins: the offset of before was last seen
	 * at base + 8.5 and is forgotten 30 s later. (Trusting the smallest
	 * offset for ever would keep it until base + 2040.)
	 */
	for (t += 2.5, boot += 2.5; t < base + fix + 4 * PERIOD;
	     t += 2.5, boot += 2.5)
		put(r, at_boot(t, boot), note, sizeof(note));
	CHECK(exists(after));
	put(r, at_boot(t, boot), note, sizeof(note));
	CHECK(!exists(after));
	CHECK_STR(note, "");
	CHECK(rotate_close(r) == 0);
	remove_dir(d);
}

/*
 * The wall clock jumps back 1000 s: noted; the retention clock follows
 * it back, so the files written before, now dated ahead, are kept.
 */
static void jump_back(void)
{
	char d[] = "/tmp/stalltop-rotate-back-XXXXXX", path[4096], note[1024];
	struct rotator *r = start(d, 2);
	double now = clock_s(CLOCK_REALTIME);
	time_t base = (time_t)now - (time_t)now % PERIOD;
	double t, boot;

	for (t = base + 1; t < base + 3 * PERIOD; t += 2.5)
		put(r, at(t), note, sizeof(note));
	boot = t - offset;
	t -= 1000;
	put(r, at_boot(t, boot), note, sizeof(note));
	CHECK(strstr(note, "jumped back by 1000.0 s") != NULL);
	for (int i = 0; i < 40; i++) {
		t += 2.5;
		boot += 2.5;
		put(r, at_boot(t, boot), note, sizeof(note));
	}
	for (int i = 0; i < 3; i++) {
		name_in(d, base + i * PERIOD, 0, path, sizeof(path));
		CHECK(exists(path));
	}
	/* the first file after the jump is 2 periods old by now: gone */
	name_in(d, base - 1000, 0, path, sizeof(path));
	CHECK(!exists(path));
	CHECK(rotate_close(r) == 0);
	remove_dir(d);
}

int main(void)
{
	struct rotate_opts o = { .max_size = 0, .keep = 2, .period = PERIOD,
				 .threads = true };
	struct rotator *r = NULL;
	char path[4096], other[4096], old[4000], oldseq[4000], oldother[4096];
	time_t base;
	double times[64];
	size_t nt = 0;

	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 99;
	}
	offset = clock_s(CLOCK_REALTIME) - clock_s(CLOCK_BOOTTIME);
	/* the file for now is opened at once: base is now's period */
	for (int tries = 0; tries < 5 && !r; tries++) {
		time_t before = time(NULL);

		r = rotate_open(dir, &o, err, sizeof(err));
		base = before - before % PERIOD;
		if (r && time(NULL) - time(NULL) % PERIOD != base) {
			rotate_close(r); /* a boundary passed: again */
			r = NULL;
			system("rm -f /tmp/stalltop-rotate-*/stalltop-*");
		}
	}
	CHECK(r != NULL);
	if (!r) {
		fprintf(stderr, "rotate_open: %s\n", err);
		return unit_done();
	}
	name_of(base, 0, path, sizeof(path));
	CHECK_STR(rotate_path(r), path);
	/* a file no one may remove: not of our naming */
	snprintf(other, sizeof(other), "%s/stalltop-notes.txt", dir);
	fclose(fopen(other, "w"));
	/*
	 * files of format 1 of period 0 (the first and a numbered one) go
	 * with the period; one whose name is not exactly of that naming
	 * stays
	 */
	name_of(base, 0, old, sizeof(old));
	strcpy(strstr(old, ".stk"), ".ndjson.gz");
	name_of(base, 1, oldseq, sizeof(oldseq));
	strcpy(strstr(oldseq, ".stk"), ".ndjson.gz");
	snprintf(oldother, sizeof(oldother), "%s.1", old);
	fclose(fopen(old, "w"));
	fclose(fopen(oldseq, "w"));
	fclose(fopen(oldother, "w"));

	/* four periods, a sample each 2.5 s, one right at each boundary */
	for (double t = base; t < base + 4 * PERIOD; t += 2.5) {
		struct store_sample s = at(t);

		CHECK(rotate_write(r, &s, err, sizeof(err)) == 0);
		times[nt++] = t;
	}
	CHECK(rotate_warning(r) == NULL);
	CHECK(rotate_close(r) == 0);
	/*
	 * keep 2: a file goes once its every sample is 2 periods old. When
	 * period 3 began (base + 30), period 0 had ended 20 s before: gone;
	 * period 1 ended 10 s before (its last sample 12.5 s): left.
	 */
	name_of(base, 0, path, sizeof(path));
	CHECK(!exists(path));
	CHECK(!exists(old));
	CHECK(!exists(oldseq));
	CHECK(exists(oldother));
	unlink(oldother);
	name_of(base + PERIOD, 0, path, sizeof(path));
	CHECK(exists(path));
	CHECK(exists(other));
	CHECK_EQ_U(storetest_count_files(dir), 4);
	/* each file whole, on its own: the boundary sample opens a period */
	replays(path, times + 4, 4);
	name_of(base + 2 * PERIOD, 0, path, sizeof(path));
	replays(path, times + 8, 4);
	name_of(base + 3 * PERIOD, 0, path, sizeof(path));
	replays(path, times + 12, 4);

	/* a restart in period 3 with a size limit: numbered files, never appended */
	o.max_size = 4096;
	o.keep = 0;
	r = rotate_open(dir, &o, err, sizeof(err));
	CHECK(r != NULL);
	if (!r)
		return unit_done();
	{
		double t0 = base + 3 * PERIOD + 9, big[40], got[64];
		struct store_sample s = at(t0);
		struct store_task tasks[200];
		struct storefile_damage dmg;
		char cmd[4200];
		size_t n;

		/*
		 * samples big enough to fill 4 KiB in a few: counters that
		 * change by amounts that do not compress
		 */
		for (int i = 0; i < 200; i++)
			tasks[i] = (struct store_task){
				.r = { .id = i + 1, .tgid = i + 1, .start = 9 },
				.comm = "worker", .cmdline = "", .user = "" };
		for (int i = 0; i < 40; i++) {
			s = at(t0 + i * 0.01);
			for (int k = 0; k < 200; k++)
				tasks[k].r.run_ns += noise((unsigned)k, (unsigned)i) %
						     1000003 * 1000;
			s.tasks = tasks;
			s.ntasks = 200;
			big[i] = s.time;
			CHECK(rotate_write(r, &s, err, sizeof(err)) == 0);
		}
		CHECK(rotate_close(r) == 0);
		name_of(base + 3 * PERIOD, 1, path, sizeof(path));
		CHECK(exists(path));
		name_of(base + 3 * PERIOD, 2, path, sizeof(path));
		CHECK(exists(path));

		/* the directory: every sample once */
		n = dir_times(dir, got, 64);
		CHECK_EQ_U(n, (nt - 4) + 40);
		qsort(got, n < 64 ? n : 64, sizeof(got[0]), by_time);
		for (size_t i = 0; i < n && i < nt - 4; i++)
			CHECK_NEAR(got[i], times[i + 4], 1e-3);
		for (size_t i = nt - 4; i < n && i < 64; i++)
			CHECK_NEAR(got[i], big[i - (nt - 4)], 1e-3);

		/*
		 * a file cut short: what it held before its torn end reads,
		 * the torn bytes counted
		 */
		name_of(base + 3 * PERIOD, 1, path, sizeof(path));
		size_t whole = read_times(path, got, 64, &dmg);
		snprintf(cmd, sizeof(cmd), "truncate -s -30 '%s'", path);
		CHECK(system(cmd) == 0);
		CHECK_EQ_U(read_times(path, got, 64, &dmg), whole - 1);
		CHECK(dmg.bytes > 0);
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		CHECK(system(cmd) == 0);
	}
	jump_forward();
	jump_stays();
	jump_back();
	return unit_done();
}
