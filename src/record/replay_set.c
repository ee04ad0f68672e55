/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Several recordings as one timeline: the files are ordered by when their
 * samples start (read from the first two lines alone), those the
 * time window cannot touch are left closed, the others opened with
 * replay_open(), and the samples in the window indexed as (file, sample)
 * pairs. The rules are in replay_set.h.
 */
#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json.h>

#include "lib/nls.h"
#include "record/gzio.h"
#include "record/json_keys.h"
#include "record/json_read.h"
#include "record/replay.h"
#include "record/replay_set.h"

/* The first line of a file is read up to this many bytes for its start. */
#define FIRST_LINE_MAX REPLAY_HEADER_MAX
/* ...and of the second line, for the time of the first sample */
#define AFTER_MAX 128

struct member {
	char *path;
	double start;      /* its first sample's time (first_start), NAN: unknown */
	bool from_dir;     /* found in a directory (else named) */
	struct replay *rp; /* NULL: left out */
};

/* 16 bytes a sample, on top of its file's index */
struct pos {
	uint32_t file;
	uint32_t index;    /* in the file's replay (< REPLAY_SAMPLES_MAX) */
	double time;
};

struct replay_set {
	struct member *m;
	size_t nm;
	size_t nopen;
	bool name_files;   /* prefix damage notes with the file's name */
	struct pos *idx;
	size_t n, cap;
	size_t overlap, first_overlap; /* samples not after the file before */
	char *overlap_file;            /* ... the first one's file */
	char *skipped;     /* notes of files left out */
	char *problem;
	char *skip_note;   /* replay_set_skipped() */
};

/* Add "; " and a formatted note to *text. */
static void __attribute__((format(printf, 2, 3)))
add_note(char **text, const char *fmt, ...)
{
	size_t old = *text ? strlen(*text) : 0;
	char *note, *p;
	va_list ap;
	int len;

	va_start(ap, fmt);
	len = vasprintf(&note, fmt, ap);
	va_end(ap);
	if (len < 0)
		return;
	p = realloc(*text, old + (size_t)len + 3);
	if (p) {
		if (old)
			strcpy(p + old, "; ");
		strcpy(p + (old ? old + 2 : 0), note);
		*text = p;
	}
	free(note);
}

static bool add_member(struct replay_set *set, const char *path, bool from_dir)
{
	struct member *m = realloc(set->m, (set->nm + 1) * sizeof(*m));

	if (!m)
		return false;
	set->m = m;
	m = &set->m[set->nm];
	m->path = strdup(path);
	if (!m->path)
		return false;
	m->start = NAN;
	m->from_dir = from_dir;
	m->rp = NULL;
	set->nm++;
	return true;
}

static bool is_recording_name(const char *name)
{
	size_t n = strlen(name);

	if (name[0] == '.')
		return false;
	return (n > 7 && strcmp(name + n - 7, ".ndjson") == 0) ||
	       (n > 10 && strcmp(name + n - 10, ".ndjson.gz") == 0);
}

/* Every recording of a directory, as members. */
static int add_dir(struct replay_set *set, const char *dir, char *err,
		   size_t errsize)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t before = set->nm;

	if (!d) {
		snprintf(err, errsize, _("cannot open %s: %s"), dir,
			 strerror(errno));
		return -1;
	}
	while ((e = readdir(d))) {
		char *path;
		struct stat st;
		bool ok;

		if (!is_recording_name(e->d_name))
			continue;
		if (asprintf(&path, "%s%s%s", dir,
			     dir[strlen(dir) - 1] == '/' ? "" : "/",
			     e->d_name) < 0) {
			closedir(d);
			snprintf(err, errsize, "%s", strerror(ENOMEM));
			return -1;
		}
		ok = stat(path, &st) < 0 || !S_ISREG(st.st_mode) ||
		     add_member(set, path, true);
		free(path);
		if (!ok) {
			closedir(d);
			snprintf(err, errsize, "%s", strerror(ENOMEM));
			return -1;
		}
	}
	closedir(d);
	if (set->nm == before) {
		snprintf(err, errsize, _("%s holds no recording (no file named "
					 "*.ndjson or *.ndjson.gz)"), dir);
		return -1;
	}
	return 0;
}

/* The number after {"time": at s (len bytes), or NAN. */
static double quick_time(const char *s, size_t len)
{
	static const char key[] = "{\"" JSON_KEY_TIME "\":";
	static locale_t c;
	char num[64];
	size_t n = 0, i = sizeof(key) - 1;
	char *end;
	double t;

	if (len < i || memcmp(s, key, i) != 0)
		return NAN;
	while (i < len && n < sizeof(num) - 1 &&
	       strchr("+-.0123456789eE", s[i]) && s[i])
		num[n++] = s[i++];
	num[n] = '\0';
	if (!c)
		c = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
	if (!n || !c)
		return NAN;
	t = strtod_l(num, &end, c);
	return *end ? NAN : t;
}

/*
 * When a file's samples start: the time of its first sample when the
 * line after the header begins with it (as the recorder writes it), else
 * the header's "started"; NAN when the first line is not a header. Reads
 * the first line and the start of the second only.
 */
static double first_start(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	struct gzio_reader *z;
	struct stat st;
	char *buf, *nl = NULL;
	size_t len = 0, got;
	double start = NAN;

	if (fd < 0)
		return NAN;
	/* a pipe or FIFO is read once, by replay_open: nothing is taken here */
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return NAN;
	}
	z = gzio_reader_new(fd);
	buf = malloc(FIRST_LINE_MAX + AFTER_MAX);
	while (z && buf && len < FIRST_LINE_MAX + AFTER_MAX &&
	       (got = gzio_read(z, buf + len,
				FIRST_LINE_MAX + AFTER_MAX - len)) > 0) {
		len += got;
		if (!nl)
			nl = memchr(buf, '\n', len < FIRST_LINE_MAX ? len
							: FIRST_LINE_MAX);
		if (!nl && len >= FIRST_LINE_MAX)
			break;
		if (nl && len - (size_t)(nl + 1 - buf) >= AFTER_MAX)
			break;
	}
	if (nl) {
		json_tokener *tok = json_read_tokener();
		json_object *o = tok ? json_read_line(tok, buf,
						(size_t)(nl - buf)) : NULL;

		if (o && json_read_header_version(o)) {
			start = quick_time(nl + 1, len - (size_t)(nl + 1 - buf));
			if (isnan(start))
				start = json_read_num(json_read_get(o,
							JSON_KEY_STARTED));
		}
		json_object_put(o);
		if (tok)
			json_tokener_free(tok);
	}
	free(buf);
	gzio_reader_free(z);
	close(fd);
	return start;
}

/* Known starts first in time order; unknown ones (damaged) first of all. */
static int by_start(const void *a, const void *b)
{
	const struct member *x = a, *y = b;
	bool kx = !isnan(x->start), ky = !isnan(y->start);

	if (kx != ky)
		return kx ? 1 : -1;
	if (kx && x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return strcmp(x->path, y->path);
}

/* Can the window hold a sample of member i? See replay_set.h. */
static bool may_hold(const struct replay_set *set, size_t i, double begin,
		     double end)
{
	const struct member *m = &set->m[i];

	if (isnan(m->start))
		return true;
	if (!isnan(end) && m->start > end)
		return false;
	return isnan(begin) || i + 1 >= set->nm ||
	       isnan(set->m[i + 1].start) || set->m[i + 1].start > begin;
}

static bool in_window(double t, double begin, double end)
{
	if (isnan(begin) && isnan(end))
		return true;
	return !isnan(t) && (isnan(begin) || t >= begin) &&
	       (isnan(end) || t <= end);
}

/* The time of the last sample indexed that has one, NAN: none. */
static double last_time(const struct replay_set *set)
{
	for (size_t i = set->n; i > 0; i--)
		if (!isnan(set->idx[i - 1].time))
			return set->idx[i - 1].time;
	return NAN;
}

/*
 * The samples of member f in the window. A sample not after the last one
 * of the files before it (the same file twice, files that overlap) is
 * left out: the timeline never goes back.
 */
static bool add_samples(struct replay_set *set, size_t f, double begin,
			double end)
{
	struct replay *rp = set->m[f].rp;
	double before = last_time(set);

	for (size_t i = 0; i < replay_count(rp); i++) {
		double t = replay_time(rp, i);

		if (!in_window(t, begin, end))
			continue;
		if (!isnan(t) && !isnan(before) && t <= before) {
			if (!set->overlap++) {
				set->first_overlap = replay_line(rp, i);
				free(set->overlap_file);
				set->overlap_file = strdup(set->m[f].path);
			}
			continue;
		}
		if (set->n == set->cap) {
			size_t cap = set->cap ? set->cap * 2 : 1024;
			struct pos *p = realloc(set->idx, cap * sizeof(*p));

			if (!p)
				return false;
			set->idx = p;
			set->cap = cap;
		}
		set->idx[set->n++] = (struct pos){ (uint32_t)f, (uint32_t)i, t };
	}
	return true;
}

/* Open the members the window may need; index their samples. */
static int open_members(struct replay_set *set, double begin, double end,
			int cancel_fd, char *err, size_t errsize)
{
	struct replay_opts o = { begin, end, cancel_fd, 0 };
	bool any_dir = false;

	for (size_t i = 0; i < set->nm; i++) {
		struct member *m = &set->m[i];
		char why[1024];

		any_dir |= m->from_dir;
		if (!may_hold(set, i, begin, end))
			continue;
		if (set->n >= REPLAY_SAMPLES_MAX) {
			/* the files together hold as much as one may */
			add_note(&set->skipped, _("a replay holds at most %zu "
				 "samples: %s and the files after it were not "
				 "read (choose a window with --begin and --end)"),
				 REPLAY_SAMPLES_MAX, m->path);
			break;
		}
		o.max_samples = REPLAY_SAMPLES_MAX - set->n;
		m->rp = replay_open_opts(m->path, &o, why, sizeof(why));
		if (!m->rp && (!m->from_dir || errno == EINTR)) {
			snprintf(err, errsize, "%s", why);
			return -1;
		}
		if (!m->rp) {
			add_note(&set->skipped, _("%s was skipped: %s"), m->path,
				 why);
			continue;
		}
		set->nopen++;
		if (!add_samples(set, i, begin, end)) {
			snprintf(err, errsize, "%s", strerror(ENOMEM));
			return -1;
		}
	}
	set->name_files = any_dir || set->nm > 1;
	return 0;
}

struct replay_set *replay_set_open(const char *const *paths, size_t n,
				   double begin, double end, char *err,
				   size_t errsize)
{
	return replay_set_open_cancel(paths, n, begin, end, -1, err, errsize);
}

struct replay_set *replay_set_open_cancel(const char *const *paths, size_t n,
					  double begin, double end,
					  int cancel_fd, char *err,
					  size_t errsize)
{
	struct replay_set *set = calloc(1, sizeof(*set));

	if (!set) {
		snprintf(err, errsize, "%s", strerror(ENOMEM));
		return NULL;
	}
	for (size_t i = 0; i < n; i++) {
		struct stat st;

		if (stat(paths[i], &st) == 0 && S_ISDIR(st.st_mode)) {
			if (add_dir(set, paths[i], err, errsize) < 0)
				goto fail;
		} else if (!add_member(set, paths[i], false)) {
			snprintf(err, errsize, "%s", strerror(ENOMEM));
			goto fail;
		}
	}
	for (size_t i = 0; i < set->nm; i++)
		set->m[i].start = first_start(set->m[i].path);
	qsort(set->m, set->nm, sizeof(*set->m), by_start);
	if (open_members(set, begin, end, cancel_fd, err, errsize) < 0)
		goto fail;
	if (!set->nopen && set->skipped) {
		/* nothing could be read: that is a failure, not an empty set */
		snprintf(err, errsize, "%s", set->skipped);
		goto fail;
	}
	return set;
fail:
	{
		int e = errno;

		replay_set_close(set);
		errno = e;
	}
	return NULL;
}

size_t replay_set_count(const struct replay_set *set)
{
	return set->n;
}

size_t replay_set_files(const struct replay_set *set)
{
	return set->nopen;
}

int replay_set_get(struct replay_set *set, size_t index, struct sample *out)
{
	const struct member *m;
	const char *note;
	int ret;

	free(set->skip_note);
	set->skip_note = NULL;
	if (index >= set->n) {
		memset(out, 0, sizeof(*out));
		errno = EINVAL;
		return -1;
	}
	m = &set->m[set->idx[index].file];
	ret = replay_get(m->rp, set->idx[index].index, out);
	note = ret < 0 ? replay_skipped(m->rp) : NULL;
	if (note && set->name_files) {
		int e = errno;

		if (asprintf(&set->skip_note, "%s: %s", m->path, note) < 0)
			set->skip_note = NULL;
		errno = e;
	} else if (note) {
		set->skip_note = strdup(note);
	}
	return ret;
}

const char *replay_set_skipped(const struct replay_set *set)
{
	return set->skip_note;
}

size_t replay_set_find_time(const struct replay_set *set, double epoch)
{
	size_t best = 0;
	bool found = false;

	/* linear: times may step back where a clock was changed */
	for (size_t i = 0; i < set->n; i++) {
		double t = set->idx[i].time;

		if (!(t <= epoch))
			continue;
		if (!found || t >= set->idx[best].time) {
			best = i;
			found = true;
		}
	}
	return best;
}

const char *replay_set_problem(struct replay_set *set)
{
	char *text = NULL;

	for (size_t i = 0; i < set->nm; i++) {
		const char *p = set->m[i].rp ? replay_problem(set->m[i].rp)
					     : NULL;

		if (!p)
			continue;
		if (set->name_files)
			add_note(&text, "%s: %s", set->m[i].path, p);
		else
			add_note(&text, "%s", p);
	}
	if (set->overlap)
		add_note(&text, ngettext("%s: %zu sample was skipped because "
					 "its time is not after the last one of "
					 "the files before it (from line %zu)",
					 "%s: %zu samples were skipped because "
					 "their time is not after the last one "
					 "of the files before them (from line "
					 "%zu)", set->overlap),
			 set->overlap_file ? set->overlap_file : "?",
			 set->overlap, set->first_overlap);
	if (set->skipped)
		add_note(&text, "%s", set->skipped);
	free(set->problem);
	set->problem = text;
	return text;
}

void replay_set_close(struct replay_set *set)
{
	if (!set)
		return;
	for (size_t i = 0; i < set->nm; i++) {
		replay_close(set->m[i].rp);
		free(set->m[i].path);
	}
	free(set->m);
	free(set->idx);
	free(set->skipped);
	free(set->problem);
	free(set->skip_note);
	free(set->overlap_file);
	free(set);
}
