/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The interactive screen: what `stalltop` runs in a terminal. */
#ifndef STALLTOP_SCREEN_H
#define STALLTOP_SCREEN_H

#include <stdbool.h>

#include "model/fields.h"
#include "model/select.h"

struct producer;
struct evloop;

/*
 * What the screen is opened with: the settings it starts from (the
 * command line's over the settings file's), kept up to date by its keys,
 * and how W saves them. The screen keeps its own copy.
 */
struct screen_settings {
	struct select_opts sel;  /* sort, metric, the filters */
	double delay;            /* seconds between samples (> 0) */
	double interval;         /* the interval the figures cover, where
				    the producer makes it (a replay of
				    readings: producer_sets_interval); 0:
				    its own */
	unsigned long iterations;/* end after this many refreshes, 0 = never */
	bool threads;            /* every thread a row */
	bool cmdline;            /* command lines instead of names */
	bool accumulate;         /* figures since start */
	bool tree;               /* rows under their parents */
	bool monochrome;         /* no colours */
	bool cgroups;            /* the producer sums per cgroup: open the
				    cgroup view */
	/* the task columns in order; ncolumns 0: the default ones */
	int columns[NFIELD];
	int ncolumns;
	/* the settings file, as the help and W name it; NULL: none */
	const char *path;
	/* W: write set to path; 0, or -1 with errno set. NULL: cannot save */
	int (*save)(const struct screen_settings *set, void *arg);
	void *save_arg;
};

/*
 * Take over the terminal and run the event loop until the user quits or
 * SIGINT/SIGTERM/SIGHUP arrives. Samples m every set->delay seconds; the
 * keys change the screen's copy of set (saved with W, through set->save).
 * The terminal is restored on every way out, including exit() and fatal
 * signals. Returns the exit code: 0, or 1 when stdin/stdout is not a
 * terminal or curses fails.
 */
int screen_run(struct producer *m, struct evloop *loop,
	       const struct screen_settings *set);

#endif
