/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Store samples to and from a file of records (storefile.h).
 */
#include <config.h>

#include "record/storefile.h"

#include <errno.h>
#include <stdlib.h>

#include "store/codec.h"
#include "store/frame.h"
#include "store/schema.h"

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
	    codec_enc_sample(w->enc, &cur->cs, &p, &len, &type) < 0 ||
	    frame_write(w->fw, type, s->time, p, len) < 0)
		return -1;
	w->cur = !w->cur;
	w->have_prev = true;
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
	uint64_t skipped_before; /* deltas skipped by decoders before a seek */
};

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
		if (f.type != FRAME_KEY && f.type != FRAME_DELTA)
			continue;       /* a record for other uses */
		errno = 0;
		int d = codec_dec_frame(r->dec, f.type, f.time, f.data, f.len,
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

uint64_t storefile_offset(const struct storefile_reader *r)
{
	return r->offset;
}

struct storefile_damage storefile_damage(const struct storefile_reader *r)
{
	return (struct storefile_damage){
		.bytes = frame_reader_skipped(r->fr),
		.parts = frame_reader_gaps(r->fr),
		.records = r->records,
		.deltas = r->skipped_before + codec_dec_skipped(r->dec),
	};
}

void storefile_reader_free(struct storefile_reader *r)
{
	if (!r)
		return;
	frame_reader_free(r->fr);
	codec_dec_free(r->dec);
	schema_free(&r->rows);
	free(r);
}
