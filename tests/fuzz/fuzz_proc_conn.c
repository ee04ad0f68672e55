/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Fuzz target: proc connector datagrams (proc_conn_parse), the input being what
 * one recv() returned. Checks that the count returned is the count
 * delivered, that a malformed datagram delivers nothing and tracks no
 * sequence number, that every event is one of the four kinds with a comm
 * NUL-terminated in its array (and set only for comm events), and that
 * parsing without a callback or without sequence tracking gives the same
 * count.
 */
#include <config.h>

#include <string.h>

#include "fuzz.h"
#include "kernel/proc_conn.h"

#define NR_CPUS 4

struct seen {
	int n;
};

static void on_event(const struct pc_event *ev, void *arg)
{
	struct seen *s = arg;

	FUZZ_CHECK(ev->type == PC_FORK || ev->type == PC_EXEC ||
		   ev->type == PC_COMM || ev->type == PC_EXIT);
	FUZZ_CHECK(memchr(ev->comm, '\0', sizeof(ev->comm)) != NULL);
	if (ev->type != PC_COMM)
		FUZZ_CHECK(ev->comm[0] == '\0');
	if (ev->type != PC_FORK)
		FUZZ_CHECK(ev->parent_pid == 0 && ev->parent_tgid == 0);
	if (ev->type != PC_EXIT)
		FUZZ_CHECK(ev->exit_code == 0);
	s->n++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* a receive buffer is aligned like struct nlmsghdr: copy it there */
	uint8_t *buf = malloc(size ? size : 1);
	uint32_t last_seq[NR_CPUS] = { 0 };
	uint64_t lost = 0;
	struct seen s = { 0 };
	int ret;

	if (!buf)
		abort();
	memcpy(buf, data, size);
	ret = proc_conn_parse(buf, size, on_event, &s, last_seq, NR_CPUS, &lost);
	FUZZ_CHECK(ret >= -1);
	if (ret < 0) {
		/* "a malformed datagram delivers nothing and tracks nothing" */
		FUZZ_CHECK(s.n == 0 && lost == 0);
		for (int i = 0; i < NR_CPUS; i++)
			FUZZ_CHECK(last_seq[i] == 0);
	} else {
		FUZZ_CHECK(ret == s.n);
	}
	FUZZ_CHECK(proc_conn_parse(buf, size, NULL, NULL, NULL, 0, NULL) == ret);

	/* the same datagram again: every number it holds was seen */
	lost = 0;
	memset(last_seq, 0, sizeof(last_seq));
	proc_conn_parse(buf, size, NULL, NULL, last_seq, NR_CPUS, &lost);
	free(buf);
	return 0;
}
