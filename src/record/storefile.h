/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A recording of readings: store samples (store/sample.h) in a file of
 * records (store/frame.h), each sample a key or delta frame of the codec
 * (store/codec.h) over the store's schema (store/schema.h). The first
 * sample written to a file, and then one every key_every samples or
 * key_seconds seconds, is a key frame, so a reader can start at any of
 * them; a damaged or torn record costs itself and the deltas up to the
 * next key frame, which the reader skips and counts.
 *
 * A session record (type STOREFILE_SESSION) says who recorded the samples
 * after it and on what machine: the start of each file and of each
 * session appended to it has one, before the session's first key frame.
 * Its payload is a list of fields, each a varint id, a varint length and
 * that many bytes, so that a reader skips a field it does not know:
 *
 *   id  what                                  bytes
 *    1  the program ("stalltop 0.2.0")        text
 *    2  the host's name                       text
 *    3  the kernel's release (uname -r)       text
 *    4  clock ticks per second                varint
 *    5  CPUs online                           varint
 *    6  when the session started, seconds     8, IEEE 754 double,
 *       since the epoch                          little-endian
 *    7  threads are recorded (thread_tasks)   varint, 0 or 1
 *
 * Text is not NUL-terminated and holds no NUL. The record's time is the
 * session's start. A session record that does not parse is counted as a
 * damaged record and skipped.
 */
#ifndef STALLTOP_STOREFILE_H
#define STALLTOP_STOREFILE_H

#include <stdbool.h>
#include <stdint.h>

#include "store/frame.h"
#include "store/sample.h"

/* The record type of a session (store/frame.h: one of its own). */
#define STOREFILE_SESSION FRAME_OTHER

/* What a session record says; a string NULL or a number 0: not said. */
struct storefile_session {
	const char *program;    /* "stalltop 0.2.0" */
	const char *hostname;
	const char *kernel;     /* the kernel's release */
	unsigned long hz;       /* clock ticks per second */
	unsigned long ncpu;     /* CPUs online */
	double started;         /* real s when the session started */
	bool threads;           /* threads are recorded */
	uint64_t offset;        /* where its record starts in the file */
};

struct storefile_writer;

/*
 * Write to fd (not taken), starting with the file header naming the
 * program. NULL with errno set on failure.
 */
struct storefile_writer *storefile_writer_open(int fd, const char *program,
					       unsigned key_every,
					       double key_seconds);
/*
 * A session begins: its record, the next sample a key frame. 0, or -1
 * with errno set.
 */
int storefile_write_session(struct storefile_writer *w,
			    const struct storefile_session *s);
/*
 * One sample. 0; 1 with errno set when it could not be made into a
 * record (ENOMEM, or EINVAL, EFBIG: more than the format holds), nothing
 * written; -1 with errno set when the write failed (ENOMEM of its
 * compression, or the write's). After either the next sample is a key
 * frame.
 */
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
	uint64_t repeats;       /* records skipped as repeats (frame.h) */
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
/* Stop reading (-1, errno EINTR) once fd is readable (frame.h). */
void storefile_reader_cancel(struct storefile_reader *r, int fd);
/*
 * The session the sample read last belongs to (the last session record
 * before it), valid until the next call; NULL: none read yet.
 */
const struct storefile_session *storefile_session(const struct storefile_reader *r);
/* Where the sample read last starts in the file. */
uint64_t storefile_offset(const struct storefile_reader *r);
struct storefile_damage storefile_damage(const struct storefile_reader *r);
/*
 * A sample's time as a reader takes it: a record's time that no clock
 * gave (not a number, not after 1970, after the year 9999) is unknown,
 * NAN; a sample read has it so.
 */
double storefile_time(double t);
void storefile_reader_free(struct storefile_reader *r);

#endif
