/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A bound on how long a quit signal may wait. The event loop takes
 * SIGINT and SIGTERM through a signalfd, so they are blocked and handled
 * between two pieces of work; a replay checks for them while it reads
 * (replay.h), but a piece of work such as sorting and writing one huge
 * sample does not. The guard looks every tenth of a second whether one of
 * its signals has been pending for longer than its grace: then it calls
 * the restore function (the terminal) and lets the signal take its
 * default action, ending the process as it would have without stalltop's
 * handling (status 128 + the signal for a shell).
 */
#ifndef STALLTOP_QUITGUARD_H
#define STALLTOP_QUITGUARD_H

/*
 * Guard the n signals (blocked by the caller, e.g. evloop_add_signals),
 * each at most grace seconds pending. Uses SIGALRM and ITIMER_REAL.
 * Returns 0, or -1 with errno set.
 */
int quitguard_start(const int *signos, int n, double grace);

/*
 * Call fn (async-signal-tolerant: it runs in a signal handler) before a
 * guarded signal ends the process; NULL: nothing.
 */
void quitguard_on_end(void (*fn)(void));

/* No more guard (the timer and the handler removed). */
void quitguard_stop(void);

#endif
