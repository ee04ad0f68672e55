/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Recordings of format 1 (NDJSON, src/record/record.h), written as
 * stalltop 0.1.0 wrote them, for the tests of their reader: a session
 * header, then one line per sample (out_json); a name ending in
 * ".gz" is compressed. An existing file is appended to (a new session),
 * a torn last line ended first.
 */
#ifndef STALLTOP_TESTS_NDJSON_REC_H
#define STALLTOP_TESTS_NDJSON_REC_H

#include <stddef.h>

#include "model/sample.h"

struct ndjson_rec;

/*
 * Open path for appending (created mode 0600, or 0640 in a set-group-ID
 * directory) and write a session header; NULL with a message in err.
 */
struct ndjson_rec *ndjson_rec_open(const char *path, char *err, size_t errsize);
/* The same for a new file only (EEXIST when path exists). */
struct ndjson_rec *ndjson_rec_create(const char *path, char *err,
				     size_t errsize);
/* One sample as one line; 0, or -1 with errno set. */
int ndjson_rec_write(struct ndjson_rec *rec, const struct sample *s);
/* Finish the file and free rec; 0, or -1 with errno set. */
int ndjson_rec_close(struct ndjson_rec *rec);

#endif
