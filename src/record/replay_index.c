/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The index of a recording: one quick pass over its text (its samples
 * copied into an unlinked temporary file when it is compressed or not a
 * regular file) that parses headers in full, checks sample lines only
 * for their shape (json_scan.h) and time, and keeps for each sample its
 * offset, length, time and line; what was skipped or where reading
 * stopped is counted (replay_damage.c). Samples are found by time here
 * too. Lines are judged and parsed by replay_parse.c.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include <json.h>

#include "lib/all_io.h"
#include "lib/nls.h"
#include "record/gzio.h"
#include "record/json_keys.h"
#include "record/json_read.h"
#include "record/json_scan.h"
#include "record/record.h"
#include "record/replay.h"
#include "record/replay_damage.h"
#include "record/replay_int.h"
#include "record/storeindex.h"

/* Header strings (program, hostname, kernel) are kept up to this long. */
#define HEADER_STR_MAX 255
/* A time after this (the year 10000) is no time a clock gave. */
#define TIME_MAX 253402300800.0

/* --- classifying lines --- */

static bool blank(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
			return false;
	return true;
}

static char *dup_str(json_object *v)
{
	const char *s = json_read_str(v);

	return s ? strndup(s, HEADER_STR_MAX) : NULL;
}

static bool add_session(struct replay *rp, json_object *o)
{
	struct session *ss = realloc(rp->sess, (rp->nsess + 1) * sizeof(*ss));
	long long hz, ncpu;

	if (!ss)
		return false;
	rp->sess = ss;
	ss = &rp->sess[rp->nsess++];
	memset(ss, 0, sizeof(*ss));
	ss->program = dup_str(json_read_get(o, JSON_KEY_PROGRAM));
	ss->hostname = dup_str(json_read_get(o, JSON_KEY_HOSTNAME));
	ss->kernel = dup_str(json_read_get(o, JSON_KEY_KERNEL));
	hz = json_read_int_or(json_read_get(o, JSON_KEY_HZ), 0);
	ncpu = json_read_int_or(json_read_get(o, JSON_KEY_NCPU), 0);
	double started = json_read_num(json_read_get(o, JSON_KEY_STARTED));
	ss->h = (struct rec_header){
		.version = json_read_header_version(o),
		.program = ss->program,
		/* impossible values are unknown, as a sample's are */
		.started = started > 0 && started < TIME_MAX ? started : NAN,
		.hostname = ss->hostname,
		.kernel = ss->kernel,
		.hz = hz <= 0 || hz > 1000000 ? 0 : (long)hz,
		.ncpu = ncpu <= 0 || ncpu > 1000000 ? 0 : (long)ncpu,
	};
	return true;
}

/* --- the scan of replay_open_opts --- */

/*
 * Opening must be quick for a recording of hours, and json-c builds every
 * object of a line (some 70 us a row), so the scan parses only headers in
 * full. A sample line is checked for its shape (json_scan.h: whole, not
 * too deep, no raw control byte, not too costly to decode), "time" first
 * as view/out_json.c writes it, and a "tasks" array. Anything else is parsed
 * in full. replay_get() parses every line it returns and skips what then
 * fails.
 */

enum kind { K_BLANK, K_BAD, K_HEADER, K_SAMPLE, K_CANCEL };

struct scan {
	struct replay *rp;
	const char *path;
	char *err;
	size_t errsize;
	bool regular;          /* reading a regular file (else waited for) */
	size_t line_no;        /* of the last line handled */
	bool have_header;
	size_t pending;        /* a bad line not yet judged, or 0 */
	struct skip pending_why;
	double last_time;      /* of the session's last sample, NAN: none */
	bool stop;             /* reading went as far as it may */
	bool fail;             /* replay_open_opts fails with err */
	bool cancelled;        /* ... because the cancel fd said so */
	bool copy;             /* samples go to rp->fd, a copy */
	off_t copy_len;        /* its length */
};

static bool has_prefix(const char *s, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);

	return len >= n && memcmp(s, prefix, n) == 0;
}

static enum kind classify(struct replay *rp, const char *s, size_t len,
			  json_object **obj, double *time, struct skip *why)
{
	static const char tasks[] = ",\"" JSON_KEY_TASKS "\":[";
	json_object *o;

	*obj = NULL;
	if (blank(s, len))
		return K_BLANK;
	while (len && (s[len - 1] == ' ' || s[len - 1] == '\t' ||
		       s[len - 1] == '\r'))
		len--;
	if (replay_parse_shape(s, len, why) < 0)
		return K_BAD;
	if (!has_prefix(s, len, "{\"" REC_MAGIC_KEY "\":") &&
	    json_scan_time(s, len, time) &&
	    memmem(s, len, tasks, sizeof(tasks) - 1))
		return K_SAMPLE;
	/* a header, or a line another writer laid out: parse it */
	o = replay_parse_line(rp, s, len, why);
	if (!o)
		return errno == EINTR ? K_CANCEL : K_BAD;
	if (json_read_header_version(o)) {
		*obj = o;
		return K_HEADER;
	}
	if (json_read_is_sample(o)) {
		*time = json_read_num(json_read_get(o, JSON_KEY_TIME));
		json_object_put(o);
		return K_SAMPLE;
	}
	json_object_put(o);
	why->why = SKIP_NOT_SAMPLE;
	return K_BAD;
}

static void oom(struct scan *sc)
{
	snprintf(sc->err, sc->errsize, "%s: %s", sc->path, strerror(ENOMEM));
	sc->fail = sc->stop = true;
}

static void interrupted(struct scan *sc)
{
	snprintf(sc->err, sc->errsize, _("reading %s was interrupted"),
		 sc->path);
	sc->fail = sc->stop = sc->cancelled = true;
}

static void not_recording(struct scan *sc)
{
	snprintf(sc->err, sc->errsize, _("%s is not a stalltop recording "
		 "(its first line is not a recording header)"), sc->path);
	sc->stop = sc->fail = true;
}

/* The first header decides whether this is a recording we can read. */
static void first_header(struct scan *sc, enum kind k, json_object *o)
{
	int ver = k == K_HEADER ? json_read_header_version(o) : 0;

	sc->stop = true;
	sc->fail = true;
	if (ver == 0) {
		not_recording(sc);
	} else if (ver > REC_FORMAT_VERSION) {
		snprintf(sc->err, sc->errsize, _("%s is a recording of format "
			 "version %d, but this stalltop reads versions up to "
			 "%d: use a newer stalltop"),
			 sc->path, ver, REC_FORMAT_VERSION);
	} else if (!add_session(sc->rp, o)) {
		oom(sc);
	} else {
		sc->have_header = true;
		sc->stop = sc->fail = false;
	}
}

/* The window of replay_opts: see replay.h. */
static bool in_window(const struct replay *rp, double t)
{
	double b = rp->opts.begin, e = rp->opts.end;

	if (isnan(b) && isnan(e))
		return true;
	return !isnan(t) && (isnan(b) || t >= b) && (isnan(e) || t <= e);
}

static void add_sample(struct scan *sc, off_t off, const char *s, size_t len,
		       double time)
{
	struct replay *rp = sc->rp;
	struct skip k = { SKIP_TIME, 0 };

	if (!isnan(time) && !(time > 0 && time < TIME_MAX)) {
		replay_damage_skip(&rp->dmg, sc->line_no, &k);
		return;
	}
	if (!isnan(time) && !isnan(sc->last_time) && time <= sc->last_time) {
		k.why = SKIP_ORDER;
		replay_damage_skip(&rp->dmg, sc->line_no, &k);
		return;
	}
	if (!isnan(time))
		sc->last_time = time;
	if (!in_window(rp, time))
		return;
	if (rp->n >= rp->opts.max_samples) {
		snprintf(rp->dmg.stop, sizeof(rp->dmg.stop),
			 _("a replay holds at most %zu samples: replayed those "
			   "before line %zu (choose a window with --begin and "
			   "--end)"), REPLAY_SAMPLES_MAX, sc->line_no);
		sc->stop = true;
		return;
	}
	if (rp->n == rp->cap) {
		size_t cap = rp->cap ? rp->cap * 2 : 256;
		struct entry *e = realloc(rp->idx, cap * sizeof(*e));

		if (!e) {
			oom(sc);
			return;
		}
		rp->idx = e;
		rp->cap = cap;
	}
	if (sc->copy && (uint64_t)sc->copy_len + len > REPLAY_COPY_MAX) {
		snprintf(rp->dmg.stop, sizeof(rp->dmg.stop),
			 _("%s is copied into a temporary file of at most %llu "
			   "MiB to be replayed: replayed the samples before "
			   "line %zu"), sc->path,
			 (unsigned long long)(REPLAY_COPY_MAX >> 20),
			 sc->line_no);
		sc->stop = true;
		return;
	}
	if (sc->copy) {
		/* the copy holds the samples only: nothing skipped takes room */
		if (write_all(rp->fd, s, len) < 0) {
			snprintf(sc->err, sc->errsize, _("cannot copy %s into "
				 "a temporary file: %s"), sc->path,
				 strerror(errno));
			sc->fail = sc->stop = true;
			return;
		}
		off = sc->copy_len;
		sc->copy_len += (off_t)len;
	}
	if (isnan(time) && !rp->dmg.notime++)
		rp->dmg.first_notime = sc->line_no;
	rp->idx[rp->n++] = (struct entry){
		.off = off, .time = time, .line = sc->line_no,
		.len = (uint32_t)len, .session = (uint32_t)(rp->nsess - 1),
	};
}

static void add_header(struct scan *sc, json_object *o)
{
	struct replay *rp = sc->rp;
	struct damage *d = &rp->dmg;
	int ver = json_read_header_version(o);

	if (ver > REC_FORMAT_VERSION) {
		size_t n = rp->n;

		snprintf(d->stop, sizeof(d->stop),
			 ngettext("line %zu starts a session of format "
				  "version %d, newer than this stalltop "
				  "reads (%d): replayed the %zu sample "
				  "before it",
				  "line %zu starts a session of format "
				  "version %d, newer than this stalltop "
				  "reads (%d): replayed the %zu samples "
				  "before it", n),
			 sc->line_no, ver, REC_FORMAT_VERSION, n);
		sc->stop = true;
	} else if (rp->nsess >= REPLAY_SESSIONS_MAX) {
		snprintf(d->stop, sizeof(d->stop),
			 _("a recording holds at most %zu sessions: replayed the "
			   "samples before line %zu"), REPLAY_SESSIONS_MAX,
			 sc->line_no);
		sc->stop = true;
	} else if (!add_session(rp, o)) {
		oom(sc);
	}
	sc->last_time = NAN;
}

/* The line being gathered from the chunks. */
struct gathering {
	char *buf;
	size_t len, cap;
	off_t start;
	bool too_long;    /* more than may be held: only its end is sought */
};

/*
 * One line of len bytes at off: a complete one ("\n" seen) or, last, what
 * follows the last "\n". too_long: more than may be held (s is not it).
 */
static void handle(struct scan *sc, off_t off, const char *s, size_t len,
		   bool too_long, bool last)
{
	struct replay *rp = sc->rp;
	struct damage *d = &rp->dmg;
	json_object *o = NULL;
	double time = NAN;
	struct skip why = { SKIP_LONG, 0 };
	enum kind k = too_long ? K_BAD : classify(rp, s, len, &o, &time, &why);

	if (k == K_CANCEL) {
		interrupted(sc);
		return;
	}
	if (k == K_BLANK && last)
		return; /* spaces after the last line are no line */
	sc->line_no++;
	if (k == K_BLANK)
		return;
	if (!sc->have_header) {
		if (too_long)
			not_recording(sc);
		else
			first_header(sc, k, o);
		goto out;
	}
	if (sc->pending) {
		/* cut short before a new session: torn; else skipped */
		if (k == K_HEADER && sc->pending_why.why == SKIP_CUT) {
			if (!d->torn++)
				d->first_torn = sc->pending;
		} else {
			replay_damage_skip(d, sc->pending, &sc->pending_why);
		}
		sc->pending = 0;
	}
	switch (k) {
	case K_HEADER:
		add_header(sc, o);
		break;
	case K_SAMPLE:
		add_sample(sc, off, s, len, time);
		break;
	case K_BAD:
		if (last && why.why == SKIP_CUT)
			d->torn_last = true; /* no "\n" and cut short: torn */
		else if (last)
			replay_damage_skip(d, sc->line_no, &why);
		else {
			sc->pending = sc->line_no;
			sc->pending_why = why;
		}
		break;
	case K_BLANK:
	case K_CANCEL:
		break;
	}
out:
	json_object_put(o);
}

/* The end of the stream: what follows the last "\n", zlib's verdict. */
static void finish(struct scan *sc, const struct gathering *g, int zerr)
{
	struct replay *rp = sc->rp;
	struct damage *d = &rp->dmg;

	if (!sc->stop && (g->len || g->too_long) &&
	    (zerr == Z_OK || zerr == Z_BUF_ERROR))
		handle(sc, g->start, g->buf ? g->buf : "", g->len,
		       g->too_long, true);
	if (sc->fail)
		return;
	if (!sc->have_header) {
		if (zerr == Z_OK)
			snprintf(sc->err, sc->errsize, _("%s is empty: it holds "
				 "no stalltop recording"), sc->path);
		else
			snprintf(sc->err, sc->errsize, _("cannot read %s: the "
				 "compressed data is damaged"), sc->path);
		sc->fail = true;
		return;
	}
	if (sc->pending) {
		/* the last complete line: skipped for what it is, not torn */
		replay_damage_skip(d, sc->pending, &sc->pending_why);
		sc->pending = 0;
	}
	if (!sc->stop && zerr != Z_OK && zerr != Z_BUF_ERROR) {
		size_t n = rp->n;

		d->zdamage = true;
		snprintf(d->stop, sizeof(d->stop),
			 ngettext("the compressed data is damaged after line "
				  "%zu: replayed the %zu sample before it",
				  "the compressed data is damaged after line "
				  "%zu: replayed the %zu samples before it", n),
			 sc->line_no, n);
	}
	if (!sc->stop)
		d->not_closed = !d->torn_last && zerr == Z_BUF_ERROR;
	replay_damage_problem(rp);
}

/* An unlinked file for the copy, in $TMPDIR or /tmp. */
static int temp_fd(void)
{
	const char *dir = getenv("TMPDIR");
	char path[4096];
	int fd;

	if (!dir || !*dir)
		dir = "/tmp";
	fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd >= 0 || (errno != EOPNOTSUPP && errno != EISDIR &&
			errno != EINVAL))
		return fd;
	if ((size_t)snprintf(path, sizeof(path), "%s/stalltop-replay.XXXXXX",
			     dir) >= sizeof(path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	fd = mkostemp(path, O_CLOEXEC);
	if (fd >= 0)
		unlink(path);
	return fd;
}

/* Append n bytes to the line being gathered. */
static bool gather(char **buf, size_t *len, size_t *cap, const char *s,
		   size_t n)
{
	if (n == 0)
		return true;
	if (*len + n > *cap) {
		size_t c = *cap ? *cap : 4096;

		while (c < *len + n)
			c *= 2;
		char *p = realloc(*buf, c);
		if (!p)
			return false;
		*buf = p;
		*cap = c;
	}
	memcpy(*buf + *len, s, n);
	*len += n;
	return true;
}

/*
 * Before each read: stop when the cancel descriptor is readable; on a
 * pipe or FIFO wait (for data, or its end) together with it, so that a
 * writer that never comes does not hold us.
 */
static int wait_input(void *arg, int fd)
{
	struct scan *sc = arg;
	int cancel = sc->rp->opts.cancel_fd;
	struct pollfd p[2] = { { cancel, POLLIN, 0 }, { fd, POLLIN, 0 } };

	if (sc->regular) {
		if (!replay_parse_cancelled(sc->rp))
			return 0;
		errno = EINTR;
		return -1;
	}
	for (;;) {
		int r = cancel >= 0 ? poll(p, 2, -1) : poll(p + 1, 1, -1);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (cancel >= 0 && p[0].revents) {
			errno = EINTR;
			return -1;
		}
		return 0; /* data, its end or an error: read() tells */
	}
}

/* The bytes of one chunk (at pos in the text) into lines. */
static void split(struct scan *sc, struct gathering *g, const char *chunk,
		  size_t n, off_t pos)
{
	for (size_t i = 0; i < n && !sc->stop;) {
		const char *nl = memchr(chunk + i, '\n', n - i);
		size_t take = nl ? (size_t)(nl - (chunk + i)) : n - i;
		size_t limit = sc->have_header ? REPLAY_LINE_MAX
					       : REPLAY_HEADER_MAX;

		if (g->len == 0 && !g->too_long)
			g->start = pos + (off_t)i;
		if (!g->too_long && take > limit - g->len) {
			/* no more of it is held */
			g->too_long = true;
			g->len = 0;
			if (!sc->have_header) {
				/* no header is that long: do not read on */
				sc->line_no++;
				not_recording(sc);
				break;
			}
		}
		if (!g->too_long &&
		    !gather(&g->buf, &g->len, &g->cap, chunk + i, take)) {
			oom(sc);
			break;
		}
		i += take;
		if (nl) {
			handle(sc, g->start, g->buf ? g->buf : "", g->len,
			       g->too_long, false);
			g->len = 0;
			g->too_long = false;
			i++;
		}
	}
}

/*
 * The last place at which a record may start (its magic) up to the end
 * of the n bytes at p, which are those at pos of the stream: last, or
 * one in them. prev: the 3 bytes before them, updated.
 */
static uint64_t magic_last(const char *p, size_t n, uint64_t pos,
			   char prev[3], uint64_t last)
{
	const char *magic = STOREINDEX_MAGIC;
	char edge[6];
	size_t m = n < 3 ? n : 3;

	/* one that starts in prev and ends in p */
	memcpy(edge, prev, 3);
	memcpy(edge + 3, p, m);
	for (size_t i = 0; i < 3 && i + 4 <= 3 + m; i++)
		if (memcmp(edge + i, magic, 4) == 0 && pos + i >= 3)
			last = pos + i - 3;
	for (const char *q = p; (q = memmem(q, n - (size_t)(q - p), magic,
					    4)) != NULL; q++)
		last = pos + (uint64_t)(q - p);
	if (n >= 3) {
		memcpy(prev, p + n - 3, 3);
	} else {
		memmove(prev, prev + n, 3 - n);
		memcpy(prev + 3 - n, p, n);
	}
	return last;
}

/*
 * A recording of readings read from a pipe, FIFO or device: the n bytes
 * of chunk (of size cap) first, into an unlinked temporary file, left in
 * rp->store_fd for the player (replay_take_store). The copy stops where
 * no record can be any more (REPLAY_COPY_GAP bytes with no record's
 * start: what follows is no recording) or at REPLAY_COPY_MAX bytes; the
 * note of either is rp->dmg.stop.
 */
static void copy_store(struct scan *sc, struct gzio_reader *z, char *chunk,
		       size_t n, size_t cap)
{
	struct damage *d = &sc->rp->dmg;
	int fd = temp_fd();
	uint64_t pos = 0, last = 0;
	char prev[3] = { 0, 0, 0 };

	if (fd < 0) {
		snprintf(sc->err, sc->errsize, _("cannot create a temporary "
						 "file to read %s: %s"),
			 sc->path, strerror(errno));
		sc->fail = true;
		return;
	}
	do {
		size_t take = n;
		bool end = false;

		last = magic_last(chunk, n, pos, prev, last);
		if (pos + n > last + REPLAY_COPY_GAP) {
			take = (size_t)(last + REPLAY_COPY_GAP - pos);
			end = d->copy_cut = true;
			snprintf(d->stop, sizeof(d->stop),
				 _("reading %s stopped at byte %llu: no record "
				   "starts in the %llu bytes before it (they "
				   "were skipped), so what follows is no "
				   "recording"), sc->path,
				 (unsigned long long)(pos + take),
				 (unsigned long long)(pos + take - last));
		}
		if (pos + take > REPLAY_COPY_MAX) {
			take = (size_t)(REPLAY_COPY_MAX - pos);
			end = true;
			d->copy_cut = false;
			snprintf(d->stop, sizeof(d->stop),
				 _("%s is copied into a temporary file of at "
				   "most %llu MiB to be replayed: replayed what "
				   "those hold (give the file by name to replay "
				   "all of it)"), sc->path,
				 (unsigned long long)(REPLAY_COPY_MAX >> 20));
		}
		if (write_all(fd, chunk, take) < 0) {
			snprintf(sc->err, sc->errsize,
				 _("cannot write a temporary file: %s"),
				 strerror(errno));
			sc->fail = true;
			close(fd);
			return;
		}
		pos += take;
		if (end)
			break;
	} while ((n = gzio_read(z, chunk, cap)) > 0);
	if (lseek(fd, 0, SEEK_SET) < 0) {
		snprintf(sc->err, sc->errsize, _("cannot read %s: %s"),
			 sc->path, strerror(errno));
		sc->fail = true;
		close(fd);
		return;
	}
	sc->rp->store_fd = fd;
	sc->stop = true;
}

/*
 * Read the file's text and hand every line to handle(); when it is
 * compressed or not a regular file, the samples kept are copied into a
 * temporary file as they are found (what is skipped takes no room).
 * Leaves rp->fd open on whichever file the offsets refer to. Takes fd.
 */
static void scan_file(struct scan *sc, int fd)
{
	enum { CHUNK = 65536 };
	struct replay *rp = sc->rp;
	struct gzio_reader *z = gzio_reader_new(fd);
	char *chunk = malloc(CHUNK);
	struct gathering g = { NULL, 0, 0, 0, false };
	size_t n;
	off_t pos = 0;
	bool first = true;

	if (!z || !chunk) {
		gzio_reader_free(z);
		free(chunk);
		close(fd);
		oom(sc);
		return;
	}
	gzio_reader_set_wait(z, wait_input, sc);
	while (!sc->stop && (n = gzio_read(z, chunk, CHUNK)) > 0) {
		if (first) {
			first = false;
			if (!sc->regular && !gzio_compressed(z)) {
				size_t m;

				/* enough of it to tell a recording of readings */
				while (n < 4 && (m = gzio_read(z, chunk + n,
							       CHUNK - n)) > 0)
					n += m;
				if (storeindex_sniff(chunk, n)) {
					copy_store(sc, z, chunk, n, CHUNK);
					break;
				}
			}
			if (gzio_compressed(z) || !sc->regular) {
				/* the offsets will be those of the copy */
				rp->fd = temp_fd();
				if (rp->fd < 0) {
					snprintf(sc->err, sc->errsize,
						 _("cannot create a temporary "
						   "file to read %s: %s"),
						 sc->path, strerror(errno));
					sc->fail = true;
					break;
				}
				sc->copy = true;
			}
		}
		split(sc, &g, chunk, n, pos);
		pos += (off_t)n;
	}
	if (!sc->fail) {
		if (gzio_error(z) == Z_ERRNO && gzio_errno(z) == EINTR) {
			interrupted(sc);
		} else if (gzio_error(z) == Z_ERRNO) {
			snprintf(sc->err, sc->errsize, _("cannot read %s: %s"),
				 sc->path, strerror(gzio_errno(z)));
			sc->fail = true;
		} else if (gzio_error(z) == Z_MEM_ERROR) {
			oom(sc);
		} else if (sc->rp->store_fd < 0) {
			finish(sc, &g, sc->stop ? Z_OK : gzio_error(z));
		}
	}
	if (rp->fd < 0)
		rp->fd = fd; /* offsets are those of the file itself */
	else
		close(fd);
	gzio_reader_free(z);
	free(g.buf);
	free(chunk);
}

int replay_index_scan(struct replay *rp, int fd, bool regular,
		      const char *path, char *err, size_t errsize)
{
	struct scan sc = { .rp = rp, .path = path, .err = err,
			   .errsize = errsize, .regular = regular,
			   .last_time = NAN };

	scan_file(&sc, fd);
	if (sc.cancelled)
		errno = EINTR;
	return sc.fail ? -1 : 0;
}
