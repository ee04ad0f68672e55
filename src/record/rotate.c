/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Rotating recordings: one compressed recording per day in a directory,
 * a new one at local midnight or at the size limit, old days removed.
 * The naming and the rules are in rotate.h; each file is written by
 * record.c, so it follows record.h's crash-safety rules.
 */
#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "lib/nls.h"
#include "record/record.h"
#include "record/rotate.h"

#define PREFIX "stalltop-"
#define SUFFIX RECORD_SUFFIX
/* the suffix of the files of format 1, which retention removes too */
#define OLD_SUFFIX ".ndjson.gz"
/* a day's files beyond this many: something is wrong, stop trying */
#define MAX_SEQ 100000
/* offsets of the wall clock this close are one (s): see clock_see() */
#define OFFSET_MERGE 1.0
/* the offsets kept at most; past that the two newest merge */
#define NOFFSETS 16

/* The wall clock minus the boot clock, and when it was last seen so. */
struct offset {
	double offset;
	double boot;
};

struct rotator {
	char *dir;
	struct rotate_opts o;
	struct recorder *rec;
	char path[PATH_MAX];
	time_t start;         /* of the current file's period */
	unsigned seq;         /* its number within the period (0: none) */
	/*
	 * The wall clock's offsets from the boot clock over the last keep
	 * days and one, increasing in both offset and boot time (a sliding
	 * window minimum): off[0] is the smallest.
	 */
	struct offset off[NOFFSETS];
	size_t noff;
	double prev_time, prev_boot; /* the clocks at the last reading */
	char warning[PATH_MAX + 256]; /* a note not handed out yet */
	char given[PATH_MAX + 256];   /* the note handed out last */
};

bool rotate_is_dir(const char *path)
{
	struct stat st;
	size_t n = strlen(path);

	if (n && path[n - 1] == '/')
		return true;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The start of the period t falls in: local midnight, or a test period. */
static time_t period_start(const struct rotator *r, time_t t)
{
	struct tm tm;

	if (r->o.period > 0)
		return t - ((t % r->o.period) + r->o.period) % r->o.period;
	if (!localtime_r(&t, &tm))
		return t;
	tm.tm_hour = tm.tm_min = tm.tm_sec = 0;
	tm.tm_isdst = -1;
	return mktime(&tm);
}

/* The start of the period after the one starting at start. */
static time_t next_period(const struct rotator *r, time_t start)
{
	struct tm tm;

	if (r->o.period > 0)
		return start + r->o.period;
	if (!localtime_r(&start, &tm))
		return start + 86400;
	tm.tm_mday += 1;
	tm.tm_hour = tm.tm_min = tm.tm_sec = 0;
	tm.tm_isdst = -1;
	return mktime(&tm);
}

/* t, n days (or test periods) earlier by the calendar. */
static time_t days_back(const struct rotator *r, time_t t, unsigned n)
{
	struct tm tm;

	if (r->o.period > 0)
		return t - (time_t)n * r->o.period;
	if (!localtime_r(&t, &tm))
		return t - (time_t)n * 86400;
	tm.tm_mday -= (int)n;
	tm.tm_isdst = -1;
	return mktime(&tm);
}

/* A duration for a note: seconds, hours or days. */
static void duration(double s, char *buf, size_t size)
{
	if (s >= 86400)
		snprintf(buf, size, _("%.1f days"), s / 86400);
	else if (s >= 3600)
		snprintf(buf, size, _("%.1f h"), s / 3600);
	else
		snprintf(buf, size, _("%.1f s"), s);
}

/* A file's name (without the directory) for a period and a number. */
static void file_name(const struct rotator *r, time_t start, unsigned seq,
		      char *buf, size_t size)
{
	char stamp[64], num[16] = "";
	struct tm tm;

	if (!localtime_r(&start, &tm))
		memset(&tm, 0, sizeof(tm));
	strftime(stamp, sizeof(stamp),
		 r->o.period > 0 ? "%Y-%m-%d-%H%M%S" : "%Y-%m-%d", &tm);
	if (seq)
		snprintf(num, sizeof(num), ".%u", seq);
	snprintf(buf, size, PREFIX "%s%s" SUFFIX, stamp, num);
}

/*
 * The start of the period a name of ours stands for, or -1 when the name
 * is not exactly one we write (either form: days or test periods; with
 * either suffix: ours, or that of the files of format 1).
 */
static time_t name_start(const char *name)
{
	int y, mo, d, hms = 0, n = 0, n2 = 0;
	unsigned seq = 0;
	char canon[NAME_MAX + 1], num[16] = "", t[16] = "";
	struct tm tm;
	const char *p;

	if (sscanf(name, PREFIX "%4d-%2d-%2d%n", &y, &mo, &d, &n) != 3)
		return -1;
	p = name + n;
	if (*p == '-') {
		if (sscanf(p, "-%6d%n", &hms, &n2) != 1 || n2 != 7)
			return -1;
		snprintf(t, sizeof(t), "-%06d", hms);
		p += n2;
	}
	if (*p == '.' && p[1] >= '1' && p[1] <= '9') {
		if (sscanf(p, ".%u%n", &seq, &n2) != 1)
			return -1;
		snprintf(num, sizeof(num), ".%u", seq);
	}
	/* the same name written back, or it is not one of ours */
	snprintf(canon, sizeof(canon), PREFIX "%04d-%02d-%02d%s%s" SUFFIX, y,
		 mo, d, t, num);
	if (strcmp(canon, name) != 0)
		snprintf(canon, sizeof(canon),
			 PREFIX "%04d-%02d-%02d%s%s" OLD_SUFFIX, y, mo, d, t,
			 num);
	if (strcmp(canon, name) != 0 || mo < 1 || mo > 12 || d < 1 || d > 31 ||
	    hms / 10000 > 23 || hms / 100 % 100 > 59 || hms % 100 > 59)
		return -1;
	memset(&tm, 0, sizeof(tm));
	tm.tm_year = y - 1900;
	tm.tm_mon = mo - 1;
	tm.tm_mday = d;
	tm.tm_hour = hms / 10000;
	tm.tm_min = hms / 100 % 100;
	tm.tm_sec = hms % 100;
	tm.tm_isdst = -1;
	return mktime(&tm);
}

static void warn_once(struct rotator *r, const char *fmt, const char *a,
		      const char *b)
{
	if (!*r->warning)
		snprintf(r->warning, sizeof(r->warning), fmt, a, b);
}

/* How long the offsets are remembered: keep days and one (s). */
static double window(const struct rotator *r)
{
	return ((double)r->o.keep + 1) * (r->o.period > 0 ? r->o.period : 86400);
}

/*
 * The clocks at one moment: the wall clock (a sample's time) and the boot
 * clock. A difference between how far each moved since the last reading
 * is a jump of the wall clock, and is noted. The offset wall - boot joins
 * the window (whose smallest offset is the retention clock's).
 */
static void clock_see(struct rotator *r, double wall, double boot)
{
	double o = wall - boot;
	struct offset *last;

	if (r->noff) {
		double jump = (wall - r->prev_time) - (boot - r->prev_boot);
		char by[64], to[64] = "?";
		time_t t = (time_t)floor(wall);
		struct tm tm;

		if (fabs(jump) > ROTATE_JUMP_TOLERANCE) {
			duration(fabs(jump), by, sizeof(by));
			if (localtime_r(&t, &tm))
				strftime(to, sizeof(to), "%Y-%m-%d %H:%M:%S", &tm);
			warn_once(r, jump > 0 ?
				  _("the wall clock jumped forward by %s, to "
				    "%s; retention keeps every recording that "
				    "may be younger than --keep-days") :
				  _("the wall clock jumped back by %s, to %s; "
				    "retention keeps every recording that may "
				    "be younger than --keep-days"),
				  by, to);
		}
	}
	r->prev_time = wall;
	r->prev_boot = boot;
	/* older offsets that are not smaller say nothing more */
	while (r->noff && r->off[r->noff - 1].offset >= o)
		r->noff--;
	last = r->noff ? &r->off[r->noff - 1] : NULL;
	if (last && o - last->offset < OFFSET_MERGE) {
		/* the same clock (drift): the smaller offset lives on */
		last->boot = boot;
	} else {
		if (r->noff == NOFFSETS) {
			/* merge the newest two, keeping the smaller offset */
			r->off[r->noff - 2].boot = r->off[r->noff - 1].boot;
			r->noff--;
		}
		r->off[r->noff++] = (struct offset){ o, boot };
	}
	/* forget what is older than the window, all but the newest */
	while (r->noff > 1 && r->off[0].boot < boot - window(r)) {
		memmove(r->off, r->off + 1, (r->noff - 1) * sizeof(r->off[0]));
		r->noff--;
	}
}

/*
 * The retention clock: the boot clock plus the smallest offset of the
 * wall clock seen in the window. It is never ahead of the newest sample,
 * and a file written within the window is never older by it than it
 * really is (rotate.h).
 */
static double retention_now(const struct rotator *r)
{
	return r->off[0].offset + r->prev_boot;
}

/* The clocks now, for rotate_open and a sample without a boot time. */
static double clock_now(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * Remove our files whose every sample is older than keep days: a file
 * holds samples of its period only, so one whose period ended keep days
 * before the retention clock. Never the file being written.
 */
static void expire(struct rotator *r, const char *current)
{
	time_t now, cutoff;
	struct dirent *e;
	DIR *d;

	if (!r->o.keep)
		return;
	now = (time_t)floor(retention_now(r));
	cutoff = days_back(r, now, r->o.keep);
	d = opendir(r->dir);
	if (!d) {
		warn_once(r, _("cannot read %s to remove old recordings: %s"),
			  r->dir, strerror(errno));
		return;
	}
	while ((e = readdir(d))) {
		char path[PATH_MAX];
		time_t t = name_start(e->d_name);

		if (t == (time_t)-1 || next_period(r, t) > cutoff ||
		    strcmp(e->d_name, current) == 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", r->dir, e->d_name);
		if (unlinkat(dirfd(d), e->d_name, 0) < 0 && errno != ENOENT)
			warn_once(r, _("cannot remove the old recording %s: %s"),
				  path, strerror(errno));
	}
	closedir(d);
}

/*
 * Finish the current file, then open the first free name of the period
 * starting at start, numbered from seq.
 */
static int open_next(struct rotator *r, time_t start, unsigned seq,
		     char *err, size_t errsize)
{
	bool new_period = start != r->start || !r->rec;
	char name[NAME_MAX + 1];

	if (r->rec) {
		int ret = record_close(r->rec);

		r->rec = NULL;
		if (ret < 0) {
			snprintf(err, errsize, _("cannot finish %s: %s"),
				 r->path, strerror(errno));
			return -1;
		}
	}
	r->start = start;
	for (;; seq++) {
		if (seq > MAX_SEQ) {
			snprintf(err, errsize, _("%s holds too many recordings "
						 "of one day"), r->dir);
			return -1;
		}
		file_name(r, start, seq, name, sizeof(name));
		snprintf(r->path, sizeof(r->path), "%s/%s", r->dir, name);
		/* a new file, never one that is there: the first free name */
		r->rec = record_create(r->path, r->o.threads, err, errsize);
		if (r->rec || errno != EEXIST)
			break;
	}
	if (!r->rec)
		return -1;
	r->seq = seq;
	if (new_period)
		expire(r, name);
	return 0;
}

struct rotator *rotate_open(const char *dir, const struct rotate_opts *o,
			    char *err, size_t errsize)
{
	struct rotator *r = calloc(1, sizeof(*r));
	size_t n;

	if (!r || !(r->dir = strdup(dir))) {
		free(r);
		snprintf(err, errsize, "%s", strerror(ENOMEM));
		return NULL;
	}
	/* "DIR/" and "DIR" are the same directory */
	n = strlen(r->dir);
	while (n > 1 && r->dir[n - 1] == '/')
		r->dir[--n] = '\0';
	r->o = *o;
	if (mkdir(r->dir, 0755) < 0 && errno != EEXIST) {
		snprintf(err, errsize, _("cannot create the directory %s: %s"),
			 r->dir, strerror(errno));
		rotate_close(r);
		return NULL;
	}
	if (!rotate_is_dir(r->dir)) {
		snprintf(err, errsize, _("%s is not a directory"), r->dir);
		rotate_close(r);
		return NULL;
	}
	clock_see(r, clock_now(CLOCK_REALTIME), clock_now(CLOCK_BOOTTIME));
	if (open_next(r, period_start(r, (time_t)r->prev_time), 0, err,
		      errsize) < 0) {
		rotate_close(r);
		return NULL;
	}
	return r;
}

/* Is the current file at its size limit? */
static bool full(const struct rotator *r)
{
	struct stat st;

	return r->o.max_size && stat(r->path, &st) == 0 &&
	       (uint64_t)st.st_size >= r->o.max_size;
}

int rotate_write(struct rotator *r, const struct store_sample *s, char *err,
		 size_t errsize)
{
	/* the sample's own time decides, so the boundary splits no sample */
	double wall = isfinite(s->time) && s->time > 0 ? s->time
						       : clock_now(CLOCK_REALTIME);
	double boot = isfinite(s->boot) && s->boot > 0 ?
		      s->boot : clock_now(CLOCK_BOOTTIME);
	time_t start = period_start(r, (time_t)floor(wall));
	int ret = 0;

	clock_see(r, wall, boot);
	if (start != r->start || !r->rec)
		ret = open_next(r, start, 0, err, errsize);
	else if (full(r))
		ret = open_next(r, start, r->seq + 1, err, errsize);
	if (ret < 0)
		return -1;
	ret = record_write(r->rec, s);
	if (ret > 0) {
		snprintf(err, errsize, "%s", strerror(errno));
		return 1;
	}
	if (ret < 0) {
		if (errno == ENOENT)
			snprintf(err, errsize, _("%s was removed while it was "
						 "being written"), r->path);
		else
			snprintf(err, errsize, _("cannot write to %s: %s"),
				 r->path, strerror(errno));
		return -1;
	}
	return 0;
}

const char *rotate_warning(struct rotator *r)
{
	if (!*r->warning)
		return NULL;
	memcpy(r->given, r->warning, sizeof(r->given));
	*r->warning = '\0';
	return r->given;
}

const char *rotate_path(const struct rotator *r)
{
	return r->path;
}

int rotate_close(struct rotator *r)
{
	int ret;

	if (!r)
		return 0;
	ret = record_close(r->rec);
	free(r->dir);
	free(r);
	return ret;
}
