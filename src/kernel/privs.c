/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Privilege hygiene. stalltop runs no other programs, and a binary given
 * cap_net_admin+ep needs nothing but that capability: drop the rest as
 * soon as we start.
 */
#include <config.h>

#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/capability.h>

#include "kernel/privs.h"

/* Keep CAP_NET_ADMIN (if we have it and keep is set), nothing else. */
/* This process's capability sets (capget); 0 or -1. */
static int get_caps(struct __user_cap_header_struct *hdr,
		    struct __user_cap_data_struct data[2])
{
	*hdr = (struct __user_cap_header_struct){
		.version = _LINUX_CAPABILITY_VERSION_3, .pid = 0
	};
	memset(data, 0, 2 * sizeof(*data));
	return syscall(SYS_capget, hdr, data) < 0 ? -1 : 0;
}

bool privs_effective(int cap)
{
	struct __user_cap_header_struct hdr;
	struct __user_cap_data_struct data[2];

	if (cap < 0 || cap >= 64 || get_caps(&hdr, data) < 0)
		return false;
	return (data[cap / 32].effective >> (cap % 32)) & 1;
}

static int restrict_to(bool keep)
{
	struct __user_cap_header_struct hdr;
	struct __user_cap_data_struct data[2];
	if (get_caps(&hdr, data) < 0)
		return -1;
	unsigned idx = CAP_NET_ADMIN / 32, bit = 1u << (CAP_NET_ADMIN % 32);
	int had = keep && (data[idx].permitted & bit) != 0;
	memset(data, 0, sizeof(data));
	if (had) {
		data[idx].permitted = bit;
		data[idx].effective = bit;
	}
	if (syscall(SYS_capset, &hdr, data) < 0)
		return -1;
	/* ambient capabilities need PR_CAP_AMBIENT (Linux 4.3); ignore EINVAL */
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) < 0 &&
	    errno != EINVAL)
		return -1;
	return prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
}

int privs_restrict(void)
{
	return geteuid() == 0 ? 0 : restrict_to(true);
}

int privs_drop_all(void)
{
	return geteuid() == 0 ? 0 : restrict_to(false);
}
