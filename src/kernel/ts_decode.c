/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Decoding of taskstats messages: struct taskstats bytes of any version
 * into a struct ts_reading, and whole generic-netlink messages (replies and
 * exit records) into a reading per AGGR_PID / AGGR_TGID nest.
 *
 * The payload is copied into a zeroed local of our own layout, and a field
 * is used only when the reported version has it and the payload reaches
 * it. Where each delay kind's figures sit comes from the delays[] table.
 */
#include <config.h>

#include <limits.h>
#include <string.h>

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "kernel/ts_decode.h"
#include "kernel/ts_layout.h"

enum { TS_LAYOUT_MAIN, TS_LAYOUT_V15 };

/* Where the non-category fields sit in each layout. */
struct basic_offsets {
	size_t exitcode, flag, run, comm, uid, gid, pid, ppid, btime,
	       etime, utime, stime, btime64, tgid;
};

#define BASIC_OFFSETS(T) { \
	offsetof(T, ac_exitcode), offsetof(T, ac_flag), \
	offsetof(T, cpu_run_virtual_total), offsetof(T, ac_comm), \
	offsetof(T, ac_uid), offsetof(T, ac_gid), offsetof(T, ac_pid), \
	offsetof(T, ac_ppid), offsetof(T, ac_btime), offsetof(T, ac_etime), \
	offsetof(T, ac_utime), offsetof(T, ac_stime), \
	offsetof(T, ac_btime64), offsetof(T, ac_tgid) }

static const struct basic_offsets basic_at[2] = {
	[TS_LAYOUT_MAIN] = BASIC_OFFSETS(struct ts_layout),
	[TS_LAYOUT_V15] = BASIC_OFFSETS(struct ts_layout_v15),
};

#define TS(f) offsetof(struct ts_layout, f)
#define TS15(f) offsetof(struct ts_layout_v15, f)

/*
 * Where a delay kind's figures sit: at[TS_LAYOUT_MAIN] in struct ts_layout
 * (versions 1-14, 16, 17; max from 16), at[TS_LAYOUT_V15] in struct
 * ts_layout_v15; max_at (version 17) in the main layout only.
 */
struct delay_offsets {
	size_t count, total, max, max_at;
};

#define DELAY(name, v) { v, { \
	{ TS(name##_count), TS(name##_delay_total), TS(name##_delay_max), \
	  TS(name##_delay_max_ts) }, \
	{ TS15(name##_count), TS15(name##_delay_total), \
	  TS15(name##_delay_max), 0 } } }

static const struct {
	unsigned min_version;   /* the version that brought it */
	struct delay_offsets at[2];
} delays[TS_NDELAY] = {
	[TS_DELAY_CPU] = DELAY(cpu, 1),
	[TS_DELAY_BLKIO] = DELAY(blkio, 1),
	[TS_DELAY_SWAPIN] = DELAY(swapin, 1),
	[TS_DELAY_FREEPAGES] = DELAY(freepages, 7),
	[TS_DELAY_THRASHING] = DELAY(thrashing, 9),
	[TS_DELAY_COMPACT] = DELAY(compact, 11),
	[TS_DELAY_WPCOPY] = DELAY(wpcopy, 13),
	[TS_DELAY_IRQ] = DELAY(irq, 14),
};

/* Versions that introduced fields outside the delays[] table. */
enum {
	V_BTIME64 = 10,
	V_TGID = 12,
	V_MAX_INLINE = 15, /* max/min after each total (v15 layout) */
	V_MAX_END = 16,    /* max/min at the end (main layout) */
	V_MAX_AT = 17,     /* time stamps of the maxima */
};

union ts_any_layout {
	struct ts_layout main;
	struct ts_layout_v15 v15;
};

/* The bytes of one decoding: a zeroed copy and how far the payload went. */
struct ts_bytes {
	const unsigned char *p;
	size_t len;
};

static int covers(const struct ts_bytes *b, size_t off, size_t size)
{
	return off + size <= b->len;
}

static uint32_t get_u32(const struct ts_bytes *b, size_t off)
{
	uint32_t v;

	memcpy(&v, b->p + off, sizeof(v));
	return v;
}

static uint64_t get_u64(const struct ts_bytes *b, size_t off)
{
	uint64_t v;

	memcpy(&v, b->p + off, sizeof(v));
	return v;
}

static void decode_basic(const struct ts_bytes *b, const struct basic_offsets *at,
			 unsigned version, struct ts_reading *r)
{
	if (covers(b, at->exitcode, 4))
		r->exitcode = get_u32(b, at->exitcode);
	if (covers(b, at->flag, 1))
		r->flag = b->p[at->flag];
	if (covers(b, at->run, 8))
		r->run_ns = ts_time_res(get_u64(b, at->run));

	/* comm .. stime come as one block (basic accounting) */
	if (covers(b, at->stime, 8)) {
		const char *comm = (const char *)b->p + at->comm;
		size_t n = strnlen(comm, TS_COMM_BYTES);

		memcpy(r->comm, comm, n);
		r->comm[n] = '\0';
		r->uid = get_u32(b, at->uid);
		r->gid = get_u32(b, at->gid);
		r->pid = get_u32(b, at->pid);
		r->ppid = get_u32(b, at->ppid);
		r->btime = get_u32(b, at->btime);
		r->etime_us = get_u64(b, at->etime);
		r->utime_us = get_u64(b, at->utime);
		r->stime_us = get_u64(b, at->stime);
		r->have_basic = true;
	}
	if (version >= V_BTIME64 && covers(b, at->btime64, 8) && r->have_basic)
		r->btime = get_u64(b, at->btime64);
	if (version >= V_TGID && covers(b, at->tgid, 4)) {
		r->tgid = get_u32(b, at->tgid);
		r->have_tgid = true;
	}
}

static void decode_delays(const struct ts_bytes *b, int layout,
			  unsigned version, struct ts_reading *r)
{
	unsigned max_from = layout == TS_LAYOUT_V15 ? V_MAX_INLINE : V_MAX_END;

	for (int c = 0; c < TS_NDELAY; c++) {
		const struct delay_offsets *o = &delays[c].at[layout];

		if (version < delays[c].min_version ||
		    !covers(b, o->count, 8) || !covers(b, o->total, 8))
			continue;
		r->d[c].count = get_u64(b, o->count);
		r->d[c].total_ns = ts_time_res(get_u64(b, o->total));
		r->have |= 1u << c;
		if (version >= max_from && covers(b, o->max, 8)) {
			r->d[c].max_ns = get_u64(b, o->max);
			r->have_max |= 1u << c;
		}
		if (layout == TS_LAYOUT_MAIN && version >= V_MAX_AT &&
		    covers(b, o->max_at, 16)) {
			int64_t sec = (int64_t)get_u64(b, o->max_at);
			int64_t nsec = (int64_t)get_u64(b, o->max_at + 8);
			/* zero: no such wait yet */
			if (sec > 0 && nsec >= 0 && nsec < 1000000000) {
				r->d[c].max_at = (double)sec + (double)nsec / 1e9;
				r->have_max_at |= 1u << c;
			}
		}
	}
}

int ts_decode_stats(const void *payload, size_t len, struct ts_reading *r)
{
	union ts_any_layout copy;
	struct ts_bytes b = { (const unsigned char *)&copy, 0 };
	enum ts_kind kind = r->kind;
	uint32_t id = r->id;
	uint16_t version;
	size_t size;
	int layout;

	memset(r, 0, sizeof(*r));
	r->kind = kind;
	r->id = id;
	if (!payload || len < sizeof(version))
		return -1;

	memcpy(&version, payload, sizeof(version));
	/* newer versions than we know only append: the main layout is a prefix */
	layout = version == 15 ? TS_LAYOUT_V15 : TS_LAYOUT_MAIN;
	size = layout == TS_LAYOUT_V15 ? sizeof(copy.v15) : sizeof(copy.main);
	b.len = len < size ? len : size;
	memset(&copy, 0, sizeof(copy));
	memcpy(&copy, payload, b.len);

	r->version = version;
	if (version == 0)
		return 0;
	decode_basic(&b, &basic_at[layout], version, r);
	decode_delays(&b, layout, version, r);
	return 0;
}

/* One walk over a message: pass 1 checks everything, pass 2 delivers. */
struct walk {
	ts_reading_cb cb;
	void *arg;
	bool deliver;
};

/*
 * After a mnl_attr_for_each* loop stops at attr, the attributes were
 * well-formed only if nothing is left before end. (The last attribute's
 * alignment padding may point past end; that is fine.)
 */
static bool all_consumed(const struct nlattr *attr, const void *end)
{
	return (const char *)attr >= (const char *)end;
}

/* One AGGR_PID / AGGR_TGID nest: 1 = a record, 0 = none, -1 = malformed. */
static int walk_aggr(const struct nlattr *nest, enum ts_kind kind,
		     const struct walk *w)
{
	uint16_t id_type = kind == TS_KIND_PID ? TS_TYPE_PID : TS_TYPE_TGID;
	const struct nlattr *attr, *id = NULL, *stats = NULL;
	const char *end;

	if (mnl_attr_validate(nest, MNL_TYPE_NESTED) < 0)
		return -1;
	end = (const char *)mnl_attr_get_payload(nest) +
	      mnl_attr_get_payload_len(nest);
	mnl_attr_for_each_nested(attr, nest) {
		uint16_t type = mnl_attr_get_type(attr);

		if (type == id_type) {
			if (mnl_attr_validate(attr, MNL_TYPE_U32) < 0)
				return -1;
			id = attr;
		} else if (type == TS_TYPE_STATS) {
			if (mnl_attr_get_payload_len(attr) < sizeof(uint16_t))
				return -1;
			stats = attr;
		}
		/* TS_TYPE_NULL pads and unknown attributes: skipped */
	}
	if (!all_consumed(attr, end))
		return -1;
	if (!id || !stats)
		return 0;
	if (w->deliver) {
		struct ts_reading r;

		r.kind = kind;
		r.id = mnl_attr_get_u32(id);
		ts_decode_stats(mnl_attr_get_payload(stats),
				mnl_attr_get_payload_len(stats), &r);
		w->cb(&r, w->arg);
	}
	return 1;
}

static int walk_msg(const struct nlmsghdr *nlh, const struct walk *w)
{
	/*
	 * The attributes end where nlmsg_len says, not at the aligned tail
	 * mnl_attr_for_each() walks to: with an unaligned nlmsg_len that
	 * would let the last attribute reach up to 3 bytes past the buffer.
	 */
	const char *end = (const char *)nlh + nlh->nlmsg_len;
	const struct nlattr *attr;
	int records = 0;

	for (attr = mnl_nlmsg_get_payload_offset(nlh, sizeof(struct genlmsghdr));
	     mnl_attr_ok(attr, end - (const char *)attr);
	     attr = mnl_attr_next(attr)) {
		uint16_t type = mnl_attr_get_type(attr);
		int ret;

		if (type == TS_TYPE_AGGR_PID)
			ret = walk_aggr(attr, TS_KIND_PID, w);
		else if (type == TS_TYPE_AGGR_TGID)
			ret = walk_aggr(attr, TS_KIND_TGID, w);
		else
			continue;
		if (ret < 0)
			return -1;
		records += ret;
	}
	if (!all_consumed(attr, end))
		return -1;
	return records;
}

int ts_decode_msg(const void *nlmsg, size_t len, ts_reading_cb cb, void *arg)
{
	const struct nlmsghdr *nlh = nlmsg;
	const struct genlmsghdr *genl;
	struct walk w = { cb, arg, false };

	/*
	 * mnl_nlmsg_ok() compares nlmsg_len as an int: a length of 2^31 or
	 * more passes it. Check it against len ourselves.
	 */
	if (!nlmsg || len > INT_MAX || !mnl_nlmsg_ok(nlh, (int)len) ||
	    nlh->nlmsg_len > len)
		return -1;
	if (nlh->nlmsg_type < NLMSG_MIN_TYPE)
		return 0; /* error, done, noop: no records */
	if (nlh->nlmsg_len < MNL_NLMSG_HDRLEN + MNL_ALIGN(sizeof(*genl)))
		return -1;
	genl = mnl_nlmsg_get_payload(nlh);
	if (genl->cmd != TS_CMD_NEW)
		return 0;

	/* deliver nothing from a message that is malformed anywhere */
	if (walk_msg(nlh, &w) < 0)
		return -1;
	w.deliver = cb != NULL;
	return walk_msg(nlh, &w);
}
