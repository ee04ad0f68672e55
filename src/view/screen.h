/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The interactive screen: what `stalltop` runs in a terminal. */
#ifndef STALLTOP_SCREEN_H
#define STALLTOP_SCREEN_H

struct producer;
struct evloop;
struct options;

/*
 * Take over the terminal and run the event loop until the user quits or
 * SIGINT/SIGTERM/SIGHUP arrives. Samples m every o->delay seconds; the
 * keys change o's settings (saved with W). The terminal is restored on
 * every way out, including exit() and fatal signals. Returns the exit
 * code: 0, or 1 when stdin/stdout is not a terminal or curses fails.
 */
int screen_run(struct producer *m, struct evloop *loop, struct options *o);

#endif
