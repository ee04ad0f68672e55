/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stkdump FILE: what a recording of store samples (record/storefile.h)
 * holds, one JSON object per line, for the tests of the recorder: per
 * session record {"session":...} with its fields; per sample its time,
 * whether threads are the rows, the taskstats version, delay
 * accounting's switch, the counts of tasks, thread tasks, cgroups and
 * evidence readings, whether disks were read, the cgroups' paths, whose
 * the evidence is, and per task its id, start, comm, state, run time and
 * delay totals; at the end
 * {"end":...} with the damage the reader skipped. Exit 0 when the file
 * read to its end, 1 on a read error (the reader's message on stderr),
 * 2 on bad usage.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "lib/escape.h"
#include "record/storefile.h"

static void text(const char *key, const char *s)
{
	printf(",\"%s\":", key);
	escape_json(stdout, s);
}

static void session(const struct storefile_session *s)
{
	printf("{\"session\":%llu", (unsigned long long)s->offset);
	text("program", s->program);
	text("hostname", s->hostname);
	text("kernel", s->kernel);
	printf(",\"hz\":%lu,\"ncpu\":%lu,\"started\":%.6f,\"threads\":%s}\n",
	       s->hz, s->ncpu, s->started, s->threads ? "true" : "false");
}

static void task(const struct store_task *t)
{
	printf("{\"id\":%d,\"tgid\":%d,\"start\":%llu", (int)t->r.id,
	       (int)t->r.tgid, (unsigned long long)t->r.start);
	text("comm", t->comm);
	printf(",\"state\":");
	if (t->have & STORE_HAVE_STATE)
		printf("\"%c\"", t->state);
	else
		printf("null");
	printf(",\"ended\":%s,\"run_ns\":%llu,\"totals\":[",
	       (t->r.flags & READING_ENDED) ? "true" : "false",
	       (unsigned long long)t->r.run_ns);
	for (int c = 0; c < READING_NCAT; c++)
		printf("%s%llu", c ? "," : "",
		       (unsigned long long)t->r.d[c].total_ns);
	printf("]}");
}

static void sample(const struct store_sample *s, uint64_t offset)
{
	printf("{\"time\":%.6f,\"offset\":%llu,\"mono\":%.6f,\"threads\":%s,"
	       "\"ts_version\":%u,\"delayacct\":%d,\"ntasks\":%zu,"
	       "\"nthread_tasks\":%zu,\"ncgroups\":%zu,\"nevidence\":%zu,"
	       "\"disks\":%s,\"nprocs\":%llu,\"cgroups\":[",
	       s->time, (unsigned long long)offset, s->mono, s->threads ? "true" : "false", s->ts_version,
	       (int)s->delayacct, s->ntasks, s->nthread_tasks, s->ncgroups,
	       s->nevidence, s->disks ? "true" : "false",
	       (unsigned long long)s->nprocs);
	for (size_t i = 0; i < s->ncgroups; i++) {
		if (i)
			putchar(',');
		escape_json(stdout, s->cgroups[i].path);
	}
	printf("],\"evidence\":[");
	for (size_t i = 0; i < s->nevidence; i++) {
		const struct store_evidence *e = &s->evidence[i];

		printf("%s{\"id\":%d", i ? "," : "", (int)e->id);
		text("cgroup", e->cgroup);
		printf("}");
	}
	printf("],\"tasks\":[");
	for (size_t i = 0; i < s->ntasks; i++) {
		if (i)
			putchar(',');
		task(&s->tasks[i]);
	}
	printf("]}\n");
}

int main(int argc, char **argv)
{
	uint64_t last = UINT64_MAX;
	struct storefile_reader *r;
	struct store_sample s;
	char err[512] = "";
	int fd, got;

	if (argc != 2) {
		fprintf(stderr, "usage: stkdump FILE\n");
		return 2;
	}
	if ((fd = open(argv[1], O_RDONLY | O_CLOEXEC)) < 0) {
		fprintf(stderr, "stkdump: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	if (!(r = storefile_reader_new(fd))) {
		fprintf(stderr, "stkdump: %s\n", strerror(errno));
		return 1;
	}
	while ((got = storefile_next(r, &s, err, sizeof(err))) == 1) {
		const struct storefile_session *ss = storefile_session(r);

		if (ss && ss->offset != last) {
			session(ss);
			last = ss->offset;
		}
		sample(&s, storefile_offset(r));
	}
	struct storefile_damage d = storefile_damage(r);

	printf("{\"end\":%s,\"damaged_bytes\":%llu,\"damaged_parts\":%llu,"
	       "\"bad_records\":%llu,\"skipped_deltas\":%llu}\n",
	       got == 0 ? "true" : "false", (unsigned long long)d.bytes,
	       (unsigned long long)d.parts, (unsigned long long)d.records,
	       (unsigned long long)d.deltas);
	if (got < 0)
		fprintf(stderr, "stkdump: %s: %s\n", argv[1], err);
	storefile_reader_free(r);
	close(fd);
	return got < 0 ? 1 : 0;
}
