/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Recording: a session record, then one record of storefile.c per
 * sample, each in a single write(2), so that a crash leaves at most a
 * torn last record. The format is in record.h.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "lib/nls.h"
#include "record/record.h"
#include "record/replay.h"
#include "record/storefile.h"
#include "store/frame.h"

/* The start of an existing file looked at to tell what it is. */
#define HEAD_MAX 4096

struct recorder {
	int fd;
	struct storefile_writer *w;
	uint64_t before;     /* bytes in the file before this session */
	bool regular;        /* a regular file (one that can be removed) */
};

static bool is_gz_name(const char *path)
{
	size_t n = strlen(path);

	return n > 3 && strcmp(path + n - 3, ".gz") == 0;
}

/*
 * What an existing file of size bytes starts with says whether a session
 * may be appended to it: a file of records of a version we read. false
 * with a translated message in err otherwise.
 */
static bool check_existing(int fd, const char *path, char *err,
			   size_t errsize)
{
	static const unsigned char magic[4] = { 0xf5, 'S', 'T', 'K' };
	char head[HEAD_MAX];
	ssize_t n = pread(fd, head, sizeof(head), 0);
	const char *nl;

	if (n < 0) {
		snprintf(err, errsize, _("cannot read %s: %s"), path,
			 strerror(errno));
		return false;
	}
	if (n >= 4 && memcmp(head, magic, 4) == 0) {
		struct frame_reader *r = frame_reader_new(fd);
		struct frame f;
		char why[512] = "";
		int got = r ? frame_reader_next(r, &f, why, sizeof(why)) : -1;

		frame_reader_free(r);
		/* a version other than the one written */
		if (got < 0 && errno == ENOTSUP) {
			snprintf(err, errsize, "%s: %s", path, why);
			return false;
		}
		return true; /* what is damaged, the reader skips */
	}
	nl = memchr(head, '\n', (size_t)n);
	if ((n >= 2 && (unsigned char)head[0] == 0x1f &&
	     (unsigned char)head[1] == 0x8b) ||
	    replay_header_version(head, nl ? (size_t)(nl - head) : (size_t)n) > 0) {
		snprintf(err, errsize, _("%s is a recording of the older text "
					 "format (NDJSON), which is not "
					 "appended to: record to a new file"),
			 path);
		return false;
	}
	snprintf(err, errsize, _("%s exists and is not a stalltop recording: "
				 "not appending to it"), path);
	return false;
}

/*
 * The mode of a new recording: the owner's alone, since a recording holds
 * every task's command line and IO counters that /proc shows only to each
 * task's owner; readable by the group too in a directory with the
 * set-group-ID bit, whose files belong to the directory's group (record.h).
 */
static mode_t new_mode(const char *path)
{
	const char *slash = strrchr(path, '/');
	char dir[PATH_MAX];
	struct stat st;

	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == path)
		snprintf(dir, sizeof(dir), "/");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode) && (st.st_mode & S_ISGID))
		return 0640;
	return 0600;
}

/*
 * Open path for recording: a new file (created, never one that exists,
 * when new_only), or an existing one to append to. *created says whether
 * this call made the file, so that a failure removes it again.
 */
static int open_file(const char *path, bool new_only, bool *created)
{
	int flags = O_RDWR | O_APPEND | O_CLOEXEC | O_NOCTTY;
	int fd;

	*created = false;
	for (int tries = 0; tries < 10; tries++) {
		fd = open(path, flags | O_CREAT | O_EXCL, new_mode(path));
		if (fd >= 0) {
			*created = true;
			return fd;
		}
		if (errno != EEXIST || new_only)
			return -1;
		fd = open(path, flags);
		/* removed in between: create it after all */
		if (fd >= 0 || errno != ENOENT)
			return fd;
	}
	return -1;
}

/* What the session record says of this machine and this recording. */
static void session_of(struct storefile_session *s, bool threads,
		       struct utsname *u, char *host, size_t hostsize)
{
	struct timespec ts;
	long hz = sysconf(_SC_CLK_TCK), ncpu = sysconf(_SC_NPROCESSORS_ONLN);

	clock_gettime(CLOCK_REALTIME, &ts);
	*s = (struct storefile_session){
		.program = PACKAGE_NAME " " PACKAGE_VERSION,
		.hz = hz > 0 ? (unsigned long)hz : 0,
		.ncpu = ncpu > 0 ? (unsigned long)ncpu : 0,
		.started = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9,
		.threads = threads,
	};
	if (gethostname(host, hostsize) == 0) {
		host[hostsize - 1] = '\0';
		s->hostname = host;
	}
	if (uname(u) == 0)
		s->kernel = u->release;
}

/* The session's start: the file header and the session record. */
static int begin_session(struct recorder *rec, bool threads)
{
	struct storefile_session s;
	struct utsname u;
	char host[HOST_NAME_MAX + 1];

	rec->w = storefile_writer_open(rec->fd, PACKAGE_NAME " " PACKAGE_VERSION,
				       RECORD_KEY_EVERY, RECORD_KEY_SECONDS);
	if (!rec->w)
		return -1;
	session_of(&s, threads, &u, host, sizeof(host));
	return storefile_write_session(rec->w, &s);
}

static struct recorder *open_recording(const char *path, bool new_only,
				       bool threads, char *err,
				       size_t errsize)
{
	struct recorder *rec = NULL;
	bool created = false;
	struct stat st;
	int fd, e;

	if (is_gz_name(path) && stat(path, &st) < 0) {
		snprintf(err, errsize, _("%s: a recording is compressed record "
					 "by record; name it without .gz "
					 "(such as one ending in %s)"),
			 path, RECORD_SUFFIX);
		errno = EINVAL;
		return NULL;
	}
	fd = open_file(path, new_only, &created);
	if (fd < 0) {
		e = errno;
		snprintf(err, errsize, _("cannot open %s for recording: %s"),
			 path, strerror(errno));
		errno = e;
		return NULL;
	}
	if (fstat(fd, &st) < 0) {
		snprintf(err, errsize, _("cannot open %s for recording: %s"),
			 path, strerror(errno));
		goto fail;
	}
	if (S_ISREG(st.st_mode) && st.st_size > 0 &&
	    !check_existing(fd, path, err, errsize)) {
		errno = EINVAL;
		goto fail;
	}
	if (!(rec = calloc(1, sizeof(*rec)))) {
		snprintf(err, errsize, "%s: %s", path, strerror(ENOMEM));
		goto fail;
	}
	rec->fd = fd;
	rec->regular = S_ISREG(st.st_mode);
	rec->before = S_ISREG(st.st_mode) ? (uint64_t)st.st_size : 0;
	if (begin_session(rec, threads) < 0) {
		snprintf(err, errsize, _("cannot write to %s: %s"), path,
			 strerror(errno));
		goto fail;
	}
	return rec;

fail:
	e = errno;
	if (rec)
		storefile_writer_free(rec->w);
	free(rec);
	close(fd);
	/* a recording that could not even start leaves no empty file */
	if (created)
		unlink(path);
	errno = e;
	return NULL;
}

struct recorder *record_open(const char *path, bool threads, char *err,
			     size_t errsize)
{
	return open_recording(path, false, threads, err, errsize);
}

struct recorder *record_create(const char *path, bool threads, char *err,
			       size_t errsize)
{
	return open_recording(path, true, threads, err, errsize);
}

/*
 * The file cut back to its last whole record; should that fail too, a
 * reader skips the torn part.
 */
static void cut_torn(struct recorder *rec)
{
	if (ftruncate(rec->fd, (off_t)record_size(rec)) < 0)
		return;
}

int record_write(struct recorder *rec, const struct store_sample *s)
{
	struct stat st;
	int ret = storefile_write(rec->w, s);

	if (ret < 0) {
		/*
		 * What a failed write left of its record goes again (a
		 * full disk, the file size limit), so the file ends with
		 * a whole record
		 */
		int e = errno;

		if (rec->regular)
			cut_torn(rec);
		errno = e;
		return -1;
	}
	if (ret > 0)
		return 1;       /* left out, nothing written (errno says why) */
	/* a file no name leads to any more: what goes in is lost */
	if (rec->regular) {
		if (fstat(rec->fd, &st) < 0)
			return -1;
		if (st.st_nlink == 0) {
			errno = ENOENT;
			return -1;
		}
	}
	return 0;
}

uint64_t record_size(const struct recorder *rec)
{
	return rec->before + storefile_writer_bytes(rec->w);
}

int record_close(struct recorder *rec)
{
	int ret = 0;

	if (!rec)
		return 0;
	storefile_writer_free(rec->w);
	if (close(rec->fd) < 0)
		ret = -1;
	free(rec);
	return ret;
}
