/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Recording: --record FILE writes store samples (store/sample.h: what
 * the kernel said at each sample, record/storefile.h) to a file that
 * --replay reads back in place of the kernel.
 *
 * - A file of records (store/frame.h): a file header, then a session
 *   record (storefile.h: program, host, kernel, clock ticks, CPUs, when
 *   recording started, whether threads are recorded) at the start of
 *   each session, then one record per sample: a key frame first, then
 *   only what changed since the sample before (a delta frame), with a
 *   key frame every RECORD_KEY_EVERY samples or RECORD_KEY_SECONDS
 *   seconds, whichever comes first, so that a reader can start at any of
 *   them. The first sample of a session is the readings before the
 *   first interval (the baseline).
 *
 * - Each record is compressed on its own, self-delimiting and checked
 *   (CRC-32), and goes out in one write(2): a crash leaves at most a
 *   torn last record, which a reader skips. Recording again to the same
 *   file appends a new session after whatever is there, a torn end
 *   included (the machine may have rebooted into another kernel).
 *
 * - Only a file of records is appended to: an existing file of another
 *   kind (a recording of format 1 below, anything else) is refused, with
 *   a message naming it. A new file is created mode 0600 (a recording
 *   holds every task's command line and the IO counters /proc shows only
 *   to each task's owner), or 0640 when its directory has the
 *   set-group-ID bit: the file then belongs to the directory's group,
 *   and that group may read it (less the umask, as always). A name
 *   ending in ".gz" is refused: the records are compressed already.
 *
 * Format 1, which stalltop 0.1.0 wrote and --replay still reads
 * (record/replay.h; no longer written), version REC_FORMAT_VERSION:
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
 *   it (view/out_json.c; the manual page's OUTPUT): "time", "interval",
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
 * - Compression: a name ending in ".gz" was written and is read through
 *   zlib (gzip format; `zcat FILE.gz | jq` works), each line flushed
 *   with Z_SYNC_FLUSH.
 */
#ifndef STALLTOP_RECORD_H
#define STALLTOP_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "record/json_keys.h"
#include "store/sample.h"

/* Format 1's version: the newest of it --replay reads. */
#define REC_FORMAT_VERSION 1

/* The header's first key: what tells a recording from other JSON. */
#define REC_MAGIC_KEY JSON_KEY_RECORDING

/* A key frame every this many samples, or this many seconds. */
#define RECORD_KEY_EVERY 60
#define RECORD_KEY_SECONDS 600.0
/* The suffix of a recording's name (rotate.h names files with it). */
#define RECORD_SUFFIX ".stk"

struct recorder;

/*
 * Open path for appending and begin a session (its record; threads: the
 * samples hold threads' readings). An existing file must be a file of
 * records of a version we write; a missing one is created as the top
 * says. Returns NULL with a translated message in err and errno set on
 * failure; a file this call created is then removed again, so a failed
 * start (a full disk) leaves no empty file.
 */
struct recorder *record_open(const char *path, bool threads, char *err,
			     size_t errsize);

/*
 * The same for a new file only: fails with errno EEXIST, and a message,
 * when path exists.
 */
struct recorder *record_create(const char *path, bool threads, char *err,
			       size_t errsize);

/*
 * Append one sample as one record. Returns 0; 1 with errno set when the
 * sample could not be made into a record (storefile_write: no memory,
 * more than the format holds): it is left out, the file as it was; or
 * -1 with errno set when the write failed (ENOENT when the file was
 * removed: the record went into a file no name leads to, and so does
 * everything after it), what it wrote of the record cut off again. After
 * either the next sample is a key frame.
 */
int record_write(struct recorder *rec, const struct store_sample *s);

/* Bytes in the file (what was there before included). */
uint64_t record_size(const struct recorder *rec);

/* Close the file and free rec; NULL is fine. 0, or -1 with errno set. */
int record_close(struct recorder *rec);

#endif
