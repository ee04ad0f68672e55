/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The taskstats generic-netlink client (libmnl): resolves the TASKSTATS
 * family, sends GET requests by PID or TGID many to a sendmsg() and drains
 * the replies, and keeps a second socket registered for exit records.
 *
 * The kernel answers a request inside the sendmsg() call that carries it,
 * so when sendmsg() returns every reply of the batch is already queued (or
 * was dropped, which the next recv() reports as ENOBUFS). Batches are sized
 * so that their replies fit the receive buffer.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/sock_diag.h>

#include "kernel/taskstats.h"

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif
#ifndef NETLINK_CAP_ACK
#define NETLINK_CAP_ACK 10
#endif
#ifndef SO_MEMINFO
#define SO_MEMINFO 55
#endif

/* One GET request: nlmsghdr, genlmsghdr, one u32 attribute. */
#define REQ_LEN (MNL_NLMSG_HDRLEN + MNL_ALIGN(sizeof(struct genlmsghdr)) + \
		 MNL_ATTR_HDRLEN + MNL_ALIGN(sizeof(uint32_t)))
/* Bytes of requests per sendmsg(); mnl batches want twice that as buffer. */
#define BATCH_LIMIT (64 * 1024)
/*
 * Receive-buffer charge of one reply (skb truesize): 1280 bytes measured
 * for a version 16 reply on 6.18, 832 for an error; a larger struct can
 * move a reply into the next allocation size, hence the margin.
 */
#define REPLY_COST 4096
#define QUERY_RCVBUF (16 * 1024 * 1024)
#define LISTEN_RCVBUF (32 * 1024 * 1024)
/* One reply or exit record is well below 2 KiB. */
#define RECV_BUF 16384
/* A family lookup or (de)registration request; cpumask strings included. */
#define SMALL_REQ 4096
/* Upper bound of datagrams one taskstats_listener_drain() call reads. */
#define DRAIN_MAX 65536
/* Waiting for replies that should already be queued. */
#define REPLY_TIMEOUT_MS 1000

struct ts_client {
	struct mnl_socket *nl;
	uint32_t portid;
	uint16_t family;
	uint32_t seq;
	unsigned version;
	size_t per_batch;             /* requests per sendmsg() */
	struct mnl_nlmsg_batch *batch;
	char sendbuf[2 * BATCH_LIMIT];
	char recvbuf[RECV_BUF];
};

struct ts_listener {
	struct mnl_socket *nl;
	uint32_t portid;
	uint16_t family;
	uint32_t seq;
	char *cpumask;
	/* the kernel's count of records it dropped for us (SO_MEMINFO) */
	bool have_drops;
	uint32_t drops;
	/* without it, one CPU: it sees every number that CPU gives (ts_seq) */
	bool one_cpu;
	struct ts_seq numbers;
	char recvbuf[RECV_BUF];
};

static uint32_t first_seq(void)
{
	uint32_t seq = (uint32_t)time(NULL);

	return seq ? seq : 1;
}

static uint32_t next_seq(uint32_t *seq)
{
	if (++*seq == 0)
		*seq = 1;
	return *seq;
}

/*
 * Ask for a receive buffer of bytes, past rmem_max when privileged.
 * Returns what the kernel granted (the charge limit, already doubled).
 */
static size_t set_rcvbuf(int fd, int bytes)
{
	int got = 0;
	socklen_t len = sizeof(got);

	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &bytes, sizeof(bytes)) < 0)
		(void)setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &bytes, sizeof(bytes));
	if (getsockopt(fd, SOL_SOCKET, SO_RCVBUF, &got, &len) < 0 || got <= 0)
		return 0;
	return (size_t)got;
}

static int family_attr_cb(const struct nlattr *attr, void *data)
{
	uint16_t *family = data;

	if (mnl_attr_get_type(attr) == CTRL_ATTR_FAMILY_ID &&
	    mnl_attr_validate(attr, MNL_TYPE_U16) == 0)
		*family = mnl_attr_get_u16(attr);
	return MNL_CB_OK;
}

static int family_msg_cb(const struct nlmsghdr *nlh, void *data)
{
	uint16_t *family = data;

	if (mnl_attr_parse(nlh, sizeof(struct genlmsghdr), family_attr_cb,
			   family) < 0)
		return MNL_CB_ERROR;
	return *family ? MNL_CB_STOP : MNL_CB_OK;
}

/* The id of the "TASKSTATS" family, or 0 with errno set. */
static uint16_t resolve_family(struct mnl_socket *nl, uint32_t portid)
{
	char req[64] = { 0 }; /* attribute padding too */
	char buf[RECV_BUF];
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(req);
	struct genlmsghdr *genl;
	uint32_t seq = first_seq();
	uint16_t family = 0;
	int ret = MNL_CB_OK;

	nlh->nlmsg_type = GENL_ID_CTRL;
	nlh->nlmsg_flags = NLM_F_REQUEST;
	nlh->nlmsg_seq = seq;
	genl = mnl_nlmsg_put_extra_header(nlh, sizeof(*genl));
	genl->cmd = CTRL_CMD_GETFAMILY;
	genl->version = 1;
	if (!mnl_attr_put_strz_check(nlh, sizeof(req), CTRL_ATTR_FAMILY_NAME,
				     "TASKSTATS"))
		return 0;
	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0)
		return 0;

	do {
		ssize_t n = mnl_socket_recvfrom(nl, buf, sizeof(buf));

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return 0;
		}
		ret = mnl_cb_run(buf, (size_t)n, seq, portid, family_msg_cb,
				 &family);
	} while (ret > MNL_CB_STOP);
	if (ret < 0)
		return 0;
	if (!family)
		errno = ENOENT;
	return family;
}

/* A bound generic-netlink socket with the family resolved, or NULL. */
static struct mnl_socket *open_socket(int rcvbuf, size_t *rcvbuf_got,
				      uint32_t *portid, uint16_t *family)
{
	struct mnl_socket *nl = mnl_socket_open(NETLINK_GENERIC);
	int one = 1, sndbuf = 4 * BATCH_LIMIT, saved;
	size_t got;

	if (!nl)
		return NULL;
	got = set_rcvbuf(mnl_socket_get_fd(nl), rcvbuf);
	if (rcvbuf_got)
		*rcvbuf_got = got;
	(void)setsockopt(mnl_socket_get_fd(nl), SOL_SOCKET, SO_SNDBUF, &sndbuf,
			 sizeof(sndbuf));
	/* error replies need not echo our request */
	(void)mnl_socket_setsockopt(nl, NETLINK_CAP_ACK, &one, sizeof(one));
	if (mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0)
		goto fail;
	*portid = mnl_socket_get_portid(nl);
	*family = resolve_family(nl, *portid);
	if (!*family)
		goto fail; /* ENOENT: no such family */
	return nl;
fail:
	saved = errno;
	mnl_socket_close(nl);
	errno = saved;
	return NULL;
}

/* Start a message of command cmd in buf: header and genl header. */
static struct nlmsghdr *put_any_cmd(void *buf, uint16_t family, uint8_t cmd,
				    uint16_t flags, uint32_t seq)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *genl;

	nlh->nlmsg_type = family;
	nlh->nlmsg_flags = flags;
	nlh->nlmsg_seq = seq;
	genl = mnl_nlmsg_put_extra_header(nlh, sizeof(*genl));
	genl->cmd = cmd;
	genl->version = TS_GENL_VERSION;
	return nlh;
}

/* Start a taskstats GET message in buf. */
static struct nlmsghdr *put_cmd(void *buf, uint16_t family, uint16_t flags,
				uint32_t seq)
{
	return put_any_cmd(buf, family, TS_CMD_GET, flags, seq);
}

struct ts_client *taskstats_open(void)
{
	struct ts_client *c = calloc(1, sizeof(*c));
	size_t rcvbuf = 0;

	if (!c)
		return NULL;
	c->nl = open_socket(QUERY_RCVBUF, &rcvbuf, &c->portid, &c->family);
	if (!c->nl) {
		int saved = errno;
		free(c);
		errno = saved;
		return NULL;
	}
	c->batch = mnl_nlmsg_batch_start(c->sendbuf, BATCH_LIMIT);
	if (!c->batch) {
		taskstats_close(c);
		errno = ENOMEM;
		return NULL;
	}
	c->seq = first_seq();
	c->per_batch = BATCH_LIMIT / REQ_LEN;
	if (rcvbuf / REPLY_COST < c->per_batch)
		c->per_batch = rcvbuf / REPLY_COST;
	if (c->per_batch == 0)
		c->per_batch = 1;
	return c;
}

void taskstats_close(struct ts_client *c)
{
	if (!c)
		return;
	if (c->batch)
		mnl_nlmsg_batch_stop(c->batch);
	if (c->nl)
		mnl_socket_close(c->nl);
	free(c);
}

unsigned taskstats_kernel_version(const struct ts_client *c)
{
	return c ? c->version : 0;
}

/* The replies of one batch: sequence numbers first .. first+count-1. */
struct drain {
	struct ts_client *c;
	ts_reading_cb cb;
	void *arg;
	uint32_t first;
	size_t count;
	size_t answered;
	size_t vanished;
	int err;  /* first errno other than ESRCH */
};

static bool in_batch(const struct drain *d, uint32_t seq)
{
	return (uint32_t)(seq - d->first) < d->count;
}

static void reading_cb(const struct ts_reading *r, void *arg)
{
	struct drain *d = arg;

	d->c->version = r->version;
	if (d->cb)
		d->cb(r, d->arg);
}

static int reply_cb(const struct nlmsghdr *nlh, void *data)
{
	struct drain *d = data;

	if (!in_batch(d, nlh->nlmsg_seq))
		return MNL_CB_OK; /* left over from an earlier, failed query */
	d->answered++;
	if (nlh->nlmsg_type == d->c->family &&
	    ts_decode_msg(nlh, nlh->nlmsg_len, reading_cb, d) < 0 && !d->err)
		d->err = EBADMSG;
	return MNL_CB_OK;
}

static int error_cb(const struct nlmsghdr *nlh, void *data)
{
	struct drain *d = data;
	const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);

	if (nlh->nlmsg_len < mnl_nlmsg_size(sizeof(e->error)) ||
	    !in_batch(d, nlh->nlmsg_seq))
		return MNL_CB_OK;
	d->answered++;
	if (e->error == -ESRCH)
		d->vanished++;
	else if (e->error < 0 && !d->err)
		d->err = -e->error;
	return MNL_CB_OK;
}

static int64_t now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/*
 * Wait for the fd to become readable; 0 on timeout. A signal (the quit
 * guard's tick) does not start the wait again: the timeout holds.
 */
static int wait_readable(int fd, int timeout_ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	int64_t until = now_ms() + timeout_ms;
	int ret;

	for (;;) {
		int64_t left = until - now_ms();
		ret = poll(&p, 1, left > 0 ? (int)left : 0);
		if (ret >= 0 || errno != EINTR)
			return ret;
		if (left <= 0)
			return 0;
	}
}

/* Wait for a reply; -1 with errno (ETIMEDOUT when none came in time). */
static int wait_reply(int fd)
{
	switch (wait_readable(fd, REPLY_TIMEOUT_MS)) {
	case -1:
		return -1;
	case 0:
		errno = ETIMEDOUT;
		return -1;
	}
	return 0;
}

/* Read the replies of one batch. Returns 0, or -1 with errno set. */
static int drain_batch(struct ts_client *c, struct drain *d)
{
	static mnl_cb_t ctl[NLMSG_MIN_TYPE] = { [NLMSG_ERROR] = error_cb };
	int fd = mnl_socket_get_fd(c->nl);
	bool overrun = false;

	while (d->answered < d->count) {
		ssize_t n = recv(fd, c->recvbuf, sizeof(c->recvbuf),
				 MSG_DONTWAIT | MSG_TRUNC);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == ENOBUFS) {
				/* replies were dropped: take what is left */
				overrun = true;
				continue;
			}
			if (errno != EAGAIN && errno != EWOULDBLOCK)
				return -1;
			if (overrun) {
				errno = ENOBUFS;
				return -1;
			}
			if (wait_reply(fd) < 0)
				return -1;
			continue;
		}
		if ((size_t)n > sizeof(c->recvbuf)) {
			/* cannot happen with replies this small; count it */
			const struct nlmsghdr *nlh = (void *)c->recvbuf;

			if (in_batch(d, nlh->nlmsg_seq))
				d->answered++;
			if (!d->err)
				d->err = EMSGSIZE;
			continue;
		}
		(void)mnl_cb_run2(c->recvbuf, (size_t)n, 0, c->portid, reply_cb,
				  d, ctl, NLMSG_MIN_TYPE);
	}
	if (overrun) {
		errno = ENOBUFS;
		return -1;
	}
	return 0;
}

int taskstats_query(struct ts_client *c, enum ts_kind kind, const uint32_t *ids,
	     size_t n, ts_reading_cb cb, void *arg, size_t *vanished)
{
	uint16_t attr = kind == TS_KIND_PID ? TS_CMD_ATTR_PID : TS_CMD_ATTR_TGID;
	struct drain d = { .c = c, .cb = cb, .arg = arg };
	size_t i = 0;
	int ret = 0;

	if (vanished)
		*vanished = 0;
	if (!c || (n && !ids)) {
		errno = EINVAL;
		return -1;
	}
	while (i < n && !d.err) {
		mnl_nlmsg_batch_reset(c->batch);
		d.first = c->seq + 1 ? c->seq + 1 : 1;
		d.count = 0;
		d.answered = 0;
		while (i < n && d.count < c->per_batch &&
		       mnl_nlmsg_batch_size(c->batch) + REQ_LEN <= BATCH_LIMIT) {
			struct nlmsghdr *nlh;

			nlh = put_cmd(mnl_nlmsg_batch_current(c->batch),
				      c->family, NLM_F_REQUEST, next_seq(&c->seq));
			mnl_attr_put_u32(nlh, attr, ids[i]);
			mnl_nlmsg_batch_next(c->batch);
			i++;
			d.count++;
		}
		if (mnl_socket_sendto(c->nl, mnl_nlmsg_batch_head(c->batch),
				      mnl_nlmsg_batch_size(c->batch)) < 0 ||
		    drain_batch(c, &d) < 0) {
			ret = -1;
			break;
		}
	}
	if (vanished)
		*vanished = d.vanished;
	if (ret == 0 && d.err) {
		/* EPERM, or a reply we could not read: the rest would fail too */
		errno = d.err;
		ret = -1;
	}
	return ret;
}

/*
 * The answer to request seq in one datagram: its error, or cb's value for
 * the reply. 1 when the datagram holds no answer to it (a stale reply).
 */
static int command_answer(const struct ts_client *c, size_t len, uint32_t seq,
			  taskstats_reply_cb cb, void *arg)
{
	const struct nlmsghdr *nlh = (const void *)c->recvbuf;
	int rest = (int)len;

	for (; mnl_nlmsg_ok(nlh, rest) && nlh->nlmsg_len <= (uint32_t)rest;
	     nlh = mnl_nlmsg_next(nlh, &rest)) {
		if (nlh->nlmsg_seq != seq)
			continue;
		if (nlh->nlmsg_type == NLMSG_ERROR) {
			const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);

			if (nlh->nlmsg_len < mnl_nlmsg_size(sizeof(e->error)))
				break;
			/* the acknowledgement comes after the reply, if any */
			errno = e->error ? -e->error : ENODATA;
			return -1;
		}
		if (nlh->nlmsg_type == c->family)
			return cb(nlh, nlh->nlmsg_len, arg) < 0 ? -1 : 0;
	}
	return 1;
}

int taskstats_command(struct ts_client *c, uint8_t cmd, uint16_t attr,
		      uint32_t value, taskstats_reply_cb cb, void *arg)
{
	char req[64] = { 0 };
	struct nlmsghdr *nlh;
	uint32_t seq;
	int fd;

	if (!c || !cb) {
		errno = EINVAL;
		return -1;
	}
	fd = mnl_socket_get_fd(c->nl);
	seq = next_seq(&c->seq);
	/* acknowledged, so that a command the kernel leaves unanswered
	 * (cgroupstats with a closed descriptor) ends at once */
	nlh = put_any_cmd(req, c->family, cmd, NLM_F_REQUEST | NLM_F_ACK, seq);
	mnl_attr_put_u32(nlh, attr, value);
	if (mnl_socket_sendto(c->nl, nlh, nlh->nlmsg_len) < 0)
		return -1;
	for (;;) {
		ssize_t n = recv(fd, c->recvbuf, sizeof(c->recvbuf),
				 MSG_DONTWAIT | MSG_TRUNC);
		int ret;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			if (wait_reply(fd) < 0)
				return -1;
			continue;
		}
		if (n < 0 && errno != ENOBUFS)
			return -1;
		if (n < 0 || (size_t)n > sizeof(c->recvbuf))
			continue; /* not our small reply: it is still to come */
		ret = command_answer(c, (size_t)n, seq, cb, arg);
		if (ret <= 0)
			return ret;
	}
}

/* Send a (de)registration for cpumask on the listener socket. */
static int send_cpumask(struct ts_listener *l, uint16_t attr)
{
	char buf[SMALL_REQ] = { 0 }; /* attribute padding too */
	struct nlmsghdr *nlh = put_cmd(buf, l->family, NLM_F_REQUEST,
				       next_seq(&l->seq));

	if (!mnl_attr_put_strz_check(nlh, sizeof(buf), attr, l->cpumask)) {
		errno = EINVAL; /* a cpu list longer than any machine needs */
		return -1;
	}
	return mnl_socket_sendto(l->nl, nlh, nlh->nlmsg_len) < 0 ? -1 : 0;
}

/*
 * A failed registration is answered inside sendmsg(), so its error is
 * queued by now; a successful one sends nothing (no ACK asked), and exit
 * records may already follow: those stay queued for the first drain.
 */
static int registration_error(struct ts_listener *l)
{
	const struct nlmsghdr *nlh = (void *)l->recvbuf;
	const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);
	ssize_t n;

	do
		n = recv(mnl_socket_get_fd(l->nl), l->recvbuf,
			 sizeof(l->recvbuf), MSG_PEEK | MSG_DONTWAIT);
	while (n < 0 && errno == EINTR);
	if (n < 0 || !mnl_nlmsg_ok(nlh, (int)n) ||
	    nlh->nlmsg_type != NLMSG_ERROR || nlh->nlmsg_seq != l->seq ||
	    nlh->nlmsg_len < mnl_nlmsg_size(sizeof(e->error)))
		return 0;
	(void)recv(mnl_socket_get_fd(l->nl), l->recvbuf, sizeof(l->recvbuf),
		   MSG_DONTWAIT);
	return -e->error;
}

/*
 * The messages the kernel dropped for the socket because it was full
 * (sk_drops, the Drops column of /proc/net/netlink); false where
 * SO_MEMINFO has no such count.
 */
static bool socket_drops(int fd, uint32_t *drops)
{
	uint32_t mi[SK_MEMINFO_VARS] = { 0 };
	socklen_t len = sizeof(mi);

	if (getsockopt(fd, SOL_SOCKET, SO_MEMINFO, mi, &len) < 0 ||
	    len < (SK_MEMINFO_DROPS + 1) * sizeof(mi[0]))
		return false;
	*drops = mi[SK_MEMINFO_DROPS];
	return true;
}

struct ts_listener *taskstats_listen(const char *cpumask)
{
	struct ts_listener *l;
	int fd, flags, error;

	if (!cpumask || !*cpumask) {
		errno = EINVAL;
		return NULL;
	}
	l = calloc(1, sizeof(*l));
	if (!l)
		return NULL;
	l->one_cpu = strspn(cpumask, "0123456789") == strlen(cpumask);
	l->cpumask = strdup(cpumask);
	if (!l->cpumask)
		goto fail;
	l->nl = open_socket(LISTEN_RCVBUF, NULL, &l->portid, &l->family);
	if (!l->nl)
		goto fail;
	l->seq = first_seq();
	if (send_cpumask(l, TS_CMD_ATTR_REGISTER_CPUMASK) < 0)
		goto fail;
	error = registration_error(l);
	if (error) {
		errno = error;
		goto fail;
	}
	fd = mnl_socket_get_fd(l->nl);
	l->have_drops = socket_drops(fd, &l->drops);
	flags = fcntl(fd, F_GETFL);
	if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0)
		goto fail;
	return l;
fail:
	error = errno;
	if (l->nl)
		mnl_socket_close(l->nl);
	free(l->cpumask);
	free(l);
	errno = error;
	return NULL;
}

int taskstats_listener_fd(const struct ts_listener *l)
{
	return l ? mnl_socket_get_fd(l->nl) : -1;
}

uint64_t taskstats_seq_next(struct ts_seq *s, uint32_t seq)
{
	uint64_t lost = 0;
	if (s->have_last && s->overflowed) {
		uint32_t gap = seq - s->last - 1;
		/* a step back (gap >= 2^31) only resynchronises */
		if (gap < 0x80000000u)
			lost = gap;
	}
	/* the first record after the socket was read empty ends the loss */
	if (s->emptied)
		s->overflowed = s->emptied = false;
	s->last = seq;
	s->have_last = true;
	return lost;
}

void taskstats_seq_overflow(struct ts_seq *s)
{
	s->overflowed = true;
	s->emptied = false;
}

void taskstats_seq_empty(struct ts_seq *s)
{
	if (s->overflowed)
		s->emptied = true;
}

/* Count the records a one-CPU listener missed before this one. */
static void note_seq(struct ts_listener *l, uint32_t seq, uint64_t *lost)
{
	if (l->have_drops || !l->one_cpu)
		return;
	uint64_t n = taskstats_seq_next(&l->numbers, seq);
	if (lost)
		*lost += n;
}

/* Decode every exit record of one datagram. Returns the records. */
static int listener_datagram(struct ts_listener *l, size_t len,
			     ts_reading_cb cb, void *arg, uint64_t *lost)
{
	const struct nlmsghdr *nlh = (void *)l->recvbuf;
	int rest = (int)len, records = 0;

	/* mnl_nlmsg_ok() compares as int: a length of 2^31 or more passes it */
	for (; mnl_nlmsg_ok(nlh, rest) && nlh->nlmsg_len <= (uint32_t)rest;
	     nlh = mnl_nlmsg_next(nlh, &rest)) {
		int ret;

		if (nlh->nlmsg_type != l->family)
			continue; /* e.g. the answer to a deregistration */
		if (nlh->nlmsg_pid == 0)
			note_seq(l, nlh->nlmsg_seq, lost);
		ret = ts_decode_msg(nlh, nlh->nlmsg_len, cb, arg);
		if (ret > 0)
			records += ret;
	}
	return records;
}

int taskstats_listener_drain(struct ts_listener *l, ts_reading_cb cb, void *arg,
		      uint64_t *lost)
{
	int fd = mnl_socket_get_fd(l->nl), records = 0;

	for (int i = 0; i < DRAIN_MAX; i++) {
		ssize_t n = recv(fd, l->recvbuf, sizeof(l->recvbuf),
				 MSG_DONTWAIT | MSG_TRUNC);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN || errno == EWOULDBLOCK) {
				taskstats_seq_empty(&l->numbers);
				break;
			}
			if (errno == ENOBUFS) {
				/* the kernel's count says how many, below */
				if (l->have_drops)
					continue;
				/* one CPU: the gap in the numbers says how many */
				if (l->one_cpu)
					taskstats_seq_overflow(&l->numbers);
				else if (lost)
					(*lost)++;
				continue;
			}
			return -1;
		}
		if ((size_t)n > sizeof(l->recvbuf)) {
			/* a record we cannot read: lost, but it took its number */
			const struct nlmsghdr *nlh = (void *)l->recvbuf;
			if (nlh->nlmsg_pid == 0 && nlh->nlmsg_type == l->family)
				note_seq(l, nlh->nlmsg_seq, lost);
			if (lost)
				(*lost)++;
			continue;
		}
		records += listener_datagram(l, (size_t)n, cb, arg, lost);
	}
	uint32_t drops;
	if (l->have_drops && socket_drops(fd, &drops)) {
		/* a 32-bit count: the difference is right across a wrap */
		if (lost)
			*lost += (uint32_t)(drops - l->drops);
		l->drops = drops;
	}
	return records;
}

void taskstats_listener_close(struct ts_listener *l)
{
	if (!l)
		return;
	(void)send_cpumask(l, TS_CMD_ATTR_DEREGISTER_CPUMASK);
	mnl_socket_close(l->nl);
	free(l->cpumask);
	free(l);
}
