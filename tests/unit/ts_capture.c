/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ts_capture: save one raw taskstats message from the running kernel as a
 * fixture for the decoder tests. Needs CAP_NET_ADMIN (and, for exit, the
 * initial namespaces). The message is written to standard output.
 *
 *   ts_capture pid ID     the reply to a GET by PID
 *   ts_capture tgid ID    the reply to a GET by TGID
 *   ts_capture exit       the exit record of a process whose second thread
 *                         ended first: it holds AGGR_PID and AGGR_TGID
 *
 * This talks libmnl directly (not src/kernel/taskstats.c) because the point is
 * the bytes, not the decoded reading.
 */
#include <config.h>

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>

#include "kernel/ts_decode.h"

static char buf[65536];

static void die(const char *what)
{
	fprintf(stderr, "ts_capture: %s: %s\n", what, strerror(errno));
	exit(1);
}

static int family_attr(const struct nlattr *attr, void *data)
{
	if (mnl_attr_get_type(attr) == CTRL_ATTR_FAMILY_ID &&
	    mnl_attr_validate(attr, MNL_TYPE_U16) == 0)
		*(uint16_t *)data = mnl_attr_get_u16(attr);
	return MNL_CB_OK;
}

static int family_msg(const struct nlmsghdr *nlh, void *data)
{
	mnl_attr_parse(nlh, sizeof(struct genlmsghdr), family_attr, data);
	return MNL_CB_STOP;
}

static struct nlmsghdr *put_msg(uint16_t type, uint8_t cmd, uint32_t seq)
{
	struct nlmsghdr *nlh;
	struct genlmsghdr *genl;

	memset(buf, 0, 4096); /* attribute padding is sent as it is */
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST;
	nlh->nlmsg_seq = seq;
	genl = mnl_nlmsg_put_extra_header(nlh, sizeof(*genl));
	genl->cmd = cmd;
	genl->version = 1;
	return nlh;
}

static struct mnl_socket *open_family(uint16_t *family)
{
	struct mnl_socket *nl = mnl_socket_open(NETLINK_GENERIC);
	struct nlmsghdr *nlh;
	ssize_t n;

	if (!nl || mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0)
		die("netlink socket");
	nlh = put_msg(GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 1);
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, "TASKSTATS");
	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0)
		die("send");
	n = mnl_socket_recvfrom(nl, buf, sizeof(buf));
	*family = 0;
	if (n < 0 || mnl_cb_run(buf, n, 1, mnl_socket_get_portid(nl),
				family_msg, family) < 0 || !*family)
		die("TASKSTATS family");
	return nl;
}

static void write_msg(const struct nlmsghdr *nlh)
{
	if (fwrite(nlh, 1, nlh->nlmsg_len, stdout) != nlh->nlmsg_len ||
	    fflush(stdout) != 0)
		die("write");
}

static int query(int kind, uint32_t id)
{
	uint16_t family;
	struct mnl_socket *nl = open_family(&family);
	struct nlmsghdr *nlh = put_msg(family, TS_CMD_GET, 2);
	ssize_t n;

	mnl_attr_put_u32(nlh, kind == TS_KIND_PID ? TS_CMD_ATTR_PID :
			 TS_CMD_ATTR_TGID, id);
	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0)
		die("send");
	n = mnl_socket_recvfrom(nl, buf, sizeof(buf));
	if (n < 0)
		die("recv");
	nlh = (struct nlmsghdr *)buf;
	if (!mnl_nlmsg_ok(nlh, (int)n) || nlh->nlmsg_type != family) {
		if (nlh->nlmsg_type == NLMSG_ERROR) {
			const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);
			errno = -e->error;
		}
		die("reply");
	}
	write_msg(nlh);
	mnl_socket_close(nl);
	return 0;
}

static void *thread_main(void *arg)
{
	return arg;
}

/* Does this exit record hold an AGGR_TGID nest for tgid? */
static int has_tgid(const struct nlmsghdr *nlh, pid_t tgid)
{
	const struct nlattr *attr, *in;

	mnl_attr_for_each(attr, nlh, sizeof(struct genlmsghdr)) {
		if (mnl_attr_get_type(attr) != TS_TYPE_AGGR_TGID)
			continue;
		mnl_attr_for_each_nested(in, attr)
			if (mnl_attr_get_type(in) == TS_TYPE_TGID &&
			    mnl_attr_get_payload_len(in) >= 4 &&
			    mnl_attr_get_u32(in) == (uint32_t)tgid)
				return 1;
	}
	return 0;
}

static int exit_record(void)
{
	uint16_t family;
	struct mnl_socket *nl = open_family(&family);
	char cpus[256] = "0";
	FILE *f = fopen("/sys/devices/system/cpu/possible", "r");
	struct nlmsghdr *nlh;
	pid_t child;

	if (f) {
		if (fgets(cpus, sizeof(cpus), f))
			cpus[strcspn(cpus, "\n")] = '\0';
		fclose(f);
	}
	nlh = put_msg(family, TS_CMD_GET, 3);
	mnl_attr_put_strz(nlh, TS_CMD_ATTR_REGISTER_CPUMASK, cpus);
	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0)
		die("register");

	child = fork();
	if (child < 0)
		die("fork");
	if (child == 0) {
		pthread_t t;

		if (pthread_create(&t, NULL, thread_main, NULL) == 0)
			pthread_join(t, NULL);
		_exit(0);
	}
	waitpid(child, NULL, 0);

	for (;;) {
		struct pollfd p = { .fd = mnl_socket_get_fd(nl), .events = POLLIN };
		ssize_t n;
		int rest;

		if (poll(&p, 1, 2000) <= 0) {
			errno = ETIMEDOUT;
			die("exit record");
		}
		n = mnl_socket_recvfrom(nl, buf, sizeof(buf));
		if (n < 0) {
			if (errno == ENOBUFS)
				continue;
			die("recv");
		}
		rest = (int)n;
		for (nlh = (struct nlmsghdr *)buf; mnl_nlmsg_ok(nlh, rest);
		     nlh = mnl_nlmsg_next(nlh, &rest)) {
			if (nlh->nlmsg_type == NLMSG_ERROR) {
				const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);
				errno = -e->error;
				die("register");
			}
			if (nlh->nlmsg_type == family && has_tgid(nlh, child)) {
				write_msg(nlh);
				nlh = put_msg(family, TS_CMD_GET, 4);
				mnl_attr_put_strz(nlh,
					TS_CMD_ATTR_DEREGISTER_CPUMASK, cpus);
				mnl_socket_sendto(nl, nlh, nlh->nlmsg_len);
				mnl_socket_close(nl);
				return 0;
			}
		}
	}
}

int main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "pid") == 0)
		return query(TS_KIND_PID, (uint32_t)strtoul(argv[2], NULL, 10));
	if (argc == 3 && strcmp(argv[1], "tgid") == 0)
		return query(TS_KIND_TGID, (uint32_t)strtoul(argv[2], NULL, 10));
	if (argc == 2 && strcmp(argv[1], "exit") == 0)
		return exit_record();
	fprintf(stderr, "usage: ts_capture pid ID | tgid ID | exit >file.bin\n");
	return 2;
}
