/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Block devices from /proc/diskstats, read into struct diskstats
 * (kernel/diskstats_types.h); model/evidence.h makes the busiest of an
 * interval from two readings.
 */
#ifndef STALLTOP_DISKSTATS_H
#define STALLTOP_DISKSTATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/diskstats_types.h"

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

#endif
