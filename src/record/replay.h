/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Replay: read a recording (see record.h for the format) back into the
 * same struct sample the live source fills, so views cannot tell them
 * apart.
 *
 * replay_open_opts() reads the file once and keeps only an index (offset,
 * length, time, line: 48 bytes a sample); it parses headers in full but
 * only checks the shape of sample lines, so that a recording of hours
 * opens in about the time it takes to read it. replay_get() parses one
 * line when asked (json-c: some 50 us a row). The samples of a compressed
 * recording are inflated once into an unlinked temporary file ($TMPDIR,
 * else /tmp).
 *
 * Damage: a line that is not a sample or header is skipped and counted;
 * a torn last line is ignored; a session of a newer format version ends
 * the replay there; compressed data that is damaged ends it where the
 * damage starts. replay_problem() says what happened.
 *
 * Limits, whatever the file: a line longer than REPLAY_LINE_MAX, or one
 * whose decoding would take more than REPLAY_DECODE_MAX of memory, is
 * skipped without being held; the first line (the header) may be at most
 * REPLAY_HEADER_MAX long; at most replay_opts.max_samples samples (at
 * most REPLAY_SAMPLES_MAX) and REPLAY_SESSIONS_MAX sessions are indexed,
 * each session's strings at most 255 bytes. So a replay's memory is the
 * index (32 bytes a sample), one line and its decoding. Of a file that
 * is not a regular file (a pipe, a FIFO, a device), as of a compressed
 * one, the samples are copied as they are found into an unlinked
 * temporary file (what is skipped takes no room there); a FIFO without a
 * writer is waited for. Such a file that holds a recording of readings
 * (a store file, by its first bytes) is copied and not indexed:
 * replay_take_store() hands over the copy. Either copy holds at most
 * REPLAY_COPY_MAX bytes (what follows is not read; the problem says
 * so). Reading stops (-1, errno EINTR) as soon as the descriptor of
 * replay_opts.cancel_fd becomes readable.
 *
 * Values are checked as the kernel's are (rec_check.h): a sample whose
 * time is impossible, or not later than the one before it in its session
 * (out of order or repeated), is skipped; rows that are not task objects
 * are skipped; impossible figures are dropped and counted in the sample's
 * dropped count. Each is counted in the problem text.
 *
 * What the JSON does not carry comes back as "unknown": uid (uid_t)-1,
 * age 0, no ROW_NEW. Rows of "exited" and "thread_exited" (and rows whose
 * state is "X") have ROW_EXITED; threads and accumulated are the sample's
 * own "threads" and "accumulated", and where a recording predates them,
 * accumulated is false and threads is true when a row's pid differs from
 * its tgid; nprocs is the number of rows that are a process's main
 * thread, nthreads the number of thread rows (the rows themselves in
 * thread mode); a cgroup's depth comes from its path.
 */
#ifndef STALLTOP_REPLAY_H
#define STALLTOP_REPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/sample.h"
#include "store/frame.h"

struct replay;

/* The limits above (the manual page states them: RECORDING FORMAT). */
#define REPLAY_LINE_MAX ((size_t)128 << 20)
#define REPLAY_HEADER_MAX ((size_t)64 << 10)
#define REPLAY_DECODE_MAX ((uint64_t)4 << 30)
#define REPLAY_SAMPLES_MAX ((size_t)8 << 20)
#define REPLAY_SESSIONS_MAX ((size_t)64 << 10)
/*
 * The copy of a recording of readings read from a pipe, a FIFO or a
 * device holds at most REPLAY_COPY_MAX bytes, and ends where
 * REPLAY_COPY_GAP bytes held no start of a record (the longest record
 * there can be: nothing after them can be one that holds).
 */
#define REPLAY_COPY_MAX ((uint64_t)1 << 30)
#define REPLAY_COPY_GAP ((uint64_t)FRAME_MAX_STORED + FRAME_HEADER_SIZE + \
			 FRAME_TRAILER_SIZE)

/* How to open a recording. */
struct replay_opts {
	double begin, end;  /* index only the samples in [begin, end] (NAN:
			       open on that side; with a bound, a sample
			       without a time is left out) */
	int cancel_fd;      /* stop reading once this is readable (the
			       signalfd of SIGINT and SIGTERM); -1: never */
	size_t max_samples; /* index at most this many (0: REPLAY_SAMPLES_MAX) */
};

/* A session header (record.h); strings are NULL when absent. */
struct rec_header {
	int version;          /* "stalltop_recording" */
	const char *program;  /* "stalltop 0.1.0" */
	double started;       /* epoch seconds, NAN when absent */
	const char *hostname;
	const char *kernel;   /* uname release */
	long hz;              /* clock ticks per second, 0 when absent */
	long ncpu;            /* 0 when absent */
};

/*
 * Open and index a recording (gzip-compressed or not, whatever its name)
 * with options (NULL: none). Returns NULL with a translated message in
 * err when path cannot be read, is empty, is not a recording, or starts
 * with a format version newer than ours; interrupted through
 * opts->cancel_fd: NULL with errno EINTR. Damage further in does not
 * fail (see above).
 */
struct replay *replay_open_opts(const char *path, const struct replay_opts *o,
				char *err, size_t errsize);

/* The number of samples (may be 0: a header and nothing else). */
size_t replay_count(const struct replay *rp);

/*
 * Fill out with sample index (0-based). Rows, strings, cgroups, thread
 * rows and PSI point into memory of rp, valid until the next replay_get()
 * or replay_close(). Returns 0, or -1 with out zeroed and errno set:
 * EBADMSG when the line had the shape of a sample but does not parse
 * (it is counted in replay_problem(), and replay_skipped() says why;
 * skip to the next index), EINTR when the cancel descriptor became
 * readable, EINVAL for an index past the end, or the error of reading the
 * file again.
 */
int replay_get(struct replay *rp, size_t index, struct sample *out);

/*
 * The translated note of the line the last replay_get() skipped ("line 2
 * was skipped: it nests deeper than 16 levels"), or NULL.
 */
const char *replay_skipped(const struct replay *rp);

/* The time of sample index (epoch seconds), NAN when it has none. */
double replay_time(const struct replay *rp, size_t index);

/* The line number (from 1) of sample index in its file, 0 past the end. */
size_t replay_line(const struct replay *rp, size_t index);

/* The header of the session that sample index belongs to (NULL if none). */
const struct rec_header *replay_header(const struct replay *rp, size_t index);

/*
 * NULL, or a translated note of what was skipped or where reading stopped
 * ("line 12 is corrupt and was skipped; the last record is torn
 * (incomplete) and was ignored"). A replay_get() that meets a corrupt
 * line adds to it, so the text may change (and move) after such a call.
 */
const char *replay_problem(const struct replay *rp);
/*
 * Was part of it skipped as damage: a line that is no sample, one out of
 * time order, compressed data damaged? (Not a torn end: a crash leaves
 * one; not values dropped, nor a limit reached.)
 */
bool replay_damaged(const struct replay *rp);

/*
 * When the file (a pipe, a FIFO, a device) held a recording of readings:
 * the descriptor of its copy, which the caller now owns, rewound to its
 * start; else -1. Such a replay has no samples of its own.
 */
int replay_take_store(struct replay *rp);
/*
 * Where that copy stopped short of the file's end (a translated note),
 * or NULL; *damaged: it stopped at what is no recording (else at
 * REPLAY_COPY_MAX).
 */
const char *replay_store_cut(const struct replay *rp, bool *damaged);

void replay_close(struct replay *rp);

/*
 * The format version of a recording header line (without its "\n"), or
 * 0 when line is not one. For the recorder's check of an existing file.
 */
int replay_header_version(const char *line, size_t len);

#endif
