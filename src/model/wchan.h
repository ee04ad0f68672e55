/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Wait channels kept once: a wait channel is the name of a kernel
 * function, and the few that tasks sleep in recur from row to row and
 * sample to sample. Each name is kept once for the life of the program,
 * so that a row (struct task_ctx) holds a pointer to it rather than a
 * copy, and a row copied into a snapshot still points to the same.
 */
#ifndef STALLTOP_WCHAN_H
#define STALLTOP_WCHAN_H

/* The most names kept: far more than a kernel's tasks ever sleep in. */
#define WCHAN_NAMES_MAX 4096

/*
 * The kept copy of name (its first TASK_WCHAN_MAX - 1 bytes), the same
 * pointer for the same name; NULL for an empty name, with no memory, or
 * once WCHAN_NAMES_MAX names are kept (the caller then has none).
 */
const char *wchan_keep(const char *name);

#endif
