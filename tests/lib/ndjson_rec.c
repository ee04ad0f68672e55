/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Recordings of format 1 (NDJSON, what stalltop 0.1.0 wrote), for the
 * tests of their reader: one session header, then one out_json line
 * per sample, each written with a single write(2) (or, compressed,
 * flushed: gzio.c) so that a crash leaves at most a torn last line, as
 * 0.1.0's recorder did. The format is in src/record/record.h.
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
#include <zlib.h>

#include "lib/all_io.h"
#include "lib/escape.h"
#include "lib/nls.h"
#include "lib/numfmt.h"
#include "record/gzio.h"
#include "view/output.h"
#include "record/record.h"
#include "record/replay.h"
#include "ndjson_rec.h"

/* The first line of an existing file is read up to this many bytes. */
#define HEADER_MAX 65536

struct ndjson_rec {
	int fd;      /* plain file, or -1 */
	struct gzio_writer *gz; /* compressed file (owns its fd), or NULL */
	bool broken; /* a write failed: a line may be cut short */
	bool regular; /* a regular file (one that can be removed) */
};

static bool is_gz_name(const char *path)
{
	size_t n = strlen(path);

	return n > 3 && strcmp(path + n - 3, ".gz") == 0;
}

static int put_line(struct ndjson_rec *rec, const char *buf, size_t len)
{
	if (!rec->gz) {
		/* after a failed write, end what may be a partial line */
		if (rec->broken && write_all(rec->fd, "\n", 1) < 0)
			return -1;
		rec->broken = write_all(rec->fd, buf, len) < 0;
		return rec->broken ? -1 : 0;
	}
	return gzio_write(rec->gz, buf, len);
}

static void header_json(FILE *f)
{
	char host[HOST_NAME_MAX + 1], num[64];
	struct utsname u;
	struct timespec ts;
	long hz = sysconf(_SC_CLK_TCK), ncpu = sysconf(_SC_NPROCESSORS_ONLN);

	clock_gettime(CLOCK_REALTIME, &ts);
	fprintf(f, "{\"%s\":%d,\"" JSON_KEY_PROGRAM "\":", REC_MAGIC_KEY, REC_FORMAT_VERSION);
	escape_json(f, PACKAGE_NAME " " PACKAGE_VERSION);
	numfmt_fixed(num, sizeof(num), (double)ts.tv_sec + ts.tv_nsec / 1e9, 3);
	fprintf(f, ",\"" JSON_KEY_STARTED "\":%s,\"" JSON_KEY_HOSTNAME "\":", num);
	if (gethostname(host, sizeof(host)) == 0) {
		host[sizeof(host) - 1] = '\0';
		escape_json(f, host);
	} else {
		fputs("null", f);
	}
	fputs(",\"" JSON_KEY_KERNEL "\":", f);
	escape_json(f, uname(&u) == 0 ? u.release : NULL);
	fputs(",\"" JSON_KEY_HZ "\":", f);
	if (hz > 0)
		fprintf(f, "%ld", hz);
	else
		fputs("null", f);
	fputs(",\"" JSON_KEY_NCPU "\":", f);
	if (ncpu > 0)
		fprintf(f, "%ld", ncpu);
	else
		fputs("null", f);
	fputs("}\n", f);
}

/*
 * What an existing, non-empty file holds, read through zlib (which reads
 * uncompressed files as they are): the start of its first line, its last
 * byte, whether it is compressed and whether the stream ended cleanly.
 */
struct existing {
	char first[HEADER_MAX];
	size_t first_len;
	bool first_done;     /* the first line's "\n" was seen */
	char last;           /* the last byte */
	bool compressed;
	bool clean;          /* a compressed stream ended with its trailer */
};

static int read_existing(const char *path, bool whole, struct existing *ex)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	char buf[65536];
	gzFile gz;
	int n, zerr = Z_OK;

	if (fd < 0)
		return -1;
	gz = gzdopen(fd, "rb");
	if (!gz) {
		close(fd);
		errno = ENOMEM;
		return -1;
	}
	ex->first_len = 0;
	ex->first_done = false;
	ex->last = '\n';
	while ((n = gzread(gz, buf, sizeof(buf))) > 0) {
		for (int i = 0; i < n && !ex->first_done; i++) {
			if (buf[i] == '\n')
				ex->first_done = true;
			else if (ex->first_len < sizeof(ex->first))
				ex->first[ex->first_len++] = buf[i];
		}
		ex->last = buf[n - 1];
		if (!whole && ex->first_done)
			break;
	}
	ex->compressed = !gzdirect(gz);
	/* a stream cut short reads as the end of file, and says so here */
	gzerror(gz, &zerr);
	ex->clean = n == 0 && zerr == Z_OK;
	gzclose(gz);
	return 0;
}

/*
 * May we append to path (size bytes, a regular file)? Returns true, with
 * *need_nl set when its last line is torn and must be ended first.
 */
static bool check_existing(const char *path, bool gz, off_t size,
			   bool *need_nl, char *err, size_t errsize)
{
	struct existing *ex = malloc(sizeof(*ex));
	int version;
	bool ok = false;

	*need_nl = false;
	if (!ex) {
		snprintf(err, errsize, "%s: %s", path, strerror(ENOMEM));
		return false;
	}
	/* a compressed file is read whole: is its last member complete? */
	if (read_existing(path, gz, ex) < 0) {
		snprintf(err, errsize, _("cannot read %s: %s"), path,
			 strerror(errno));
		goto out;
	}
	version = replay_header_version(ex->first, ex->first_len);
	if (version == 0) {
		snprintf(err, errsize, _("%s exists and is not a stalltop "
					 "recording: not appending to it"), path);
		goto out;
	}
	if (version > REC_FORMAT_VERSION) {
		snprintf(err, errsize, _("%s is a recording of format version "
					 "%d, but this stalltop writes version "
					 "%d: record to a new file"),
			 path, version, REC_FORMAT_VERSION);
		goto out;
	}
	if (gz && !ex->compressed) {
		snprintf(err, errsize, _("%s is named .gz but is not "
					 "compressed: not appending to it"), path);
		goto out;
	}
	if (!gz && ex->compressed) {
		snprintf(err, errsize, _("%s is compressed: record to a name "
					 "ending in .gz to append to it"), path);
		goto out;
	}
	if (gz && !ex->clean) {
		snprintf(err, errsize, _("%s was not closed cleanly (stalltop "
					 "was interrupted); a compressed "
					 "recording cannot be continued: record "
					 "to a new file"), path);
		goto out;
	}
	if (!gz) {
		/* the last byte, without reading the whole file */
		int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
		char c = '\n';

		if (fd >= 0) {
			if (pread(fd, &c, 1, size - 1) != 1)
				c = '\n';
			close(fd);
		}
		ex->last = c;
	}
	*need_nl = ex->last != '\n';
	ok = true;
out:
	free(ex);
	return ok;
}

/*
 * Open path for recording: a new file (created, never one that exists,
 * when new_only), or an existing one to append to. *created says whether
 * this call made the file, so that a failure removes it again.
 */
static int open_file(const char *path, bool new_only, bool *created)
{
	int flags = O_WRONLY | O_APPEND | O_CLOEXEC | O_NOCTTY;
	int fd;

	*created = false;
	for (int tries = 0; tries < 10; tries++) {
		fd = open(path, flags | O_CREAT | O_EXCL, 0600);
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

static struct ndjson_rec *open_recording(const char *path, bool new_only,
				       char *err, size_t errsize)
{
	bool gz = is_gz_name(path), need_nl = false, created;
	struct ndjson_rec *rec = NULL;
	struct stat st;
	char *line = NULL;
	size_t len = 0;
	FILE *mem = NULL;
	int fd, e;

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
	    !check_existing(path, gz, st.st_size, &need_nl, err, errsize)) {
		errno = EINVAL;
		goto fail;
	}

	rec = calloc(1, sizeof(*rec));
	if (!rec) {
		snprintf(err, errsize, "%s: %s", path, strerror(ENOMEM));
		goto fail;
	}
	rec->fd = -1;
	rec->regular = S_ISREG(st.st_mode);
	mem = open_memstream(&line, &len);
	if (!mem) {
		snprintf(err, errsize, "%s: %s", path, strerror(ENOMEM));
		goto fail;
	}
	/* end a torn line so the new session starts on a line of its own */
	if (need_nl)
		putc('\n', mem);
	header_json(mem);
	if (fclose(mem) != 0) {
		mem = NULL;
		snprintf(err, errsize, "%s: %s", path, strerror(ENOMEM));
		goto fail;
	}
	mem = NULL;
	if (gz) {
		rec->gz = gzio_writer_open(fd);
		if (!rec->gz) {
			snprintf(err, errsize, "%s: %s", path, strerror(ENOMEM));
			goto fail;
		}
		fd = -1; /* gzclose closes it */
	} else {
		rec->fd = fd;
		fd = -1;
	}
	if (put_line(rec, line, len) < 0) {
		snprintf(err, errsize, _("cannot write to %s: %s"), path,
			 strerror(errno));
		goto fail;
	}
	free(line);
	return rec;

fail:
	e = errno;
	if (mem)
		fclose(mem);
	free(line);
	if (fd >= 0)
		close(fd);
	if (rec) {
		if (rec->gz)
			gzio_writer_close(rec->gz);
		else if (rec->fd >= 0)
			close(rec->fd);
		free(rec);
	}
	/* a recording that could not even start leaves no empty file */
	if (created)
		unlink(path);
	errno = e;
	return NULL;
}

struct ndjson_rec *ndjson_rec_open(const char *path, char *err, size_t errsize)
{
	return open_recording(path, false, err, errsize);
}

struct ndjson_rec *ndjson_rec_create(const char *path, char *err, size_t errsize)
{
	return open_recording(path, true, err, errsize);
}

/* The descriptor written to. */
static int rec_fd(const struct ndjson_rec *rec)
{
	return rec->gz ? gzio_writer_fd(rec->gz) : rec->fd;
}

int ndjson_rec_write(struct ndjson_rec *rec, const struct sample *s)
{
	char *line = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&line, &len);
	int ret;

	if (!mem)
		return -1;
	out_json(mem, s);
	if (fclose(mem) != 0) {
		free(line);
		errno = ENOMEM;
		return -1;
	}
	ret = put_line(rec, line, len);
	free(line);
	if (ret == 0 && rec->regular) {
		struct stat st;

		/* a file no name leads to any more: what goes in is lost */
		if (fstat(rec_fd(rec), &st) < 0)
			return -1;
		if (st.st_nlink == 0) {
			errno = ENOENT;
			return -1;
		}
	}
	return ret;
}

int ndjson_rec_close(struct ndjson_rec *rec)
{
	int ret = 0;

	if (!rec)
		return 0;
	if (rec->gz) {
		if (gzio_writer_close(rec->gz) < 0)
			ret = -1;
	} else if (close(rec->fd) < 0) {
		ret = -1;
	}
	free(rec);
	return ret;
}
