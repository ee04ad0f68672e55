/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * /proc/diskstats: "MAJ MIN NAME" and 11 (up to 4.17), 15 (4.18: discard)
 * or 17 (5.5: flush) counters. Of them: 1 reads completed, 3 sectors read,
 * 5 writes completed, 7 sectors written, 9 IOs in flight, 10 io_ticks
 * (ms), 11 weighted time in queue (ms). Sectors are 512 bytes whatever
 * the device's own sector size.
 */
#include <config.h>

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kernel/diskstats.h"
#include "kernel/kval.h"
#include "kernel/procfs.h"

#define SECTOR 512
#define MIN_FIELDS 11
#define MAX_FIELDS 17

static bool parse_line(const char *p, const char *end, struct diskstats_dev *d)
{
	uint64_t v[MAX_FIELDS], maj, min;
	const char *s, *e;
	int n = 0;

	if (!kval_token(&p, end, &s, &e) || !kval_parse_u64(s, e, &maj) ||
	    !kval_token(&p, end, &s, &e) || !kval_parse_u64(s, e, &min) ||
	    maj > 0xfffff || min > 0xfffff)
		return false;
	if (!kval_token(&p, end, &s, &e) || (size_t)(e - s) >= DISKSTATS_NAME)
		return false;
	memset(d, 0, sizeof(*d));
	memcpy(d->name, s, (size_t)(e - s));
	for (const char *c = d->name; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			return false;
	while (kval_token(&p, end, &s, &e)) {
		if (n == MAX_FIELDS || !kval_parse_u64(s, e, &v[n]))
			return false;
		n++;
	}
	if (n < MIN_FIELDS)
		return false;
	d->major = (unsigned)maj;
	d->minor = (unsigned)min;
	d->rd_ios = v[0];
	d->rd_sectors = v[2];
	d->wr_ios = v[4];
	d->wr_sectors = v[6];
	d->in_flight = v[8];
	d->io_ticks_ms = v[9];
	d->queue_ms = v[10];
	return true;
}

static int grow(struct diskstats *out)
{
	size_t cap = out->cap ? out->cap * 2 : 64;
	struct diskstats_dev *d;

	if (cap > SIZE_MAX / sizeof(*d)) {
		errno = ENOMEM;
		return -1;
	}
	d = realloc(out->dev, cap * sizeof(*d));
	if (!d)
		return -1;
	out->dev = d;
	out->cap = cap;
	return 0;
}

int diskstats_parse(const char *text, struct diskstats *out)
{
	out->n = 0;
	while (text && *text) {
		const char *nl = strchr(text, '\n');
		const char *end = nl ? nl : text + strlen(text);
		struct diskstats_dev d;

		if (parse_line(text, end, &d)) {
			if (out->n == out->cap && grow(out) < 0)
				return -1;
			out->dev[out->n++] = d;
		}
		text = nl ? nl + 1 : end;
	}
	return (int)out->n;
}

int diskstats_read(const char *path, struct diskstats *out)
{
	size_t size = 1 << 20;  /* some 100 bytes a device: 10000 devices */
	char *buf = malloc(size);
	struct timespec ts;
	int ret;

	if (!buf)
		return -1;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	if (procfs_read_lines(-1, path, buf, size) < 0) {
		int saved = errno;

		free(buf);
		errno = saved;
		return -1;
	}
	ret = diskstats_parse(buf, out);
	out->when = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
	free(buf);
	return ret;
}

void diskstats_free(struct diskstats *d)
{
	if (!d)
		return;
	free(d->dev);
	d->dev = NULL;
	d->n = d->cap = 0;
}

const struct diskstats_dev *diskstats_find(const struct diskstats *d,
					   unsigned major, unsigned minor)
{
	for (size_t i = 0; d && i < d->n; i++)
		if (d->dev[i].major == major && d->dev[i].minor == minor)
			return &d->dev[i];
	return NULL;
}

/* The interval of one device between two of its readings. */
static bool dev_interval(const struct diskstats_dev *p,
			 const struct diskstats_dev *c, double dt,
			 struct diskstats_busy *out)
{
	double ms = dt * 1000.0, util;

	if (strcmp(p->name, c->name) != 0 || c->rd_sectors < p->rd_sectors ||
	    c->wr_sectors < p->wr_sectors || c->io_ticks_ms < p->io_ticks_ms ||
	    c->queue_ms < p->queue_ms || !(dt > 0))
		return false;
	if (c->rd_sectors - p->rd_sectors > UINT64_MAX / SECTOR ||
	    c->wr_sectors - p->wr_sectors > UINT64_MAX / SECTOR)
		return false;
	memset(out, 0, sizeof(*out));
	out->major = c->major;
	out->minor = c->minor;
	memcpy(out->name, c->name, sizeof(out->name));
	util = (double)(c->io_ticks_ms - p->io_ticks_ms) / ms * 100.0;
	/* ticks and our clock are read at slightly different moments */
	out->util_pct = util > 100.0 ? 100.0 : util;
	out->queue = (double)(c->queue_ms - p->queue_ms) / ms;
	out->read_bytes = (c->rd_sectors - p->rd_sectors) * SECTOR;
	out->write_bytes = (c->wr_sectors - p->wr_sectors) * SECTOR;
	return true;
}

/* a before b: busier, else more bytes, else by name (a stable order) */
static bool before(const struct diskstats_busy *a,
		   const struct diskstats_busy *b)
{
	uint64_t ab = a->read_bytes + a->write_bytes;
	uint64_t bb = b->read_bytes + b->write_bytes;

	if (a->util_pct != b->util_pct)
		return a->util_pct > b->util_pct;
	if (ab != bb)
		return ab > bb;
	return strcmp(a->name, b->name) < 0;
}

size_t diskstats_interval(const struct diskstats *prev,
			  const struct diskstats *cur,
			  struct diskstats_busy *out, size_t max)
{
	size_t n = 0;

	if (!prev || !cur || max == 0)
		return 0;
	for (size_t i = 0; i < cur->n; i++) {
		const struct diskstats_dev *c = &cur->dev[i];
		const struct diskstats_dev *p = diskstats_find(prev, c->major,
							       c->minor);
		struct diskstats_busy b;
		size_t at;

		if (!p || !dev_interval(p, c, cur->when - prev->when, &b))
			continue;
		if (b.util_pct == 0 && b.read_bytes == 0 && b.write_bytes == 0)
			continue;
		/* insertion into the sorted top max */
		at = n;
		while (at > 0 && before(&b, &out[at - 1]))
			at--;
		if (at == max)
			continue;
		if (n < max)
			n++;
		memmove(&out[at + 1], &out[at], (n - 1 - at) * sizeof(*out));
		out[at] = b;
	}
	return n;
}
