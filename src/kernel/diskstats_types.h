/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a reading of the block devices in /proc/diskstats is
 * (kernel/diskstats.h reads it; model/evidence.h makes the busiest of
 * an interval from two).
 */
#ifndef STALLTOP_DISKSTATS_TYPES_H
#define STALLTOP_DISKSTATS_TYPES_H

#include <stddef.h>
#include <stdint.h>

#define DISKSTATS_NAME 32
/* The bytes of a sector counted, whatever the device's own sector size. */
#define DISKSTATS_SECTOR 512

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

#endif
