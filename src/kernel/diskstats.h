/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Block devices from /proc/diskstats, and the busiest of an interval:
 * utilisation (share of the interval with IO in flight, from io_ticks)
 * and average queue (time spent in queue, weighted by the IOs in flight,
 * per time: the mean number of IOs waiting or being served).
 */
#ifndef STALLTOP_DISKSTATS_H
#define STALLTOP_DISKSTATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DISKSTATS_NAME 32

struct diskstats_dev {
	unsigned major, minor;
	char name[DISKSTATS_NAME];
	uint64_t rd_ios, rd_sectors, wr_ios, wr_sectors;
	uint64_t in_flight;
	uint64_t io_ticks_ms;   /* time with at least one IO in flight */
	uint64_t queue_ms;      /* weighted time in queue */
};

struct diskstats {
	double when;            /* CLOCK_MONOTONIC seconds of the read */
	size_t n, cap;
	struct diskstats_dev *dev;  /* malloc'd; diskstats_free */
};

/* One device of an interval. */
struct diskstats_busy {
	unsigned major, minor;
	char name[DISKSTATS_NAME];
	double util_pct;        /* 0..100 */
	double queue;           /* mean IOs in flight */
	uint64_t read_bytes, write_bytes;
};

/*
 * Parse the text into out (replacing what it held). Lines with fewer
 * than the 11 fields of the oldest format, or anything not a number
 * where one belongs, are skipped. Returns the devices, or -1 with errno
 * ENOMEM.
 */
int diskstats_parse(const char *text, struct diskstats *out);

/* Read path ("/proc/diskstats"), stamping out->when. -1 with errno. */
int diskstats_read(const char *path, struct diskstats *out);

void diskstats_free(struct diskstats *d);

/* The device major:minor of a reading, or NULL. */
const struct diskstats_dev *diskstats_find(const struct diskstats *d,
					   unsigned major, unsigned minor);

/*
 * The interval between two readings of the same devices: the figures of
 * each device present in both (same numbers and name) whose counters did
 * not go back, for an interval of more than zero. Devices without any
 * IO are left out; the rest come busiest first, then by bytes; at most
 * max of them into out. Returns how many were written.
 */
size_t diskstats_interval(const struct diskstats *prev,
			  const struct diskstats *cur,
			  struct diskstats_busy *out, size_t max);


#endif
