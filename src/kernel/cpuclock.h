/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A process's CPU clock, as clock_getcpuclockid(3) names it: the time
 * all its threads spent on a CPU so far, the ended ones included, in
 * nanoseconds (the scheduler's own sum, as taskstats' run time). The
 * kernel adds to it whenever one of its threads runs, and at no other
 * time; reading it walks the process's threads, as a taskstats query by
 * TGID does, but reads three numbers of each, without the lock and the
 * message a query takes.
 */
#ifndef STALLTOP_CPUCLOCK_H
#define STALLTOP_CPUCLOCK_H

#include <stdint.h>
#include <sys/types.h>
#include <time.h>

/*
 * The clock of process tgid into *id. 0, or -1 with errno set (ESRCH:
 * no such process).
 */
int cpuclock_id(pid_t tgid, clockid_t *id);

/*
 * Its time so far, ns. 0, or -1 with errno set (EINVAL or ESRCH: the
 * process is gone).
 */
int cpuclock_read(clockid_t id, uint64_t *ns);

#endif
