/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Recording: append one sample per refresh to a file that --replay can
 * read back in place of the kernel.
 *
 * The recording format (version REC_FORMAT_VERSION), also described in
 * the manual page (RECORDING FORMAT):
 *
 * - Text, one JSON object per line, each line ended by "\n" (NDJSON), so
 *   `jq`, `grep` and `tail -f` work on it.
 *
 * - A recording session starts with a header line:
 *     {"stalltop_recording":1,"program":"stalltop 0.1.0",
 *      "started":1763740000.123,"hostname":"db1","kernel":"6.18.0",
 *      "hz":100,"ncpu":8}
 *   "stalltop_recording" is the format version (an integer); "started" the
 *   wall clock (seconds since the epoch) when recording began; "kernel"
 *   the uname release; "hz" the clock ticks per second; "ncpu" the CPUs
 *   online. The first line of a file is always a header. Recording again
 *   to the same file appends a new session that starts with its own
 *   header (the machine may have rebooted into another kernel).
 *
 * - Every other line is one sample, exactly as `stalltop -b --json` writes
 *   it (json_write.c; the manual page's OUTPUT): "time", "interval",
 *   "accumulated", "threads", "delayacct", "taskstats_version",
 *   "events_lost", "psi", "tasks", "exited", and when present "trigger",
 *   "cgroups", "thread_tasks" and "thread_exited" (the thread rows of the
 *   same interval when the rows are processes, and the threads that ended
 *   in it; with -a those stay in "thread_tasks", as ended tasks stay in
 *   "tasks"). A row has "cgroup" when known, and "state" as read when the
 *   sample was taken ("X" when ended; null for the live threads of
 *   "thread_tasks", which are not read). "accumulated" and "threads" say
 *   how the sample was taken (-a, -H), and a replay takes them from it.
 *   "time" comes first: the reader indexes a line by it without parsing
 *   the rest (a line laid out otherwise is parsed in full).
 *
 * - Versioning: adding a field keeps the version (readers ignore fields
 *   they do not know); changing or removing the meaning of one raises it.
 *   A reader refuses a version newer than its own, naming both. So
 *   "accumulated", "threads" and "thread_exited" came within version 1,
 *   and a reader falls back to what it did before them where they are
 *   missing (replay.h).
 *
 * - Crash safety: each line goes out in one write(2), so a crash leaves at
 *   most a torn last line; the reader ignores it and says so. A recording
 *   resumed after a crash first ends the torn line, then starts a new
 *   session, so the reader skips the fragment and goes on. Any other line
 *   that is not a sample is skipped with a note naming it.
 *
 * - Compression: a name ending in ".gz" is written and read through zlib
 *   (gzip format; `zcat FILE.gz | jq` works). Each line is flushed with
 *   Z_SYNC_FLUSH, so what was recorded before a crash can be read back;
 *   a compressed recording that was not closed cleanly cannot be appended
 *   to (record to a new file).
 */
#ifndef STALLTOP_RECORD_H
#define STALLTOP_RECORD_H

#include <stddef.h>

#include "model/sample.h"
#include "record/json_keys.h"

/* The version this stalltop writes, and the newest it reads. */
#define REC_FORMAT_VERSION 1

/* The header's first key: what tells a recording from other JSON. */
#define REC_MAGIC_KEY JSON_KEY_RECORDING

struct recorder;

/*
 * Open path for appending and write a session header. An existing file
 * must be a recording of a version we write. A missing one is created
 * mode 0600 (a recording holds every task's command line and the IO
 * counters /proc shows only to each task's owner), or 0640 when its
 * directory has the set-group-ID bit: the file then belongs to the
 * directory's group, and that group may read it (less the umask, as
 * always). Returns NULL with a translated message in err and errno set on
 * failure; a file this call created is then removed again, so a failed
 * start (a full disk) leaves no empty file.
 */
struct recorder *record_open(const char *path, char *err, size_t errsize);

/*
 * The same for a new file only: fails with errno EEXIST, and a message,
 * when path exists.
 */
struct recorder *record_create(const char *path, char *err, size_t errsize);

/*
 * Append one sample as one line, flushed before returning. Returns 0, or
 * -1 with errno set (EIO for a compression error; ENOENT when the file
 * was removed: the line went into a file no name leads to, and so does
 * everything after it).
 */
int record_write(struct recorder *rec, const struct sample *s);

/*
 * Finish the file (the gzip trailer for .gz) and free rec; NULL is fine.
 * Returns 0, or -1 with errno set when the last write failed.
 */
int record_close(struct recorder *rec);

#endif
