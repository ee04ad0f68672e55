/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Fuzz target: a recording of readings read back (src/store/frame.c's
 * reader, src/store/codec.c's decoder) with the test schema of
 * tests/lib/store_schema.h, the input as a file. Checks, besides memory
 * safety: records come in file order, inside the file, and what was
 * skipped plus what was read is no more than the file; a sample handed
 * out has at most max_rows entities per table, strictly in key order,
 * each with its key and with each known string there, shorter than all
 * strings together may be (CODEC_STRINGS_MAX); and
 * written again as a key frame and read back it is the same sample.
 */
#include <config.h>

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz.h"
#include "store/codec.h"
#include "store/frame.h"
#include "../lib/store_schema.h"

static void check_rows(const struct codec_table *t, const struct codec_rows *r)
{
	FUZZ_CHECK(r->n <= t->max_rows);
	for (size_t i = 0; i < r->n; i++) {
		const unsigned char *row = (unsigned char *)r->rows + i * t->size;

		if (i)
			FUZZ_CHECK(st_key_cmp(t, row - t->size, row) < 0);
		for (size_t j = 0; j < t->nfields; j++) {
			const struct codec_field *f = &t->fields[j];
			if (f->flags & CODEC_KEY)
				FUZZ_CHECK(codec_known(t, row, f->id));
			if (f->type == CODEC_STRING &&
			    codec_known(t, row, f->id)) {
				const char *str;

				memcpy(&str, row + f->offset, sizeof(str));
				FUZZ_CHECK(str && strlen(str) < CODEC_STRINGS_MAX);
			}
		}
	}
}

/* The sample as a key frame of a fresh encoder, decoded: the same. */
static void check_again(const struct codec_sample *s)
{
	struct codec_enc *e = codec_enc_new(&st_schema, 0, 0);
	struct codec_dec *d = codec_dec_new(&st_schema);
	const unsigned char *p;
	size_t len;
	int type;
	char err[256];

	FUZZ_CHECK(e && d);
	FUZZ_CHECK(codec_enc_sample(e, s, &p, &len, &type) == 0);
	FUZZ_CHECK(type == FRAME_KEY);
	FUZZ_CHECK(codec_dec_frame(d, type, s->time, p, len, err,
				   sizeof(err)) == 1);
	const struct codec_sample *again = codec_dec_sample(d);
	for (size_t t = 0; t < ST_NTABLES; t++) {
		const struct codec_table *tb = &st_tables[t];
		FUZZ_CHECK(again->tables[t].n == s->tables[t].n);
		for (size_t i = 0; i < s->tables[t].n; i++)
			FUZZ_CHECK(st_row_diff(tb, (unsigned char *)
					       again->tables[t].rows + i * tb->size,
					       (unsigned char *)s->tables[t].rows +
					       i * tb->size) == 0);
	}
	codec_enc_free(e);
	codec_dec_free(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int fd = memfd_create("store", MFD_CLOEXEC);
	struct frame_reader *r;
	struct codec_dec *d;
	struct frame f;
	char err[256];
	uint64_t end = 0, read = 0;
	int rc;

	if (fd < 0 || (size && write(fd, data, size) != (ssize_t)size))
		abort();
	lseek(fd, 0, SEEK_SET);
	r = frame_reader_new(fd);
	d = codec_dec_new(&st_schema);
	FUZZ_CHECK(r && d);
	while ((rc = frame_reader_next(r, &f, err, sizeof(err))) == 1) {
		FUZZ_CHECK(f.offset >= end + f.skipped);
		FUZZ_CHECK(f.offset < size);
		end = f.offset;
		read += FRAME_HEADER_SIZE + FRAME_TRAILER_SIZE;
		if (f.type != FRAME_KEY && f.type != FRAME_DELTA)
			continue;
		/* a part of a stream whose start was not read: no payload */
		FUZZ_CHECK(!f.unread || (!f.data && !f.len));
		if (f.unread)
			continue;
		int got = codec_dec_frame(d, f.type, f.time, f.data, f.len, err,
					  sizeof(err));
		FUZZ_CHECK(got >= -1 && got <= 1);
		if (got < 0)
			FUZZ_CHECK(errno == ENOMEM || (errno == EBADMSG && *err));
		if (got != 1)
			continue;
		const struct codec_sample *s = codec_dec_sample(d);
		for (size_t t = 0; t < ST_NTABLES; t++)
			check_rows(&st_tables[t], &s->tables[t]);
		check_again(s);
	}
	FUZZ_CHECK(rc == 0 || (rc == -1 && *err));
	if (rc == 0)
		FUZZ_CHECK(frame_reader_skipped(r) + read <= size);
	frame_reader_free(r);
	codec_dec_free(d);
	close(fd);
	return 0;
}
