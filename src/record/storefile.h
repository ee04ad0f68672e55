/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A recording of readings: store samples (store/sample.h) in a file of
 * records (store/frame.h), each sample a key or delta frame of the codec
 * (store/codec.h) over the store's schema (store/schema.h). The first
 * sample written to a file, and then one every key_every samples or
 * key_seconds seconds, is a key frame, so a reader can start at any of
 * them; a damaged or torn record costs itself and the deltas up to the
 * next key frame, which the reader skips and counts.
 */
#ifndef STALLTOP_STOREFILE_H
#define STALLTOP_STOREFILE_H

#include <stdbool.h>
#include <stdint.h>

#include "store/sample.h"

struct storefile_writer;

/*
 * Write to fd (not taken), starting with the file header naming the
 * program. NULL with errno set on failure.
 */
struct storefile_writer *storefile_writer_open(int fd, const char *program,
					       unsigned key_every,
					       double key_seconds);
/* One sample. 0, or -1 with errno set (the write's, or EINVAL, ENOMEM). */
int storefile_write(struct storefile_writer *w, const struct store_sample *s);
/* Bytes written so far, the header included. */
uint64_t storefile_writer_bytes(const struct storefile_writer *w);
void storefile_writer_free(struct storefile_writer *w);

/* What a reader skipped so far. */
struct storefile_damage {
	uint64_t bytes;         /* damaged bytes, a torn end included */
	uint64_t parts;         /* damaged parts */
	uint64_t records;       /* records that held but did not decode */
	uint64_t deltas;        /* deltas skipped for want of their base */
};

struct storefile_reader;

/* Read from fd (not taken). NULL with errno set (ENOMEM). */
struct storefile_reader *storefile_reader_new(int fd);
/*
 * The next sample into *out (valid until the next call): 1; 0 at the end
 * of the file; -1 with errno set and a translated message in err (a read
 * error, a file of a newer format: ENOTSUP, ENOMEM).
 */
int storefile_next(struct storefile_reader *r, struct store_sample *out,
		   char *err, size_t errsize);
/*
 * Go on reading at offset, where a key frame starts (storefile_offset of
 * an earlier read, or a storeindex entry): the next sample is that one.
 * 0, or -1 with errno set (ENOMEM, lseek's: ESPIPE for a pipe).
 */
int storefile_seek(struct storefile_reader *r, uint64_t offset);
/* Where the sample read last starts in the file. */
uint64_t storefile_offset(const struct storefile_reader *r);
struct storefile_damage storefile_damage(const struct storefile_reader *r);
void storefile_reader_free(struct storefile_reader *r);

#endif
