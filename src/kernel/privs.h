/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Privilege hygiene: keep only what taskstats needs. */
#ifndef STALLTOP_PRIVS_H
#define STALLTOP_PRIVS_H

#include <stdbool.h>

/*
 * When started with file capabilities (not as root), keep CAP_NET_ADMIN
 * in the effective and permitted sets only: everything else is dropped,
 * the inheritable and ambient sets are emptied, and no_new_privs is set.
 * As root nothing changes. Returns 0, or -1 with errno set.
 */
int privs_restrict(void);

/*
 * The same, keeping no capability at all: a replay reads files, never
 * taskstats, and has no use for CAP_NET_ADMIN while it parses them.
 */
int privs_drop_all(void);

/*
 * Whether this process holds capability cap (CAP_SYS_RESOURCE, ...) in
 * its effective set; false when it cannot be told.
 */
bool privs_effective(int cap);

#endif
