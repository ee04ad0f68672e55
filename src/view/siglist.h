/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The signals the kill key offers, as htop lists them: the common ones,
 * by number and name, SIGTERM chosen first.
 */
#ifndef STALLTOP_SIGLIST_H
#define STALLTOP_SIGLIST_H

#include <stddef.h>

struct siglist_entry {
	int sig;
	const char *name;   /* without "SIG": "TERM" */
};

/* The list, by number. */
const struct siglist_entry *siglist_all(size_t *n);
/* The index of a signal in the list, or -1. */
int siglist_index(int sig);
/* The index chosen first: SIGTERM's. */
size_t siglist_default(void);
/* A signal's name from the list ("TERM"), or NULL. */
const char *siglist_name(int sig);

#endif
