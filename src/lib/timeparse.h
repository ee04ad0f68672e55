/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Points in time as a user types them (--begin, --end). Strict, like numparse.h: the whole string must be
 * one of the forms below, every field in range; anything else is an error,
 * never a guess.
 */
#ifndef STALLTOP_TIMEPARSE_H
#define STALLTOP_TIMEPARSE_H

#include <time.h>

/*
 * A point in time, as epoch seconds, from one of:
 *   YYYY-MM-DD HH:MM[:SS]   local time (a 'T' may stand for the space)
 *   YYYY-MM-DD              local midnight starting that day
 *   HH:MM[:SS]              local time today (the day of now)
 *   @EPOCH                  seconds since the epoch, fractional allowed
 * Returns 0, or -1 with errno EINVAL (not one of the forms, or a field out
 * of range: month 13, 25:00, February 30) or ERANGE (a year before 1970 or
 * after 9999, or a local time that does not exist: skipped by a daylight
 * saving change). out is left alone on failure.
 */
int timeparse_point(const char *s, time_t now, double *out);

#endif
