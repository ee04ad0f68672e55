/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Task states of a cgroup. For a cgroup v1 directory the kernel counts
 * them itself: the taskstats family's CGROUPSTATS_CMD_GET with an open
 * descriptor of the directory (CGROUPSTATS_CMD_ATTR_FD) is answered with
 * a struct cgroupstats (linux/cgroupstats.h). cgroup v2 directories are
 * refused (EINVAL) by that command: their states are counted here from
 * cgroup.threads and each thread's /proc/TID/stat.
 *
 * The two differ in what they can tell: the kernel compares the exact
 * state word, so a task in a killable or freezable sleep (a state with
 * modifier bits) is in none of its counts, and it counts nr_io_wait only
 * for such tasks. /proc shows one letter per task: R, S, D, T (and t, I,
 * Z, X, which are counted in none here), and never IO wait (absent).
 */
#ifndef STALLTOP_CGSTATS_H
#define STALLTOP_CGSTATS_H

#include <stdbool.h>
#include <stddef.h>

#include "kernel/cgstats_types.h"

struct ts_client;

/* Numbers of the cgroupstats commands (linux/cgroupstats.h). */
enum {
	CGSTATS_CMD_GET = 4,            /* CGROUPSTATS_CMD_GET: request */
	CGSTATS_CMD_NEW = 5,            /* CGROUPSTATS_CMD_NEW: reply */
	CGSTATS_TYPE_CGROUP_STATS = 1,  /* reply attribute: the struct */
	CGSTATS_CMD_ATTR_FD = 1,        /* request attribute: u32 fd */
};

/* Five u64 counters, in this order, in the kernel's struct. */
#define CGSTATS_STRUCT_LEN 40

/*
 * One netlink message of len bytes (header included): a CGSTATS_CMD_NEW
 * reply with the struct (a longer one from a newer kernel is fine), or an
 * error message. Returns 0 with out filled, or -1 with errno set: the
 * error's errno, EBADMSG for anything malformed.
 */
int cgstats_decode(const void *msg, size_t len, struct cgstats *out);

/*
 * Ask the kernel for the states of the v1 cgroup open as cgfd. Returns 0,
 * or -1 with errno set (EINVAL: not a v1 cgroup directory; EBADF: cgfd
 * is not open; EPERM).
 */
int cgstats_query(struct ts_client *c, int cgfd, struct cgstats *out);

/*
 * Count the states of a v2 cgroup's threads: the TIDs in cgroup.threads
 * below cgfd, each one's state from TID/stat below procfd (a descriptor
 * of /proc). Threads that ended meanwhile are not counted. Returns 0, or
 * -1 with errno set when cgroup.threads cannot be read, or ESRCH when it
 * lists threads of which none could be read (a /proc of another pid
 * namespace): no count rather than a count of 0.
 */
int cgstats_count_v2(int cgfd, int procfd, struct cgstats *out);

/* The same for a v1 cgroup directory, from its "tasks" file. */
int cgstats_count_v1(int cgfd, int procfd, struct cgstats *out);

#endif
