/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the rows (rows.c) and their context (context.c) share. Nothing
 * but those two includes it.
 */
#ifndef STALLTOP_ROWS_INT_H
#define STALLTOP_ROWS_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct monitor;
struct procinfo_details;
struct row;
struct store_task;
struct task;
struct tasktable;

/* rows.c */
/* Task k's details (parent, state, threads, start) as the store holds them. */
void rows_store_details(const struct monitor *m, const struct task *k,
			struct store_task *st);
/* pid onto the monitor's list of ids to read (pidbuf); -1 without memory. */
int rows_push_pid(struct monitor *m, pid_t pid);
/* The brief details d read of a task of table t, into it. */
void rows_take_details(struct monitor *m, struct tasktable *t,
		       const struct procinfo_details *d);
/* A state that lasts until the task runs (S, I). */
bool rows_settled(char state);
/* Whether k's details can differ from those read last. */
bool rows_info_due(const struct monitor *m, const struct task *k);

/* context.c */
/* Whether k's context was read (or kept) for the reading at hand. */
bool context_now(const struct monitor *m, const struct task *k);
/*
 * Task k's details and the context read for this sample (none where it
 * was not read) into st, which rows_store_task made of k.
 */
void context_store_status(const struct monitor *m, const struct task *k,
			  struct store_task *st);
/* Whether thread row r needs its state (and context) read. */
bool context_state_wanted(const struct monitor *m, const struct row *r);
/*
 * The context of rows (of table t; threads: thread rows), read where it
 * can differ from the last read, kept where not, into each row.
 */
void context_fill(struct monitor *m, struct tasktable *t,
		  struct row *rows, size_t n, bool threads);

#endif
