/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --record: the readings of every sample into one file, or into a
 * directory of files rotated by day and size (record/rotate.h). A
 * sample that cannot be made into a record is left out and said; a
 * recording that cannot be written ends the run. The file is finished
 * at every exit, through exit() and err() too (recording_at_exit).
 */
#ifndef STALLTOP_RECORDING_H
#define STALLTOP_RECORDING_H

#include <stdbool.h>

#include "lib/evloop.h"
#include "model/producer.h"
#include "options.h"

/* --record: one file, or a directory of rotating files. */
struct recording {
	struct recorder *rec;
	struct rotator *rot;
	struct evloop *loop;
	const char *path;  /* --record FILE */
	struct producer *m; /* whose readings are recorded */
};

/* Open --record FILE or DIR (nothing without --record); exits on failure. */
void recording_open(struct recording *r, const struct options *o);

/*
 * The readings the producer's last sample was made of, into the
 * recording; false (said) when they cannot be written.
 */
bool recording_write(struct recording *r);

/* A producer's sample callback (arg: the recording); a failed write ends the loop. */
void recording_sample(const struct sample *s, void *arg);

/* Close the recording's file; 0, or -1 (said). */
int recording_close(struct recording *r);

/* For atexit(): an exit through err() or exit() still finishes the file. */
void recording_at_exit(void);

#endif
