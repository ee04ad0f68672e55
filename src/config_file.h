/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The settings file: $XDG_CONFIG_HOME/stalltop/stalltoprc (by default
 * ~/.config/stalltop/stalltoprc), flat key=value lines, '#' comments.
 * Read at start under whatever the command line set, only when it is a
 * regular file of at most CONFIG_FILE_MAX bytes, owned by the real user
 * or root and writable by no one else (as ssh and sudo ask of theirs):
 * opened without waiting (a FIFO never holds the start) and judged on
 * the open descriptor. Written atomically (a new temporary file in the
 * same directory, fsync, rename over the name: a symbolic link there is
 * replaced, never written through), mode 0600, into a directory held to
 * the same owner rules.
 */
#ifndef STALLTOP_CONFIG_FILE_H
#define STALLTOP_CONFIG_FILE_H

#include "options.h"

/* The most bytes the settings file may hold; a larger one is not read. */
#define CONFIG_FILE_MAX (64 * 1024)

/* The file's path (malloc'd), or NULL when there is no home directory. */
char *config_file_path(void);

/*
 * Apply the file (path, or config_file_path() when NULL) to o, skipping the
 * settings whose SET_ bit o->set_mask has. Unknown and broken lines are
 * reported on stderr as file:line and skipped. Returns the number of
 * skipped lines (0 also when there is no file), or -1 when the file exists
 * but cannot be read or is refused (not a regular file, too large, another
 * user's, writable by others: reported too, with what to do, and nothing
 * of it applied). Never fatal.
 */
int config_file_load(struct options *o, const char *path_or_null);

/*
 * Only the workload-group rules of the metrics ("group=" lines), which
 * apply in batch mode too; the rest of the file is left to the screen.
 */
int config_file_load_groups(struct options *o, const char *path_or_null);

/*
 * The same for the len bytes of text, a file's contents, reported on
 * stderr as name:line. Returns the number of skipped lines, or -1 when
 * the text cannot be read (no memory). For tests and fuzzing.
 */
int config_file_load_text(struct options *o, const char *text, size_t len,
		     const char *name);

/*
 * Write o's settings to the file (creating its directory, mode 0700).
 * Returns 0, or -1 with errno set (EPERM: the directory is another
 * user's or writable by others); an existing file is then unchanged.
 */
int config_file_save(const struct options *o, const char *path_or_null);

#endif
