/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The taskstats generic-netlink client (libmnl): family lookup, pipelined
 * GET queries by PID or TGID, and the exit-record listener.
 */
#ifndef STALLTOP_TASKSTATS_H
#define STALLTOP_TASKSTATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/ts_decode.h"

struct ts_client;

/*
 * Open a query socket and resolve the family. NULL with errno set on
 * failure: ENOENT when the kernel has no TASKSTATS family (built without
 * it), EPERM when CAP_NET_ADMIN is missing.
 */
struct ts_client *taskstats_open(void);
void taskstats_close(struct ts_client *c);

/* The struct version the kernel speaks (0 until a reply has been seen). */
unsigned taskstats_kernel_version(const struct ts_client *c);

/*
 * Query many ids at once: requests are batched many per sendmsg() and
 * the replies drained and matched by sequence number. cb is called once
 * per reading. Ids that vanished (ESRCH) are skipped silently and counted
 * in *vanished (may be NULL). Returns 0, or -1 with errno set (EPERM when
 * the capability is missing).
 */
int taskstats_query(struct ts_client *c, enum ts_kind kind, const uint32_t *ids,
	     size_t n, ts_reading_cb cb, void *arg, size_t *vanished);

/*
 * One other command of the family (cgroupstats' CGROUPSTATS_CMD_GET)
 * with one u32 attribute, on the query socket. The reply with the
 * request's number is handed whole to cb, which decodes it and returns
 * 0, or -1 with errno set (returned as they are). An error reply fails
 * with its errno; the acknowledgement without a reply before it with
 * ENODATA; nothing within a second with ETIMEDOUT.
 */
typedef int (*taskstats_reply_cb)(const void *msg, size_t len, void *arg);
int taskstats_command(struct ts_client *c, uint8_t cmd, uint16_t attr,
		      uint32_t value, taskstats_reply_cb cb, void *arg);

/*
 * The exit-record listener: a socket registered for exit records of the
 * CPUs in cpumask ("0-3"). Records are decoded and handed to cb. Records
 * lost add to *lost: those the kernel dropped because the socket was full,
 * as the kernel counts them (the socket's drop count, SO_MEMINFO), and
 * any too long to be read. On an older kernel, whose SO_MEMINFO has no
 * drop count, the drops are inferred instead: for a listener of one
 * CPU the gaps in the kernel's numbering after an overflow (struct
 * ts_seq), for one of several CPUs one per overflow.
 */
struct ts_listener;

/* NULL with errno set (EPERM: CAP_NET_ADMIN missing) on failure. */
struct ts_listener *taskstats_listen(const char *cpumask);
int taskstats_listener_fd(const struct ts_listener *l);
int taskstats_listener_drain(struct ts_listener *l, ts_reading_cb cb, void *arg,
		      uint64_t *lost);
/* Deregisters and closes. */
void taskstats_listener_close(struct ts_listener *l);

/*
 * The kernel numbers exit records per CPU. A jump in one CPU's numbers is
 * records lost only while loss was possible: from an overflow of the
 * socket (ENOBUFS; the kernel then drops every record for it until it has
 * been read empty) to the first record after it was next read empty.
 * Any other jump only resynchronises: a task that moves to another CPU
 * while it exits takes its number there for a record sent here.
 */
struct ts_seq {
	bool have_last;
	uint32_t last;
	bool overflowed;    /* ENOBUFS since the last resync */
	bool emptied;       /* and the socket was read empty since */
};

/* A record numbered seq arrived: returns how many were lost before it. */
uint64_t taskstats_seq_next(struct ts_seq *s, uint32_t seq);
/* The socket overflowed (ENOBUFS). */
void taskstats_seq_overflow(struct ts_seq *s);
/* The socket was read empty (EAGAIN). */
void taskstats_seq_empty(struct ts_seq *s);

#endif
