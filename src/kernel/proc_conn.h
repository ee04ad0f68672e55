/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The proc connector (NETLINK_CONNECTOR, CN_IDX_PROC) through libmnl:
 * fork, exec, comm and exit events as plain structs.
 */
#ifndef STALLTOP_PROC_CONN_H
#define STALLTOP_PROC_CONN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

enum pc_type { PC_FORK, PC_EXEC, PC_COMM, PC_EXIT, PC_NONE };

struct pc_event {
	enum pc_type type;
	unsigned cpu;
	uint64_t timestamp_ns;  /* CLOCK_MONOTONIC of the event */
	pid_t pid, tgid;        /* the task: the child for fork */
	pid_t parent_pid, parent_tgid; /* fork only */
	uint32_t exit_code;     /* exit only */
	char comm[17];          /* comm only */
};

typedef void (*pc_event_cb)(const struct pc_event *ev, void *arg);

struct proc_conn;

/*
 * Subscribe. Uses the event filter (Linux 6.6+) for just the events we
 * use where the kernel takes it. Returns NULL with errno set on failure
 * (EPERM: no CAP_NET_ADMIN before 6.6; EPROTONOSUPPORT: no connector).
 * EPERM also when the kernel ignored the subscription without a word, as
 * it does for a caller outside the initial user and pid namespaces.
 * Events that arrive while proc_conn_open() waits for the kernel's answer are
 * dropped: scan /proc after proc_conn_open(), not before.
 */
struct proc_conn *proc_conn_open(void);
void proc_conn_close(struct proc_conn *pc);
int proc_conn_fd(const struct proc_conn *pc);

/*
 * Whether the kernel filters events for us (Linux 6.6+). The sequence
 * numbers count every event the kernel made, filtered out or not, so only
 * an unfiltered subscription can tell lost events from gaps.
 */
bool proc_conn_filtered(const struct proc_conn *pc);

/* Datagrams proc_conn_drain() reads at most per call. */
#define PC_DRAIN_BUDGET 4096

/*
 * Read everything pending without blocking, calling cb per event.
 * Overflow (ENOBUFS) and sequence gaps add to *lost. Returns the number of
 * events, or -1 with errno set on a hard error.
 * An overflow counts as one lost event, however many were lost: resync.
 * At most PC_DRAIN_BUDGET datagrams are read per call, so that a fork
 * storm cannot starve the event loop; the descriptor then stays readable.
 */
int proc_conn_drain(struct proc_conn *pc, pc_event_cb cb, void *arg, uint64_t *lost);

/*
 * Parse one datagram (netlink messages holding cn_msg/proc_event) and
 * call cb per event. last_seq (per CPU, nr_cpus entries, may be NULL)
 * tracks sequence numbers; gaps are added to *lost. Returns the number of
 * events, or -1 if the datagram is malformed.
 * last_seq[cpu] holds the sequence number expected next from that CPU, 0
 * meaning "none seen yet": start from a zeroed array (and zero it again
 * to forget). A malformed datagram delivers nothing and tracks nothing.
 */
int proc_conn_parse(const void *buf, size_t len, pc_event_cb cb, void *arg,
	     uint32_t *last_seq, unsigned nr_cpus, uint64_t *lost);

#endif
