/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Processes' CPU clocks through clock_getcpuclockid(3) and
 * clock_gettime(2).
 */
#include <config.h>

#include <errno.h>

#include "kernel/cpuclock.h"

int cpuclock_id(pid_t tgid, clockid_t *id)
{
	int e = clock_getcpuclockid(tgid, id);
	if (e) {
		errno = e;
		return -1;
	}
	return 0;
}

int cpuclock_read(clockid_t id, uint64_t *ns)
{
	struct timespec ts;
	if (clock_gettime(id, &ts) < 0)
		return -1;
	if (ts.tv_sec < 0 || ts.tv_nsec < 0) {
		errno = EINVAL;
		return -1;
	}
	*ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	return 0;
}
