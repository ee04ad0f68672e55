/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The index of a recording of readings (storeindex.h): one pass over its
 * records in the frame reader's raw mode (checked, not inflated).
 */
#include <config.h>

#include "record/storeindex.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record/storefile.h"
#include "store/frame.h"

/* The cancel descriptor is looked at once every this many records. */
#define CANCEL_EVERY 256

bool storeindex_sniff(const void *start, size_t n)
{
	return n >= 4 && memcmp(start, STOREINDEX_MAGIC, 4) == 0;
}

static bool cancelled(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return fd >= 0 && poll(&p, 1, 0) > 0;
}

static int add(struct storeindex *ix, const struct frame *f, bool session,
	       bool damaged)
{
	if (ix->n == ix->cap) {
		size_t cap = ix->cap ? ix->cap * 2 : 256;
		struct storeindex_entry *e = realloc(ix->e, cap * sizeof(*e));

		if (!e)
			return -1;
		ix->e = e;
		ix->cap = cap;
	}
	double t = storefile_time(f->time);

	if (isnan(t) && !ix->notime++)
		ix->first_notime = ix->n;
	ix->e[ix->n++] = (struct storeindex_entry){
		.offset = f->offset,
		.time = t,
		.key = f->type == FRAME_KEY,
		.session = session,
		.damaged = damaged,
	};
	return 0;
}

int storeindex_build(struct storeindex *ix, int fd, size_t max_samples,
		     int cancel_fd, char *err, size_t errsize)
{
	struct frame_reader *r = frame_reader_new(fd);
	struct frame f;
	bool session = false, damaged = false;
	int got = 0;

	memset(ix, 0, sizeof(*ix));
	if (!r) {
		snprintf(err, errsize, "%s", strerror(ENOMEM));
		return -1;
	}
	frame_reader_raw(r, true);
	frame_reader_cancel(r, cancel_fd);
	for (size_t seen = 1;; seen++) {
		if (seen % CANCEL_EVERY == 0 && cancelled(cancel_fd)) {
			errno = EINTR;
			snprintf(err, errsize, "%s", strerror(EINTR));
			got = -1;
			break;
		}
		if ((got = frame_reader_next(r, &f, err, errsize)) <= 0)
			break;
		if (f.type == STOREFILE_SESSION)
			session = true;
		if (f.skipped)
			damaged = true;
		if (f.type != FRAME_KEY && f.type != FRAME_DELTA)
			continue; /* a record for other uses */
		if (ix->n >= max_samples) {
			ix->full = true;
			break;
		}
		if (add(ix, &f, session, damaged && ix->n) < 0) {
			snprintf(err, errsize, "%s", strerror(ENOMEM));
			got = -1;
			break;
		}
		session = damaged = false;
	}
	ix->version = frame_reader_version(r);
	ix->skipped = frame_reader_skipped(r);
	ix->parts = frame_reader_gaps(r);
	ix->tail = frame_reader_tail(r);
	ix->repeats = frame_reader_repeats(r);
	frame_reader_free(r);
	if (got < 0) {
		int e = errno;

		storeindex_free(ix);
		errno = e;
		return -1;
	}
	return 0;
}

size_t storeindex_key_at(const struct storeindex *ix, size_t i)
{
	if (i >= ix->n)
		i = ix->n ? ix->n - 1 : 0;
	for (size_t k = i + 1; k > 0 && ix->n; k--)
		if (ix->e[k - 1].key)
			return k - 1;
	return SIZE_MAX;
}

size_t storeindex_session_at(const struct storeindex *ix, size_t i)
{
	for (size_t k = i + 1; k > 0 && k <= ix->n; k--)
		if (ix->e[k - 1].session)
			return k - 1;
	return 0;
}

size_t storeindex_run_at(const struct storeindex *ix, size_t i)
{
	for (size_t k = i + 1; k > 0 && k <= ix->n; k--)
		if (ix->e[k - 1].session || ix->e[k - 1].damaged)
			return k - 1;
	return 0;
}

void storeindex_free(struct storeindex *ix)
{
	free(ix->e);
	ix->e = NULL;
	ix->n = ix->cap = 0;
}
