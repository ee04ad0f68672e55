/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Where the samples of a recording of readings (storefile.h) are: one
 * pass over the file's records, checking each one's CRC but inflating
 * and decoding none, gives each sample's offset, time and whether it is a
 * key frame, so that a replay can start reading at the key frame at or
 * before any sample (storefile_seek) and decode forward from there; and
 * where each recording session begins (its samples are counted from its
 * own first one).
 *
 * Damage: what the records' checks reject is skipped and counted, as
 * frame.h says (the bytes, the parts, a torn end); a record that holds
 * but does not decode is found only when it is read. At most
 * max_samples entries are kept (24 bytes each); reading stops as soon as
 * cancel_fd is readable.
 */
#ifndef STALLTOP_STOREINDEX_H
#define STALLTOP_STOREINDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The four bytes every recording of readings starts with (frame.h). */
#define STOREINDEX_MAGIC "\xf5STK"

struct storeindex_entry {
	uint64_t offset;        /* where its record starts */
	double time;            /* the sample's time, epoch s */
	bool key;               /* a key frame: reading may start here */
	bool session;           /* the first sample of a recording session
				   (after its record, storefile.h) */
	bool damaged;           /* damaged bytes were skipped right before
				   it: the samples between it and the
				   entry before are lost */
	bool bad;               /* found not to decode (by its reader) */
};

struct storeindex {
	struct storeindex_entry *e;
	size_t n, cap;
	unsigned version;       /* the file's format version */
	uint64_t skipped;       /* damaged bytes skipped, the torn end too */
	uint64_t parts;         /* ... in how many parts */
	uint64_t tail;          /* of them, the torn end's */
	uint64_t repeats;       /* records skipped as repeats of the one
				   right before them (frame.h) */
	size_t notime;          /* samples whose time is unknown
				   (storefile_time) */
	size_t first_notime;    /* ... the first one's entry */
	bool full;              /* max_samples were reached: the rest unread */
};

/*
 * Does the start of a file (n bytes of it) say it is a recording of
 * readings? (An NDJSON recording starts with '{', or gzip's 1f 8b.)
 */
bool storeindex_sniff(const void *start, size_t n);

/*
 * Index the file at fd (not taken) from its start into *ix (zeroed
 * first), at most max_samples samples. 0; or -1 with errno set and a
 * translated message in err: a read error, a newer format (ENOTSUP),
 * EINTR when cancel_fd (-1: none) became readable, ENOMEM.
 */
int storeindex_build(struct storeindex *ix, int fd, size_t max_samples,
		     int cancel_fd, char *err, size_t errsize);

/*
 * The entry of the key frame at or before entry i, or SIZE_MAX when
 * none is.
 */
size_t storeindex_key_at(const struct storeindex *ix, size_t i);

/* The first entry of the session entry i is of (0 when none began). */
size_t storeindex_session_at(const struct storeindex *ix, size_t i);

/*
 * The first entry of the unbroken stretch entry i is in: its session's
 * first, or the first after damaged bytes since. No interval spans two
 * stretches (what lies between them is lost).
 */
size_t storeindex_run_at(const struct storeindex *ix, size_t i);

void storeindex_free(struct storeindex *ix);

#endif
