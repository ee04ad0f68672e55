/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Several recordings as one timeline: the files are ordered by when their
 * samples start (recprobe.h: read from their start alone), those the
 * time window cannot touch are left closed, the others opened with
 * replay_open_opts(), and the samples in the window indexed as (file, sample)
 * pairs. The rules are in replay_set.h.
 */
#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/nls.h"
#include "record/recprobe.h"
#include "record/replay.h"
#include "record/replay_set.h"
#include "record/storefile.h"
#include "record/storeindex.h"

/* A recording of readings (storefile.h) in the set, once opened. */
struct store_member {
	int fd;
	struct storeindex ix;
	struct storefile_reader *r;
	size_t next;       /* the entry r hands out next; SIZE_MAX: unknown */
	size_t held;       /* the entry r handed out last (out still holds
			      it); SIZE_MAX: none */
	size_t bad;        /* entries found not to decode */
	size_t first_bad;  /* ... the first one's */
	char *copy_note;   /* where the copy of a pipe stopped, or NULL */
	bool copy_damaged; /* ... at what is no recording */
};

struct member {
	char *path;
	double start;      /* its first sample's time (recprobe.h), NAN: unknown */
	bool from_dir;     /* found in a directory (else named) */
	bool store;        /* a recording of readings (by its first bytes) */
	struct replay *rp; /* NULL: left out (an NDJSON recording) */
	struct store_member *st; /* NULL: left out (a recording of readings) */
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
	m->store = false;
	m->rp = NULL;
	m->st = NULL;
	set->nm++;
	return true;
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

		if (e->d_name[0] == '.')
			continue;
		if (asprintf(&path, "%s%s%s", dir,
			     dir[strlen(dir) - 1] == '/' ? "" : "/",
			     e->d_name) < 0) {
			closedir(d);
			snprintf(err, errsize, "%s", strerror(ENOMEM));
			return -1;
		}
		ok = stat(path, &st) < 0 || !S_ISREG(st.st_mode) ||
		     (!recprobe_recording_name(e->d_name) && !recprobe_is_store(path)) ||
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
		snprintf(err, errsize, _("%s holds no recording (no recording of "
					 "readings, no file named *.ndjson or "
					 "*.ndjson.gz)"), dir);
		return -1;
	}
	return 0;
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
	const struct member *m = &set->m[f];
	struct replay *rp = m->rp;
	double before = last_time(set);
	size_t n = m->st ? m->st->ix.n : replay_count(rp);

	for (size_t i = 0; i < n; i++) {
		double t = m->st ? m->st->ix.e[i].time : replay_time(rp, i);

		if (!in_window(t, begin, end))
			continue;
		if (!isnan(t) && !isnan(before) && t <= before) {
			if (!set->overlap++) {
				set->first_overlap = m->st ? i + 1
							   : replay_line(rp, i);
				free(set->overlap_file);
				set->overlap_file = strdup(m->path);
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

static void store_close(struct store_member *st)
{
	if (!st)
		return;
	storefile_reader_free(st->r);
	storeindex_free(&st->ix);
	if (st->fd >= 0)
		close(st->fd);
	free(st->copy_note);
	free(st);
}

/*
 * Open and index the recording of readings of member m (fd: its copy,
 * taken, or -1 to open its path): 0, or -1 with a translated message in
 * err (errno EINTR: cancelled).
 */
static int store_open(struct member *m, int fd, size_t max, int cancel_fd,
		      char *err, size_t errsize)
{
	struct store_member *st = calloc(1, sizeof(*st));
	struct stat sb;
	char why[512];

	if (!st) {
		if (fd >= 0)
			close(fd);
		snprintf(err, errsize, "%s", strerror(ENOMEM));
		return -1;
	}
	st->next = st->held = SIZE_MAX;
	st->fd = fd >= 0 ? fd : open(m->path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (st->fd < 0 || fstat(st->fd, &sb) < 0) {
		snprintf(err, errsize, _("cannot open %s: %s"), m->path,
			 strerror(errno));
		goto fail;
	}
	if (storeindex_build(&st->ix, st->fd, max, cancel_fd, why,
			     sizeof(why)) < 0) {
		snprintf(err, errsize, "%s: %s", m->path, why);
		goto fail;
	}
	if (!(st->r = storefile_reader_new(st->fd))) {
		snprintf(err, errsize, "%s", strerror(ENOMEM));
		goto fail;
	}
	storefile_reader_cancel(st->r, cancel_fd);
	if (!st->ix.n && st->ix.skipped) {
		snprintf(err, errsize, _("%s is not a recording: no record in "
					 "it holds"), m->path);
		errno = EBADMSG;
		goto fail;
	}
	m->st = st;
	return 0;
fail:
	{
		int e = errno;

		store_close(st);
		errno = e;
	}
	return -1;
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
		bool opened;
		if (m->store) {
			opened = store_open(m, -1, o.max_samples, cancel_fd,
					    why, sizeof(why)) == 0;
		} else {
			opened = (m->rp = replay_open_opts(m->path, &o, why,
							   sizeof(why)));
			int fd = opened ? replay_take_store(m->rp) : -1;

			if (fd >= 0) {
				/* a pipe or FIFO that held readings: its copy */
				bool cut_damaged;
				const char *cut = replay_store_cut(m->rp,
								   &cut_damaged);
				char *note = cut ? strdup(cut) : NULL;

				replay_close(m->rp);
				m->rp = NULL;
				m->store = true;
				opened = store_open(m, fd, o.max_samples,
						    cancel_fd, why,
						    sizeof(why)) == 0;
				if (opened) {
					m->st->copy_note = note;
					m->st->copy_damaged = cut && cut_damaged;
				} else {
					free(note);
				}
			}
		}
		if (!opened && (!m->from_dir || errno == EINTR)) {
			snprintf(err, errsize, "%s", why);
			return -1;
		}
		if (!opened) {
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
	for (size_t i = 0; i < set->nm; i++) {
		struct member *m = &set->m[i];

		m->store = recprobe_is_store(m->path);
		m->start = m->store ? recprobe_store_start(m->path)
				    : recprobe_ndjson_start(m->path);
	}
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

bool replay_set_all_store(const struct replay_set *set)
{
	for (size_t i = 0; i < set->nm; i++)
		if (set->m[i].rp)
			return false;
	return set->nopen > 0;
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
	if (m->st) {
		/* its readings come through replay_set_store_read */
		memset(out, 0, sizeof(*out));
		errno = EINVAL;
		return -1;
	}
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

bool replay_set_store_pos(const struct replay_set *set, size_t index,
			  size_t *file, size_t *entry)
{
	if (index >= set->n || !set->m[set->idx[index].file].st)
		return false;
	*file = set->idx[index].file;
	*entry = set->idx[index].index;
	return true;
}

const struct storeindex *replay_set_store_index(const struct replay_set *set,
						size_t file)
{
	return file < set->nm && set->m[file].st ? &set->m[file].st->ix : NULL;
}

/* Entries from..to-1 of member m did not decode: count them (once). */
static void store_bad(struct store_member *st, size_t from, size_t to)
{
	for (size_t e = from; e < to && e < st->ix.n; e++) {
		if (st->ix.e[e].bad)
			continue;
		st->ix.e[e].bad = true;
		if (!st->bad++ || e < st->first_bad)
			st->first_bad = e;
	}
}

/* The entry of the record at offset, from entry `from` on; SIZE_MAX: none. */
static size_t entry_at(const struct storeindex *ix, size_t from,
		       uint64_t offset)
{
	for (size_t j = from; j < ix->n && ix->e[j].offset <= offset; j++)
		if (ix->e[j].offset == offset)
			return j;
	return SIZE_MAX;
}

int replay_set_store_read(struct replay_set *set, size_t file, size_t entry,
			  struct store_sample *out)
{
	struct store_member *st = file < set->nm ? set->m[file].st : NULL;
	char err[512] = "";

	free(set->skip_note);
	set->skip_note = NULL;
	if (!st || entry >= st->ix.n) {
		errno = EINVAL;
		return -1;
	}
	if (st->held == entry)
		return 1; /* out holds it still */
	if (st->ix.e[entry].bad)
		return 0; /* known */
	if (st->next != entry || st->next == SIZE_MAX) {
		size_t k = storeindex_key_at(&st->ix, entry);

		st->held = st->next = SIZE_MAX;
		if (k == SIZE_MAX) {
			store_bad(st, entry, entry + 1);
			return 0; /* no key frame before it: no base */
		}
		if (storefile_seek(st->r, st->ix.e[k].offset) < 0)
			return -1;
		st->next = k;
	}
	for (;;) {
		int got = storefile_next(st->r, out, err, sizeof(err));

		if (got < 0) {
			st->held = st->next = SIZE_MAX;
			return -1;
		}
		size_t j = got ? entry_at(&st->ix, st->next,
					  storefile_offset(st->r)) : SIZE_MAX;
		if (j == SIZE_MAX) {
			/* the end, or a record the index does not have */
			st->held = st->next = SIZE_MAX;
			if (!got) {
				/* none of the rest decodes */
				store_bad(st, entry, st->ix.n);
				return 0;
			}
			continue;
		}
		st->held = j;
		st->next = j + 1;
		if (j == entry)
			return 1;
		if (j > entry) {
			/* the decoder skipped these: damaged, or no base */
			store_bad(st, entry, j);
			return 0;
		}
	}
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

/* What was skipped in a recording of readings, or NULL: nothing. */
static char *store_problem(const struct store_member *st)
{
	const struct storeindex *ix = &st->ix;
	uint64_t inside = ix->skipped - ix->tail;
	char *text = NULL;

	if (st->copy_note)
		add_note(&text, "%s", st->copy_note);
	if (inside) {
		unsigned long long parts = ix->parts - (ix->tail > 0);

		add_note(&text, ngettext("%llu damaged part (%llu bytes) was "
					 "skipped", "%llu damaged parts (%llu "
					 "bytes) were skipped", parts),
			 parts, (unsigned long long)inside);
	}
	if (ix->notime)
		add_note(&text, ngettext("%zu sample has no time (sample %zu "
					 "of the file): its time is shown as "
					 "unknown (-, JSON null, an empty CSV "
					 "field)",
					 "%zu samples have no time (from sample "
					 "%zu of the file on): their time is "
					 "shown as unknown (-, JSON null, an "
					 "empty CSV field)", ix->notime),
			 ix->notime, ix->first_notime + 1);
	if (ix->repeats)
		add_note(&text, ngettext("%llu record repeated the one right "
					 "before it and was skipped",
					 "%llu records repeated the one right "
					 "before them and were skipped",
					 ix->repeats),
			 (unsigned long long)ix->repeats);
	if (ix->tail && !st->copy_damaged)
		add_note(&text, ngettext("the last record is torn (%llu byte) "
					 "and was ignored", "the last record is "
					 "torn (%llu bytes) and was ignored",
					 ix->tail),
			 (unsigned long long)ix->tail);
	if (st->bad)
		add_note(&text, ngettext("%zu sample did not decode and was "
					 "skipped (sample %zu of the file)",
					 "%zu samples did not decode and were "
					 "skipped (from sample %zu of the "
					 "file on)", st->bad),
			 st->bad, st->first_bad + 1);
	if (ix->full)
		add_note(&text, _("a replay holds at most %zu samples: the "
				  "rest was not read (choose a window with "
				  "--begin and --end)"), REPLAY_SAMPLES_MAX);
	return text;
}

bool replay_set_damaged(const struct replay_set *set)
{
	for (size_t i = 0; i < set->nm; i++) {
		const struct member *m = &set->m[i];
		const struct store_member *st = m->st;

		if (m->rp && replay_damaged(m->rp))
			return true;
		if (st && (st->ix.skipped > st->ix.tail || st->ix.repeats ||
			   st->bad || st->copy_damaged))
			return true;
	}
	return false;
}

const char *replay_set_problem(struct replay_set *set)
{
	char *text = NULL;

	for (size_t i = 0; i < set->nm; i++) {
		char *own = set->m[i].st ? store_problem(set->m[i].st) : NULL;
		const char *p = set->m[i].rp ? replay_problem(set->m[i].rp)
					     : own;

		if (!p)
			continue;
		if (set->name_files)
			add_note(&text, "%s: %s", set->m[i].path, p);
		else
			add_note(&text, "%s", p);
		free(own);
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
		store_close(set->m[i].st);
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
