/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Samples of readings as the payloads of FRAME_KEY and FRAME_DELTA
 * records (frame.h), generic over a schema.
 *
 * A sample is a set of tables (tasks, cgroups, the system...), each a
 * list of entities of one C struct. A table's schema (struct
 * codec_table) gives every field a stable numeric id (1 to
 * CODEC_MAX_ID), a type, its offset in the struct and its name; the key
 * fields (CODEC_KEY: a task's id, start time and life, a cgroup's path;
 * none for a table of one entity) identify an entity from sample to
 * sample.
 * Each struct has a bitmap of the ids it knows (known_offset): a field
 * not known is not written, and a field not written is unknown. A string
 * field is a `const char *`, never NULL where known: the encoder copies
 * what it keeps of a sample, so the caller's strings need last only the
 * call; a decoded sample's strings are the decoder's, valid until its
 * next frame (CODEC_STRINGS_MAX bounds them all). Ids are
 * never reused: a new field gets a new id, a field that goes away leaves
 * its id unused.
 *
 * Payload (varints as in varint.h):
 *
 *   sample   := seq table*
 *   seq      := varint, one more than the sample before
 *   table    := table-id:varint length:varint body (length bytes)
 *   key body := count:varint column* 0
 *   delta    := count:varint gap:varint*count             (removed)
 *               count:varint gap:varint*count column* 0   (changed)
 *               count:varint entity*count                 (added)
 *   column   := tag:varint which values: the field (its id the id of
 *               the column before plus step, the first's: step) with
 *               the wire of its values, of the changed entities that
 *               have it with that wire; step 0 only for another wire
 *               of the same field, wires going up
 *   which    := 0: every changed entity | 1 bitmap: (count + 7) / 8
 *               bytes, bit i (byte i / 8, bit i % 8) for the i-th
 *               changed entity
 *   values   := in the entities' order: wires 0 and 1 a block of
 *               their numbers, wire 2 a value each, wire 3 none
 *   block    := base:varint shift:varint head:varint exceptions
 *               plane*(bits / 8) packed: number j = base + (u_j <<
 *               shift) mod 2^64; base zigzagged as an int64, shift
 *               <= 63, head = bits << 1 | 1 where there are
 *               exceptions, else bits << 1 (bits <= 64); the low bits
 *               of each u_j (its bits lowest) in plane k its byte k,
 *               one a column's entity, in packed its next bits % 8
 *               bits, each u_j's after the one's before, from bit 0
 *               of byte 0 ((m * (bits % 8) + 7) / 8 bytes for m
 *               numbers)
 *   exceptions := nothing without them; else count:varint (1 to
 *               m, bits < 64) gap:varint*count high:varint*count:
 *               the numbers with bits beyond bits, by their index in
 *               the block (gaps as an entity's, below), high their
 *               bits above bits (u_j = low | high << bits)
 *   number   := 64 bits: of a counter the entity knew before, its
 *               difference from its value then (mod 2^64; a double
 *               counter's IEEE 754 bits'); else the value's bits (an
 *               s64 in two's complement, a double's IEEE 754 bits)
 *   entity   := field* 0
 *   field    := tag:varint value, tag = step << 2 | wire: the field's
 *               id is the id of the field before it in the entity plus
 *               step (the first field's: step); ids go up, step >= 1
 *   wire 0   := varint: u64 as it is, s64 zigzagged (in a column: a
 *               number of its block; a counter, CODEC_COUNTER, that
 *               the entity knew before is its difference)
 *   wire 1   := 8 bytes, little-endian: a double (in a column: a
 *               number of its block; a double counter, a time that
 *               grows, the entity knew before is wire 0)
 *   wire 2   := length:varint bytes: a string (no NUL)
 *   wire 3   := no value: the field became unknown (deltas only)
 *
 * Entities are in key order (u64 and s64 keys as numbers, strings by
 * bytes). A gap is the distance in that order of the previous sample
 * from the entity before in the same list (the first: from -1), so an
 * entity that did not change costs nothing and one that did costs a
 * byte besides its values (its gap). A changed entity has the fields
 * that changed, never its key, in the columns; a field it is not in a
 * column of keeps its value. The columns put each field's values of
 * all the changed entities side by side, so deflate sees like bytes
 * together; a block takes the smallest number as its base and the
 * others as their distance from it, less the trailing zero bits they
 * all share (IO bytes move in 4 KiB pages), and writes the low bits of
 * each in as many bits as most of them need (byte planes, then the
 * bits left packed), the few that need more as exceptions with their
 * high bits: the encoder picks the bits that make the fewest bytes, so
 * numbers near each other cost what their spread does, an outlier does
 * not widen the others, and the high bytes line up. A key frame's
 * table is its entities in columns, all of them as changed from
 * nothing: a column's which selects those that know the field, keys
 * included (every entity has its key), numbers their own bits. An added entity lists its known
 * fields whole. Neither has wire 3 or differences. A key frame holds every
 * table (one not written is empty); a delta frame only the tables that
 * changed. More entities in a table than its max_rows is damage, and so is
 * a key frame's count of more than 8 entities a byte of the table after it
 * (distinct keys take a bit each at least). The decoder applies a delta
 * only to the sample whose seq is one less: after a lost or damaged record
 * it skips deltas up to the next key frame, never misapplying one. A
 * reader skips a field or table id it does not know (a newer file), by its
 * wire type or length. A schema lists its fields in the order of their
 * ids, the order they are written in; a step of 0 (but between columns of
 * one field, wires going up), or ids past 64 bits, are damage. A string is
 * bytes without a NUL, of any length (CODEC_STRINGS_MAX bounds a sample's
 * strings together).
 */
#ifndef STALLTOP_CODEC_H
#define STALLTOP_CODEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CODEC_MAX_ID 1023
/*
 * The bytes of all the strings of one sample, a NUL each counted: a
 * writer refuses a sample with more (EFBIG), a reader takes one with
 * more as damage, so that a hostile file cannot make a reader hold more.
 * A single string has no other bound: a command line is never cut.
 */
#define CODEC_STRINGS_MAX (16u << 20)

enum codec_type { CODEC_U64, CODEC_S64, CODEC_DOUBLE, CODEC_STRING };

#define CODEC_KEY 0x1u          /* part of the key; always known */
/*
 * with CODEC_KEY: a part of the key that may be unknown, and is then
 * 0 (not written where it is 0, so rows without it, and files written
 * before it was, read as they did)
 */
#define CODEC_KEY_ZERO 0x4u
#define CODEC_COUNTER 0x2u      /* written as a difference in deltas (a
				   number, or a double's bits) */

struct codec_field {
	unsigned id;
	enum codec_type type;
	unsigned flags;
	size_t offset;          /* of a uint64_t, int64_t, double or
				   const char * */
	const char *name;
};

struct codec_table {
	unsigned id;
	const char *name;
	size_t size;            /* of the struct */
	size_t known_offset;    /* of the bitmap of known ids (bit id) */
	size_t known_size;      /* its bytes: ids below known_size * 8 */
	size_t max_rows;        /* more in a file is damage */
	const struct codec_field *fields;
	size_t nfields;
};

struct codec_schema {
	const struct codec_table *tables;
	size_t ntables;
};

/* The entities of one table: an array of its struct. */
struct codec_rows {
	void *rows;
	size_t n;
};

/* A sample: one codec_rows per table of the schema, in its order. */
struct codec_sample {
	double time;
	struct codec_rows *tables;
};

/* Whether row knows field id; make it known or not. */
static inline bool codec_known(const struct codec_table *t, const void *row,
			       unsigned id)
{
	const unsigned char *k = (const unsigned char *)row + t->known_offset;

	return id / 8 < t->known_size && (k[id / 8] >> (id % 8) & 1);
}

static inline void codec_set_known(const struct codec_table *t, void *row,
				   unsigned id, bool known)
{
	unsigned char *k = (unsigned char *)row + t->known_offset;

	if (id / 8 >= t->known_size)
		return;
	if (known)
		k[id / 8] |= (unsigned char)(1u << (id % 8));
	else
		k[id / 8] &= (unsigned char)~(1u << (id % 8));
}

/*
 * The schema is sound (ids unique, in 1..CODEC_MAX_ID and in the
 * bitmap, the fields in the order of their ids; offsets inside the
 * struct; key fields and strings not counters): 0, or -1 with the
 * reason in err (for the program's own tables: tests check them).
 */
int codec_schema_check(const struct codec_schema *s, char *err,
		       size_t errsize);

struct codec_enc;
/*
 * An encoder writing a key frame every key_every samples (0: only the
 * first) or when key_seconds passed since the last one (0: never).
 */
struct codec_enc *codec_enc_new(const struct codec_schema *s,
				unsigned key_every, double key_seconds);
/* The next sample is a key frame (the start of a file). */
void codec_enc_restart(struct codec_enc *e);
/*
 * The payload of sample in into *out (valid until the next call) and its
 * record type (FRAME_KEY or FRAME_DELTA) into *type. 0, or -1 with errno
 * set: EINVAL for a key field unknown, a known string NULL, two entities
 * of one key or more than max_rows; EFBIG for a payload over
 * FRAME_MAX_PAYLOAD or strings over CODEC_STRINGS_MAX; ENOMEM.
 */
int codec_enc_sample(struct codec_enc *e, const struct codec_sample *in,
		     const unsigned char **out, size_t *len, int *type);
void codec_enc_free(struct codec_enc *e);

struct codec_dec;
struct codec_dec *codec_dec_new(const struct codec_schema *s);
/*
 * Decode the payload of a FRAME_KEY or FRAME_DELTA record. 1: the sample
 * is ready (codec_dec_sample); 0: a delta without the sample it applies
 * to, skipped, or one of the seq of the sample decoded last (a repeat:
 * skipped, that sample stays the base of the next); -1: damaged (err says how; deltas are skipped up to the
 * next key frame) or errno ENOMEM.
 */
int codec_dec_frame(struct codec_dec *d, int type, double time,
		    const unsigned char *p, size_t len, char *err,
		    size_t errsize);
/*
 * The sample decoded last, its tables in key order; it and its strings
 * are valid until the next codec_dec_frame.
 */
const struct codec_sample *codec_dec_sample(const struct codec_dec *d);
/* Deltas skipped so far for want of their base. */
uint64_t codec_dec_skipped(const struct codec_dec *d);
void codec_dec_free(struct codec_dec *d);

#endif
