/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Records in a recording file: each one self-delimiting and checked, so
 * that a reader can start at any record and skips a torn or damaged part
 * to go on at the next good one.
 *
 * A record, all numbers little-endian:
 *
 *   offset size
 *        0    4  magic F5 53 54 4B ("\xf5STK"; 0xF5 never occurs in
 *                UTF-8 text)
 *        4    1  type: FRAME_HEADER, FRAME_KEY, FRAME_DELTA, or another
 *                (>= FRAME_OTHER) that a reader hands out as it is
 *        5    1  flags: at most one of FRAME_F_DEFLATE, FRAME_F_OPENS,
 *                FRAME_F_FOLLOWS (below); none: the payload as it is
 *        6    2  0 (reserved)
 *        8    4  length of the payload as stored, at most
 *                FRAME_MAX_STORED
 *       12    8  time of the sample, seconds since the epoch (IEEE 754
 *                double)
 *       20    n  payload
 *     20+n    4  CRC-32 (zlib's crc32) of the 20 header bytes and the
 *                payload
 *
 * A compressed payload (any of the three flags) is the length it
 * inflates to (a varint, see codec.h, at most FRAME_MAX_PAYLOAD)
 * followed by raw deflate data:
 *
 *   FRAME_F_DEFLATE  a whole deflate stream of its own (ended by its
 *                    last block): nothing is shared with other records.
 *   FRAME_F_OPENS    the first part of a deflate stream: its blocks up
 *                    to a sync flush (an empty stored block), that
 *                    block's last four bytes (00 00 FF FF) left out.
 *                    It inflates on its own.
 *   FRAME_F_FOLLOWS  the next part of the stream of the record right
 *                    before it in the file (one of FRAME_F_OPENS or
 *                    FRAME_F_FOLLOWS, ending where this one starts;
 *                    records stored alone, flags 0 or FRAME_F_DEFLATE,
 *                    between them aside), stored the same way: its back references reach
 *                    into the payloads of the parts before it, up to
 *                    32 KiB back.
 *
 * So a record of FRAME_F_FOLLOWS inflates only after the records of its
 * stream before it did: a reader that did not read them (it started
 * after them, or one was damaged) hands it out without a payload
 * (frame.unread), and so on up to the next record that opens a stream.
 * The writer opens a stream where asked (a key frame: the start of what
 * a reader can read on its own) and after any record not of the
 * stream, and compresses a record of a stream even when that does not
 * make it smaller (a part of the stream must be in it); a record alone
 * only when that makes it smaller.
 *
 * A file starts with a FRAME_HEADER record: a payload of the format
 * version (2 bytes) and the name of the program that wrote it (text, not
 * NUL-terminated). A reader reads version FRAME_VERSION and refuses any
 * other: the versions before it were never released (1 deflated each
 * record alone; 2 to 4 laid out a delta frame's fields, a column's
 * numbers, a key frame's entities and some fields of the store's schema
 * otherwise), a newer one may say anything.
 * A compatible addition (a new field or table of codec.h, a new record
 * type) does not change the version.
 *
 * Reading: a record counts only when its magic, type, length and CRC
 * hold and its payload inflates. A record whose bytes are those of the
 * record right before it (a repeat: its type, flags, length, time and
 * CRC the same) is skipped and counted (frame_reader_repeats), and
 * does not end a stream. Anything else is skipped byte by byte
 * up to the next record that holds; the bytes skipped before a record
 * and those of a torn tail are counted. Memory stays bounded whatever the
 * lengths in the file say (FRAME_MAX_STORED, FRAME_MAX_PAYLOAD).
 */
#ifndef STALLTOP_FRAME_H
#define STALLTOP_FRAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FRAME_VERSION 5         /* the only version read */
#define FRAME_HEADER_SIZE 20
#define FRAME_TRAILER_SIZE 4
#define FRAME_MAX_PAYLOAD (16u << 20)
#define FRAME_MAX_STORED (FRAME_MAX_PAYLOAD + 64)
/* The writer's deflate level (zlib's 1 to 9): see frame_writer_open */
#define FRAME_DEFLATE_LEVEL 6

enum frame_type {
	FRAME_HEADER = 1,       /* the file header: the format version */
	FRAME_KEY = 2,          /* a whole sample (codec.h) */
	FRAME_DELTA = 3,        /* what changed since the sample before */
	FRAME_OTHER = 16,       /* from here on: records for other uses */
};

#define FRAME_F_DEFLATE 0x01
#define FRAME_F_OPENS 0x02
#define FRAME_F_FOLLOWS 0x04

/* A record read: data is valid until the next frame_reader_next(). */
struct frame {
	int type;
	double time;
	const unsigned char *data;      /* the payload, inflated (raw:
					   as stored) */
	size_t len;
	bool deflated;                  /* stored compressed */
	bool unread;                    /* a part of a deflate stream whose
					   parts before were not read: no
					   payload (data NULL, len 0) */
	uint64_t offset;                /* where the record starts */
	uint64_t skipped;               /* damaged bytes skipped before it */
};

struct frame_writer;
struct frame_reader;

/*
 * Write records to fd (not taken: close it yourself), starting with the
 * file header naming the program `writer`. With compress, payloads are
 * deflated when that makes them smaller. NULL with errno set on failure.
 */
struct frame_writer *frame_writer_open(int fd, bool compress,
				       const char *writer);
/* One record alone, in one write(2). 0, or -1 with errno set. */
int frame_write(struct frame_writer *w, int type, double time,
		const void *payload, size_t len);
/*
 * One record of a deflate stream (the writer compresses): opening one
 * when opens or when the record written last was not of the stream
 * (or failed), the next part of it otherwise. 0, or -1 with errno set;
 * EINVAL for a writer that does not compress.
 */
int frame_write_stream(struct frame_writer *w, int type, double time,
		       const void *payload, size_t len, bool opens);
/* Bytes written so far, the header included. */
uint64_t frame_writer_bytes(const struct frame_writer *w);
void frame_writer_free(struct frame_writer *w);

/* Read records from fd (not taken). NULL with errno set (ENOMEM). */
struct frame_reader *frame_reader_new(int fd);
/*
 * The next good record into *f: 1; 0 at the end of the file; -1 with
 * errno set on a read error (EIO and the like, ENOMEM) or a file of
 * another format version (ENOTSUP), with a translated message in err.
 * Header records are taken in by the reader, never handed out.
 */
int frame_reader_next(struct frame_reader *r, struct frame *f, char *err,
		      size_t errsize);
/*
 * raw: hand out payloads as stored, without inflating them (a scan of
 * where the records are and when: the CRC is checked all the same).
 */
void frame_reader_raw(struct frame_reader *r, bool raw);
/*
 * Stop reading (frame_reader_next: -1, errno EINTR) once fd (-1: never)
 * is readable, looked at before a read once 128 KiB were read since
 * the last look (a read takes at most 128 KiB then).
 */
void frame_reader_cancel(struct frame_reader *r, int fd);
/*
 * Go on reading at offset, the start of a record (frame.offset of an
 * earlier read): 0, or -1 with errno set (lseek's: a pipe cannot). The
 * version and the counts of damage stay.
 */
int frame_reader_seek(struct frame_reader *r, uint64_t offset);
/* The format version of the last header read; 0 before any. */
unsigned frame_reader_version(const struct frame_reader *r);
/* Damaged bytes skipped so far (torn tail included), and in how many parts. */
uint64_t frame_reader_skipped(const struct frame_reader *r);
uint64_t frame_reader_gaps(const struct frame_reader *r);
/* Bytes of a torn or damaged end, known at the end of the file. */
uint64_t frame_reader_tail(const struct frame_reader *r);
/* Records skipped as repeats of the one right before them, so far. */
uint64_t frame_reader_repeats(const struct frame_reader *r);
void frame_reader_free(struct frame_reader *r);

#endif
