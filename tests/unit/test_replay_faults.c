/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A replay against hostile and odd files: each reason a line is skipped
 * named in the note (found when the file is indexed or when the line is
 * read), the last line torn only when it is cut short, samples out of
 * order or repeated skipped (in a file and across files), the first line
 * bounded, a pipe and a FIFO read once, reading stopped by the cancel
 * descriptor (a FIFO with no writer included), the window of
 * replay_opts, header strings bounded, and the player: a note for each
 * line skipped as it is met, no usable sample a failure. A sample
 * without a time (null, or none) is replayed with its time
 * unknown (NaN) and said so, naming the first; it is no damage, a line
 * skipped is (replay_damaged).
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "model/producer.h"
#include "record/player.h"
#include "record/replay.h"
#include "record/replay_set.h"
#include "unit.h"

static char dir[4096];
static char err[2048];

static const char *tmp_path(const char *name)
{
	static char path[8][4200];
	static int next;
	char *p = path[next++ % 8];

	snprintf(p, sizeof(path[0]), "%s/%s", dir, name);
	return p;
}

static const char header[] = "{\"stalltop_recording\":1,\"program\":\"t\","
			     "\"started\":1763740000.0}\n";

/* A sample line at time t (with its "\n"). */
static const char *sample(double t)
{
	static char buf[8][512];
	static int next;
	char *b = buf[next++ % 8];

	snprintf(b, sizeof(buf[0]), "{\"time\":%.1f,\"interval\":1.0,\"tasks\":"
		 "[{\"pid\":7,\"tgid\":7,\"comm\":\"a\",\"delay\":{\"io\":"
		 "{\"pct\":5.0,\"count\":1}}}],\"exited\":[]}\n", t);
	return b;
}

static void put(const char *path, const char *text, size_t len)
{
	FILE *f = fopen(path, "w");

	if (!f || fwrite(text, 1, len, f) != len || fclose(f) != 0) {
		perror(path);
		exit(99);
	}
}

/* A file of the pieces given, NULL-terminated. */
static const char *file(const char *name, ...)
{
	const char *path = tmp_path(name);
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	va_list ap;

	va_start(ap, name);
	for (const char *s; (s = va_arg(ap, const char *));)
		fputs(s, m);
	va_end(ap);
	fclose(m);
	put(path, text, len);
	free(text);
	return path;
}

/* Open path: n samples, a problem holding want (NULL: none). */
static struct replay *opened(const char *path, size_t n, const char *want)
{
	struct replay *rp = replay_open_opts(path, NULL, err, sizeof(err));

	CHECK(rp != NULL);
	if (!rp) {
		fprintf(stderr, "%s: %s\n", path, err);
		return NULL;
	}
	CHECK_EQ_U(replay_count(rp), n);
	const char *p = replay_problem(rp);
	if (want) {
		CHECK(p && strstr(p, want));
		if (!p || !strstr(p, want))
			fprintf(stderr, "%s: problem \"%s\", expected \"%s\"\n",
				path, p ? p : "(null)", want);
	} else {
		CHECK(p == NULL);
		if (p)
			fprintf(stderr, "%s: unexpected problem \"%s\"\n", path, p);
	}
	return rp;
}

/* Line 3 of a file is bad: skipped, said why, the samples around kept. */
static void one_bad(const char *bad, const char *why)
{
	const char *p = file("bad.ndjson", header, sample(1), bad, "\n",
			     sample(3), NULL);
	char want[512];

	snprintf(want, sizeof(want), "line 3 was skipped: %s", why);
	replay_close(opened(p, 2, want));
}

static void test_reasons(void)
{
	char deep[256] = "{\"time\":2.0,\"tasks\":[],\"x\":";

	for (int i = 0; i < 16; i++)
		strcat(deep, "[");
	for (int i = 0; i < 16; i++)
		strcat(deep, "]");
	strcat(deep, "}");
	one_bad(deep, "it nests deeper than 16 levels (a sample nests 6)");
	one_bad("{\"time\":2.0,\"tasks\":[{\"pid\":1", "it ends in the middle "
		"of its JSON object (cut short)");
	one_bad("{\"time\":2.0,\"tasks\":[],\"comm\":\"a\x1b]0;x\x07\"}",
		"it holds a raw control byte, which JSON never has");
	one_bad("{\"time\":2.0,\"tasks\":[1,2}", "it is not valid JSON");
	one_bad("garbage", "it is not valid JSON");
	one_bad("{\"time\":2.0}", "it is neither a sample nor a recording "
		"header");
	one_bad("{\"time\":-5,\"tasks\":[]}", "its time is impossible");
	one_bad("{\"time\":1e400,\"tasks\":[]}", "its time is impossible");
	one_bad("{\"time\":1.0,\"tasks\":[]}", "its time is not after that of "
		"the sample before it (out of order or repeated)");
	one_bad("{\"time\":0.5,\"tasks\":[]}", "its time is not after that of "
		"the sample before it (out of order or repeated)");
}

/* Lines that look like samples and are found bad only when read. */
static void test_found_when_read(void)
{
	const char *p = file("read.ndjson", header, sample(1),
			     "{\"time\":2.0,\"tasks\":[{\"pid\":1,}]}\n",
			     "{\"time\":3.0,\"tasks\":[],\"time\":9.0}\n",
			     sample(4), NULL);
	struct replay *rp = opened(p, 4, NULL);
	struct sample s;

	if (!rp)
		return;
	CHECK(replay_get(rp, 1, &s) == -1 && errno == EBADMSG);
	CHECK_STR(replay_skipped(rp), "line 3 was skipped: it is not valid JSON");
	CHECK(replay_get(rp, 2, &s) == -1 && errno == EBADMSG);
	CHECK_STR(replay_skipped(rp), "line 4 was skipped: it holds more than "
		  "one time");
	CHECK(replay_get(rp, 3, &s) == 0 && replay_skipped(rp) == NULL);
	CHECK_STR(replay_problem(rp), "2 lines were skipped (the first, line 3: "
		  "it is not valid JSON)");
	replay_close(rp);
}

/* Rows that are no tasks and impossible values: counted once each. */
static void test_dropped(void)
{
	const char *p = file("drop.ndjson", header,
			     "{\"time\":2.0,\"interval\":-5,\"tasks\":[1,\"x\","
			     "null,{\"pid\":7,\"tgid\":7,\"total_pct\":-1}]}\n",
			     NULL);
	struct replay *rp = opened(p, 1, NULL);
	struct sample s;

	if (!rp)
		return;
	for (int i = 0; i < 3; i++) {
		CHECK(replay_get(rp, 0, &s) == 0);
		CHECK(s.nrows == 1 && isnan(s.interval) && s.dropped == 2);
	}
	CHECK_STR(replay_problem(rp), "3 rows that are not tasks were skipped "
		  "(the first in line 2); 2 impossible values were dropped (the "
		  "first in line 2)");
	replay_close(rp);
}

static void test_last_line(void)
{
	/* complete (it has its "\n") and not JSON: skipped, not torn */
	replay_close(opened(file("last1.ndjson", header, sample(1),
				 "{\"time\":2.0,\"tasks\":[1,2}\n", NULL),
			    1, "line 3 was skipped: it is not valid JSON"));
	/* cut short with its "\n": skipped as cut short */
	replay_close(opened(file("last2.ndjson", header, sample(1),
				 "{\"time\":2.0,\"tasks\":[\n", NULL),
			    1, "line 3 was skipped: it ends in the middle"));
	/* no "\n" and cut short: torn */
	replay_close(opened(file("last3.ndjson", header, sample(1),
				 "{\"time\":2.0,\"tasks\":[", NULL),
			    1, "the last record is torn (incomplete) and was "
			    "ignored"));
	/* no "\n" but whole: replayed */
	const char *s2 = sample(2);
	char whole[512];
	snprintf(whole, sizeof(whole), "%.*s", (int)strlen(s2) - 1, s2);
	replay_close(opened(file("last4.ndjson", header, sample(1), whole,
				 NULL), 2, NULL));
	/* no "\n", whole, not a sample */
	replay_close(opened(file("last5.ndjson", header, sample(1), "[]", NULL),
			    1, "line 3 was skipped: it is not valid JSON"));
}

static void test_order(void)
{
	/* repeated and back in time: skipped; a new session starts afresh */
	struct replay *rp = opened(file("order.ndjson", header, sample(2),
					sample(1), sample(2), sample(3), header,
					sample(1), sample(2), NULL),
				   4, "2 samples were skipped because their "
				   "time is not after that of the sample before "
				   "them (out of order or repeated; the first "
				   "is line 3)");
	if (rp) {
		CHECK(replay_time(rp, 1) == 3.0 && replay_time(rp, 2) == 1.0);
		replay_close(rp);
	}
	/* the same file twice: the second adds nothing */
	const char *g = file("twice.ndjson", header, sample(1), sample(2), NULL);
	const char *paths[] = { g, g };
	struct replay_set *set = replay_set_open_cancel(paths, 2, NAN, NAN, -1, err,
						 sizeof(err));
	CHECK(set != NULL);
	if (set) {
		CHECK_EQ_U(replay_set_count(set), 2);
		const char *p = replay_set_problem(set);
		CHECK(p && strstr(p, "2 samples were skipped because their time "
				  "is not after the last one of the files before "
				  "them (from line 2)"));
		replay_set_close(set);
	}
}

/* Samples without a time: kept, their time unknown, said so. */
static void test_no_time(void)
{
	static const char null_time[] = "{\"time\":null,\"interval\":1.0,"
		"\"tasks\":[],\"exited\":[]}\n";
	static const char no_time[] = "{\"interval\":1.0,\"tasks\":[],"
		"\"exited\":[]}\n";
	struct replay *rp = opened(file("notime.ndjson", header, sample(1),
					null_time, no_time, sample(2), NULL),
				   4, "2 samples have no time (the first in "
				   "line 3): their time is shown as unknown");
	if (rp) {
		CHECK(replay_time(rp, 0) == 1.0 && replay_time(rp, 3) == 2.0);
		CHECK(isnan(replay_time(rp, 1)) && isnan(replay_time(rp, 2)));
		CHECK(!replay_damaged(rp));
		replay_close(rp);
	}
	rp = opened(file("onebad.ndjson", header, sample(1), "{\n", sample(2),
			 NULL), 2, "line 3 was skipped");
	if (rp) {
		CHECK(replay_damaged(rp));
		replay_close(rp);
	}
}

/* The first line is a header or nothing: a long one is not read on. */
static void test_first_line(void)
{
	size_t n = REPLAY_HEADER_MAX + 10;
	char *text = malloc(n + 1);

	memset(text, 'x', n);
	text[n] = '\n';
	put(tmp_path("first.ndjson"), text, n + 1);
	free(text);
	CHECK(replay_open_opts(tmp_path("first.ndjson"), NULL, err, sizeof(err)) == NULL);
	CHECK(strstr(err, "is not a stalltop recording (its first line is not "
		      "a recording header)") != NULL);
	/* the header: at most 255 bytes of each string are kept */
	char host[1200], line[1400];
	memset(host, 'h', 1000);
	host[1000] = '\0';
	snprintf(line, sizeof(line), "{\"stalltop_recording\":1,\"hostname\":"
		 "\"%s\",\"hz\":-100,\"ncpu\":99999999999}\n", host);
	struct replay *rp = opened(file("host.ndjson", line, sample(1), NULL), 1,
				   NULL);
	if (rp) {
		const struct rec_header *h = replay_header(rp, 0);
		CHECK(h && strlen(h->hostname) == 255 && h->hz == 0 &&
		      h->ncpu == 0);
		replay_close(rp);
	}
}

/* A line whose decoding would take more than REPLAY_DECODE_MAX. */
static void test_cost(void)
{
	size_t n = 6u << 20; /* six million empty objects: some 6 GB */
	size_t len = 32 + 3 * n;
	char *text = malloc(len + sizeof(header) + 512);
	size_t k = (size_t)sprintf(text, "%s{\"time\":2.0,\"tasks\":[", header);

	for (size_t i = 0; i < n; i++) {
		memcpy(text + k, i ? ",{}" : "{}", i ? 3 : 2);
		k += i ? 3 : 2;
	}
	k += (size_t)sprintf(text + k, "]}\n%s", sample(3));
	put(tmp_path("cost.ndjson"), text, k);
	free(text);
	replay_close(opened(tmp_path("cost.ndjson"), 1,
			    "line 2 was skipped: decoding it would take about "));
	unlink(tmp_path("cost.ndjson"));
}

/* A child writes text to fd after delay_ms, then closes it. */
static pid_t writer(const char *path, int fd, const char *text, int delay_ms)
{
	pid_t pid = fork();

	if (pid < 0)
		exit(99);
	if (pid == 0) {
		if (path)
			fd = open(path, O_WRONLY);
		usleep((useconds_t)delay_ms * 1000);
		if (fd < 0 || write(fd, text, strlen(text)) < 0)
			_exit(1);
		_exit(0);
	}
	return pid;
}

static void reaped(pid_t pid)
{
	int st;

	CHECK(waitpid(pid, &st, 0) == pid && WIFEXITED(st) &&
	      WEXITSTATUS(st) == 0);
}

static void test_pipes(void)
{
	char text[2048], path[64];
	int fds[2];
	pid_t pid;

	snprintf(text, sizeof(text), "%s%s%s", header, sample(1), sample(2));
	/* a pipe: read once, into a copy */
	CHECK(pipe(fds) == 0);
	pid = writer(NULL, fds[1], text, 50);
	close(fds[1]);
	snprintf(path, sizeof(path), "/dev/fd/%d", fds[0]);
	struct replay *rp = opened(path, 2, NULL);
	struct sample s;
	if (rp) {
		CHECK(replay_get(rp, 1, &s) == 0 && s.time == 2.0);
		replay_close(rp);
	}
	close(fds[0]);
	reaped(pid);

	/* a FIFO whose writer comes later */
	const char *fifo = tmp_path("fifo");
	unlink(fifo);
	CHECK(mkfifo(fifo, 0600) == 0);
	pid = writer(fifo, -1, text, 100);
	replay_close(opened(fifo, 2, NULL));
	reaped(pid);
}

static void test_cancel(void)
{
	int cancel[2];
	struct replay_opts o = { .begin = NAN, .end = NAN, .cancel_fd = -1 };
	const char *fifo = tmp_path("fifo");

	CHECK(pipe(cancel) == 0);
	o.cancel_fd = cancel[0];
	/* not readable: no effect */
	struct replay *rp = replay_open_opts(file("c.ndjson", header, sample(1),
						  NULL), &o, err, sizeof(err));
	CHECK(rp && replay_count(rp) == 1);
	CHECK(write(cancel[1], "x", 1) == 1);
	/* readable: a regular file, a FIFO no writer ever opens */
	errno = 0;
	CHECK(replay_open_opts(tmp_path("c.ndjson"), &o, err, sizeof(err)) ==
	      NULL && errno == EINTR);
	CHECK(strstr(err, "was interrupted") != NULL);
	unlink(fifo);
	CHECK(mkfifo(fifo, 0600) == 0);
	errno = 0;
	CHECK(replay_open_opts(fifo, &o, err, sizeof(err)) == NULL &&
	      errno == EINTR);
	/* a sample read after it */
	struct sample s;
	errno = 0;
	CHECK(rp && replay_get(rp, 0, &s) == -1 && errno == EINTR);
	replay_close(rp);
	close(cancel[0]);
	close(cancel[1]);
}

static void test_window(void)
{
	struct replay_opts o = { .begin = 2.0, .end = 3.0, .cancel_fd = -1 };
	const char *p = file("w.ndjson", header, sample(1), sample(2),
			     sample(3), sample(4), NULL);
	struct replay *rp = replay_open_opts(p, &o, err, sizeof(err));

	CHECK(rp && replay_count(rp) == 2);
	if (rp)
		CHECK(replay_time(rp, 0) == 2.0 && replay_line(rp, 0) == 3);
	replay_close(rp);
	/* no more samples than asked: the rest is not read, and said so */
	o = (struct replay_opts){ .begin = NAN, .end = NAN, .cancel_fd = -1,
				  .max_samples = 2 };
	rp = replay_open_opts(p, &o, err, sizeof(err));
	CHECK(rp && replay_count(rp) == 2);
	CHECK(rp && replay_problem(rp) &&
	      strcmp(replay_problem(rp), "a replay holds at most 8388608 "
		     "samples: replayed those before line 4 (choose a window "
		     "with --begin and --end)") == 0);
	replay_close(rp);
}

static void on_note(const char *text, void *arg)
{
	char *got = arg;

	snprintf(got, 512, "%s", text);
}

static void test_player(void)
{
	char note[512] = "";
	const char *p = file("p.ndjson", header, sample(1),
			     "{\"time\":2.0,\"tasks\":[{\"pid\":1,}]}\n",
			     sample(3), NULL);
	struct producer *m = player_open_set(&p, 1, NAN, NAN, false, NULL, -1,
					     err, sizeof(err));
	struct sample s;

	CHECK(m != NULL);
	if (!m)
		return;
	producer_on_note(m, on_note, note);
	CHECK(producer_sample(m, &s) == 0 && s.time == 1.0);
	CHECK(producer_sample(m, &s) == 0 && s.time == 3.0);
	CHECK_STR(note, "line 3 was skipped: it is not valid JSON");
	CHECK(producer_notices(m)[0] != NULL);
	CHECK_STR(producer_notices(m)[0], "line 3 was skipped: it is not valid "
		  "JSON");
	producer_free(m);

	/* nothing usable: a failure that says why */
	p = file("none.ndjson", header, "{\"time\":2.0,\"tasks\":[]}}\n", NULL);
	errno = 0;
	CHECK(player_open_set(&p, 1, NAN, NAN, false, NULL, -1, err,
			      sizeof(err)) == NULL && errno == ENODATA);
	CHECK_STR(err, "the recording holds no usable sample: line 2 was "
		  "skipped: it is not valid JSON");
	p = file("only.ndjson", header, NULL);
	CHECK(player_open_set(&p, 1, NAN, NAN, false, NULL, -1, err,
			      sizeof(err)) == NULL && errno == ENODATA);
	CHECK_STR(err, "the recording holds no sample");
}

int main(void)
{
	const char *tmp = getenv("TMPDIR");

	setlocale(LC_ALL, "C");
	signal(SIGPIPE, SIG_IGN);
	snprintf(dir, sizeof(dir), "%s/test_replay_faults.XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 99;
	}
	test_reasons();
	test_found_when_read();
	test_dropped();
	test_last_line();
	test_order();
	test_no_time();
	test_first_line();
	test_cost();
	test_pipes();
	test_cancel();
	test_window();
	test_player();
	char cmd[4200];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "cannot remove %s\n", dir);
	return unit_done();
}
