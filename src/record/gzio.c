/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * gzip for recordings, both ways: the reader hands out a file's text,
 * inflated when it starts with the gzip magic; the writer appends lines to
 * a compressed recording, each flushed so that a crash loses at most the
 * line being written.
 *
 * The reader uses zlib's own inflate rather than gzread: gzread drops what
 * it inflated in a call that then meets damage, and skips junk after a
 * gzip member in silence. Concatenated members (one per recording
 * session) are read in turn.
 */
#include <config.h>

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "record/gzio.h"

struct gzio_reader {
	int fd;
	bool compressed;
	bool started;     /* the first bytes were looked at */
	bool in_member;   /* inside a gzip member (not between two) */
	bool done;
	int zerr;         /* Z_OK; Z_BUF_ERROR cut short; Z_DATA_ERROR damaged;
			     Z_ERRNO read error (errno) */
	int err_no;       /* of Z_ERRNO */
	int (*wait)(void *, int);
	void *wait_arg;
	z_stream zs;
	bool zs_init;
	unsigned char in[65536];
};

/* More input; false at the end of the file (or an error, in zerr). */
static bool fill(struct gzio_reader *z)
{
	ssize_t n;

	if (z->zs.avail_in) /* keep what is left, at the start */
		memmove(z->in, z->zs.next_in, z->zs.avail_in);
	z->zs.next_in = z->in;
	if (z->wait && z->wait(z->wait_arg, z->fd) < 0) {
		z->zerr = Z_ERRNO;
		z->err_no = errno;
		return false;
	}
	do
		n = read(z->fd, z->in + z->zs.avail_in,
			 sizeof(z->in) - z->zs.avail_in);
	while (n < 0 && errno == EINTR);
	if (n < 0) {
		z->zerr = Z_ERRNO;
		z->err_no = errno;
		return false;
	}
	z->zs.avail_in += (uInt)n;
	return n > 0;
}

size_t gzio_read(struct gzio_reader *z, char *out, size_t size)
{
	if (z->done)
		return 0;
	if (!z->started) {
		z->started = true;
		while (z->zs.avail_in < 2 && fill(z))
			;
		z->compressed = z->zs.avail_in >= 2 && z->in[0] == 0x1f &&
				z->in[1] == 0x8b;
		if (z->compressed) {
			if (inflateInit2(&z->zs, 15 + 16) != Z_OK) {
				z->zerr = Z_MEM_ERROR;
				z->done = true;
				return 0;
			}
			z->zs_init = true;
			z->in_member = true;
		}
	}
	if (!z->compressed) {
		size_t n;

		if (!z->zs.avail_in && !fill(z)) {
			z->done = true;
			return 0;
		}
		n = z->zs.avail_in < size ? z->zs.avail_in : size;
		memcpy(out, z->zs.next_in, n);
		z->zs.next_in += n;
		z->zs.avail_in -= (uInt)n;
		return n;
	}
	z->zs.next_out = (unsigned char *)out;
	z->zs.avail_out = size > UINT_MAX ? UINT_MAX : (uInt)size;
	while (z->zs.avail_out) {
		int ret;

		if (!z->in_member) {
			/* between members: another one, the end, or junk */
			while (z->zs.avail_in < 2 && fill(z))
				;
			if (z->zs.avail_in == 0 && z->zerr == Z_OK) {
				z->done = true;
				break;
			}
			if (z->zs.avail_in < 2 || z->zs.next_in[0] != 0x1f ||
			    z->zs.next_in[1] != 0x8b) {
				if (z->zerr == Z_OK)
					z->zerr = Z_DATA_ERROR;
				z->done = true;
				break;
			}
			inflateReset(&z->zs);
			z->in_member = true;
		}
		if (!z->zs.avail_in && !fill(z)) {
			if (z->zerr == Z_OK)
				z->zerr = Z_BUF_ERROR; /* cut short */
			z->done = true;
			break;
		}
		ret = inflate(&z->zs, Z_NO_FLUSH);
		if (ret == Z_STREAM_END) {
			z->in_member = false;
		} else if (ret != Z_OK && ret != Z_BUF_ERROR) {
			z->zerr = ret == Z_MEM_ERROR ? Z_MEM_ERROR : Z_DATA_ERROR;
			z->done = true;
			break;
		}
	}
	/* what was inflated before an error is good: hand it out first */
	return size - z->zs.avail_out;
}

struct gzio_reader *gzio_reader_new(int fd)
{
	struct gzio_reader *z = calloc(1, sizeof(*z));

	if (!z)
		return NULL;
	z->fd = fd;
	z->zerr = Z_OK;
	return z;
}

void gzio_reader_set_wait(struct gzio_reader *z, int (*wait)(void *, int),
			  void *arg)
{
	z->wait = wait;
	z->wait_arg = arg;
}

int gzio_errno(const struct gzio_reader *z)
{
	return z->err_no;
}

bool gzio_compressed(const struct gzio_reader *z)
{
	return z->compressed;
}

int gzio_error(const struct gzio_reader *z)
{
	return z->zerr;
}

void gzio_reader_free(struct gzio_reader *z)
{
	if (!z)
		return;
	if (z->zs_init)
		inflateEnd(&z->zs);
	free(z);
}

/* --- the writer --- */

struct gzio_writer {
	gzFile gz;   /* owns its fd */
	int fd;      /* the same, to look at (gzio_writer_fd) */
};

/* errno for a zlib failure: the system's when zlib saw one, else EIO. */
static void gz_errno(gzFile gz)
{
	int zerr = Z_OK;

	gzerror(gz, &zerr);
	if (zerr != Z_ERRNO)
		errno = EIO;
}

struct gzio_writer *gzio_writer_open(int fd)
{
	struct gzio_writer *w = calloc(1, sizeof(*w));

	if (!w)
		return NULL;
	/* level 3: most of level 6's gain at a fraction of its CPU */
	w->gz = gzdopen(fd, "ab3");
	if (!w->gz) {
		free(w);
		errno = ENOMEM;
		return NULL;
	}
	w->fd = fd;
	return w;
}

int gzio_write(struct gzio_writer *w, const char *buf, size_t len)
{
	while (len) {
		unsigned chunk = len > UINT_MAX / 2 ? UINT_MAX / 2 : (unsigned)len;
		int n = gzwrite(w->gz, buf, chunk);

		if (n <= 0) {
			gz_errno(w->gz);
			return -1;
		}
		buf += n;
		len -= (size_t)n;
	}
	if (gzflush(w->gz, Z_SYNC_FLUSH) != Z_OK) {
		gz_errno(w->gz);
		return -1;
	}
	return 0;
}

int gzio_writer_fd(const struct gzio_writer *w)
{
	return w->fd;
}

int gzio_writer_close(struct gzio_writer *w)
{
	int ret = 0;

	if (!w)
		return 0;
	int z = gzclose(w->gz);

	if (z != Z_OK) {
		if (z != Z_ERRNO)
			errno = EIO;
		ret = -1;
	}
	free(w);
	return ret;
}
