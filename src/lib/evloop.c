/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The event loop: poll() over every descriptor, a timerfd for refreshes
 * and a signalfd for signals. Callbacks run one at a time.
 */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "lib/evloop.h"

#define EV_MAX 64

struct watch {
	int fd;
	unsigned events;
	ev_fd_cb cb;
	void *arg;
};

struct evloop {
	struct watch w[EV_MAX];
	int n;
	int timer_fd;
	ev_timer_cb timer_cb;
	void *timer_arg;
	int signal_fd;
	sigset_t sigs;
	ev_signal_cb signal_cb;
	void *signal_arg;
	bool quit;
	int code;
};

struct evloop *evloop_new(void)
{
	struct evloop *l = calloc(1, sizeof(*l));
	if (!l)
		return NULL;
	l->timer_fd = -1;
	l->signal_fd = -1;
	sigemptyset(&l->sigs);
	return l;
}

void evloop_free(struct evloop *l)
{
	if (!l)
		return;
	if (l->timer_fd >= 0)
		close(l->timer_fd);
	/*
	 * The signals stay blocked: the loop is freed on the way out, and a
	 * second SIGTERM then must not end the process with the status of
	 * a killed one after it finished its work.
	 */
	if (l->signal_fd >= 0)
		close(l->signal_fd);
	free(l);
}

int evloop_add_fd(struct evloop *l, int fd, unsigned events, ev_fd_cb cb, void *arg)
{
	for (int i = 0; i < l->n; i++) {
		if (l->w[i].fd == fd) {
			l->w[i] = (struct watch){ fd, events, cb, arg };
			return 0;
		}
	}
	if (l->n == EV_MAX) {
		errno = ENOSPC;
		return -1;
	}
	l->w[l->n++] = (struct watch){ fd, events, cb, arg };
	return 0;
}

void evloop_del_fd(struct evloop *l, int fd)
{
	for (int i = 0; i < l->n; i++) {
		if (l->w[i].fd == fd) {
			l->w[i] = l->w[--l->n];
			return;
		}
	}
}

static void on_timer(int fd, unsigned revents, void *arg)
{
	struct evloop *l = arg;
	uint64_t expirations;
	(void)revents;
	if (read(fd, &expirations, sizeof(expirations)) != sizeof(expirations))
		return;
	if (l->timer_cb)
		l->timer_cb(l->timer_arg);
}

int evloop_set_timer(struct evloop *l, double seconds, ev_timer_cb cb, void *arg)
{
	if (l->timer_fd < 0) {
		l->timer_fd = timerfd_create(CLOCK_MONOTONIC,
					     TFD_NONBLOCK | TFD_CLOEXEC);
		if (l->timer_fd < 0)
			return -1;
		if (evloop_add_fd(l, l->timer_fd, POLLIN, on_timer, l) < 0)
			return -1;
	}
	l->timer_cb = cb;
	l->timer_arg = arg;
	struct itimerspec its = { 0 };
	double whole = floor(seconds);
	its.it_interval.tv_sec = (time_t)whole;
	its.it_interval.tv_nsec = (long)((seconds - whole) * 1e9);
	if (its.it_interval.tv_sec == 0 && its.it_interval.tv_nsec == 0)
		its.it_interval.tv_nsec = 1;
	its.it_value = its.it_interval;
	return timerfd_settime(l->timer_fd, 0, &its, NULL);
}

static void on_signal(int fd, unsigned revents, void *arg)
{
	struct evloop *l = arg;
	struct signalfd_siginfo si;
	(void)revents;
	while (read(fd, &si, sizeof(si)) == sizeof(si))
		if (l->signal_cb)
			l->signal_cb((int)si.ssi_signo, l->signal_arg);
}

int evloop_add_signals(struct evloop *l, const int *signos, int n, ev_signal_cb cb,
		   void *arg)
{
	for (int i = 0; i < n; i++)
		sigaddset(&l->sigs, signos[i]);
	if (sigprocmask(SIG_BLOCK, &l->sigs, NULL) < 0)
		return -1;
	int fd = signalfd(l->signal_fd, &l->sigs, SFD_NONBLOCK | SFD_CLOEXEC);
	if (fd < 0)
		return -1;
	l->signal_cb = cb;
	l->signal_arg = arg;
	if (l->signal_fd < 0) {
		l->signal_fd = fd;
		return evloop_add_fd(l, fd, POLLIN, on_signal, l);
	}
	return 0;
}

void evloop_quit(struct evloop *l, int code)
{
	l->quit = true;
	l->code = code;
}

bool evloop_quit_requested(const struct evloop *l, int *code)
{
	if (l->quit)
		*code = l->code;
	return l->quit;
}

int evloop_signal_fd(const struct evloop *l)
{
	return l->signal_fd;
}

/* Wait up to timeout ms (-1: for ever), then run what is ready; -1 error. */
static int one_round(struct evloop *l, int timeout)
{
	struct pollfd p[EV_MAX];
	struct watch snap[EV_MAX];
	int n = l->n;
	memcpy(snap, l->w, sizeof(snap[0]) * (size_t)n);
	for (int i = 0; i < n; i++)
		p[i] = (struct pollfd){ snap[i].fd, (short)snap[i].events, 0 };
	int r = poll(p, (nfds_t)n, timeout);
	if (r < 0)
		return errno == EINTR ? 0 : -1;
	for (int i = 0; i < n && !l->quit; i++) {
		if (!p[i].revents)
			continue;
		/* the callback may have removed a watch meanwhile */
		bool live = false;
		for (int j = 0; j < l->n && !live; j++)
			live = l->w[j].fd == snap[i].fd &&
			       l->w[j].cb == snap[i].cb;
		if (live)
			snap[i].cb(snap[i].fd, (unsigned)p[i].revents,
				   snap[i].arg);
	}
	return 0;
}

int evloop_run(struct evloop *l)
{
	l->quit = false;
	while (!l->quit)
		if (one_round(l, -1) < 0)
			return -1;
	return l->code;
}

bool evloop_poll(struct evloop *l, int *code)
{
	if (!l->quit)
		one_round(l, 0);
	return evloop_quit_requested(l, code);
}
