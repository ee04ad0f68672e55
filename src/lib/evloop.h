/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one event loop: every descriptor (timer, signals, netlink sockets,
 * PSI triggers, the terminal) is watched here; nothing else blocks.
 */
#ifndef STALLTOP_EVLOOP_H
#define STALLTOP_EVLOOP_H

#include <stdbool.h>

struct evloop;

typedef void (*ev_fd_cb)(int fd, unsigned revents, void *arg);
typedef void (*ev_signal_cb)(int signo, void *arg);
typedef void (*ev_timer_cb)(void *arg);

struct evloop *evloop_new(void);
void evloop_free(struct evloop *l);

/* Watch fd for events (POLLIN, POLLPRI). */
int evloop_add_fd(struct evloop *l, int fd, unsigned events, ev_fd_cb cb, void *arg);
void evloop_del_fd(struct evloop *l, int fd);

/* Deliver these signals through a signalfd (they are blocked). */
int evloop_add_signals(struct evloop *l, const int *signos, int n, ev_signal_cb cb,
		   void *arg);

/* A periodic timer (timerfd, CLOCK_MONOTONIC); re-arming changes the period. */
int evloop_set_timer(struct evloop *l, double seconds, ev_timer_cb cb, void *arg);

/*
 * The signalfd of the signals added (-1: none): readable while one is
 * pending, so that work outside the loop can notice it (and stop).
 */
int evloop_signal_fd(const struct evloop *l);

/* Run until evloop_quit(); returns the code given to evloop_quit. */
int evloop_run(struct evloop *l);
/*
 * One round without waiting: the callbacks of whatever is ready now.
 * Returns true when evloop_quit() has been called (*code set).
 */
bool evloop_poll(struct evloop *l, int *code);
void evloop_quit(struct evloop *l, int code);
/* Has evloop_quit() been called (since evloop_run started)? Sets *code if so. */
bool evloop_quit_requested(const struct evloop *l, int *code);

#endif
