/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Decoding of taskstats generic-netlink messages into plain readings.
 * No sockets here: this takes bytes and gives structs, so saved payloads
 * of any kernel version can be replayed in unit tests.
 */
#ifndef STALLTOP_TS_DECODE_H
#define STALLTOP_TS_DECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/ts_types.h"

/*
 * Generic-netlink numbers of the TASKSTATS family (<linux/taskstats.h>),
 * carried here so the build host's header version does not matter.
 */
enum {
	TS_GENL_VERSION = 1,            /* TASKSTATS_GENL_VERSION */
	TS_CMD_GET = 1,                 /* TASKSTATS_CMD_GET: request */
	TS_CMD_NEW = 2,                 /* TASKSTATS_CMD_NEW: reply, exit record */
};
enum {
	TS_TYPE_PID = 1,                /* u32 */
	TS_TYPE_TGID = 2,               /* u32 */
	TS_TYPE_STATS = 3,              /* struct taskstats */
	TS_TYPE_AGGR_PID = 4,           /* nest: PID + STATS */
	TS_TYPE_AGGR_TGID = 5,          /* nest: TGID + STATS */
	TS_TYPE_NULL = 6,               /* alignment pad, no payload */
};
enum {
	TS_CMD_ATTR_PID = 1,            /* u32 */
	TS_CMD_ATTR_TGID = 2,           /* u32 */
	TS_CMD_ATTR_REGISTER_CPUMASK = 3,   /* string "0-3" */
	TS_CMD_ATTR_DEREGISTER_CPUMASK = 4, /* string */
};

/* A time total at the resolution TS_TIME_RES_NS (kernel/ts_types.h). */
static inline uint64_t ts_time_res(uint64_t ns)
{
	return ns - ns % TS_TIME_RES_NS;
}

/*
 * Decode the struct taskstats bytes of one TASKSTATS_TYPE_STATS attribute
 * into r (whose kind and id the caller sets). Copies min(len, layout)
 * bytes and uses only the fields the reported version and the payload
 * length both cover. Returns 0, or -1 when the payload is too short to
 * hold even the version field.
 */
int ts_decode_stats(const void *payload, size_t len, struct ts_reading *r);

typedef void (*ts_reading_cb)(const struct ts_reading *r, void *arg);

/*
 * Walk one TASKSTATS_CMD_NEW message (reply or exit record): for every
 * AGGR_PID / AGGR_TGID nest that holds an id and stats, call cb. Unknown
 * attributes and TASKSTATS_TYPE_NULL pads are skipped. Returns the number
 * of records delivered, or -1 when the message is malformed.
 */
int ts_decode_msg(const void *nlmsg, size_t len, ts_reading_cb cb, void *arg);

#endif
