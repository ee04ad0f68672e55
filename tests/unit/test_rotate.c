/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Rotating recordings and sets of them, with hand-built samples whose
 * times are chosen (a "day" of 10 s, as STALLTOP_ROTATE_SECONDS makes
 * it): a file per period, named after the period's start; the sample at
 * a boundary opens the next file, none lost or written twice; each file
 * complete (gzip trailer) and replayable on its own; retention removing
 * the files of old periods and nothing else; the size limit starting
 * numbered files of the same period; a restart never appending; then
 * replay_set over the directory: every sample once, in time order, and
 * exactly those of a --begin/--end window, a damaged file named in the
 * notes.
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

#include "record/replay.h"
#include "record/replay_set.h"
#include "record/rotate.h"
#include "unit.h"

#define PERIOD 10

static char dir[] = "/tmp/stalltop-rotate-XXXXXX";
static char err[1024];
static struct row row = { .pid = 1, .tgid = 1, .comm = "init" };

static struct sample at(double t)
{
	return (struct sample){ .time = t, .interval = 1, .rows = &row,
				.nrows = 1 };
}

/* The name a period starting at t gets, with number seq (0: none). */
static void name_of(time_t t, unsigned seq, char *buf, size_t size)
{
	char stamp[64], num[16] = "";
	struct tm tm;

	localtime_r(&t, &tm);
	strftime(stamp, sizeof(stamp), "%Y-%m-%d-%H%M%S", &tm);
	if (seq)
		snprintf(num, sizeof(num), ".%u", seq);
	snprintf(buf, size, "%s/stalltop-%s%s.ndjson.gz", dir, stamp, num);
}

static bool exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

/* The files of dir that are ours (stalltop-*), counted. */
static int count_files(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	while (d && (e = readdir(d)))
		n += strncmp(e->d_name, "stalltop-", 9) == 0;
	if (d)
		closedir(d);
	return n;
}

/* A file replays on its own, cleanly, with these sample times. */
static void replays(const char *path, const double *times, size_t n)
{
	struct replay *rp = replay_open(path, err, sizeof(err));

	CHECK(rp != NULL);
	if (!rp) {
		fprintf(stderr, "  %s: %s\n", path, err);
		return;
	}
	CHECK(replay_problem(rp) == NULL);
	CHECK_EQ_U(replay_count(rp), n);
	for (size_t i = 0; i < n && i < replay_count(rp); i++)
		CHECK_NEAR(replay_time(rp, i), times[i], 1e-3);
	replay_close(rp);
}

/* The set's sample times are exactly want[0 .. n). */
static void set_has(struct replay_set *set, const double *want, size_t n)
{
	struct sample s;

	CHECK_EQ_U(replay_set_count(set), n);
	for (size_t i = 0; i < n && i < replay_set_count(set); i++) {
		CHECK(replay_set_get(set, i, &s) == 0);
		CHECK_NEAR(s.time, want[i], 1e-3);
	}
}

int main(void)
{
	struct rotate_opts o = { .max_size = 0, .keep = 2, .period = PERIOD };
	struct rotator *r = NULL;
	char path[4096], other[4096];
	time_t base;
	double times[64];
	size_t nt = 0;

	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 99;
	}
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

	/* four periods, a sample each 2.5 s, one right at each boundary */
	for (double t = base; t < base + 4 * PERIOD; t += 2.5) {
		struct sample s = at(t);

		CHECK(rotate_write(r, &s, err, sizeof(err)) == 0);
		times[nt++] = t;
	}
	CHECK(rotate_warning(r) == NULL);
	CHECK(rotate_close(r) == 0);
	/* keep 2: the periods 2 and 3 are left, 0 and 1 removed */
	name_of(base, 0, path, sizeof(path));
	CHECK(!exists(path));
	name_of(base + PERIOD, 0, path, sizeof(path));
	CHECK(!exists(path));
	CHECK(exists(other));
	CHECK_EQ_U(count_files(), 3);
	/* each file whole, on its own: the boundary sample opens a period */
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
		double t0 = base + 3 * PERIOD + 9, big[40];
		struct sample s = at(t0);
		char cmd[4200];
		struct row rows[200];

		/* samples big enough to fill 4 KiB in a few */
		for (int i = 0; i < 200; i++)
			rows[i] = (struct row){ .pid = i + 1, .tgid = i + 1,
						.comm = "worker" };
		for (int i = 0; i < 40; i++) {
			s = at(t0 + i * 0.01);
			s.rows = rows;
			s.nrows = 200;
			big[i] = s.time;
			CHECK(rotate_write(r, &s, err, sizeof(err)) == 0);
		}
		CHECK(rotate_close(r) == 0);
		name_of(base + 3 * PERIOD, 1, path, sizeof(path));
		CHECK(exists(path));
		name_of(base + 3 * PERIOD, 2, path, sizeof(path));
		CHECK(exists(path));

		/* the directory as one timeline: every sample once, in order */
		const char *paths[] = { dir };
		struct replay_set *set = replay_set_open(paths, 1, NAN, NAN,
							 err, sizeof(err));
		CHECK(set != NULL);
		if (set) {
			double all[64];
			size_t n = 0;

			for (size_t i = 8; i < nt; i++)
				all[n++] = times[i];
			for (int i = 0; i < 40; i++)
				all[n++] = big[i];
			set_has(set, all, n);
			CHECK(replay_set_problem(set) == NULL);
			replay_set_close(set);
		}
		/* a window: [base + 25, base + 39.05] */
		set = replay_set_open(paths, 1, base + 25, base + 39.05, err,
				      sizeof(err));
		CHECK(set != NULL);
		if (set) {
			double want[] = { base + 25, base + 27.5, base + 30,
					  base + 32.5, base + 35, base + 37.5,
					  big[0], big[1], big[2], big[3],
					  big[4], big[5] };

			set_has(set, want, sizeof(want) / sizeof(want[0]));
			replay_set_close(set);
		}
		/* a window before everything: empty, not a failure */
		set = replay_set_open(paths, 1, base - 100, base - 50, err,
				      sizeof(err));
		CHECK(set != NULL && replay_set_count(set) == 0);
		replay_set_close(set);

		/* a file cut short: the set goes on, the note names it */
		name_of(base + 3 * PERIOD, 1, path, sizeof(path));
		snprintf(cmd, sizeof(cmd), "truncate -s -30 '%s'", path);
		CHECK(system(cmd) == 0);
		set = replay_set_open(paths, 1, NAN, NAN, err, sizeof(err));
		CHECK(set != NULL);
		if (set) {
			const char *p = replay_set_problem(set);

			CHECK(p && strstr(p, path));
			CHECK(replay_set_count(set) > 8);
			replay_set_close(set);
		}
		/* not a directory of recordings */
		const char *none[] = { "/proc/self" };
		set = replay_set_open(none, 1, NAN, NAN, err, sizeof(err));
		CHECK(set == NULL && strstr(err, "holds no recording"));
		replay_set_close(set);
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		CHECK(system(cmd) == 0);
	}
	return unit_done();
}
