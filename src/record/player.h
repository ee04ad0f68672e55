/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The player: a producer (model/producer.h) that hands out the samples of
 * a recording, one per call (the last one again at the end, or the same
 * one while paused), shaped as the view asks: process or thread rows, one
 * process's threads, a cgroup subtree. It can step, jump and pause.
 */
#ifndef STALLTOP_PLAYER_H
#define STALLTOP_PLAYER_H

#include <stdbool.h>
#include <stddef.h>

struct producer;

/*
 * Open the recordings at paths (files or directories: replay_set.h) as
 * one timeline. threads: start with thread rows; cgroup_within: only rows
 * of tasks in this v2 subtree (normalised), or NULL. On failure returns
 * NULL with a translated message in err. It holds only the samples between begin and end (epoch
 * seconds; NAN: no bound). Reading stops as soon as cancel_fd is
 * readable (-1: never): NULL with errno EINTR, and a sample() then fails
 * with EINTR. No usable sample at all is a failure too (errno ENODATA).
 * A line skipped as it is met is a producer_note().
 */
struct producer *player_open_set(const char *const *paths, size_t npaths,
				 double begin, double end, bool threads,
				 const char *cgroup_within, int cancel_fd,
				 char *err, size_t errsize);

#endif
