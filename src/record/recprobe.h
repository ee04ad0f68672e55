/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a file is before a replay opens it, so that a set of recordings
 * (replay_set.h) can be found in a directory and put in time order
 * without reading more than the start of each.
 */
#ifndef STALLTOP_RECPROBE_H
#define STALLTOP_RECPROBE_H

#include <stdbool.h>

/* The regular file at path starts as a recording of readings. */
bool recprobe_is_store(const char *path);
/* A file's name is that of an NDJSON recording (*.ndjson, *.ndjson.gz). */
bool recprobe_recording_name(const char *name);
/*
 * When an NDJSON recording's samples start: the time of its first sample
 * when the line after the header begins with it (as the recorder writes
 * it), else the header's "started"; NAN when the first line is not a
 * header or the file is not a regular one (a pipe is read once, by the
 * replay). Reads the first line and the start of the second only.
 */
double recprobe_ndjson_start(const char *path);
/*
 * When a recording of readings starts: the time of its first sample
 * record (read without inflating it), NAN when it has none.
 */
double recprobe_store_start(const char *path);

#endif
