/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Atomic rewrite of a text file: mkstemp in the same directory (a rename
 * is atomic only within one file system), write, flush, fchmod 0644 (a
 * collector running as another user must read it; mkstemp makes 0600),
 * rename over the path. The temporary name starts with a dot and does not
 * end in ".prom", so node_exporter never reads a half-written file.
 */
#include <config.h>

#include <errno.h>
#include <libgen.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/nls.h"
#include "view/textfile.h"

/* "DIR/.NAME.XXXXXX" for path "DIR/NAME"; NULL when out of memory. */
static char *temp_name(const char *path)
{
	char *a = strdup(path), *b = strdup(path), *t = NULL;

	if (a && b && asprintf(&t, "%s/.%s.XXXXXX", dirname(a), basename(b)) < 0)
		t = NULL;
	free(a);
	free(b);
	return t;
}

/* The message for path, with errno: writing it, or its temporary file. */
static int fail(char *err, size_t errsize, bool temp, const char *path)
{
	int e = errno;
	snprintf(err, errsize,
		 temp ? _("cannot create a temporary file beside %s: %s")
		      : _("cannot write %s: %s"),
		 path, strerror(e));
	errno = e;
	return -1;
}

/* A new temporary file beside path: its descriptor, its name in *tmp. */
static int open_temp(const char *path, char **tmp, char *err, size_t errsize)
{
	if (!(*tmp = temp_name(path)))
		return fail(err, errsize, false, path);
	int fd = mkstemp(*tmp);
	if (fd < 0) {
		fail(err, errsize, true, path);
		free(*tmp);
		*tmp = NULL;
	}
	return fd;
}

int textfile_replace(const char *path, textfile_fill_fn *fill, void *arg,
		     char *err, size_t errsize)
{
	char *tmp;
	int fd = open_temp(path, &tmp, err, errsize);
	if (fd < 0)
		return -1;
	FILE *f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		goto bad;
	}
	errno = 0;
	if (fill(f, arg) < 0 || fflush(f) != 0 || ferror(f) ||
	    fchmod(fileno(f), 0644) < 0) {
		int e = errno ? errno : EIO;
		fclose(f);
		errno = e;
		goto bad;
	}
	if (fclose(f) != 0)
		goto bad;
	if (rename(tmp, path) < 0)
		goto bad;
	free(tmp);
	return 0;
bad:
	fail(err, errsize, false, path);
	unlink(tmp);
	free(tmp);
	return -1;
}

int textfile_check(const char *path, char *err, size_t errsize)
{
	struct stat st;

	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		errno = EISDIR;
		return fail(err, errsize, false, path);
	}
	char *tmp;
	int fd = open_temp(path, &tmp, err, errsize);
	if (fd < 0)
		return -1;
	close(fd);
	unlink(tmp);
	free(tmp);
	return 0;
}
