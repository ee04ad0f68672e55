/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Rotation by local days (rotate_opts.period 0, what --record DIR does),
 * with hand-built store samples whose clocks are chosen, under fixed
 * time zones (POSIX TZ strings, so that no zone database is needed):
 * each sample goes into stalltop-YYYY-MM-DD.stk of its own local day,
 * the first sample after local midnight opening the day's file; the days
 * of a change of daylight saving time are 23 and 25 hours long (Berlin,
 * 2025-03-30 and 2025-10-26), and a day whose midnight does not exist
 * (clocks going from 00:00 to 01:00) begins at 01:00; --keep-days N
 * leaves exactly the files of the local days the newest sample's day and
 * the N before it (a file goes at the first sample of the day N + 1 days
 * after its own, and not a sample earlier), across those changes too.
 *
 * What the test expects is worked out here without the C library's
 * time zone code: the local time is UTC plus the offset the zone's rule
 * gives (its changes written out as UTC instants), the dates come from
 * a count of days.
 */
#include <config.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "record/rotate.h"
#include "record/storefile.h"
#include "../lib/storetest.h"
#include "unit.h"

/* Central European time, as Europe/Berlin is since 1996 */
#define BERLIN "CET-1CEST,M3.5.0,M10.5.0/3"
/* -03, with summer time (-02) from 00:00 of the first Sunday of November */
#define MIDNIGHT "<-03>3<-02>,M11.1.0/0,M2.3.0/0"

static char err[1024];
static struct store_task task = { .r = { .id = 1, .tgid = 1, .start = 5 },
				   .comm = "init", .cmdline = "", .user = "" };

/* Days since 1970-01-01 of a civil date (proleptic Gregorian). */
static long days_from_civil(int y, int m, int d)
{
	long era, yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153L * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

/* The civil date of day number z. */
static void civil_from_days(long z, int *y, int *m, int *d)
{
	long era, doe, yoe, doy, mp;

	z += 719468;
	era = (z >= 0 ? z : z - 146096) / 146097;
	doe = z - era * 146097;
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	*d = (int)(doy - (153 * mp + 2) / 5 + 1);
	*m = (int)(mp < 10 ? mp + 3 : mp - 9);
	*y = (int)(yoe + era * 400 + (*m <= 2));
}

/* A UTC instant. */
static time_t utc(int y, int mo, int d, int h, int mi, int s)
{
	return (time_t)days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + s;
}

/* The zone the samples are in: its offset (s east of UTC) at t. */
static long (*zone_offset)(time_t t);

/* Berlin in 2025: CEST from 03-30 01:00 UTC to 10-26 01:00 UTC. */
static long berlin(time_t t)
{
	return t >= utc(2025, 3, 30, 1, 0, 0) && t < utc(2025, 10, 26, 1, 0, 0) ?
	       7200 : 3600;
}

/* The zone of MIDNIGHT around 2025-11-02: -02 from 03:00 UTC that day. */
static long midnight(time_t t)
{
	return t >= utc(2025, 11, 2, 3, 0, 0) ? -7200 : -10800;
}

/* The local day of t, as a day number. */
static long local_day(time_t t)
{
	long l = (long)t + zone_offset(t);

	return (l >= 0 ? l : l - 86399) / 86400;
}

/* The name of the file of local day z, in directory d. */
static void day_file(const char *d, long z, char *buf, size_t size)
{
	int y, m, dd;

	civil_from_days(z, &y, &m, &dd);
	snprintf(buf, size, "%s/stalltop-%04d-%02d-%02d.stk", d, y, m, dd);
}

static bool exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

/*
 * The samples' boot clock: the wall clock less this, far less than the
 * wall clock's offset from the real boot clock, so that the retention
 * clock follows the samples' wall clock from the first on (rotate.h),
 * not the real one rotate_open saw.
 */
#define BOOT_OFFSET 1.7e9

struct run {
	char dir[64];
	struct rotator *r;
	char first[4096];  /* the file for the real now, from rotate_open */
	bool started;
};

static void run_open(struct run *u, const char *tz, long (*off)(time_t),
		     unsigned keep)
{
	struct rotate_opts o = { .keep = keep, .period = 0, .threads = true };

	setenv("TZ", tz, 1);
	tzset();
	zone_offset = off;
	snprintf(u->dir, sizeof(u->dir), "/tmp/stalltop-days-XXXXXX");
	if (!mkdtemp(u->dir)) {
		perror("mkdtemp");
		exit(99);
	}
	u->r = rotate_open(u->dir, &o, err, sizeof(err));
	if (!u->r) {
		fprintf(stderr, "rotate_open %s: %s\n", u->dir, err);
		exit(99);
	}
	snprintf(u->first, sizeof(u->first), "%s", rotate_path(u->r));
	u->started = false;
}

/* A sample at t (+ frac s) into u, which must take it. */
static void put(struct run *u, time_t t, double frac)
{
	double wall = (double)t + frac;
	struct store_sample s = { .time = wall, .boot = wall - BOOT_OFFSET,
				  .mono = wall - BOOT_OFFSET, .real = wall,
				  .tasks = &task, .ntasks = 1 };

	CHECK(rotate_write(u->r, &s, err, sizeof(err)) == 0);
	if (!u->started) {
		/*
		 * the file of the real day, left empty by the first sample
		 * (of 2025): not one of the days looked at
		 */
		CHECK(strcmp(rotate_path(u->r), u->first) != 0);
		unlink(u->first);
		u->started = true;
		(void)rotate_warning(u->r); /* the clock "jumped back" */
	}
	CHECK(rotate_warning(u->r) == NULL);
}

static void run_close(struct run *u)
{
	char cmd[128];

	CHECK(rotate_close(u->r) == 0);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", u->dir);
	CHECK(system(cmd) == 0);
}

/* The sample times the file path holds, read on its own, into got. */
static size_t read_times(const char *path, double *got, size_t max)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct storefile_reader *rd = fd < 0 ? NULL : storefile_reader_new(fd);
	struct store_sample s;
	size_t n = 0;
	int st = -1;

	CHECK(rd != NULL);
	while (rd && (st = storefile_next(rd, &s, err, sizeof(err))) == 1) {
		if (n < max)
			got[n] = s.time;
		n++;
	}
	CHECK(st == 0);
	storefile_reader_free(rd);
	if (fd >= 0)
		close(fd);
	return n;
}

/*
 * Samples at the times t[] (each + frac[]) written with keep 0: each is
 * in the file of its own local day, in order, and those files are all.
 * A sample's time reads back bit for bit (measured: no difference), so
 * the tolerance is 0.
 */
static void each_in_its_day(const char *what, const char *tz,
			    long (*off)(time_t), const time_t *t,
			    const double *frac, size_t n, const char *const *want)
{
	struct run u;
	char path[4096];
	int files = 0;

	fprintf(stderr, "%s\n", what);
	run_open(&u, tz, off, 0);
	for (size_t i = 0; i < n; i++) {
		put(&u, t[i], frac[i]);
		/* the file being written is the sample's day's */
		day_file(u.dir, local_day(t[i]), path, sizeof(path));
		CHECK_STR(rotate_path(u.r), path);
		/* ... and that is the name the test was written for */
		CHECK(strstr(path, want[i]) != NULL);
		if (!strstr(path, want[i]))
			fprintf(stderr, "  sample %zu: %s, expected %s\n", i,
				path, want[i]);
	}
	CHECK(rotate_close(u.r) == 0);
	u.r = NULL;
	for (size_t i = 0; i < n;) {
		double got[64];
		size_t j = i, k;

		while (j < n && local_day(t[j]) == local_day(t[i]))
			j++;
		day_file(u.dir, local_day(t[i]), path, sizeof(path));
		k = read_times(path, got, 64);
		CHECK_EQ_U(k, j - i);
		for (size_t m = 0; m < k && m < j - i; m++)
			CHECK_NEAR(got[m], (double)t[i + m] + frac[i + m], 0);
		files++;
		i = j;
	}
	CHECK_EQ_U(storetest_count_files(u.dir), files);
	{
		char cmd[128];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", u.dir);
		CHECK(system(cmd) == 0);
	}
}

/*
 * Berlin, spring: 2025-03-30 has 23 hours (02:00 CET is 03:00 CEST).
 * Its last second is 21:59:59 UTC, its first 23:00:00 UTC the day
 * before; 24 hours after its start is already 01:00 of 03-31.
 */
static void spring(void)
{
	const time_t t[] = {
		utc(2025, 3, 29, 22, 59, 59), /* 03-29 23:59:59.5 CET */
		utc(2025, 3, 29, 23, 0, 0),   /* 03-30 00:00:00 CET */
		utc(2025, 3, 30, 0, 59, 59),  /* 01:59:59 CET */
		utc(2025, 3, 30, 1, 0, 0),    /* 03:00:00 CEST */
		utc(2025, 3, 30, 21, 59, 59), /* 23:59:59.9 CEST */
		utc(2025, 3, 30, 22, 0, 0),   /* 03-31 00:00:00 CEST */
		utc(2025, 3, 30, 22, 30, 0),  /* 03-31 00:30 CEST */
		utc(2025, 3, 30, 23, 30, 0),  /* 03-31 01:30 CEST */
	};
	const double frac[] = { 0.5, 0, 0, 0, 0.9, 0, 0, 0 };
	const char *const want[] = {
		"stalltop-2025-03-29.stk", "stalltop-2025-03-30.stk",
		"stalltop-2025-03-30.stk", "stalltop-2025-03-30.stk",
		"stalltop-2025-03-30.stk", "stalltop-2025-03-31.stk",
		"stalltop-2025-03-31.stk", "stalltop-2025-03-31.stk",
	};

	each_in_its_day("spring: a day of 23 hours", BERLIN, berlin, t, frac,
			sizeof(t) / sizeof(t[0]), want);
}

/*
 * Berlin, autumn: 2025-10-26 has 25 hours (02:00-03:00 twice), from
 * 10-25 22:00 UTC to 10-26 23:00 UTC.
 */
static void autumn(void)
{
	const time_t t[] = {
		utc(2025, 10, 25, 21, 59, 59), /* 10-25 23:59:59 CEST */
		utc(2025, 10, 25, 22, 0, 0),   /* 10-26 00:00:00 CEST */
		utc(2025, 10, 26, 0, 30, 0),   /* 02:30 CEST */
		utc(2025, 10, 26, 1, 30, 0),   /* 02:30 CET */
		utc(2025, 10, 26, 22, 0, 0),   /* 23:00 CET, 24 h after */
		utc(2025, 10, 26, 22, 59, 59), /* 23:59:59.9 CET */
		utc(2025, 10, 26, 23, 0, 0),   /* 10-27 00:00:00 CET */
	};
	const double frac[] = { 0.25, 0, 0, 0, 0, 0.9, 0 };
	const char *const want[] = {
		"stalltop-2025-10-25.stk", "stalltop-2025-10-26.stk",
		"stalltop-2025-10-26.stk", "stalltop-2025-10-26.stk",
		"stalltop-2025-10-26.stk", "stalltop-2025-10-26.stk",
		"stalltop-2025-10-27.stk",
	};

	each_in_its_day("autumn: a day of 25 hours", BERLIN, berlin, t, frac,
			sizeof(t) / sizeof(t[0]), want);
}

/*
 * A zone whose clocks go from 00:00 to 01:00: 2025-11-02 begins at
 * 01:00 -02, one second after 11-01 23:59:59 -03.
 */
static void no_midnight(void)
{
	const time_t t[] = {
		utc(2025, 11, 2, 2, 0, 0),   /* 11-01 23:00:00 -03 */
		utc(2025, 11, 2, 2, 59, 59), /* 11-01 23:59:59 -03 */
		utc(2025, 11, 2, 3, 0, 0),   /* 11-02 01:00:00 -02 */
		utc(2025, 11, 3, 1, 59, 59), /* 11-02 23:59:59 -02 */
		utc(2025, 11, 3, 2, 0, 0),   /* 11-03 00:00:00 -02 */
	};
	const double frac[] = { 0, 0.5, 0, 0, 0 };
	const char *const want[] = {
		"stalltop-2025-11-01.stk", "stalltop-2025-11-01.stk",
		"stalltop-2025-11-02.stk", "stalltop-2025-11-02.stk",
		"stalltop-2025-11-03.stk",
	};

	each_in_its_day("a day without its midnight", MIDNIGHT, midnight, t,
			frac, sizeof(t) / sizeof(t[0]), want);
}

/*
 * --keep-days keep, samples every step s from from to to (UTC): after
 * each, the files are exactly those of the local days from the sample's
 * day back keep days (of those that had samples); at the end, each full
 * day's file holds the samples of its length (hours * 3600 / step).
 */
static void retention(const char *what, const char *tz, long (*off)(time_t),
		      unsigned keep, time_t from, time_t to, long step,
		      const long *hours, size_t nhours)
{
	struct run u;
	char path[4096];
	long first = 0, mismatches = 0;

	fprintf(stderr, "%s\n", what);
	run_open(&u, tz, off, keep);
	for (time_t t = from; t < to; t += step) {
		long today;
		int want = 0, ok = 1;

		put(&u, t, 0);
		today = local_day(t);
		if (t == from)
			first = today;
		for (long z = first; z <= today; z++) {
			bool kept = today - z <= (long)keep;

			day_file(u.dir, z, path, sizeof(path));
			want += kept;
			if (exists(path) != kept) {
				ok = 0;
				if (mismatches++ < 5)
					fprintf(stderr, "  at %ld (UTC): %s %s\n",
						(long)t, path, kept ?
						"missing" : "still there");
			}
		}
		if (storetest_count_files(u.dir) != want)
			ok = 0;
		CHECK(ok);
	}
	/* the full days left: their samples all there, none of another day */
	for (size_t i = 0; i < nhours; i++) {
		double got[128];
		long z = local_day(to - step) - (long)nhours + 1 + (long)i;

		day_file(u.dir, z, path, sizeof(path));
		CHECK_EQ_U(read_times(path, got, 128), hours[i] * 3600 / step);
		for (long m = 0; m < hours[i] * 3600 / step && m < 128; m++)
			CHECK(local_day((time_t)got[m]) == z);
	}
	run_close(&u);
}

int main(void)
{
	/*
	 * the arithmetic of this test, checked: 2025-03-30 00:00 CET is
	 * 1743289200 (date -d '2025-03-30 00:00 CET' +%s)
	 */
	CHECK_EQ_U(utc(2025, 3, 29, 23, 0, 0), 1743289200);
	zone_offset = berlin;
	CHECK_EQ_U(local_day(utc(2025, 3, 29, 23, 0, 0)),
		   days_from_civil(2025, 3, 30));
	CHECK_EQ_U(local_day(utc(2025, 3, 29, 22, 59, 59)),
		   days_from_civil(2025, 3, 29));

	spring();
	autumn();
	no_midnight();
	{
		/* 03-27 .. 04-01 whole: 03-30 is the day of 23 hours */
		const long h[] = { 24, 23, 24 };

		retention("keep 2 days, spring", BERLIN, berlin, 2,
			  utc(2025, 3, 26, 23, 0, 0), utc(2025, 3, 31, 22, 0, 0),
			  1200, h, 3);
	}
	{
		const long h[] = { 24, 25, 24 };

		retention("keep 1 day, autumn", BERLIN, berlin, 1,
			  utc(2025, 10, 23, 22, 0, 0), utc(2025, 10, 27, 23, 0, 0),
			  1200, h + 1, 2);
	}
	{
		const long h[] = { 23, 24 };

		retention("keep 1 day, a day without its midnight", MIDNIGHT,
			  midnight, 1, utc(2025, 10, 31, 3, 0, 0),
			  utc(2025, 11, 4, 2, 0, 0), 1200, h, 2);
	}
	return unit_done();
}
