/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The proc connector event source: subscribe to NETLINK_CONNECTOR group
 * CN_IDX_PROC through libmnl (with the Linux 6.6+ event filter where the
 * kernel takes it), and turn its datagrams into struct pc_event.
 *
 * The wire structs below are our own copies of <linux/connector.h> and
 * <linux/cn_proc.h>, so the build host's headers do not matter. Every
 * field is read with memcpy: the proc_event behind a 16-byte nlmsghdr and
 * a 20-byte cn_msg is not 8-byte aligned.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdalign.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <libmnl/libmnl.h>
#include <linux/netlink.h>

#include "kernel/proc_conn.h"

#ifndef NETLINK_CONNECTOR
#define NETLINK_CONNECTOR 11
#endif

/* <linux/connector.h> */
#define PC_IDX_PROC 1
#define PC_VAL_PROC 1

struct pc_cn_msg {
	uint32_t idx, val;      /* struct cb_id */
	uint32_t seq, ack;
	uint16_t len;           /* of the data that follows */
	uint16_t flags;
};

/* <linux/cn_proc.h> */
enum {
	PC_MCAST_LISTEN = 1,
	PC_MCAST_IGNORE = 2,
};

#define PC_EV_NONE 0x00000000u           /* the answer to a listen/ignore op */
#define PC_EV_FORK 0x00000001u
#define PC_EV_EXEC 0x00000002u
#define PC_EV_UID 0x00000004u
#define PC_EV_GID 0x00000040u
#define PC_EV_SID 0x00000080u
#define PC_EV_PTRACE 0x00000100u
#define PC_EV_COMM 0x00000200u
#define PC_EV_NONZERO_EXIT 0x20000000u
#define PC_EV_COREDUMP 0x40000000u
#define PC_EV_EXIT 0x80000000u

#define PC_EV_ALL (PC_EV_FORK | PC_EV_EXEC | PC_EV_UID | PC_EV_GID | \
		   PC_EV_SID | PC_EV_PTRACE | PC_EV_COMM | \
		   PC_EV_NONZERO_EXIT | PC_EV_COREDUMP | PC_EV_EXIT)
#define PC_EV_WANTED (PC_EV_FORK | PC_EV_EXEC | PC_EV_COMM | PC_EV_EXIT)

/* struct proc_input (6.6+): the op, then the events wanted. */
struct pc_proc_input {
	uint32_t mcast_op;
	uint32_t event_type;
};

/* struct proc_event up to its union event_data */
struct pc_ev_head {
	uint32_t what;
	uint32_t cpu;
	uint64_t timestamp_ns;
};

/* The members of event_data we read, each from offset 0 of the union. */
struct pc_ev_ack { uint32_t err; };
struct pc_ev_fork { int32_t parent_pid, parent_tgid, child_pid, child_tgid; };
struct pc_ev_exec { int32_t pid, tgid; };
struct pc_ev_comm { int32_t pid, tgid; char comm[16]; };
struct pc_ev_exit { int32_t pid, tgid; uint32_t exit_code; };

_Static_assert(sizeof(struct pc_cn_msg) == 20, "cn_msg is 20 bytes");
_Static_assert(sizeof(struct pc_ev_head) == 16, "proc_event head is 16 bytes");
_Static_assert(sizeof(struct pc_proc_input) == 8, "proc_input is 8 bytes");

/* The biggest datagram the connector sends (CONNECTOR_MAX_MSG_SIZE). */
#define PC_RECV_BYTES (16384 + 256)

/* How long proc_conn_open() waits for the kernel to answer the listen ops. */
#define PC_ACK_WAIT_MS 500

struct proc_conn {
	struct mnl_socket *nl;
	bool filtered;
	bool listening;         /* the kernel counts us as a listener */
	unsigned nr_cpus;
	uint32_t *last_seq;     /* per CPU, unfiltered only */
	alignas(struct nlmsghdr) unsigned char buf[PC_RECV_BYTES];
};

/* proc_conn_open() looks for the kernel's answers (PROC_EVENT_NONE) by cn_msg.ack. */
struct pc_ack {
	uint32_t ack;
	bool seen;
	uint32_t err;
};

struct pc_sink {
	pc_event_cb cb;         /* may be NULL: decode and track only */
	void *arg;
	uint32_t *last_seq;
	unsigned nr_cpus;
	uint64_t *lost;
	struct pc_ack *acks;
	size_t n_acks;
};

/* Bytes of proc_event a type needs for the fields we read. */
static size_t needed_len(uint32_t what)
{
	size_t head = sizeof(struct pc_ev_head);

	switch (what) {
	case PC_EV_NONE:
		return head + sizeof(struct pc_ev_ack);
	case PC_EV_FORK:
		return head + sizeof(struct pc_ev_fork);
	case PC_EV_EXEC:
		return head + sizeof(struct pc_ev_exec);
	case PC_EV_COMM:
		return head + sizeof(struct pc_ev_comm);
	case PC_EV_EXIT:
		return head + sizeof(struct pc_ev_exit);
	default:
		return head;
	}
}

/* Per-CPU sequence numbers: count the events skipped since the last one. */
static void track_seq(struct pc_sink *s, uint32_t cpu, uint32_t seq)
{
	if (!s->last_seq || cpu >= s->nr_cpus)
		return;
	uint32_t expect = s->last_seq[cpu];
	if (expect != 0) {
		uint32_t gap = seq - expect;
		/* a step back (gap >= 2^31) only resynchronises */
		if (gap != 0 && gap < 0x80000000u && s->lost)
			*s->lost += gap;
	}
	s->last_seq[cpu] = seq + 1;
}

static void note_ack(struct pc_sink *s, const struct pc_cn_msg *cn,
		     const unsigned char *data)
{
	struct pc_ev_ack a;

	memcpy(&a, data + sizeof(struct pc_ev_head), sizeof(a));
	for (size_t i = 0; i < s->n_acks; i++) {
		if (s->acks[i].ack == cn->ack) {
			s->acks[i].seen = true;
			s->acks[i].err = a.err;
		}
	}
}

static void deliver(struct pc_sink *s, const struct pc_ev_head *h,
		    const unsigned char *data)
{
	const unsigned char *u = data + sizeof(*h);
	struct pc_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.cpu = h->cpu;
	ev.timestamp_ns = h->timestamp_ns;

	switch (h->what) {
	case PC_EV_FORK: {
		struct pc_ev_fork f;
		memcpy(&f, u, sizeof(f));
		ev.type = PC_FORK;
		ev.pid = f.child_pid;
		ev.tgid = f.child_tgid;
		ev.parent_pid = f.parent_pid;
		ev.parent_tgid = f.parent_tgid;
		break;
	}
	case PC_EV_EXEC: {
		struct pc_ev_exec e;
		memcpy(&e, u, sizeof(e));
		ev.type = PC_EXEC;
		ev.pid = e.pid;
		ev.tgid = e.tgid;
		break;
	}
	case PC_EV_COMM: {
		struct pc_ev_comm c;
		memcpy(&c, u, sizeof(c));
		ev.type = PC_COMM;
		ev.pid = c.pid;
		ev.tgid = c.tgid;
		/* NUL-bounded: ev.comm has room for all 16 bytes and a NUL */
		size_t n = strnlen(c.comm, sizeof(c.comm));
		memcpy(ev.comm, c.comm, n);
		ev.comm[n] = '\0';
		break;
	}
	case PC_EV_EXIT: {
		struct pc_ev_exit x;
		memcpy(&x, u, sizeof(x));
		ev.type = PC_EXIT;
		ev.pid = x.pid;
		ev.tgid = x.tgid;
		ev.exit_code = x.exit_code;
		break;
	}
	default:
		return;
	}
	if (s->cb)
		s->cb(&ev, s->arg);
}

/*
 * One netlink message. Returns 1 for an event we deliver, 0 for one we
 * skip, -1 if it is malformed. s == NULL: check only.
 */
static int one_msg(const struct nlmsghdr *nlh, struct pc_sink *s)
{
	/* The connector sends its data as NLMSG_DONE; skip anything else. */
	if (nlh->nlmsg_type != NLMSG_DONE)
		return 0;

	const unsigned char *p = mnl_nlmsg_get_payload(nlh);
	size_t plen = mnl_nlmsg_get_payload_len(nlh);
	struct pc_cn_msg cn;

	if (plen < sizeof(cn))
		return -1;
	memcpy(&cn, p, sizeof(cn));
	if (cn.len > plen - sizeof(cn))
		return -1;
	if (cn.idx != PC_IDX_PROC || cn.val != PC_VAL_PROC)
		return 0;

	const unsigned char *data = p + sizeof(cn);
	struct pc_ev_head h;

	if (cn.len < sizeof(h))
		return -1;
	memcpy(&h, data, sizeof(h));
	if (cn.len < needed_len(h.what))
		return -1;

	bool ours = h.what == PC_EV_FORK || h.what == PC_EV_EXEC ||
		    h.what == PC_EV_COMM || h.what == PC_EV_EXIT;
	if (!s)
		return ours;

	/* every message, delivered or not, took a number on its CPU */
	track_seq(s, h.cpu, cn.seq);
	if (h.what == PC_EV_NONE)
		note_ack(s, &cn, data);
	if (!ours)
		return 0;
	deliver(s, &h, data);
	return 1;
}

/* Walk a datagram: s == NULL checks it, else delivers. */
static int walk(const void *buf, size_t len, struct pc_sink *s)
{
	if (len > INT_MAX)
		return -1;

	const struct nlmsghdr *nlh = buf;
	int remain = (int)len;
	int n = 0;

	/*
	 * mnl_nlmsg_ok() compares nlmsg_len as an int: a length of 2^31 or
	 * more passes it. Check it against what is left ourselves.
	 */
	while (mnl_nlmsg_ok(nlh, remain) &&
	       nlh->nlmsg_len <= (uint32_t)remain) {
		int r = one_msg(nlh, s);
		if (r < 0)
			return -1;
		n += r;
		nlh = mnl_nlmsg_next(nlh, &remain);
	}
	/* a message cut short, or bytes that are no message */
	if (remain > 0)
		return -1;
	return n;
}

static int parse(const void *buf, size_t len, struct pc_sink *s)
{
	if (walk(buf, len, NULL) < 0)
		return -1;
	return walk(buf, len, s);
}

int proc_conn_parse(const void *buf, size_t len, pc_event_cb cb, void *arg,
	     uint32_t *last_seq, unsigned nr_cpus, uint64_t *lost)
{
	struct pc_sink s = {
		.cb = cb, .arg = arg,
		.last_seq = last_seq, .nr_cpus = nr_cpus, .lost = lost,
	};

	return parse(buf, len, &s);
}

/* Send a listen/ignore op: the 6.6+ form with a filter, or the plain one. */
static int send_op(struct proc_conn *pc, uint32_t op, bool with_filter,
		   uint32_t events, uint32_t ack)
{
	alignas(struct nlmsghdr) unsigned char buf[128];
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);

	nlh->nlmsg_type = NLMSG_DONE;
	nlh->nlmsg_pid = mnl_socket_get_portid(pc->nl);

	struct pc_cn_msg *cn = mnl_nlmsg_put_extra_header(nlh, sizeof(*cn));
	cn->idx = PC_IDX_PROC;
	cn->val = PC_VAL_PROC;
	cn->ack = ack;
	if (with_filter) {
		struct pc_proc_input in = { .mcast_op = op, .event_type = events };
		cn->len = sizeof(in);
		memcpy(mnl_nlmsg_put_extra_header(nlh, sizeof(in)), &in,
		       sizeof(in));
	} else {
		cn->len = sizeof(op);
		memcpy(mnl_nlmsg_put_extra_header(nlh, sizeof(op)), &op,
		       sizeof(op));
	}

	if (mnl_socket_sendto(pc->nl, nlh, nlh->nlmsg_len) < 0)
		return -1;
	return 0;
}

/*
 * Receive one datagram into pc->buf. Returns its length, 0 for one to
 * ignore (not from the kernel), or -1 with errno set (EAGAIN: no more;
 * ENOSPC: truncated; ENOBUFS: the kernel dropped some).
 */
static ssize_t recv_one(struct proc_conn *pc)
{
	struct sockaddr_nl from;
	struct iovec iov = { pc->buf, sizeof(pc->buf) };
	struct msghdr mh = {
		.msg_name = &from, .msg_namelen = sizeof(from),
		.msg_iov = &iov, .msg_iovlen = 1,
	};
	ssize_t n;

	do
		n = recvmsg(mnl_socket_get_fd(pc->nl), &mh, 0);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -1;
	if (mh.msg_flags & MSG_TRUNC) {
		errno = ENOSPC;
		return -1;
	}
	/* anyone may unicast to our port: believe the kernel only */
	if (mh.msg_namelen != sizeof(from) || from.nl_family != AF_NETLINK ||
	    from.nl_pid != 0)
		return 0;
	return n;
}

static long ms_since(const struct timespec *t0)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - t0->tv_sec) * 1000 +
	       (now.tv_nsec - t0->tv_nsec) / 1000000;
}

/*
 * Read until acks[n - 1] is seen or PC_ACK_WAIT_MS pass. The kernel answers
 * in order, so once the last op's answer is here so is any earlier one.
 * Events read meanwhile are dropped. Sets *overflow if some were lost.
 * Returns -1 with errno set on a hard error.
 */
static int wait_acks(struct proc_conn *pc, struct pc_ack *acks, size_t n,
		      bool *overflow)
{
	struct timespec t0;
	uint64_t lost = 0;
	struct pc_sink s = {
		.last_seq = pc->last_seq, .nr_cpus = pc->nr_cpus,
		.lost = &lost, .acks = acks, .n_acks = n,
	};

	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (!acks[n - 1].seen) {
		long left = PC_ACK_WAIT_MS - ms_since(&t0);
		if (left <= 0)
			return 0;
		ssize_t len = recv_one(pc);
		if (len >= 0) {
			parse(pc->buf, (size_t)len, &s);
			continue;
		}
		if (errno == ENOBUFS || errno == ENOSPC) {
			*overflow = true;
			continue;
		}
		if (errno != EAGAIN && errno != EWOULDBLOCK)
			return -1;
		struct pollfd pfd = { mnl_socket_get_fd(pc->nl), POLLIN, 0 };
		if (poll(&pfd, 1, (int)left) < 0 && errno != EINTR)
			return -1;
	}
	return 0;
}

/*
 * Subscribe, finding out on the way whether the kernel filters:
 *  1. the 6.6+ form, listen to every event, ack A: only a kernel that
 *     reads the longer form answers it (older ones ignore it silently);
 *  2. the plain op, ack B: every kernel answers it, after A;
 *  3. if A came, the 6.6+ form again with just the events we use. Its
 *     answer is an event of type NONE, which that filter drops.
 * Listening twice on one socket counts once on 6.6+, and an older kernel
 * only counted step 2.
 */
static int subscribe(struct proc_conn *pc)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	/* tell our answers from other listeners' ones */
	uint32_t nonce = ((uint32_t)getpid() << 16) ^ (uint32_t)t.tv_nsec;
	nonce &= ~7u;
	struct pc_ack acks[2] = { { .ack = nonce + 1 }, { .ack = nonce + 3 } };
	bool overflow = false;

	if (send_op(pc, PC_MCAST_LISTEN, true, PC_EV_ALL, nonce) < 0) {
		/* a network namespace other than the first has no connector */
		if (errno == ECONNREFUSED)
			errno = EPROTONOSUPPORT;
		return -1;
	}
	if (send_op(pc, PC_MCAST_LISTEN, false, 0, nonce + 2) < 0)
		return -1;
	if (wait_acks(pc, acks, 2, &overflow) < 0)
		return -1;

	struct pc_ack *last = acks[1].seen ? &acks[1] : &acks[0];
	if (!last->seen && !overflow) {
		errno = EPERM;
		return -1;
	}
	if (last->seen && last->err != 0) {
		errno = (int)last->err;
		return -1;
	}
	pc->listening = true;
	if (!acks[0].seen)
		return 0;
	if (send_op(pc, PC_MCAST_LISTEN, true, PC_EV_WANTED, nonce + 4) < 0)
		return -1;
	pc->filtered = true;
	return 0;
}

static void set_rcvbuf(int fd)
{
	int size = 32 << 20;

	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof(size)) == 0)
		return;
	/* the kernel caps this one at net.core.rmem_max */
	(void)setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof(size));
}

static int open_socket(struct proc_conn *pc)
{
	pc->nl = mnl_socket_open(NETLINK_CONNECTOR);
	if (!pc->nl)
		return -1;

	int fd = mnl_socket_get_fd(pc->nl);
	int fl = fcntl(fd, F_GETFL);
	if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0 ||
	    fcntl(fd, F_SETFD, FD_CLOEXEC) < 0)
		return -1;
	set_rcvbuf(fd);
	return mnl_socket_bind(pc->nl, 1u << (PC_IDX_PROC - 1),
			       MNL_SOCKET_AUTOPID);
}

struct proc_conn *proc_conn_open(void)
{
	struct proc_conn *pc = calloc(1, sizeof(*pc));
	if (!pc)
		return NULL;

	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	pc->nr_cpus = ncpu > 0 ? (unsigned)ncpu : 1;
	pc->last_seq = calloc(pc->nr_cpus, sizeof(*pc->last_seq));
	if (!pc->last_seq || open_socket(pc) < 0 || subscribe(pc) < 0) {
		int e = errno;
		proc_conn_close(pc);
		errno = e;
		return NULL;
	}
	return pc;
}

void proc_conn_close(struct proc_conn *pc)
{
	if (!pc)
		return;
	if (pc->nl) {
		/* an older kernel keeps one global count: only undo our own */
		if (pc->listening)
			(void)send_op(pc, PC_MCAST_IGNORE, false, 0, 0);
		mnl_socket_close(pc->nl);
	}
	free(pc->last_seq);
	free(pc);
}

int proc_conn_fd(const struct proc_conn *pc)
{
	return mnl_socket_get_fd(pc->nl);
}

bool proc_conn_filtered(const struct proc_conn *pc)
{
	return pc->filtered;
}

int proc_conn_drain(struct proc_conn *pc, pc_event_cb cb, void *arg, uint64_t *lost)
{
	uint64_t dummy = 0;
	struct pc_sink s = {
		.cb = cb, .arg = arg,
		/* filtered: a gap is the events the filter dropped, not a loss */
		.last_seq = pc->filtered ? NULL : pc->last_seq,
		.nr_cpus = pc->nr_cpus,
		.lost = lost ? lost : &dummy,
	};
	int events = 0;

	for (int i = 0; i < PC_DRAIN_BUDGET; i++) {
		ssize_t len = recv_one(pc);
		if (len >= 0) {
			int n = parse(pc->buf, (size_t)len, &s);
			if (n < 0)
				(*s.lost)++;    /* the kernel sent what we cannot read */
			else
				events += n;
			continue;
		}
		if (errno == EAGAIN || errno == EWOULDBLOCK)
			break;
		if (errno == ENOBUFS || errno == ENOSPC) {
			(*s.lost)++;
			/* the caller resyncs; the gaps that follow are this loss */
			memset(pc->last_seq, 0, pc->nr_cpus * sizeof(*pc->last_seq));
			continue;
		}
		return -1;
	}
	return events;
}
