/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Store samples to and from a file of records (storefile.h).
 */
#include <config.h>

#include "record/storefile.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "store/codec.h"
#include "store/frame.h"
#include "store/schema.h"
#include "store/varint.h"

/* The fields of a session record (storefile.h). */
enum session_field {
	SESSION_PROGRAM = 1,
	SESSION_HOSTNAME = 2,
	SESSION_KERNEL = 3,
	SESSION_HZ = 4,
	SESSION_NCPU = 5,
	SESSION_STARTED = 6,
	SESSION_THREADS = 7,
};

/* The longest text of a session record's field kept. */
#define SESSION_TEXT_MAX 4096

struct storefile_writer {
	struct frame_writer *fw;
	struct codec_enc *enc;
	struct schema_rows rows[2];     /* this sample's and the last one's */
	unsigned cur;
	bool have_prev;
};

struct storefile_writer *storefile_writer_open(int fd, const char *program,
					       unsigned key_every,
					       double key_seconds)
{
	struct storefile_writer *w = calloc(1, sizeof(*w));

	if (!w)
		return NULL;
	w->enc = codec_enc_new(&schema_store, key_every, key_seconds);
	if (!w->enc || !(w->fw = frame_writer_open(fd, true, program))) {
		int e = w->enc ? errno : ENOMEM;

		storefile_writer_free(w);
		errno = e;
		return NULL;
	}
	return w;
}

int storefile_write(struct storefile_writer *w, const struct store_sample *s)
{
	struct schema_rows *cur = &w->rows[w->cur];
	const unsigned char *p;
	size_t len;
	int type;

	if (schema_from_store(cur, s, w->have_prev ? &w->rows[!w->cur] : NULL) < 0 ||
	    codec_enc_sample(w->enc, &cur->cs, &p, &len, &type) < 0) {
		/*
		 * Not made into a record (no memory, a sample the format
		 * cannot hold): nothing written. The next one is a key
		 * frame, which stands on nothing before it.
		 */
		int e = errno;

		codec_enc_restart(w->enc);
		w->have_prev = false;
		errno = e;
		return 1;
	}
	/* a key frame opens a deflate stream, so a reader can start there */
	if (frame_write_stream(w->fw, type, s->time, p, len,
			       type == FRAME_KEY) < 0) {
		/* the sample is not in the file: no base of the next one */
		int e = errno;

		codec_enc_restart(w->enc);
		w->have_prev = false;
		errno = e;
		return -1;
	}
	w->cur = !w->cur;
	w->have_prev = true;
	return 0;
}

/* One field of a session record at p; the bytes written. */
static size_t put_field(unsigned char *p, unsigned id, const void *v,
			size_t len)
{
	size_t n = varint_put(p, id);

	n += varint_put(p + n, len);
	memcpy(p + n, v, len);
	return n + len;
}

static size_t put_text(unsigned char *p, unsigned id, const char *s)
{
	size_t len = s ? strnlen(s, SESSION_TEXT_MAX) : 0;

	return s ? put_field(p, id, s, len) : 0;
}

static size_t put_number(unsigned char *p, unsigned id, uint64_t v)
{
	unsigned char b[VARINT_MAX];

	return put_field(p, id, b, varint_put(b, v));
}

int storefile_write_session(struct storefile_writer *w,
			    const struct storefile_session *s)
{
	unsigned char buf[3 * (2 * VARINT_MAX + SESSION_TEXT_MAX) +
			  4 * 3 * VARINT_MAX + 8];
	unsigned char d[8];
	uint64_t bits;
	size_t n = 0;

	n += put_text(buf + n, SESSION_PROGRAM, s->program);
	n += put_text(buf + n, SESSION_HOSTNAME, s->hostname);
	n += put_text(buf + n, SESSION_KERNEL, s->kernel);
	if (s->hz)
		n += put_number(buf + n, SESSION_HZ, s->hz);
	if (s->ncpu)
		n += put_number(buf + n, SESSION_NCPU, s->ncpu);
	memcpy(&bits, &s->started, sizeof(bits));
	for (int i = 0; i < 8; i++)
		d[i] = (unsigned char)(bits >> (8 * i));
	n += put_field(buf + n, SESSION_STARTED, d, sizeof(d));
	n += put_number(buf + n, SESSION_THREADS, s->threads);
	if (frame_write(w->fw, STOREFILE_SESSION, s->started, buf, n) < 0)
		return -1;
	/* the session's samples stand on their own */
	codec_enc_restart(w->enc);
	w->have_prev = false;
	return 0;
}

uint64_t storefile_writer_bytes(const struct storefile_writer *w)
{
	return frame_writer_bytes(w->fw);
}

void storefile_writer_free(struct storefile_writer *w)
{
	if (!w)
		return;
	frame_writer_free(w->fw);
	codec_enc_free(w->enc);
	schema_free(&w->rows[0]);
	schema_free(&w->rows[1]);
	free(w);
}

struct storefile_reader {
	struct frame_reader *fr;
	struct codec_dec *dec;
	struct schema_rows rows;
	uint64_t offset;
	uint64_t records;       /* records that did not decode */
	uint64_t unread;        /* deltas of a stream not read from its
				   start (frame.h) */
	uint64_t skipped_before; /* deltas skipped by decoders before a seek */
	struct storefile_session session; /* the last one read */
	bool have_session;
	char *texts;            /* its strings, each NUL-terminated */
};

/* Text of a field into the reader's texts at *at (room made by caller). */
static const char *take_text(char *texts, size_t *at, const unsigned char *v,
			     size_t len)
{
	char *s = texts + *at;

	if (memchr(v, 0, len))
		return NULL;
	memcpy(s, v, len);
	s[len] = '\0';
	*at += len + 1;
	return s;
}

/* One field of a session record into s; false: it does not hold. */
static bool take_field(struct storefile_session *s, char *texts, size_t *at,
		       uint64_t id, const unsigned char *v, size_t len)
{
	uint64_t x = 0, bits = 0;

	switch (id) {
	case SESSION_PROGRAM:
		return (s->program = take_text(texts, at, v, len)) != NULL;
	case SESSION_HOSTNAME:
		return (s->hostname = take_text(texts, at, v, len)) != NULL;
	case SESSION_KERNEL:
		return (s->kernel = take_text(texts, at, v, len)) != NULL;
	case SESSION_HZ:
	case SESSION_NCPU:
	case SESSION_THREADS:
		if (varint_get(v, v + len, &x) != len || x > UINT32_MAX)
			return false;
		if (id == SESSION_THREADS)
			s->threads = x != 0;
		else if (id == SESSION_HZ)
			s->hz = (unsigned long)x;
		else
			s->ncpu = (unsigned long)x;
		return true;
	case SESSION_STARTED:
		if (len != 8)
			return false;
		for (int i = 0; i < 8; i++)
			bits |= (uint64_t)v[i] << (8 * i);
		memcpy(&s->started, &bits, sizeof(bits));
		return s->started == s->started; /* not NaN */
	default:
		return true; /* a field of a later version */
	}
}

/* A session record's payload into r->session; -1: it does not parse. */
static int take_session(struct storefile_reader *r, const struct frame *f)
{
	const unsigned char *p = f->data, *end = f->data + f->len;
	struct storefile_session s = { .offset = f->offset };
	size_t at = 0;
	/* its texts are shorter than the record */
	char *texts = malloc(f->len + 1);

	if (!texts)
		return -1;
	while (p < end) {
		uint64_t id, len;
		size_t n = varint_get(p, end, &id), m;

		if (!n || !(m = varint_get(p + n, end, &len)) ||
		    len > (uint64_t)(end - p - n - m) ||
		    !take_field(&s, texts, &at, id, p + n + m, (size_t)len)) {
			free(texts);
			errno = EINVAL;
			return -1;
		}
		p += n + m + len;
	}
	free(r->texts);
	r->texts = texts;
	r->session = s;
	r->have_session = true;
	return 0;
}

struct storefile_reader *storefile_reader_new(int fd)
{
	struct storefile_reader *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->fr = frame_reader_new(fd);
	r->dec = codec_dec_new(&schema_store);
	if (!r->fr || !r->dec) {
		storefile_reader_free(r);
		errno = ENOMEM;
		return NULL;
	}
	return r;
}

int storefile_next(struct storefile_reader *r, struct store_sample *out,
		   char *err, size_t errsize)
{
	struct frame f;
	int got;

	while ((got = frame_reader_next(r->fr, &f, err, errsize)) == 1) {
		if (f.type == STOREFILE_SESSION) {
			if (take_session(r, &f) < 0) {
				if (errno == ENOMEM)
					return -1;
				r->records++;
			}
			continue;
		}
		if (f.type != FRAME_KEY && f.type != FRAME_DELTA)
			continue;       /* a record for other uses */
		if (f.unread) {
			/* lost with its base: as a delta the codec skips */
			r->unread++;
			continue;
		}
		errno = 0;
		int d = codec_dec_frame(r->dec, f.type, storefile_time(f.time),
					f.data, f.len,
					err, errsize);

		if (d < 0 && errno == ENOMEM)
			return -1;
		if (d < 0)
			r->records++;
		if (d != 1)
			continue;
		if (schema_to_store(&r->rows, codec_dec_sample(r->dec), out) < 0)
			return -1;
		r->offset = f.offset;
		return 1;
	}
	return got;
}

int storefile_seek(struct storefile_reader *r, uint64_t offset)
{
	struct codec_dec *dec = codec_dec_new(&schema_store);

	if (!dec) {
		errno = ENOMEM;
		return -1;
	}
	if (frame_reader_seek(r->fr, offset) < 0) {
		int e = errno;

		codec_dec_free(dec);
		errno = e;
		return -1;
	}
	/* what was decoded before is no base of what follows */
	r->skipped_before += codec_dec_skipped(r->dec);
	codec_dec_free(r->dec);
	r->dec = dec;
	return 0;
}

void storefile_reader_cancel(struct storefile_reader *r, int fd)
{
	frame_reader_cancel(r->fr, fd);
}

const struct storefile_session *storefile_session(const struct storefile_reader *r)
{
	return r->have_session ? &r->session : NULL;
}

uint64_t storefile_offset(const struct storefile_reader *r)
{
	return r->offset;
}

double storefile_time(double t)
{
	/* the year 10000 */
	return t > 0 && t < 253402300800.0 ? t : NAN;
}

struct storefile_damage storefile_damage(const struct storefile_reader *r)
{
	return (struct storefile_damage){
		.bytes = frame_reader_skipped(r->fr),
		.parts = frame_reader_gaps(r->fr),
		.records = r->records,
		.deltas = r->skipped_before + r->unread +
			  codec_dec_skipped(r->dec),
		.repeats = frame_reader_repeats(r->fr),
	};
}

void storefile_reader_free(struct storefile_reader *r)
{
	if (!r)
		return;
	frame_reader_free(r->fr);
	codec_dec_free(r->dec);
	schema_free(&r->rows);
	free(r->texts);
	free(r);
}
