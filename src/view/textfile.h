/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A file rewritten whole at every refresh, so a reader (node_exporter's
 * textfile collector) sees either the old text or the new one, never a
 * part: written into a temporary file beside it, then renamed over it.
 */
#ifndef STALLTOP_TEXTFILE_H
#define STALLTOP_TEXTFILE_H

#include <stddef.h>
#include <stdio.h>

/* Writes the new text into f; returns 0, or -1 with errno set. */
typedef int textfile_fill_fn(FILE *f, void *arg);

/*
 * Replace path with what fill writes, mode 0644. Returns 0, or -1 with a
 * translated message in err (the temporary file is removed).
 */
int textfile_replace(const char *path, textfile_fill_fn *fill, void *arg,
		     char *err, size_t errsize);

/*
 * Can path be replaced: its directory exists and a file can be made in
 * it, and path is not a directory. Returns 0, or -1 with a message.
 */
int textfile_check(const char *path, char *err, size_t errsize);

#endif
