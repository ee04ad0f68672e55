/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Rotating recordings: --record DIR writes one recording per local day
 * into DIR, like atop's daily logs, each a complete recording (record.h:
 * its session record, a key frame first) that replays on its own:
 *
 *   stalltop-YYYY-MM-DD.stk      the day's file
 *   stalltop-YYYY-MM-DD.N.stk    the next ones of the same day (N = 1,
 *                                2 ...): the file reached the size
 *                                limit, or stalltop started again
 *
 * An existing file is never appended to, so a file a crash cut short
 * stays as it is (replay reads what it holds) and a restart begins a new
 * one.
 *
 * Rotation is decided by each sample's own time, before it is written:
 * the sample taken after local midnight is the first of the new day's
 * file, and the old file is closed before the new one is opened, so no
 * sample is lost or written twice. When a file has reached max_size, the
 * next sample starts a new file of the same day.
 *
 * Each file is created new (never a name that is there), mode 0600 or
 * 0640 as record.h says; a file that could not be started is removed
 * again, and one removed while it is written ends the recording
 * (rotate_write fails): what goes into a file no name leads to is lost.
 *
 * Retention: whenever a new day begins (and at start), files of this
 * naming whose every sample is older than keep days are removed: a file
 * holds only samples of its period, so those whose period ended keep days
 * (by the calendar) before the retention clock. Files of the same naming
 * that recordings of format 1 had (stalltop-YYYY-MM-DD[.N].ndjson.gz,
 * record.h) go by the same rule. Never the file being written; other files
 * in DIR are never touched.
 *
 * The retention clock trusts no jump of the wall clock. Each sample's
 * time is set beside the boot clock (CLOCK_BOOTTIME, which counts suspend
 * and is never set): when the wall clock moved more than
 * ROTATE_JUMP_TOLERANCE further or less far than the boot clock since the
 * sample before, it jumped, and a note says so (rotate_warning). The
 * retention clock is the boot clock plus the smallest offset (wall - boot)
 * seen in the last keep + 1 days: without a jump it is the wall clock;
 * after a jump forward it stays where the time that really passed puts it
 * (the files of the days before are kept); after a jump back it follows
 * the wall clock back. So it is never ahead of the newest sample, and a
 * file written in those keep + 1 days is never older by it than it
 * really is: what was recorded within keep days is never removed. The
 * files named after a wrong day go when the retention clock has passed
 * that day by keep days. (A clock that is already wrong when stalltop
 * starts cannot be told.)
 *
 * For tests, STALLTOP_ROTATE_SECONDS=N makes a "day" N seconds long
 * (periods aligned to the epoch; files then named
 * stalltop-YYYY-MM-DD-HHMMSS[.N].stk after the period's start, and
 * retention counted in periods). It is not a user option.
 */
#ifndef STALLTOP_ROTATE_H
#define STALLTOP_ROTATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "store/sample.h"

#define ROTATE_MAX_SIZE_DEFAULT (256ULL << 20)
#define ROTATE_KEEP_DEFAULT 28
/*
 * Seconds the wall clock may move further or less far than the boot clock
 * between two samples before it counts as a jump. Both are slewed alike
 * by NTP (only a step of the wall clock moves one alone) and a sample
 * reads them together, so without a jump the difference is microseconds
 * (measured: at most 1.2 us over 1,000 readings 10 ms apart); a leap
 * second (1 s) is not a jump.
 */
#define ROTATE_JUMP_TOLERANCE 1.5

struct rotate_opts {
	uint64_t max_size;  /* bytes on disk that end a file; 0: no limit */
	unsigned keep;      /* days of files kept, 0: all */
	long period;        /* seconds of a "day"; 0: local days */
	bool threads;       /* the samples hold threads' readings (the
			       session record says it) */
};

struct rotator;

/*
 * Does path name a directory for rotating recordings: an existing
 * directory, or a name ending in '/'?
 */
bool rotate_is_dir(const char *path);

/*
 * Start recording into dir (created, one level, when missing): remove
 * what retention says and open the file for now. NULL with a translated
 * message in err on failure.
 */
struct rotator *rotate_open(const char *dir, const struct rotate_opts *o,
			    char *err, size_t errsize);

/*
 * Write s into the file its time belongs to, rotating first when due;
 * s->boot (or, when 0, the boot clock now) tells a jump of the wall
 * clock. Returns 0; 1 with errno and its text in err when the sample
 * could not be made into a record and was left out (record_write); or
 * -1 with a translated message in err (also when the file was removed
 * while it was written).
 */
int rotate_write(struct rotator *r, const struct store_sample *s, char *err,
		 size_t errsize);

/*
 * A translated note of what the last rotate_write() or rotate_open()
 * could not do but went on without (a file of the past that could not be
 * removed), or of a jump of the wall clock, or NULL; each note is handed
 * out once.
 */
const char *rotate_warning(struct rotator *r);

/* The file being written (for messages and tests). */
const char *rotate_path(const struct rotator *r);

/* Close the current file (record_close) and free r; NULL is fine. */
int rotate_close(struct rotator *r);

#endif
