/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The index of a recording: one quick pass over its text (inflated into
 * an unlinked temporary file when compressed) that parses headers in
 * full, checks sample lines only for their shape, and keeps for each
 * sample its offset, length, time and line; what was skipped or where
 * reading stopped becomes the replay's problem text. Samples are found by
 * time here too.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
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
#include "record/record.h"
#include "record/replay.h"
#include "record/replay_int.h"

/* --- parsing and classifying lines --- */
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

	return s ? strdup(s) : NULL;
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
	ss->h = (struct rec_header){
		.version = json_read_header_version(o),
		.program = ss->program,
		.started = json_read_num(json_read_get(o, JSON_KEY_STARTED)),
		.hostname = ss->hostname,
		.kernel = ss->kernel,
		.hz = hz < 0 || hz > LONG_MAX ? 0 : (long)hz,
		.ncpu = ncpu < 0 || ncpu > LONG_MAX ? 0 : (long)ncpu,
	};
	return true;
}

/* Add "; " and a formatted note to the text being built. */
static void add_note(char **text, const char *fmt, ...)
{
	char buf[600];
	va_list ap;
	size_t old = *text ? strlen(*text) : 0;
	char *p;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	p = realloc(*text, old + strlen(buf) + 3);
	if (!p)
		return;
	if (old)
		strcpy(p + old, "; ");
	strcpy(p + (old ? old + 2 : 0), buf);
	*text = p;
}

/* The problem text from the counts. */
static void make_problem(struct replay *rp)
{
	const struct damage *d = &rp->dmg;
	char *text = NULL;

	if (d->corrupt == 1)
		add_note(&text, _("line %zu is corrupt and was skipped"),
			 d->first_corrupt);
	else if (d->corrupt)
		add_note(&text, ngettext("%zu corrupt line was skipped (the "
					 "first is line %zu)",
					 "%zu corrupt lines were skipped (the "
					 "first is line %zu)", d->corrupt),
			 d->corrupt, d->first_corrupt);
	if (d->torn == 1)
		add_note(&text, _("line %zu is torn (the recording was "
				  "interrupted there) and was ignored"),
			 d->first_torn);
	else if (d->torn)
		add_note(&text, ngettext("%zu torn line (the recording was "
					 "interrupted; the first is line %zu) "
					 "was ignored",
					 "%zu torn lines (the recording was "
					 "interrupted; the first is line %zu) "
					 "were ignored", d->torn),
			 d->torn, d->first_torn);
	if (*d->stop)
		add_note(&text, "%s", d->stop);
	if (d->torn_last)
		add_note(&text, "%s", _("the last record is torn (incomplete) "
					"and was ignored"));
	if (d->not_closed)
		add_note(&text, "%s", _("the compressed recording was not "
					"closed (stalltop was interrupted or is "
					"still recording); every complete "
					"record was replayed"));
	free(rp->problem);
	rp->problem = text;
}
/* --- the scan of replay_open --- */

/*
 * Opening must be quick for a recording of hours, and json-c builds every
 * object of a line (some 70 us a row), so the scan parses only headers in
 * full. A sample line is checked for its shape: "{" ... "}", no raw
 * control byte (JSON escapes them all; one means damage), "time" first
 * as json_write.c writes it, and a "tasks" array. Anything else is parsed in
 * full. replay_get() parses every line it returns and skips what then
 * fails.
 */

enum kind { K_BLANK, K_BAD, K_HEADER, K_SAMPLE };

struct scan {
	struct replay *rp;
	const char *path;
	char *err;
	size_t errsize;
	size_t line_no;        /* of the last line handled */
	bool have_header;
	size_t pending;        /* a bad line not yet judged, or 0 */
	bool stop;             /* reading went as far as it may */
	bool fail;             /* replay_open fails with err */
};

static bool has_prefix(const char *s, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);

	return len >= n && memcmp(s, prefix, n) == 0;
}

/*
 * The number after {"time": when it is one (or null) and is followed by
 * "," or "}": the fast path of the scan.
 */
static bool quick_time(struct replay *rp, const char *s, size_t len,
		       double *time)
{
	static const char key[] = "{\"" JSON_KEY_TIME "\":";
	char num[64];
	size_t i = sizeof(key) - 1, n = 0;
	char *end;

	if (!has_prefix(s, len, key))
		return false;
	if (has_prefix(s + i, len - i, "null")) {
		*time = NAN;
		i += 4;
		return i < len && (s[i] == ',' || s[i] == '}');
	}
	while (i < len && n < sizeof(num) - 1 && s[i] &&
	       strchr("+-.0123456789eE", s[i]))
		num[n++] = s[i++];
	num[n] = '\0';
	if (!n || i >= len || (s[i] != ',' && s[i] != '}') ||
	    rp->c_locale == (locale_t)0)
		return false;
	*time = strtod_l(num, &end, rp->c_locale);
	return *end == '\0';
}

static bool has_control(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)s[i] < 0x20 && s[i] != '\t' && s[i] != '\r')
			return true;
	return false;
}

static enum kind classify(struct replay *rp, const char *s, size_t len,
			  json_object **obj, double *time)
{
	static const char tasks[] = ",\"" JSON_KEY_TASKS "\":[";
	json_object *o;

	*obj = NULL;
	if (blank(s, len))
		return K_BLANK;
	while (len && (s[len - 1] == ' ' || s[len - 1] == '\t' ||
		       s[len - 1] == '\r'))
		len--;
	if (len < 2 || s[0] != '{' || s[len - 1] != '}' || has_control(s, len))
		return K_BAD;
	if (!has_prefix(s, len, "{\"" REC_MAGIC_KEY "\":") &&
	    quick_time(rp, s, len, time) &&
	    memmem(s, len, tasks, sizeof(tasks) - 1))
		return K_SAMPLE;
	/* a header, or a line another writer laid out: parse it */
	o = json_read_line(rp->tok, s, len);
	if (!o)
		return K_BAD;
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
	return K_BAD;
}

static void oom(struct scan *sc)
{
	snprintf(sc->err, sc->errsize, "%s: %s", sc->path, strerror(ENOMEM));
	sc->fail = sc->stop = true;
}

/* The first header decides whether this is a recording we can read. */
static void first_header(struct scan *sc, enum kind k, json_object *o)
{
	int ver = k == K_HEADER ? json_read_header_version(o) : 0;

	sc->stop = true;
	sc->fail = true;
	if (ver == 0) {
		snprintf(sc->err, sc->errsize, _("%s is not a stalltop recording "
			 "(its first line is not a recording header)"),
			 sc->path);
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

static void count_corrupt(struct damage *d, size_t line_no)
{
	if (!d->corrupt++ || line_no < d->first_corrupt)
		d->first_corrupt = line_no;
}

static void line(struct scan *sc, off_t off, const char *s, size_t len)
{
	struct replay *rp = sc->rp;
	struct damage *d = &rp->dmg;
	json_object *o;
	double time = NAN;
	enum kind k = classify(rp, s, len, &o, &time);

	sc->line_no++;
	if (k == K_BLANK)
		goto out;
	if (!sc->have_header) {
		first_header(sc, k, o);
		goto out;
	}
	if (sc->pending) {
		/* not the last line: torn before a new session, or corrupt */
		if (k == K_HEADER) {
			if (!d->torn++)
				d->first_torn = sc->pending;
		} else {
			count_corrupt(d, sc->pending);
		}
		sc->pending = 0;
	}
	switch (k) {
	case K_HEADER: {
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
		} else if (!add_session(rp, o)) {
			oom(sc);
		}
		break;
	}
	case K_SAMPLE:
		if (rp->n == rp->cap) {
			size_t cap = rp->cap ? rp->cap * 2 : 256;
			struct entry *e = realloc(rp->idx, cap * sizeof(*e));

			if (!e) {
				oom(sc);
				break;
			}
			rp->idx = e;
			rp->cap = cap;
		}
		rp->idx[rp->n++] = (struct entry){ off, len, time, sc->line_no,
						   rp->nsess - 1, false };
		break;
	case K_BAD:
		sc->pending = sc->line_no;
		break;
	case K_BLANK:
		break;
	}
out:
	json_object_put(o);
}

/* The end of the stream: a last line without "\n", and zlib's verdict. */
static void finish(struct scan *sc, const char *s, size_t len, int zerr)
{
	struct replay *rp = sc->rp;
	struct damage *d = &rp->dmg;
	bool fragment = len && !blank(s, len);

	if (!sc->have_header && !sc->fail) {
		/* no complete first line: a lone header without "\n" will do */
		json_object *o = NULL;
		double time;
		enum kind k = fragment ? classify(rp, s, len, &o, &time) : K_BLANK;

		if (k == K_BLANK && zerr == Z_OK) {
			snprintf(sc->err, sc->errsize, _("%s is empty: it holds "
				 "no stalltop recording"), sc->path);
			sc->fail = true;
		} else if (k == K_BLANK) {
			snprintf(sc->err, sc->errsize, _("cannot read %s: the "
				 "compressed data is damaged"), sc->path);
			sc->fail = true;
		} else {
			first_header(sc, k, o);
		}
		json_object_put(o);
		return;
	}
	if (sc->fail)
		return;
	if (!sc->stop && zerr != Z_OK && zerr != Z_BUF_ERROR) {
		size_t n = rp->n;

		snprintf(d->stop, sizeof(d->stop),
			 ngettext("the compressed data is damaged after line "
				  "%zu: replayed the %zu sample before it",
				  "the compressed data is damaged after line "
				  "%zu: replayed the %zu samples before it", n),
			 sc->line_no, n);
		if (sc->pending)
			count_corrupt(d, sc->pending);
	} else if (!sc->stop) {
		/* the last line, with or without "\n", is torn if it is bad */
		if (sc->pending && fragment)
			count_corrupt(d, sc->pending);
		d->torn_last = sc->pending || fragment;
		d->not_closed = !d->torn_last && zerr == Z_BUF_ERROR;
	}
	make_problem(rp);
}
/* An unlinked file for the inflated text, in $TMPDIR or /tmp. */
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
/* Append len bytes to the line being gathered. */
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
 * Read the file's text, copying it to a temporary file when it is
 * compressed, and hand every line to line(). Leaves rp->fd open on
 * whichever file the offsets refer to. Takes fd.
 */
static void scan_file(struct scan *sc, int fd)
{
	enum { CHUNK = 65536 };
	struct replay *rp = sc->rp;
	struct gzio_reader *z = gzio_reader_new(fd);
	char *chunk = malloc(CHUNK), *lbuf = NULL;
	size_t llen = 0, lcap = 0, n;
	off_t pos = 0, lstart = 0;
	bool first = true;

	if (!z || !chunk) {
		gzio_reader_free(z);
		free(chunk);
		close(fd);
		oom(sc);
		return;
	}
	while (!sc->stop && (n = gzio_read(z, chunk, CHUNK)) > 0) {
		if (first) {
			first = false;
			if (gzio_compressed(z)) {
				/* the offsets will be those of the copy */
				rp->fd = temp_fd();
				if (rp->fd < 0) {
					snprintf(sc->err, sc->errsize,
						 _("cannot create a temporary "
						   "file to inflate %s: %s"),
						 sc->path, strerror(errno));
					sc->fail = true;
					break;
				}
			}
		}
		if (gzio_compressed(z) && write_all(rp->fd, chunk, n) < 0) {
			snprintf(sc->err, sc->errsize, _("cannot inflate %s into "
				 "a temporary file: %s"), sc->path,
				 strerror(errno));
			sc->fail = true;
			break;
		}
		for (size_t i = 0; i < n && !sc->stop;) {
			char *nl = memchr(chunk + i, '\n', n - i);
			size_t take = nl ? (size_t)(nl - (chunk + i)) : n - i;

			if (llen == 0)
				lstart = pos + (off_t)i;
			if (!gather(&lbuf, &llen, &lcap, chunk + i, take)) {
				oom(sc);
				break;
			}
			i += take;
			if (nl) {
				line(sc, lstart, lbuf ? lbuf : "", llen);
				llen = 0;
				i++;
			}
		}
		pos += (off_t)n;
	}
	if (!sc->fail) {
		if (gzio_error(z) == Z_ERRNO) {
			snprintf(sc->err, sc->errsize, _("cannot read %s: %s"),
				 sc->path, strerror(errno));
			sc->fail = true;
		} else if (gzio_error(z) == Z_MEM_ERROR) {
			oom(sc);
		} else {
			finish(sc, lbuf ? lbuf : "", sc->stop ? 0 : llen,
			       sc->stop ? Z_OK : gzio_error(z));
		}
	}
	if (rp->fd < 0)
		rp->fd = fd; /* offsets are those of the file itself */
	else
		close(fd);
	gzio_reader_free(z);
	free(lbuf);
	free(chunk);
}

int replay_index_scan(struct replay *rp, int fd, const char *path,
		      char *err, size_t errsize)
{
	struct scan sc = { .rp = rp, .path = path, .err = err,
			   .errsize = errsize };

	scan_file(&sc, fd);
	return sc.fail ? -1 : 0;
}

void replay_index_bad_line(struct replay *rp, size_t index)
{
	if (rp->idx[index].bad)
		return;
	rp->idx[index].bad = true;
	count_corrupt(&rp->dmg, rp->idx[index].line);
	make_problem(rp);
}

size_t replay_index_find_time(const struct replay *rp, double epoch)
{
	size_t best = 0;
	bool found = false;

	/* linear: times may step back where a session follows a clock change */
	for (size_t i = 0; i < rp->n; i++) {
		double t = rp->idx[i].time;

		if (!(t <= epoch))
			continue;
		if (!found || t >= rp->idx[best].time) {
			best = i;
			found = true;
		}
	}
	return best;
}
