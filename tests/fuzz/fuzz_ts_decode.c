/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Fuzz target: taskstats replies and exit records (ts_decode_msg) and the
 * struct taskstats bytes of any version (ts_decode_stats), both on the
 * whole input. Checks that a message decodes all or nothing, that the
 * count returned is the count delivered, and that each reading claims only
 * what its version and length allow: comm NUL-terminated in its array,
 * delay-kind bits only for kinds the version has, maxima only from
 * version 15 on, and a shorter payload never claiming more or different
 * figures than a longer one.
 */
#include <config.h>

#include <string.h>

#include "fuzz.h"
#include "kernel/ts_decode.h"

#define ALL_CATS ((1u << TS_NDELAY) - 1)

/* The version that brought each delay kind (<linux/taskstats.h>). */
static const unsigned since[TS_NDELAY] = {
	[TS_DELAY_CPU] = 1, [TS_DELAY_BLKIO] = 1, [TS_DELAY_SWAPIN] = 1,
	[TS_DELAY_FREEPAGES] = 7, [TS_DELAY_THRASHING] = 9,
	[TS_DELAY_COMPACT] = 11, [TS_DELAY_WPCOPY] = 13, [TS_DELAY_IRQ] = 14,
};

static void check_reading(const struct ts_reading *r)
{
	FUZZ_CHECK(memchr(r->comm, '\0', sizeof(r->comm)) != NULL);
	FUZZ_CHECK((r->have & ~ALL_CATS) == 0);
	FUZZ_CHECK((r->have_max & ~r->have) == 0);
	for (int c = 0; c < TS_NDELAY; c++) {
		if (r->have & (1u << c)) {
			FUZZ_CHECK(r->version >= since[c]);
		} else {
			FUZZ_CHECK(r->d[c].count == 0 && r->d[c].total_ns == 0 &&
				   r->d[c].max_ns == 0);
		}
	}
	if (r->have_max)
		FUZZ_CHECK(r->version >= 15);
	if (r->have_tgid)
		FUZZ_CHECK(r->version >= 12);
	else
		FUZZ_CHECK(r->tgid == 0);
	if (!r->have_basic)
		FUZZ_CHECK(r->comm[0] == '\0' && r->pid == 0 && r->ppid == 0 &&
			   r->uid == 0 && r->gid == 0 && r->btime == 0 &&
			   r->etime_us == 0 && r->utime_us == 0 &&
			   r->stime_us == 0);
	if (r->version == 0)
		FUZZ_CHECK(r->have == 0 && !r->have_basic && !r->have_tgid);
}

/* What a prefix of a payload decodes to is a part of the whole's reading. */
static void check_prefix(const struct ts_reading *part,
			 const struct ts_reading *whole)
{
	FUZZ_CHECK(part->version == whole->version);
	FUZZ_CHECK((part->have & ~whole->have) == 0);
	FUZZ_CHECK((part->have_max & ~whole->have_max) == 0);
	FUZZ_CHECK(!part->have_basic || whole->have_basic);
	FUZZ_CHECK(!part->have_tgid || whole->have_tgid);
	for (int c = 0; c < TS_NDELAY; c++) {
		if (part->have & (1u << c))
			FUZZ_CHECK(part->d[c].count == whole->d[c].count &&
				   part->d[c].total_ns == whole->d[c].total_ns);
		if (part->have_max & (1u << c))
			FUZZ_CHECK(part->d[c].max_ns == whole->d[c].max_ns);
	}
	if (part->have_basic)
		FUZZ_CHECK(strcmp(part->comm, whole->comm) == 0 &&
			   part->pid == whole->pid &&
			   part->etime_us == whole->etime_us);
}

static void fuzz_stats(const uint8_t *data, size_t size)
{
	struct ts_reading whole, part;
	int ret;

	whole.kind = TS_KIND_TGID;
	whole.id = 4242;
	ret = ts_decode_stats(data, size, &whole);
	FUZZ_CHECK(whole.kind == TS_KIND_TGID && whole.id == 4242);
	FUZZ_CHECK(ret == (size < 2 ? -1 : 0));
	if (ret < 0)
		return;
	check_reading(&whole);

	part.kind = TS_KIND_PID;
	part.id = 7;
	FUZZ_CHECK(ts_decode_stats(data, size / 2 < 2 ? 2 : size / 2, &part) == 0);
	FUZZ_CHECK(part.kind == TS_KIND_PID && part.id == 7);
	check_reading(&part);
	check_prefix(&part, &whole);
}

struct seen {
	int n;
};

static void on_reading(const struct ts_reading *r, void *arg)
{
	struct seen *s = arg;

	FUZZ_CHECK(r->kind == TS_KIND_PID || r->kind == TS_KIND_TGID);
	check_reading(r);
	s->n++;
}

static void fuzz_msg(const uint8_t *data, size_t size)
{
	/* a message buffer is aligned like struct nlmsghdr: copy it there */
	uint8_t *msg = malloc(size ? size : 1);
	struct seen s = { 0 };
	int ret;

	if (!msg)
		abort();
	memcpy(msg, data, size);
	ret = ts_decode_msg(msg, size, on_reading, &s);
	FUZZ_CHECK(ret >= -1);
	/* all or nothing: a malformed message delivers no record */
	FUZZ_CHECK(ret == (ret < 0 ? -1 : s.n));
	if (ret < 0)
		FUZZ_CHECK(s.n == 0);
	FUZZ_CHECK(ts_decode_msg(msg, size, NULL, NULL) == ret);
	free(msg);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_msg(data, size);
	fuzz_stats(data, size);
	return 0;
}
