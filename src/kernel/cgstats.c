/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cgroupstats: the decoder of the kernel's reply (bytes in, struct out,
 * so that captured and crafted replies can be fed to it), the query over
 * the taskstats client's socket, and the /proc count for cgroup v2.
 *
 * A reply is nlmsghdr, genlmsghdr (cmd CGROUPSTATS_CMD_NEW), then one
 * attribute CGROUPSTATS_TYPE_CGROUP_STATS holding struct cgroupstats:
 *   u64 nr_sleeping, nr_running, nr_stopped, nr_uninterruptible,
 *   nr_io_wait.
 */
#include <config.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "kernel/cgstats.h"
#include "kernel/kval.h"
#include "kernel/procfs.h"
#include "kernel/taskev.h"
#include "kernel/taskstats.h"

#define NLA_HDR 4

static uint64_t get_u64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static struct kval have(uint64_t v)
{
	return (struct kval){ .have = true, .v = v };
}

/* The attributes [p, end): the stats attribute into out, or false. */
static bool decode_attrs(const unsigned char *p, const unsigned char *end,
			 struct cgstats *out)
{
	while (end - p >= NLA_HDR) {
		uint16_t alen, type;

		memcpy(&alen, p, sizeof(alen));
		memcpy(&type, p + 2, sizeof(type));
		if (alen < NLA_HDR || alen > end - p)
			return false;
		if ((type & NLA_TYPE_MASK) == CGSTATS_TYPE_CGROUP_STATS) {
			const unsigned char *s = p + NLA_HDR;

			if (alen - NLA_HDR < CGSTATS_STRUCT_LEN)
				return false;
			memset(out, 0, sizeof(*out));
			out->source = CGSTATS_KERNEL;
			out->nr_sleeping = have(get_u64(s));
			out->nr_running = have(get_u64(s + 8));
			out->nr_stopped = have(get_u64(s + 16));
			out->nr_uninterruptible = have(get_u64(s + 24));
			out->nr_io_wait = have(get_u64(s + 32));
			return true;
		}
		/* the next attribute starts at the aligned length */
		if ((size_t)NLA_ALIGN(alen) >= (size_t)(end - p))
			break;
		p += NLA_ALIGN(alen);
	}
	return false;
}

int cgstats_decode(const void *msg, size_t len, struct cgstats *out)
{
	const unsigned char *b = msg;
	struct nlmsghdr nlh;
	struct genlmsghdr genl;

	memset(out, 0, sizeof(*out));
	if (!msg || len < NLMSG_HDRLEN)
		goto bad;
	memcpy(&nlh, b, sizeof(nlh));
	if (nlh.nlmsg_len < NLMSG_HDRLEN || nlh.nlmsg_len > len)
		goto bad;
	if (nlh.nlmsg_type == NLMSG_ERROR) {
		int32_t error;

		if (nlh.nlmsg_len < NLMSG_HDRLEN + sizeof(error))
			goto bad;
		memcpy(&error, b + NLMSG_HDRLEN, sizeof(error));
		/* an acknowledgement is no answer; a positive error is garbage */
		if (error >= 0 || error < -4095)
			goto bad;
		errno = -error;
		return -1;
	}
	if (nlh.nlmsg_len < NLMSG_HDRLEN + GENL_HDRLEN)
		goto bad;
	memcpy(&genl, b + NLMSG_HDRLEN, sizeof(genl));
	if (genl.cmd != CGSTATS_CMD_NEW)
		goto bad;
	if (decode_attrs(b + NLMSG_HDRLEN + GENL_HDRLEN, b + nlh.nlmsg_len, out))
		return 0;
bad:
	memset(out, 0, sizeof(*out));
	errno = EBADMSG;
	return -1;
}

static int reply_cb(const void *msg, size_t len, void *arg)
{
	return cgstats_decode(msg, len, arg);
}

int cgstats_query(struct ts_client *c, int cgfd, struct cgstats *out)
{
	memset(out, 0, sizeof(*out));
	if (cgfd < 0) {
		errno = EBADF;
		return -1;
	}
	if (taskstats_command(c, CGSTATS_CMD_GET, CGSTATS_CMD_ATTR_FD,
			      (uint32_t)cgfd, reply_cb, out) == 0)
		return 0;
	/* the kernel answers a descriptor that is not open with silence */
	if (errno == ENODATA)
		errno = EBADF;
	memset(out, 0, sizeof(*out));
	return -1;
}

static void bump(struct kval *k)
{
	k->have = true;
	k->v++;
}

/* Count one /proc state letter into out (source CGSTATS_PROC). */
static void cgstats_count_state(char state, struct cgstats *out)
{
	if (out->source != CGSTATS_PROC) {
		memset(out, 0, sizeof(*out));
		out->source = CGSTATS_PROC;
		/* zero is a count here: every state seen is one of these */
		out->nr_running.have = out->nr_sleeping.have = true;
		out->nr_uninterruptible.have = out->nr_stopped.have = true;
		out->nr_tasks.have = true;
	}
	bump(&out->nr_tasks);
	switch (state) {
	case 'R':
		bump(&out->nr_running);
		break;
	case 'S':
		bump(&out->nr_sleeping);
		break;
	case 'D':
		bump(&out->nr_uninterruptible);
		break;
	case 'T':
		bump(&out->nr_stopped);
		break;
	}
}

/* Count the states of the TIDs listed in file below cgfd. */
static int count_file(int cgfd, const char *file, int procfd,
		      struct cgstats *out)
{
	size_t size = 1 << 20; /* some 8 bytes a thread: 100000 threads */
	char *buf = malloc(size), *p;
	size_t listed = 0;

	memset(out, 0, sizeof(*out));
	if (!buf)
		return -1;
	if (procfs_read_lines(cgfd, file, buf, size) < 0) {
		int saved = errno;

		free(buf);
		errno = saved;
		return -1;
	}
	cgstats_count_state(0, out);  /* every count known, and 0 */
	out->nr_tasks.v = 0;
	for (p = buf; *p;) {
		char *nl = strchr(p, '\n'), path[32], stat[1024];
		char *end = nl ? nl : p + strlen(p);
		struct procfs_stat st;
		uint64_t tid;

		if (kval_parse_u64(p, end, &tid) && tid > 0 && tid < (1u << 30)) {
			listed++;
			snprintf(path, sizeof(path), "%llu/stat",
				 (unsigned long long)tid);
			if (procfs_read_lines(procfd, path, stat, sizeof(stat)) > 0 &&
			    procfs_parse_stat(stat, &st) == 0)
				cgstats_count_state(st.state, out);
		}
		p = nl ? nl + 1 : end;
	}
	free(buf);
	if (listed && !out->nr_tasks.v) {
		/* not one state readable: /proc is not this cgroup's */
		memset(out, 0, sizeof(*out));
		errno = ESRCH;
		return -1;
	}
	return 0;
}

int cgstats_count_v2(int cgfd, int procfd, struct cgstats *out)
{
	return count_file(cgfd, "cgroup.threads", procfd, out);
}

int cgstats_count_v1(int cgfd, int procfd, struct cgstats *out)
{
	return count_file(cgfd, "tasks", procfd, out);
}
