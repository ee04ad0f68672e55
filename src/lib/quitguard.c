/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The quit guard (quitguard.h): a SIGALRM every TICK seconds that looks
 * at the pending signals. Everything the handler touches is set before
 * the timer starts or is a sig_atomic_t.
 */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include "lib/quitguard.h"

#define TICK 0.1
#define MAX_SIGNALS 8

static int guarded[MAX_SIGNALS];
static int nguarded;
static volatile sig_atomic_t ticks_pending, ticks_limit;
static void (*volatile on_end)(void);

static void on_tick(int signo)
{
	int saved = errno, found = 0;
	sigset_t pending, one;

	(void)signo;
	if (sigpending(&pending) == 0)
		for (int i = 0; i < nguarded && !found; i++)
			if (sigismember(&pending, guarded[i]) == 1)
				found = guarded[i];
	if (!found || ++ticks_pending < ticks_limit) {
		if (!found)
			ticks_pending = 0;
		errno = saved;
		return;
	}
	/* handled too late: end as the signal ends a process */
	if (on_end)
		on_end();
	signal(found, SIG_DFL);
	sigemptyset(&one);
	sigaddset(&one, found);
	sigprocmask(SIG_UNBLOCK, &one, NULL);
	_exit(128 + found); /* not reached: the signal ended us */
}

int quitguard_start(const int *signos, int n, double grace)
{
	struct sigaction sa;
	struct itimerval it = { { 0, (long)(TICK * 1e6) },
				{ 0, (long)(TICK * 1e6) } };

	if (n > MAX_SIGNALS) {
		errno = EINVAL;
		return -1;
	}
	memcpy(guarded, signos, (size_t)n * sizeof(*signos));
	nguarded = n;
	ticks_pending = 0;
	/* seen pending at one tick, ended at the tick that makes grace */
	ticks_limit = (sig_atomic_t)ceil(grace / TICK - 1e-9);
	if (ticks_limit < 1)
		ticks_limit = 1;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_tick;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGALRM, &sa, NULL) < 0)
		return -1;
	return setitimer(ITIMER_REAL, &it, NULL);
}

void quitguard_on_end(void (*fn)(void))
{
	on_end = fn;
}

void quitguard_stop(void)
{
	struct itimerval off = { { 0, 0 }, { 0, 0 } };

	setitimer(ITIMER_REAL, &off, NULL);
	signal(SIGALRM, SIG_DFL);
	on_end = NULL;
}
