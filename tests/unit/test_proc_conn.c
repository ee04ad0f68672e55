/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * proc_conn_parse() on saved proc connector datagrams (tests/fixtures/connector):
 * the decoded fields of captured and constructed events, per-CPU sequence
 * gap counting, and -1 (with nothing delivered) on broken input.
 */
#include <config.h>

#include <stdint.h>
#include <stdlib.h>

#include "kernel/proc_conn.h"
#include "unit.h"

#define MAX_EVENTS 16

struct got {
	int n;
	struct pc_event ev[MAX_EVENTS];
};

static void collect(const struct pc_event *ev, void *arg)
{
	struct got *g = arg;

	if (g->n < MAX_EVENTS)
		g->ev[g->n] = *ev;
	g->n++;
}

/* Parse a fixture; last_seq may be NULL. */
static int parse_fixture(const char *name, struct got *g, uint32_t *last_seq,
			 unsigned nr_cpus, uint64_t *lost)
{
	size_t len;
	char *buf = unit_fixture(name, &len);

	memset(g, 0, sizeof(*g));
	int r = proc_conn_parse(buf, len, collect, g, last_seq, nr_cpus, lost);
	free(buf);
	return r;
}

static void test_captured(void)
{
	struct got g;
	uint64_t lost = 0;

	CHECK_EQ_U(parse_fixture("connector/captured-fork.bin", &g, NULL, 0,
				 &lost), 1);
	CHECK_EQ_U(g.n, 1);
	CHECK_EQ_U(g.ev[0].type, PC_FORK);
	CHECK_EQ_U(g.ev[0].cpu, 1);
	CHECK_EQ_U(g.ev[0].timestamp_ns, 468270967803ull);
	CHECK_EQ_U(g.ev[0].pid, 8987);
	CHECK_EQ_U(g.ev[0].tgid, 8987);
	CHECK_EQ_U(g.ev[0].parent_pid, 8986);
	CHECK_EQ_U(g.ev[0].parent_tgid, 8986);
	CHECK_EQ_U(g.ev[0].exit_code, 0);
	CHECK_STR(g.ev[0].comm, "");

	CHECK_EQ_U(parse_fixture("connector/captured-exec.bin", &g, NULL, 0,
				 &lost), 1);
	CHECK_EQ_U(g.ev[0].type, PC_EXEC);
	CHECK_EQ_U(g.ev[0].cpu, 0);
	CHECK_EQ_U(g.ev[0].timestamp_ns, 468271241343ull);
	CHECK_EQ_U(g.ev[0].pid, 8987);
	CHECK_EQ_U(g.ev[0].tgid, 8987);
	CHECK_EQ_U(g.ev[0].parent_pid, 0);

	CHECK_EQ_U(parse_fixture("connector/captured-comm.bin", &g, NULL, 0,
				 &lost), 1);
	CHECK_EQ_U(g.ev[0].type, PC_COMM);
	CHECK_EQ_U(g.ev[0].cpu, 1);
	CHECK_EQ_U(g.ev[0].timestamp_ns, 468270874893ull);
	CHECK_EQ_U(g.ev[0].pid, 8986);
	CHECK_EQ_U(g.ev[0].tgid, 8986);
	CHECK_STR(g.ev[0].comm, "stalltop-cap");

	CHECK_EQ_U(parse_fixture("connector/captured-exit.bin", &g, NULL, 0,
				 &lost), 1);
	CHECK_EQ_U(g.ev[0].type, PC_EXIT);
	CHECK_EQ_U(g.ev[0].cpu, 1);
	CHECK_EQ_U(g.ev[0].timestamp_ns, 468271764883ull);
	CHECK_EQ_U(g.ev[0].pid, 8986);
	CHECK_EQ_U(g.ev[0].tgid, 8986);
	CHECK_EQ_U(g.ev[0].exit_code, 3 << 8);
	CHECK_EQ_U(g.ev[0].parent_pid, 0);      /* fork only */

	/* the answer to a listen op: read, not delivered */
	CHECK_EQ_U(parse_fixture("connector/captured-ack.bin", &g, NULL, 0,
				 &lost), 0);
	CHECK_EQ_U(g.n, 0);
	CHECK_EQ_U(lost, 0);
}

/* Real sequence numbers: comm 333, fork 334, exit 335 on CPU 1. */
static void test_captured_seq(void)
{
	struct got g;
	uint32_t last[2] = { 0, 0 };
	uint64_t lost = 0;

	parse_fixture("connector/captured-comm.bin", &g, last, 2, &lost);
	CHECK_EQ_U(last[1], 334);
	parse_fixture("connector/captured-exit.bin", &g, last, 2, &lost);
	CHECK_EQ_U(lost, 1);                    /* the fork went missing */
	CHECK_EQ_U(last[1], 336);
	/* an earlier number resynchronises without counting */
	parse_fixture("connector/captured-fork.bin", &g, last, 2, &lost);
	CHECK_EQ_U(lost, 1);
	CHECK_EQ_U(last[1], 335);
	parse_fixture("connector/captured-exit.bin", &g, last, 2, &lost);
	CHECK_EQ_U(lost, 1);

	/* the ack takes a number on its CPU like any event */
	parse_fixture("connector/captured-ack.bin", &g, last, 2, &lost);
	CHECK_EQ_U(last[0], 1);
	/* a CPU beyond nr_cpus is not tracked, and not an error */
	CHECK_EQ_U(parse_fixture("connector/captured-exit.bin", &g, last, 1,
				 &lost), 1);
	CHECK_EQ_U(lost, 1);
}

static void test_constructed(void)
{
	struct got g;
	uint64_t lost = 0;

	CHECK_EQ_U(parse_fixture("connector/fork.bin", &g, NULL, 0, &lost), 1);
	CHECK_EQ_U(g.ev[0].type, PC_FORK);
	CHECK_EQ_U(g.ev[0].cpu, 1);
	CHECK_EQ_U(g.ev[0].timestamp_ns, 1000000001);
	CHECK_EQ_U(g.ev[0].pid, 4242);
	CHECK_EQ_U(g.ev[0].tgid, 4242);
	CHECK_EQ_U(g.ev[0].parent_pid, 1000);
	CHECK_EQ_U(g.ev[0].parent_tgid, 999);

	CHECK_EQ_U(parse_fixture("connector/exec.bin", &g, NULL, 0, &lost), 1);
	CHECK_EQ_U(g.ev[0].type, PC_EXEC);
	CHECK_EQ_U(g.ev[0].cpu, 0);
	CHECK_EQ_U(g.ev[0].timestamp_ns, 1000000002);
	CHECK_EQ_U(g.ev[0].pid, 4242);
	CHECK_EQ_U(g.ev[0].tgid, 4242);

	CHECK_EQ_U(parse_fixture("connector/comm.bin", &g, NULL, 0, &lost), 1);
	CHECK_EQ_U(g.ev[0].type, PC_COMM);
	CHECK_EQ_U(g.ev[0].timestamp_ns, 1000000003);
	CHECK_EQ_U(g.ev[0].pid, 4243);
	CHECK_EQ_U(g.ev[0].tgid, 4242);
	CHECK_STR(g.ev[0].comm, "worker/0");

	CHECK_EQ_U(parse_fixture("connector/comm-full.bin", &g, NULL, 0,
				 &lost), 1);
	CHECK_STR(g.ev[0].comm, "ABCDEFGHIJKLMNOP");
	CHECK_EQ_U(g.ev[0].comm[16], 0);

	CHECK_EQ_U(parse_fixture("connector/exit.bin", &g, NULL, 0, &lost), 1);
	CHECK_EQ_U(g.ev[0].type, PC_EXIT);
	CHECK_EQ_U(g.ev[0].timestamp_ns, 1000000005);
	CHECK_EQ_U(g.ev[0].pid, 4242);
	CHECK_EQ_U(g.ev[0].tgid, 4242);
	CHECK_EQ_U(g.ev[0].exit_code, 0x100);
	CHECK_EQ_U(g.ev[0].parent_pid, 0);

	/* another connector's message is not ours to decode */
	CHECK_EQ_U(parse_fixture("connector/foreign.bin", &g, NULL, 0, &lost), 0);
	CHECK_EQ_U(g.n, 0);

	/* no callback: still counts */
	size_t len;
	char *buf = unit_fixture("connector/multi.bin", &len);
	CHECK_EQ_U(proc_conn_parse(buf, len, NULL, NULL, NULL, 0, NULL), 4);
	free(buf);
	CHECK_EQ_U(lost, 0);
}

static void test_multi(void)
{
	struct got g;
	uint32_t last[1] = { 0 };
	uint64_t lost = 0;

	CHECK_EQ_U(parse_fixture("connector/multi.bin", &g, last, 1, &lost), 4);
	CHECK_EQ_U(g.n, 4);
	CHECK_EQ_U(g.ev[0].type, PC_FORK);
	CHECK_EQ_U(g.ev[0].pid, 500);
	CHECK_EQ_U(g.ev[0].parent_pid, 1);
	CHECK_EQ_U(g.ev[1].type, PC_EXEC);
	CHECK_EQ_U(g.ev[1].timestamp_ns, 2000000002);
	CHECK_EQ_U(g.ev[2].type, PC_COMM);
	CHECK_STR(g.ev[2].comm, "sshd");
	CHECK_EQ_U(g.ev[2].timestamp_ns, 2000000005);
	CHECK_EQ_U(g.ev[3].type, PC_EXIT);
	CHECK_EQ_U(g.ev[3].pid, 500);
	CHECK_EQ_U(g.ev[3].exit_code, 0);
	/* the UID event and the ack took 22 and 23: no gap */
	CHECK_EQ_U(lost, 0);
	CHECK_EQ_U(last[0], 26);
}

static void test_gaps(void)
{
	struct got g;
	uint32_t last[2] = { 0, 0 };
	uint64_t lost = 0;

	CHECK_EQ_U(parse_fixture("connector/gap.bin", &g, last, 2, &lost), 5);
	CHECK_EQ_U(lost, 3);
	CHECK_EQ_U(last[0], 16);
	CHECK_EQ_U(last[1], 9);
	/* the same again: the step back (16 -> 10) resyncs without a loss,
	 * then 11 -> 15 loses 3 more */
	parse_fixture("connector/gap.bin", &g, last, 2, &lost);
	CHECK_EQ_U(lost, 6);

	/* NULL last_seq: no tracking at all (a filtered subscription) */
	lost = 0;
	CHECK_EQ_U(parse_fixture("connector/gap.bin", &g, NULL, 0, &lost), 5);
	CHECK_EQ_U(lost, 0);

	/* across the wrap: one number goes unchecked, the gap after counts */
	uint32_t w[1] = { 0 };
	lost = 0;
	CHECK_EQ_U(parse_fixture("connector/seq-wrap.bin", &g, w, 1, &lost), 4);
	CHECK_EQ_U(lost, 1);
	CHECK_EQ_U(w[0], 3);
}

static void test_hostile(void)
{
	static const char *const bad[] = {
		"connector/truncated-event.bin",
		"connector/short-head.bin",
		"connector/cn-len-lies.bin",
		"connector/short-cn.bin",
		"connector/truncated-datagram.bin",
		"connector/nl-len-lies.bin",
		"connector/good-then-bad.bin",
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct got g;
		uint32_t last[1] = { 0 };
		uint64_t lost = 0;

		int r = parse_fixture(bad[i], &g, last, 1, &lost);
		if (r != -1)
			fprintf(stderr, "%s: proc_conn_parse gave %d\n", bad[i], r);
		CHECK(r == -1);
		CHECK_EQ_U(g.n, 0);             /* all or nothing */
		CHECK_EQ_U(last[0], 0);         /* nothing tracked */
		CHECK_EQ_U(lost, 0);
	}

	/* every prefix of a good datagram: -1 or a whole message, never more */
	size_t len;
	char *good = unit_fixture("connector/multi.bin", &len);
	for (size_t cut = 0; cut < len; cut++) {
		char *copy = malloc(cut ? cut : 1);
		memcpy(copy, good, cut);
		struct got g = { 0 };
		int r = proc_conn_parse(copy, cut, collect, &g, NULL, 0, NULL);
		CHECK(r == -1 || r == g.n);
		free(copy);
	}
	free(good);

	/* empty datagram: nothing, not an error */
	CHECK_EQ_U(proc_conn_parse("", 0, NULL, NULL, NULL, 0, NULL), 0);
}

int main(void)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
	printf("SKIP: the connector fixtures are little-endian\n");
	return 77;
#endif
	test_captured();
	test_captured_seq();
	test_constructed();
	test_multi();
	test_gaps();
	test_hostile();
	return unit_done();
}
