/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A file before it is opened as a recording (recprobe.h): a look at its
 * first bytes, or its first line and the start of the second.
 */
#include <config.h>

#include <fcntl.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json.h>

#include "record/gzio.h"
#include "record/json_keys.h"
#include "record/json_read.h"
#include "record/json_scan.h"
#include "record/recprobe.h"
#include "record/replay.h"
#include "record/storeindex.h"
#include "store/frame.h"

/* The first line of a file is read up to this many bytes for its start. */
#define FIRST_LINE_MAX REPLAY_HEADER_MAX
/* ...and of the second line, for the time of the first sample */
#define AFTER_MAX 128

bool recprobe_is_store(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	unsigned char head[4];
	struct stat st;
	bool yes;

	if (fd < 0)
		return false;
	yes = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
	      pread(fd, head, sizeof(head), 0) == (ssize_t)sizeof(head) &&
	      storeindex_sniff(head, sizeof(head));
	close(fd);
	return yes;
}

bool recprobe_recording_name(const char *name)
{
	size_t n = strlen(name);

	if (name[0] == '.')
		return false;
	return (n > 7 && strcmp(name + n - 7, ".ndjson") == 0) ||
	       (n > 10 && strcmp(name + n - 10, ".ndjson.gz") == 0);
}

double recprobe_ndjson_start(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	struct gzio_reader *z;
	struct stat st;
	char *buf, *nl = NULL;
	size_t len = 0, got;
	double start = NAN;

	if (fd < 0)
		return NAN;
	/* a pipe or FIFO is read once, by replay_open_opts: nothing is taken here */
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return NAN;
	}
	z = gzio_reader_new(fd);
	buf = malloc(FIRST_LINE_MAX + AFTER_MAX);
	while (z && buf && len < FIRST_LINE_MAX + AFTER_MAX &&
	       (got = gzio_read(z, buf + len,
				FIRST_LINE_MAX + AFTER_MAX - len)) > 0) {
		len += got;
		if (!nl)
			nl = memchr(buf, '\n', len < FIRST_LINE_MAX ? len
							: FIRST_LINE_MAX);
		if (!nl && len >= FIRST_LINE_MAX)
			break;
		if (nl && len - (size_t)(nl + 1 - buf) >= AFTER_MAX)
			break;
	}
	if (nl) {
		json_tokener *tok = json_read_tokener();
		json_object *o = tok ? json_read_line(tok, buf,
						(size_t)(nl - buf)) : NULL;

		if (o && json_read_header_version(o)) {
			if (!json_scan_time(nl + 1, len - (size_t)(nl + 1 - buf),
					    &start) || isnan(start))
				start = json_read_num(json_read_get(o,
							JSON_KEY_STARTED));
		}
		json_object_put(o);
		if (tok)
			json_tokener_free(tok);
	}
	free(buf);
	gzio_reader_free(z);
	close(fd);
	return start;
}

double recprobe_store_start(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	struct frame_reader *r;
	struct frame f;
	double start = NAN;
	char err[256];

	if (fd < 0)
		return NAN;
	if ((r = frame_reader_new(fd))) {
		frame_reader_raw(r, true);
		while (frame_reader_next(r, &f, err, sizeof(err)) == 1)
			if (f.type == FRAME_KEY || f.type == FRAME_DELTA) {
				start = f.time;
				break;
			}
		frame_reader_free(r);
	}
	close(fd);
	return start;
}
