/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A set of recordings replayed as one: files, or directories of them
 * (every *.ndjson and *.ndjson.gz inside, and every regular file that
 * starts as a recording of readings, such as the daily files of --record
 * DIR), in the order of their first sample's time (the first header's
 * start when that cannot be read quickly), their samples one timeline,
 * optionally only those of a time window. A layer over replay.h and
 * storeindex.h: each file is a struct replay of its own, or, for a
 * recording of readings (told by its first bytes, whatever its name),
 * its index and a reader.
 *
 * The window: a sample is in it when its time is within [begin, end]
 * (either bound NAN: open on that side); a sample without a time is in
 * it only when there is no window. A file is not opened at all when the
 * window ends before it starts, or when the next file starts no later
 * than the window begins (the files of one recorder do not overlap), so
 * asking for ten minutes of a month of files reads one or two of them.
 *
 * Damage: a file of a directory that cannot be read, or is not a
 * recording, is skipped with a note naming it; a file named on its own
 * that cannot be opened fails the set. The files together hold at most
 * REPLAY_SAMPLES_MAX samples (16 bytes each here, on top of their file's
 * index): the files after that are not read, with a note. A sample whose
 * time is not after the last sample of the files before it (one file
 * named twice, files that overlap) is skipped with a note: the timeline
 * never goes back. The damage notes of each file (replay_problem) are
 * kept, prefixed with the file's name when the set has more than one
 * file.
 */
#ifndef STALLTOP_REPLAY_SET_H
#define STALLTOP_REPLAY_SET_H

#include <stddef.h>

#include "model/sample.h"
#include "record/storeindex.h"
#include "store/sample.h"

struct replay_set;

/*
 * Open the n paths (files or directories) for samples in [begin, end].
 * NULL with a translated message in err when a named file cannot be
 * replayed or when there is no recording at all. A window that holds no
 * sample is not a failure: the set is then empty. Reading stops as soon
 * as cancel_fd is readable (-1: never): NULL with errno EINTR.
 */
struct replay_set *replay_set_open_cancel(const char *const *paths, size_t n,
					  double begin, double end,
					  int cancel_fd, char *err,
					  size_t errsize);

/* The number of samples in the window, across the files. */
size_t replay_set_count(const struct replay_set *set);

/*
 * As replay_get(), for the set's sample index (0-based) of an NDJSON
 * recording (EINVAL for one of readings).
 */
int replay_set_get(struct replay_set *set, size_t index, struct sample *out);
/*
 * Recordings of readings (storefile.h; told from NDJSON by their first
 * bytes, so a directory or a list may mix them) are not read into struct
 * sample here: the player runs the model over their store samples.
 * Sample index is of one when replay_set_store_pos() gives its file and
 * its entry in that file's index (storeindex.h).
 */
bool replay_set_store_pos(const struct replay_set *set, size_t index,
			  size_t *file, size_t *entry);
/* The index of store file `file`, or NULL when it is not one (or closed). */
const struct storeindex *replay_set_store_index(const struct replay_set *set,
						size_t file);
/*
 * Entry `entry` of store file `file` (any entry of its index, in the
 * window or not) into *out, valid until the next call for that file:
 * reading on from the entry before is one record; any other is a seek
 * to the key frame at or before it and a decoding forward. 1; 0 when it
 * did not decode (it, or a record between it and its key frame, is
 * damaged: counted in the problem); -1 with errno set (a read error,
 * ENOMEM, EINVAL).
 */
int replay_set_store_read(struct replay_set *set, size_t file, size_t entry,
			  struct store_sample *out);

/* As replay_skipped(), named by its file when there are several. */
const char *replay_set_skipped(const struct replay_set *set);

/*
 * The index of the latest sample in the set whose time is at or before
 * epoch; 0 when every sample is later (or there is none).
 */
size_t replay_set_find_time(const struct replay_set *set, double epoch);

/* Every file replayed is a recording of readings (and there is one). */
bool replay_set_all_store(const struct replay_set *set);

/*
 * NULL, or a translated note of what was skipped: the files' damage
 * (named when there are several) and the files left out. It may change
 * after a replay_set_get() that met a corrupt line.
 */
const char *replay_set_problem(struct replay_set *set);
/*
 * Was part of a file skipped as damage (replay_damaged; of a recording
 * of readings: a damaged part, a record repeated, a sample that did not
 * decode)? The copy of a pipe stopped at its bound counts too.
 */
bool replay_set_damaged(const struct replay_set *set);

void replay_set_close(struct replay_set *set);

#endif
