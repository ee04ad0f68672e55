/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Checked, self-delimiting records in a file: the format is in frame.h. */
#include <config.h>

#include "store/frame.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <zlib.h>

#include "lib/all_io.h"
#include "lib/nls.h"
#include "store/varint.h"

static const unsigned char magic[4] = { 0xf5, 'S', 'T', 'K' };
/* The end of a sync flush's empty stored block, left out of each part. */
static const unsigned char sync_tail[4] = { 0x00, 0x00, 0xff, 0xff };

struct frame_writer {
	int fd;
	bool compress;
	z_stream z;
	bool in_stream;                 /* the record written last was a
					   part of z's stream */
	unsigned char *buf;             /* one record as it is written */
	size_t cap;
	uint64_t bytes;
};

struct frame_reader {
	int fd;
	unsigned char *buf;             /* the file from offset on */
	size_t cap, start, end;
	uint64_t offset;                /* file offset of buf[0] */
	bool eof;
	z_stream z;
	bool z_ready;
	uint64_t stream_end;            /* where the last part of z's stream
					   read ends, or a record stored
					   alone after it; UINT64_MAX: none */
	z_stream z1;                    /* a record deflated alone */
	bool z1_ready;
	unsigned char last[FRAME_HEADER_SIZE - 4 + FRAME_TRAILER_SIZE];
					/* the last record taken: its type
					   to time and its CRC */
	uint64_t last_end;              /* ... where it ends; UINT64_MAX:
					   none */
	bool repeat;                    /* the record taken repeats it */
	uint64_t repeats;
	unsigned char *out;             /* an inflated payload */
	size_t out_cap;
	unsigned version;
	uint64_t skipped, gaps, tail;
	bool raw;                       /* payloads as stored, not inflated */
	int cancel_fd;                  /* reading stops once readable; -1 */
	size_t unlooked;                /* bytes read since it was looked at */
};

/*
 * With a cancel descriptor, a read takes at most this many bytes, and
 * the descriptor is looked at once this many were read since.
 */
#define CANCEL_BYTES ((size_t)128 << 10)

static void put_le(unsigned char *p, uint64_t v, int n)
{
	for (int i = 0; i < n; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t get_le(const unsigned char *p, int n)
{
	uint64_t v = 0;

	for (int i = 0; i < n; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

/* The room for a record a writer keeps whatever it wrote. */
#define FRAME_BUF_KEEP (256u << 10)

static int grow(unsigned char **buf, size_t *cap, size_t need)
{
	if (need <= *cap)
		return 0;
	size_t n = *cap ? *cap : 4096;
	while (n < need)
		n *= 2;
	unsigned char *p = realloc(*buf, n);
	if (!p)
		return -1;
	*buf = p;
	*cap = n;
	return 0;
}

/* ---- writing ---- */

struct frame_writer *frame_writer_open(int fd, bool compress,
				       const char *writer)
{
	struct frame_writer *w = calloc(1, sizeof(*w));
	unsigned char head[2 + 256];
	size_t n = strnlen(writer, 256);

	if (!w)
		return NULL;
	w->fd = fd;
	w->compress = compress;
	/*
	 * The default level (6, lazy matching): on bench/recsize's busy
	 * samples of 100 processes it makes a delta 3,276 -> 3,060 bytes
	 * and a key frame 10,268 -> 9,687 against level 3, which took a
	 * quarter less CPU; writing a sample still takes less CPU than
	 * 0.1.0's recorder did (README, Recording).
	 */
	if (compress && deflateInit2(&w->z, FRAME_DEFLATE_LEVEL, Z_DEFLATED,
				     -15, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
		free(w);
		errno = ENOMEM;
		return NULL;
	}
	put_le(head, FRAME_VERSION, 2);
	memcpy(head + 2, writer, n);
	if (frame_write(w, FRAME_HEADER, 0, head, 2 + n) < 0) {
		int e = errno;
		frame_writer_free(w);
		errno = e;
		return NULL;
	}
	return w;
}

/*
 * The payload deflated into w->buf at FRAME_HEADER_SIZE: its length, or
 * 0 on failure. part: as the next part of w->z's stream (a sync flush,
 * its last four bytes left out), else as a stream of its own.
 */
static size_t deflated(struct frame_writer *w, const void *payload,
		       size_t len, bool part)
{
	/* deflateBound covers a whole stream; a sync flush adds 5 bytes */
	size_t bound = VARINT_MAX + deflateBound(&w->z, len) + 8;

	if (grow(&w->buf, &w->cap, FRAME_HEADER_SIZE + bound +
		 FRAME_TRAILER_SIZE) < 0)
		return 0;
	unsigned char *p = w->buf + FRAME_HEADER_SIZE;
	size_t head = varint_put(p, len), n;
	w->z.next_in = (unsigned char *)(uintptr_t)payload;
	w->z.avail_in = (uInt)len;
	w->z.next_out = p + head;
	w->z.avail_out = (uInt)(bound - head);
	if (part) {
		if (deflate(&w->z, Z_SYNC_FLUSH) != Z_OK || w->z.avail_in ||
		    !w->z.avail_out)
			return 0;
		n = bound - w->z.avail_out;
		if (n < head + sizeof(sync_tail) ||
		    memcmp(p + n - sizeof(sync_tail), sync_tail,
			   sizeof(sync_tail)))
			return 0;
		return n - sizeof(sync_tail);
	}
	if (deflate(&w->z, Z_FINISH) != Z_STREAM_END)
		return 0;
	return bound - w->z.avail_out;
}

/* The record in w->buf, its payload of stored bytes there, finished and written. */
static int put_record(struct frame_writer *w, int type, int flags,
		      double time, size_t stored)
{
	unsigned char *h = w->buf;
	uint64_t t;

	memcpy(h, magic, 4);
	h[4] = (unsigned char)type;
	h[5] = (unsigned char)flags;
	h[6] = h[7] = 0;
	put_le(h + 8, stored, 4);
	memcpy(&t, &time, 8);
	put_le(h + 12, t, 8);
	size_t n = FRAME_HEADER_SIZE + stored;
	put_le(h + n, crc32(0, h, (uInt)n), 4);
	n += FRAME_TRAILER_SIZE;
	int ret = write_all(w->fd, (const char *)h, n);

	if (ret == 0)
		w->bytes += n;
	/* room for a record four times this one's and more: given back */
	if (w->cap > FRAME_BUF_KEEP && w->cap / 4 > n) {
		free(w->buf);
		w->buf = NULL;
		w->cap = 0;
	}
	return ret < 0 ? -1 : 0;
}

int frame_write(struct frame_writer *w, int type, double time,
		const void *payload, size_t len)
{
	size_t stored = 0;
	int flags = 0;

	if (type <= 0 || type > 255 || len > FRAME_MAX_PAYLOAD) {
		errno = EINVAL;
		return -1;
	}
	/* whatever follows opens a stream of its own */
	w->in_stream = false;
	if (w->compress && type != FRAME_HEADER && len > 0) {
		deflateReset(&w->z);
		stored = deflated(w, payload, len, false);
		if (stored >= len)
			stored = 0;
	}
	if (stored) {
		flags = FRAME_F_DEFLATE;
	} else {
		stored = len;
		if (grow(&w->buf, &w->cap, FRAME_HEADER_SIZE + len +
			 FRAME_TRAILER_SIZE) < 0)
			return -1;
		if (len)
			memcpy(w->buf + FRAME_HEADER_SIZE, payload, len);
	}
	return put_record(w, type, flags, time, stored);
}

int frame_write_stream(struct frame_writer *w, int type, double time,
		       const void *payload, size_t len, bool opens)
{
	if (!w->compress || type <= FRAME_HEADER || type > 255 ||
	    len > FRAME_MAX_PAYLOAD) {
		errno = EINVAL;
		return -1;
	}
	opens = opens || !w->in_stream;
	w->in_stream = false;
	if (opens)
		deflateReset(&w->z);
	size_t stored = deflated(w, payload, len, true);
	if (!stored) {
		errno = ENOMEM;
		return -1;
	}
	if (put_record(w, type, opens ? FRAME_F_OPENS : FRAME_F_FOLLOWS,
		       time, stored) < 0)
		return -1;
	w->in_stream = true;
	return 0;
}

uint64_t frame_writer_bytes(const struct frame_writer *w)
{
	return w->bytes;
}

void frame_writer_free(struct frame_writer *w)
{
	if (!w)
		return;
	if (w->compress)
		deflateEnd(&w->z);
	free(w->buf);
	free(w);
}

/* ---- reading ---- */

struct frame_reader *frame_reader_new(int fd)
{
	struct frame_reader *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->fd = fd;
	r->stream_end = UINT64_MAX;
	r->last_end = UINT64_MAX;
	r->cancel_fd = -1;
	return r;
}

/*
 * At least need bytes from r->start in the buffer, unless the file ends
 * first. 0, or -1 with errno set.
 */
static int fill(struct frame_reader *r, size_t need)
{
	while (r->end - r->start < need && !r->eof) {
		if (r->start > 0) {
			memmove(r->buf, r->buf + r->start, r->end - r->start);
			r->offset += r->start;
			r->end -= r->start;
			r->start = 0;
		}
		if (grow(&r->buf, &r->cap, need) < 0)
			return -1;
		size_t room = r->cap - r->end;

		if (r->cancel_fd >= 0) {
			struct pollfd p = { .fd = r->cancel_fd, .events = POLLIN };

			if (r->unlooked >= CANCEL_BYTES) {
				r->unlooked = 0;
				if (poll(&p, 1, 0) > 0) {
					errno = EINTR;
					return -1;
				}
			}
			if (room > CANCEL_BYTES)
				room = CANCEL_BYTES;
		}
		ssize_t n = read(r->fd, r->buf + r->end, room);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			r->eof = true;
		r->end += (size_t)n;
		r->unlooked += (size_t)n;
	}
	return 0;
}

/*
 * The payload of the record at p (n bytes, flags as stored), inflated
 * into r->out: its length, or -1. A part of a stream goes on from
 * r->z's state; stream_end is set by the caller.
 */
static long inflated(struct frame_reader *r, const unsigned char *p, size_t n,
		     int flags)
{
	/* a record alone leaves the stream's state as it is */
	z_stream *z = flags == FRAME_F_DEFLATE ? &r->z1 : &r->z;
	bool *ready = flags == FRAME_F_DEFLATE ? &r->z1_ready : &r->z_ready;
	uint64_t len;
	size_t k = varint_get(p, p + n, &len);

	/* deflate shrinks by 1032:1 at best: a larger claim is a lie */
	if (!k || len > FRAME_MAX_PAYLOAD ||
	    len > (uint64_t)(n - k + sizeof(sync_tail)) * 1032 + 64 ||
	    (len == 0 && flags == FRAME_F_DEFLATE))
		return -1;
	if (!*ready) {
		if (inflateInit2(z, -15) != Z_OK)
			return -1;
		*ready = true;
	}
	/* one byte more than it claims, to see that it makes no more */
	if (grow(&r->out, &r->out_cap, len + 1) < 0)
		return -1;
	if (flags != FRAME_F_FOLLOWS)
		inflateReset(z);
	z->next_in = (unsigned char *)(uintptr_t)(p + k);
	z->avail_in = (uInt)(n - k);
	z->next_out = r->out;
	z->avail_out = (uInt)len + 1;
	if (flags == FRAME_F_DEFLATE)
		return inflate(z, Z_FINISH) == Z_STREAM_END &&
		       z->avail_out == 1 && !z->avail_in ? (long)len : -1;
	int e = inflate(z, Z_SYNC_FLUSH);
	if ((e != Z_OK && e != Z_BUF_ERROR) || z->avail_in)
		return -1;
	z->next_in = (unsigned char *)(uintptr_t)sync_tail;
	z->avail_in = sizeof(sync_tail);
	e = inflate(z, Z_SYNC_FLUSH);
	/* the part ends at a block's end, with all it claimed */
	if ((e != Z_OK && e != Z_BUF_ERROR) || z->avail_in ||
	    z->avail_out != 1 || !(z->data_type & 128))
		return -1;
	return (long)len;
}

/*
 * The record at r->start into *f when it holds: its size in the file, 0
 * when it does not (or the file ends inside it), -1 on a read error.
 */
static long take(struct frame_reader *r, struct frame *f)
{
	if (fill(r, FRAME_HEADER_SIZE) < 0)
		return -1;
	const unsigned char *h = r->buf + r->start;
	int flags = h[5];
	if (r->end - r->start < FRAME_HEADER_SIZE || memcmp(h, magic, 4) ||
	    h[4] == 0 || (flags != 0 && flags != FRAME_F_DEFLATE &&
			  flags != FRAME_F_OPENS && flags != FRAME_F_FOLLOWS))
		return 0;
	size_t stored = get_le(h + 8, 4);
	if (stored > FRAME_MAX_STORED)
		return 0;
	size_t size = FRAME_HEADER_SIZE + stored + FRAME_TRAILER_SIZE;
	if (fill(r, size) < 0)
		return -1;
	if (r->end - r->start < size)
		return 0;
	h = r->buf + r->start;
	if (crc32(0, h, (uInt)(size - FRAME_TRAILER_SIZE)) !=
	    get_le(h + size - FRAME_TRAILER_SIZE, 4))
		return 0;
	f->type = h[4];
	uint64_t t = get_le(h + 12, 8);
	memcpy(&f->time, &t, 8);
	f->offset = r->offset + r->start;
	f->data = h + FRAME_HEADER_SIZE;
	f->len = stored;
	f->deflated = flags != 0;
	f->unread = false;
	/* the same bytes as the record right before it: a repeat */
	r->repeat = f->type != FRAME_HEADER && r->last_end == f->offset &&
		    !memcmp(r->last, h + 4, FRAME_HEADER_SIZE - 4) &&
		    !memcmp(r->last + FRAME_HEADER_SIZE - 4,
			    h + size - FRAME_TRAILER_SIZE, FRAME_TRAILER_SIZE);
	memcpy(r->last, h + 4, FRAME_HEADER_SIZE - 4);
	memcpy(r->last + FRAME_HEADER_SIZE - 4, h + size - FRAME_TRAILER_SIZE,
	       FRAME_TRAILER_SIZE);
	r->last_end = f->offset + size;
	if (r->repeat || flags == 0 || flags == FRAME_F_DEFLATE) {
		/* a record alone, or a repeat, does not end a stream */
		if (r->stream_end == f->offset)
			r->stream_end = f->offset + size;
		if (r->repeat)
			return (long)size;
	}
	if (!f->deflated || (r->raw && f->type != FRAME_HEADER))
		return (long)size;
	if (flags == FRAME_F_FOLLOWS && r->stream_end != f->offset) {
		/* its stream's parts before it were not read */
		f->unread = true;
		f->data = NULL;
		f->len = 0;
		return (long)size;
	}
	if (flags != FRAME_F_DEFLATE)
		r->stream_end = UINT64_MAX;
	long n = inflated(r, f->data, stored, flags);
	if (n < 0) {
		r->stream_end = UINT64_MAX;
		r->last_end = UINT64_MAX;
		return 0;
	}
	if (flags != FRAME_F_DEFLATE)
		r->stream_end = f->offset + size;
	f->data = r->out;
	f->len = (size_t)n;
	return (long)size;
}

/* Past damage: to the next byte that could start a record. */
static size_t resync(struct frame_reader *r)
{
	const unsigned char *p = memchr(r->buf + r->start + 1, magic[0],
					r->end - r->start - 1);
	size_t n = p ? (size_t)(p - (r->buf + r->start)) : r->end - r->start;

	r->start += n;
	return n;
}

int frame_reader_next(struct frame_reader *r, struct frame *f, char *err,
		      size_t errsize)
{
	uint64_t skip = 0;

	for (;;) {
		long size = take(r, f);
		if (size < 0) {
			int e = errno;

			snprintf(err, errsize, _("cannot read the recording: %s"),
				 strerror(e));
			errno = e;
			return -1;
		}
		if (size == 0) {
			if (r->end == r->start) {
				r->tail = skip;
				r->skipped += skip;
				r->gaps += skip > 0;
				return 0;
			}
			skip += resync(r);
			continue;
		}
		r->start += (size_t)size;
		if (r->repeat) {
			/* skipped, counted: the sample is had once */
			r->repeats++;
			continue;
		}
		if (f->type == FRAME_HEADER) {
			if (f->len < 2) {
				skip += (uint64_t)size;
				continue;
			}
			r->version = (unsigned)get_le(f->data, 2);
			if (r->version > FRAME_VERSION) {
				snprintf(err, errsize, _("the recording is of "
					 "format version %u; this stalltop "
					 "reads versions up to %u"),
					 r->version, FRAME_VERSION);
				errno = ENOTSUP;
				return -1;
			}
			if (r->version < FRAME_VERSION) {
				snprintf(err, errsize, _("the recording is of "
					 "format version %u, of a development "
					 "build; this stalltop reads version "
					 "%u: record it again"),
					 r->version, FRAME_VERSION);
				errno = ENOTSUP;
				return -1;
			}
			if (skip) {
				r->skipped += skip;
				r->gaps++;
				skip = 0;
			}
			continue;
		}
		f->skipped = skip;
		r->skipped += skip;
		r->gaps += skip > 0;
		return 1;
	}
}

void frame_reader_raw(struct frame_reader *r, bool raw)
{
	r->raw = raw;
}

void frame_reader_cancel(struct frame_reader *r, int fd)
{
	r->cancel_fd = fd;
}

int frame_reader_seek(struct frame_reader *r, uint64_t offset)
{
	if (offset > (uint64_t)INT64_MAX ||
	    lseek(r->fd, (off_t)offset, SEEK_SET) < 0)
		return -1;
	r->start = r->end = 0;
	r->offset = offset;
	r->eof = false;
	r->stream_end = UINT64_MAX;
	r->last_end = UINT64_MAX;
	return 0;
}

unsigned frame_reader_version(const struct frame_reader *r)
{
	return r->version;
}

uint64_t frame_reader_skipped(const struct frame_reader *r)
{
	return r->skipped;
}

uint64_t frame_reader_gaps(const struct frame_reader *r)
{
	return r->gaps;
}

uint64_t frame_reader_tail(const struct frame_reader *r)
{
	return r->tail;
}

uint64_t frame_reader_repeats(const struct frame_reader *r)
{
	return r->repeats;
}

void frame_reader_free(struct frame_reader *r)
{
	if (!r)
		return;
	if (r->z_ready)
		inflateEnd(&r->z);
	if (r->z1_ready)
		inflateEnd(&r->z1);
	free(r->buf);
	free(r->out);
	free(r);
}
