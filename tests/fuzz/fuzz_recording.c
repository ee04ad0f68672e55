/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Fuzz target: a recording read back, the whole path of a replay
 * (replay_open's index and json_scan, replay_get's json-c parse, the
 * decoder json_read_sample and the value checks rec_check) on the input
 * as a file. Checks, besides memory safety: no more samples than lines;
 * every sample handed out passed the checks (checking it again drops
 * nothing), has rows that are tasks (ids 1 to REC_CHECK_PID_MAX) and a
 * time later than the sample before it in its session; a skipped sample
 * says why; json_scan agrees with json-c (a line json-c takes whole
 * is whole for json_scan, and nests no deeper than json-c allows).
 */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <json.h>

#include "fuzz.h"
#include "record/json_read.h"
#include "record/json_scan.h"
#include "record/rec_check.h"
#include "record/replay.h"

static void check_rows(const struct row *r, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		FUZZ_CHECK(r[i].pid > 0 && r[i].pid <= REC_CHECK_PID_MAX);
		FUZZ_CHECK(r[i].tgid > 0 && r[i].tgid <= REC_CHECK_PID_MAX);
	}
}

/* The first line as json-c and json_scan see it. */
static void check_scan(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data;
	const char *nl = memchr(s, '\n', size);
	size_t len = nl ? (size_t)(nl - s) : size;
	json_tokener *tok = json_read_tokener();
	json_object *o;
	struct json_scan m;

	json_scan_line(s, len, &m);
	FUZZ_CHECK(m.depth >= 0);
	o = tok ? json_read_line(tok, s, len) : NULL;
	if (o) {
		FUZZ_CHECK(m.end == JSON_SCAN_WHOLE);
		FUZZ_CHECK(m.depth <= JSON_SCAN_DEPTH);
		FUZZ_CHECK(json_scan_cost(&m, len) >= len);
	}
	json_object_put(o);
	if (tok)
		json_tokener_free(tok);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64], err[1024];
	size_t lines = 1;
	int fd = memfd_create("recording", MFD_CLOEXEC);

	check_scan(data, size);
	if (fd < 0)
		abort();
	for (size_t i = 0; i < size; i++)
		lines += data[i] == '\n';
	if (size && write(fd, data, size) != (ssize_t)size)
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	struct replay *rp = replay_open_opts(path, NULL, err, sizeof(err));
	close(fd);
	if (!rp) {
		FUZZ_CHECK(*err);
		return 0;
	}
	FUZZ_CHECK(replay_count(rp) <= lines);
	double last = NAN;
	const struct rec_header *session = NULL;
	for (size_t i = 0; i < replay_count(rp); i++) {
		struct sample s;

		if (replay_get(rp, i, &s) < 0) {
			FUZZ_CHECK(errno == EBADMSG || errno == ENOMEM);
			FUZZ_CHECK(errno != EBADMSG || replay_skipped(rp));
			continue;
		}
		FUZZ_CHECK(!replay_skipped(rp));
		FUZZ_CHECK(replay_line(rp, i) >= 2 && replay_line(rp, i) <= lines);
		size_t dropped = s.dropped;
		FUZZ_CHECK(rec_check_sample(&s) == 0 && s.dropped == dropped);
		FUZZ_CHECK(isnan(s.interval) || s.interval > 0);
		FUZZ_CHECK(isnan(s.time) || (s.time > 0 && isfinite(s.time)));
		check_rows(s.rows, s.nrows);
		check_rows(s.exited, s.nexited);
		check_rows(s.thread_rows, s.nthread_rows);
		check_rows(s.thread_exited, s.nthread_exited);
		if (replay_header(rp, i) != session) {
			session = replay_header(rp, i);
			last = NAN;
		}
		if (!isnan(s.time)) {
			FUZZ_CHECK(isnan(last) || s.time > last);
			last = s.time;
		}
	}
	FUZZ_CHECK(!replay_problem(rp) || strlen(replay_problem(rp)) > 0);
	replay_close(rp);
	return 0;
}
