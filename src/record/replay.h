/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Replay: read a recording (see record.h for the format) back into the
 * same struct sample the live source fills, so views cannot tell them
 * apart.
 *
 * replay_open() reads the file once and keeps only an index (offset,
 * length, time, line: 48 bytes a sample); it parses headers in full but
 * only checks the shape of sample lines, so that a recording of hours
 * opens in about the time it takes to read it. replay_get() parses one
 * line when asked (json-c: some 50 us a row). A compressed recording is
 * inflated once into an unlinked temporary file ($TMPDIR, else /tmp) that
 * is indexed the same way.
 *
 * Damage: a line that is not a sample or header is skipped and counted;
 * a torn last line is ignored; a session of a newer format version ends
 * the replay there; compressed data that is damaged ends it where the
 * damage starts. replay_problem() says what happened.
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

#include <stddef.h>

#include "model/sample.h"

struct replay;

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
 * Open and index a recording (gzip-compressed or not, whatever its name).
 * Returns NULL with a translated message in err when path cannot be read,
 * is empty, is not a recording, or starts with a format version newer
 * than ours. Damage further in does not fail (see above).
 */
struct replay *replay_open(const char *path, char *err, size_t errsize);

/* The number of samples (may be 0: a header and nothing else). */
size_t replay_count(const struct replay *rp);

/*
 * Fill out with sample index (0-based). Rows, strings, cgroups, thread
 * rows and PSI point into memory of rp, valid until the next replay_get()
 * or replay_close(). Returns 0, or -1 with out zeroed and errno set:
 * EBADMSG when the line had the shape of a sample but does not parse
 * (it is counted in replay_problem(); skip to the next index), EINVAL
 * for an index past the end, or the error of reading the file again.
 */
int replay_get(struct replay *rp, size_t index, struct sample *out);

/*
 * The index of the latest sample whose time is at or before epoch; 0 when
 * every sample is later (or there is none).
 */
size_t replay_find_time(const struct replay *rp, double epoch);

/* The time of sample index (epoch seconds), NAN when it has none. */
double replay_time(const struct replay *rp, size_t index);

/* The header of the session that sample index belongs to (NULL if none). */
const struct rec_header *replay_header(const struct replay *rp, size_t index);

/*
 * NULL, or a translated note of what was skipped or where reading stopped
 * ("line 12 is corrupt and was skipped; the last record is torn
 * (incomplete) and was ignored"). A replay_get() that meets a corrupt
 * line adds to it, so the text may change (and move) after such a call.
 */
const char *replay_problem(const struct replay *rp);

void replay_close(struct replay *rp);

/*
 * The format version of a recording header line (without its "\n"), or
 * 0 when line is not one. For the recorder's check of an existing file.
 */
int replay_header_version(const char *line, size_t len);

#endif
