/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Decoding of taskstats messages: saved whole netlink messages of struct
 * versions 8 to 18 (constructed by tests/fixtures/taskstats/
 * make-fixtures.py, whose values the want_*() helpers mirror) and real
 * replies captured from Linux 6.18 (version 16). Checks exact values, which
 * categories and maxima each version has, truncated payloads, and that
 * hostile messages are refused without reading out of bounds.
 */
#include <config.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <linux/netlink.h>

#include "kernel/ts_decode.h"
#include "unit.h"

#define MAX_RECORDS 4

struct got {
	int n;
	struct ts_reading r[MAX_RECORDS];
};

static void collect(const struct ts_reading *r, void *arg)
{
	struct got *g = arg;

	if (g->n < MAX_RECORDS)
		g->r[g->n] = *r;
	g->n++;
}

/* A fixture in a buffer of exactly its size, so any over-read is caught. */
static unsigned char *load(const char *name, size_t *len)
{
	char *raw = unit_fixture(name, len);
	unsigned char *exact = malloc(*len ? *len : 1);

	if (!exact)
		exit(99);
	memcpy(exact, raw, *len);
	free(raw);
	return exact;
}

static int decode(const char *name, struct got *g)
{
	size_t len;
	unsigned char *msg = load(name, &len);
	int ret;

	memset(g, 0, sizeof(*g));
	ret = ts_decode_msg(msg, len, collect, g);
	free(msg);
	return ret;
}

/* The values make-fixtures.py writes, per category c and salt. */
static uint64_t want_count(int c, unsigned salt)
{
	return 1000ull * salt + 10u * (unsigned)c + 1;
}

static uint64_t want_total(int c, unsigned salt)
{
	return ((uint64_t)salt << 32) + (uint64_t)(c + 1) * 1000003u;
}

static uint64_t want_max(int c, unsigned salt)
{
	return (uint64_t)(c + 1) * 7001u + salt;
}

/*
 * Every field r claims to have holds the value of salt; every field it
 * does not claim is zero.
 */
static void check_values(const struct ts_reading *r, unsigned salt)
{
	CHECK_EQ_U(r->exitcode, 0x2a00 + salt);
	CHECK_EQ_U(r->flag, 0x21);
	if (r->have_basic) {
		CHECK_EQ_U(r->uid, 1000 + salt);
		CHECK_EQ_U(r->gid, 2000 + salt);
		CHECK_EQ_U(r->pid, 4000 + salt);
		CHECK_EQ_U(r->ppid, 3000 + salt);
		CHECK_EQ_U(r->etime_us, 123456789000ull + salt);
		CHECK_EQ_U(r->utime_us, 7000000 + salt);
		CHECK_EQ_U(r->stime_us, 8000000 + salt);
	} else {
		CHECK_EQ_U(r->pid, 0);
		CHECK_EQ_U(r->etime_us, 0);
		CHECK_STR(r->comm, "");
	}
	if (r->have_tgid)
		CHECK_EQ_U(r->tgid, 5000 + salt);
	else
		CHECK_EQ_U(r->tgid, 0);
	for (int c = 0; c < TS_NDELAY; c++) {
		if (r->have & (1u << c)) {
			CHECK_EQ_U(r->d[c].count, want_count(c, salt));
			/* whole microseconds (TS_TIME_RES_NS) */
			CHECK_EQ_U(r->d[c].total_ns,
				   want_total(c, salt) / 1000 * 1000);
		} else {
			CHECK_EQ_U(r->d[c].count, 0);
			CHECK_EQ_U(r->d[c].total_ns, 0);
		}
		if (r->have_max & (1u << c))
			CHECK_EQ_U(r->d[c].max_ns, want_max(c, salt));
		else
			CHECK_EQ_U(r->d[c].max_ns, 0);
		/* version 17: when the longest wait ended */
		if (r->have_max_at & (1u << c))
			CHECK_NEAR(r->d[c].max_at, 1800000100.0 + c +
				   (1000.0 * salt + c) / 1e9, 1e-6);
		else
			CHECK_NEAR(r->d[c].max_at, 0, 0);
	}
}

/* A whole record of a constructed fixture. */
static void check_record(const struct ts_reading *r, enum ts_kind kind,
			 uint32_t id, unsigned version, unsigned salt,
			 uint32_t have, uint32_t have_max, const char *comm)
{
	CHECK_EQ_U(r->kind, kind);
	CHECK_EQ_U(r->id, id);
	CHECK_EQ_U(r->version, version);
	CHECK(r->have_basic);
	CHECK_STR(r->comm, comm);
	CHECK_EQ_U(r->btime, version >= 10 ? 1800000000u + salt
					   : 1700000000u + salt);
	/* the scheduler's nanoseconds, not the tick-based real total, as
	   whole microseconds (TS_TIME_RES_NS) */
	CHECK_EQ_U(r->run_ns, (6660000000ull + salt) / 1000 * 1000);
	CHECK_EQ_U(r->have_max_at, version >= 17 ? have_max : 0);
	CHECK_EQ_U(r->have_tgid, version >= 12);
	CHECK_EQ_U(r->have, have);
	CHECK_EQ_U(r->have_max, have_max);
	check_values(r, salt);
}

static void test_versions(void)
{
	struct got g;

	/* 8: cpu io swap reclaim; no thrashing, compact, wpcopy, irq, max */
	CHECK_EQ_U(decode("taskstats/v8-pid.bin", &g), 1);
	CHECK_EQ_U(g.n, 1);
	check_record(&g.r[0], TS_KIND_PID, 4008, 8, 8, 0x0f, 0, "fixture-v8");

	/* 13: wpcopy, no irq */
	CHECK_EQ_U(decode("taskstats/v13-tgid.bin", &g), 1);
	CHECK_EQ_U(g.n, 1);
	check_record(&g.r[0], TS_KIND_TGID, 5013, 13, 13, 0x7f, 0,
		     "fixture-v13");

	/* 14: irq, still no max; comm fills all 32 bytes */
	CHECK_EQ_U(decode("taskstats/v14-pid.bin", &g), 1);
	CHECK_EQ_U(g.n, 1);
	check_record(&g.r[0], TS_KIND_PID, 4014, 14, 14, 0xff, 0,
		     "abcdefghijklmnopqrstuvwxyz012345");
	CHECK_EQ_U(strlen(g.r[0].comm), 32);

	/* 15: max from right after each total */
	CHECK_EQ_U(decode("taskstats/v15-pid.bin", &g), 1);
	CHECK_EQ_U(g.n, 1);
	check_record(&g.r[0], TS_KIND_PID, 4015, 15, 15, 0xff, 0xff,
		     "fixture-v15");

	/* 16: max from the end; NULL pads and an unknown attribute skipped */
	CHECK_EQ_U(decode("taskstats/v16-pid-pad.bin", &g), 1);
	CHECK_EQ_U(g.n, 1);
	check_record(&g.r[0], TS_KIND_PID, 4016, 16, 16, 0xff, 0xff,
		     "fixture-v16");

	/* 17: an exit record with the thread and the whole process */
	CHECK_EQ_U(decode("taskstats/v17-exit.bin", &g), 2);
	CHECK_EQ_U(g.n, 2);
	check_record(&g.r[0], TS_KIND_PID, 4017, 17, 17, 0xff, 0xff,
		     "fixture-v17");
	check_record(&g.r[1], TS_KIND_TGID, 5117, 17, 117, 0xff, 0xff,
		     "fixture-v17-tgid");

	/* 18, longer than our layout: decoded as the prefix we know */
	CHECK_EQ_U(decode("taskstats/v18-future.bin", &g), 1);
	CHECK_EQ_U(g.n, 1);
	check_record(&g.r[0], TS_KIND_PID, 4018, 18, 18, 0xff, 0xff,
		     "fixture-v18");
}

static void test_short_payload(void)
{
	struct got g;
	const struct ts_reading *r = &g.r[0];

	/* version 16 claimed, 200 bytes: through virtmem, nothing after */
	CHECK_EQ_U(decode("taskstats/v16-short.bin", &g), 1);
	CHECK_EQ_U(g.n, 1);
	CHECK_EQ_U(r->id, 4116);
	CHECK_EQ_U(r->version, 16);
	CHECK(r->have_basic);
	CHECK_STR(r->comm, "fixture-short");
	CHECK_EQ_U(r->have, 0x07);
	CHECK_EQ_U(r->have_max, 0);
	CHECK(!r->have_tgid);
	CHECK_EQ_U(r->btime, 1700000016u); /* ac_btime64 is not there */
	check_values(r, 16);
}

/* The struct taskstats bytes of the first record of a fixture. */
static unsigned char *stats_of(const char *name, size_t *len)
{
	size_t msglen;
	unsigned char *msg = load(name, &msglen);
	/* nlmsghdr 16, genlmsghdr 4, nest 4, id 8, stats header 4 */
	const size_t at = 36;
	uint16_t nla_len, nla_type;
	unsigned char *out;

	memcpy(&nla_len, msg + at - 4, 2);
	memcpy(&nla_type, msg + at - 2, 2);
	CHECK_EQ_U(nla_type, TS_TYPE_STATS);
	*len = nla_len - 4u;
	CHECK(at + *len <= msglen);
	out = malloc(*len);
	if (!out)
		exit(99);
	memcpy(out, msg + at, *len);
	free(msg);
	return out;
}

/* Decode the first len bytes from an exact-size copy. */
static int decode_prefix(const unsigned char *stats, size_t len,
			 struct ts_reading *r)
{
	unsigned char *copy = malloc(len ? len : 1);
	int ret;

	if (!copy)
		exit(99);
	memcpy(copy, stats, len);
	r->kind = TS_KIND_TGID;
	r->id = 77;
	ret = ts_decode_stats(copy, len, r);
	free(copy);
	return ret;
}

/*
 * Cut a version 17 payload at every length: fields are there exactly when
 * the payload reaches their end (offsets from the kernel header, worked out
 * by hand), and never hold anything but their own value.
 */
static void test_truncation(void)
{
	static const struct {
		size_t len;
		uint32_t have, have_max;
		int basic, tgid;
		uint64_t btime;
	} cut[] = {
		{ 2, 0, 0, 0, 0, 0 },
		{ 31, 0, 0, 0, 0, 0 },
		{ 32, 0x01, 0, 0, 0, 0 },     /* cpu_delay_total ends at 32 */
		{ 48, 0x03, 0, 0, 0, 0 },
		{ 64, 0x07, 0, 0, 0, 0 },
		{ 167, 0x07, 0, 0, 0, 0 },
		{ 168, 0x07, 0, 1, 0, 1700000017 }, /* ac_stime ends at 168 */
		{ 327, 0x07, 0, 1, 0, 1700000017 },
		{ 328, 0x0f, 0, 1, 0, 1700000017 }, /* end of version 8 */
		{ 344, 0x1f, 0, 1, 0, 1700000017 },
		{ 352, 0x1f, 0, 1, 0, 1800000017 }, /* ac_btime64 */
		{ 368, 0x3f, 0, 1, 0, 1800000017 },
		{ 371, 0x3f, 0, 1, 0, 1800000017 },
		{ 372, 0x3f, 0, 1, 1, 1800000017 }, /* ac_tgid */
		{ 416, 0x7f, 0, 1, 1, 1800000017 }, /* end of version 13 */
		{ 432, 0xff, 0, 1, 1, 1800000017 }, /* end of version 14 */
		{ 440, 0xff, 0x01, 1, 1, 1800000017 },
		{ 551, 0xff, 0x7f, 1, 1, 1800000017 },
		{ 552, 0xff, 0xff, 1, 1, 1800000017 },
		{ 560, 0xff, 0xff, 1, 1, 1800000017 }, /* end of version 16 */
		{ 688, 0xff, 0xff, 1, 1, 1800000017 }, /* end of version 17 */
	};
	size_t len;
	unsigned char *stats = stats_of("taskstats/v17-exit.bin", &len);
	struct ts_reading r;
	uint32_t prev_have = 0, prev_max = 0;

	CHECK_EQ_U(len, 688);
	CHECK_EQ_U(decode_prefix(stats, 0, &r), -1);
	CHECK_EQ_U(decode_prefix(stats, 1, &r), -1);
	CHECK_EQ_U(r.kind, TS_KIND_TGID);
	CHECK_EQ_U(r.id, 77);
	for (size_t n = 2; n <= len; n++) {
		CHECK_EQ_U(decode_prefix(stats, n, &r), 0);
		CHECK_EQ_U(r.version, 17);
		CHECK_EQ_U(r.kind, TS_KIND_TGID);
		CHECK_EQ_U(r.id, 77);
		if (r.have_basic)
			CHECK_STR(r.comm, "fixture-v17");
		/* exitcode and flag sit in the first 9 bytes */
		if (n >= 9)
			check_values(&r, 17);
		CHECK((r.have & prev_have) == prev_have);
		CHECK((r.have_max & prev_max) == prev_max);
		prev_have = r.have;
		prev_max = r.have_max;
	}
	for (size_t i = 0; i < sizeof(cut) / sizeof(cut[0]); i++) {
		CHECK_EQ_U(decode_prefix(stats, cut[i].len, &r), 0);
		CHECK_EQ_U(r.have, cut[i].have);
		CHECK_EQ_U(r.have_max, cut[i].have_max);
		CHECK_EQ_U(r.have_basic, cut[i].basic);
		CHECK_EQ_U(r.have_tgid, cut[i].tgid);
		CHECK_EQ_U(r.btime, cut[i].btime);
	}
	free(stats);

	/* version 15: max right after the total */
	stats = stats_of("taskstats/v15-pid.bin", &len);
	CHECK_EQ_U(len, 560);
	CHECK_EQ_U(decode_prefix(stats, 32, &r), 0);
	CHECK_EQ_U(r.have, 0x01);
	CHECK_EQ_U(r.have_max, 0);
	CHECK_EQ_U(decode_prefix(stats, 40, &r), 0);
	CHECK_EQ_U(r.have, 0x01);
	CHECK_EQ_U(r.have_max, 0x01);
	CHECK_EQ_U(r.d[TS_DELAY_CPU].max_ns, want_max(TS_DELAY_CPU, 15));
	CHECK_EQ_U(decode_prefix(stats, 200, &r), 0);
	CHECK_EQ_U(r.have, 0x07);
	CHECK_EQ_U(r.have_max, 0x07);
	CHECK(!r.have_basic); /* ac_stime ends at 216 in version 15 */
	CHECK_EQ_U(decode_prefix(stats, 216, &r), 0);
	CHECK(r.have_basic);
	check_values(&r, 15);
	free(stats);
}

/*
 * The version alone decides too: a full-length payload that claims an
 * older version has only that version's fields.
 */
static void test_version_gating(void)
{
	static const struct {
		uint16_t version;
		uint32_t have, have_max;
		int tgid;
		uint64_t btime;
	} vers[] = {
		{ 1, 0x07, 0, 0, 1700000017 },
		{ 6, 0x07, 0, 0, 1700000017 },
		{ 7, 0x0f, 0, 0, 1700000017 },   /* reclaim */
		{ 8, 0x0f, 0, 0, 1700000017 },
		{ 9, 0x1f, 0, 0, 1700000017 },   /* thrashing */
		{ 10, 0x1f, 0, 0, 1800000017 },  /* ac_btime64 */
		{ 11, 0x3f, 0, 0, 1800000017 },  /* compact */
		{ 12, 0x3f, 0, 1, 1800000017 },  /* ac_tgid */
		{ 13, 0x7f, 0, 1, 1800000017 },  /* wpcopy */
		{ 14, 0xff, 0, 1, 1800000017 },  /* irq */
		{ 16, 0xff, 0xff, 1, 1800000017 }, /* max at the end */
		{ 17, 0xff, 0xff, 1, 1800000017 },
		{ 200, 0xff, 0xff, 1, 1800000017 },
	};
	size_t len;
	unsigned char *stats = stats_of("taskstats/v17-exit.bin", &len);
	struct ts_reading r;

	for (size_t i = 0; i < sizeof(vers) / sizeof(vers[0]); i++) {
		memcpy(stats, &vers[i].version, 2);
		CHECK_EQ_U(decode_prefix(stats, len, &r), 0);
		CHECK_EQ_U(r.version, vers[i].version);
		CHECK_EQ_U(r.have, vers[i].have);
		CHECK_EQ_U(r.have_max, vers[i].have_max);
		CHECK_EQ_U(r.have_tgid, vers[i].tgid);
		CHECK_EQ_U(r.btime, vers[i].btime);
		CHECK(r.have_basic);
		check_values(&r, 17);
	}
	/* version 0 is no version: nothing */
	memset(stats, 0, 2);
	CHECK_EQ_U(decode_prefix(stats, len, &r), 0);
	CHECK_EQ_U(r.have, 0);
	CHECK(!r.have_basic);
	free(stats);
}

static void test_hostile(void)
{
	static const char *const names[] = {
		"taskstats/hostile-attr-overrun.bin",
		"taskstats/hostile-nest-short.bin",
		"taskstats/hostile-nlmsg-len.bin",
		"taskstats/hostile-attr-tiny.bin",
		"taskstats/hostile-stats-tiny.bin",
		"taskstats/hostile-pid-short.bin",
		"taskstats/hostile-trailing.bin",
	};
	struct got g;

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		int ret = decode(names[i], &g);

		if (ret != -1)
			fprintf(stderr, "%s: not refused\n", names[i]);
		CHECK_EQ_U(ret, -1);
		CHECK_EQ_U(g.n, 0);
	}
}

/* Messages that are not records; a message cut anywhere. */
static void test_framing(void)
{
	size_t len;
	unsigned char *msg = load("taskstats/v8-pid.bin", &len);
	struct nlmsghdr nlh;
	struct got g = { 0 };

	memcpy(&nlh, msg, sizeof(nlh));
	CHECK_EQ_U(nlh.nlmsg_len, len);

	/* every cut-off prefix is refused (nlmsg_len says more) */
	for (size_t n = 0; n < len; n++) {
		unsigned char *copy = malloc(n ? n : 1);

		memcpy(copy, msg, n);
		CHECK_EQ_U(ts_decode_msg(copy, n, collect, &g), -1);
		free(copy);
	}
	CHECK_EQ_U(g.n, 0);
	CHECK_EQ_U(ts_decode_msg(NULL, 0, collect, &g), -1);

	/* an error message carries no record */
	nlh.nlmsg_type = NLMSG_ERROR;
	memcpy(msg, &nlh, sizeof(nlh));
	CHECK_EQ_U(ts_decode_msg(msg, len, collect, &g), 0);
	/* nor does another command than TASKSTATS_CMD_NEW */
	nlh.nlmsg_type = 31;
	memcpy(msg, &nlh, sizeof(nlh));
	msg[sizeof(nlh)] = TS_CMD_GET;
	CHECK_EQ_U(ts_decode_msg(msg, len, collect, &g), 0);
	CHECK_EQ_U(g.n, 0);
	/* a message too short for the genetlink header */
	nlh.nlmsg_len = sizeof(nlh) + 2;
	memcpy(msg, &nlh, sizeof(nlh));
	CHECK_EQ_U(ts_decode_msg(msg, len, collect, &g), -1);
	/* no callback: still counts */
	msg[sizeof(nlh)] = TS_CMD_NEW;
	nlh.nlmsg_len = (uint32_t)len;
	memcpy(msg, &nlh, sizeof(nlh));
	CHECK_EQ_U(ts_decode_msg(msg, len, NULL, NULL), 1);
	free(msg);
}

/* Replies and an exit record captured from Linux 6.18 (version 16). */
static void test_real(void)
{
	struct got g;
	const struct ts_reading *r = &g.r[0];
	uint64_t pid_cpu_count;

	CHECK_EQ_U(decode("taskstats/real-v16-pid.bin", &g), 1);
	CHECK_EQ_U(g.n, 1);
	CHECK_EQ_U(r->kind, TS_KIND_PID);
	CHECK_EQ_U(r->id, 1);
	CHECK_EQ_U(r->version, 16);
	CHECK_EQ_U(r->have, 0xff);
	CHECK_EQ_U(r->have_max, 0xff);
	CHECK(r->have_basic);
	CHECK(r->have_tgid);
	CHECK_EQ_U(r->pid, 1);
	CHECK_EQ_U(r->tgid, 1);
	CHECK_EQ_U(r->ppid, 0);
	CHECK_EQ_U(r->uid, 0);
	CHECK_STR(r->comm, "process_api");
	CHECK(r->btime > 1600000000u);
	CHECK(r->d[TS_DELAY_CPU].count > 0);
	CHECK(r->d[TS_DELAY_CPU].total_ns >= r->d[TS_DELAY_CPU].max_ns);
	CHECK(r->d[TS_DELAY_CPU].max_ns > 0);
	pid_cpu_count = r->d[TS_DELAY_CPU].count;

	/* a TGID reply: delays and times summed, no identity fields */
	CHECK_EQ_U(decode("taskstats/real-v16-tgid.bin", &g), 1);
	CHECK_EQ_U(g.n, 1);
	CHECK_EQ_U(r->kind, TS_KIND_TGID);
	CHECK_EQ_U(r->id, 1);
	CHECK_EQ_U(r->version, 16);
	CHECK_EQ_U(r->have, 0xff);
	CHECK_EQ_U(r->have_max, 0xff);
	CHECK_STR(r->comm, "");
	CHECK_EQ_U(r->pid, 0);
	CHECK_EQ_U(r->tgid, 0);
	CHECK_EQ_U(r->btime, 0);
	CHECK(r->d[TS_DELAY_CPU].count >= pid_cpu_count);
	CHECK(r->etime_us > 0);

	/* the last thread of a two-thread process exits */
	CHECK_EQ_U(decode("taskstats/real-v16-exit.bin", &g), 2);
	CHECK_EQ_U(g.n, 2);
	CHECK_EQ_U(g.r[0].kind, TS_KIND_PID);
	CHECK_EQ_U(g.r[1].kind, TS_KIND_TGID);
	CHECK_EQ_U(g.r[0].id, g.r[1].id);
	CHECK_EQ_U(g.r[0].pid, g.r[0].id);
	CHECK_EQ_U(g.r[0].tgid, g.r[0].id);
	CHECK_STR(g.r[0].comm, "ts_capture");
	CHECK(g.r[0].flag & 0x20); /* AGROUP: the group is gone */
	CHECK_EQ_U(g.r[1].version, 16);
	CHECK_EQ_U(g.r[1].have, 0xff);
	CHECK_STR(g.r[1].comm, "");
	CHECK(g.r[1].d[TS_DELAY_CPU].count >= g.r[0].d[TS_DELAY_CPU].count);
}

int main(void)
{
	test_versions();
	test_short_payload();
	test_truncation();
	test_version_gating();
	test_hostile();
	test_framing();
	test_real();
	return unit_done();
}
