/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cgroup IO files: lines that start with a device "MAJ:MIN" followed by
 * key=value pairs (v2) or by a value, or an operation and a value (v1).
 * A line with anything unexpected in it is skipped whole, so a device
 * has either all of its line's figures or none.
 */
#include <config.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kernel/cg_io.h"
#include "kernel/kval.h"
#include "kernel/procfs.h"
#include "kernel/psi.h"

#define IO_BUF 16384

/* "8:16" */
static bool parse_dev(const char *s, const char *e, unsigned *major,
		      unsigned *minor)
{
	const char *colon = memchr(s, ':', (size_t)(e - s));
	uint64_t a, b;

	if (!colon || !kval_parse_u64(s, colon, &a) ||
	    !kval_parse_u64(colon + 1, e, &b) || a > 0xfffff || b > 0xfffff)
		return false;
	*major = (unsigned)a;
	*minor = (unsigned)b;
	return true;
}

static struct kval *at(struct cg_io_dev *d, size_t offset)
{
	return (struct kval *)((char *)d + offset);
}

/* The device's entry, added when new; NULL when the table is full. */
static struct cg_io_dev *dev_get(struct cg_io *io, unsigned major,
				 unsigned minor)
{
	struct cg_io_dev *d;

	for (size_t i = 0; i < io->ndev; i++)
		if (io->dev[i].major == major && io->dev[i].minor == minor)
			return &io->dev[i];
	if (io->ndev == CG_IO_DEVS) {
		io->dropped++;
		return NULL;
	}
	d = &io->dev[io->ndev++];
	memset(d, 0, sizeof(*d));
	d->major = major;
	d->minor = minor;
	return d;
}

struct io_key {
	const char *name;
	size_t offset;
	bool limit;  /* "max" allowed */
};

#define NKEYS 4

/*
 * One v2 line into up to NKEYS values; unknown keys (dbytes, dios, cost
 * model keys) are skipped. False when the line is malformed.
 */
static bool parse_v2_line(const char *p, const char *end,
			  const struct io_key keys[NKEYS], unsigned *major,
			  unsigned *minor, struct kval vals[NKEYS])
{
	const char *s, *e;

	if (!kval_token(&p, end, &s, &e) || !parse_dev(s, e, major, minor))
		return false;
	memset(vals, 0, NKEYS * sizeof(vals[0]));
	while (kval_token(&p, end, &s, &e)) {
		const char *eq = memchr(s, '=', (size_t)(e - s));

		if (!eq)
			return false;
		for (int i = 0; i < NKEYS; i++) {
			size_t n = strlen(keys[i].name);
			struct kval k = { .have = true };

			if ((size_t)(eq - s) != n || memcmp(s, keys[i].name, n))
				continue;
			if (vals[i].have)
				return false;
			if (keys[i].limit && e - eq - 1 == 3 &&
			    memcmp(eq + 1, "max", 3) == 0)
				k.max = true;
			else if (!kval_parse_u64(eq + 1, e, &k.v))
				return false;
			vals[i] = k;
		}
	}
	return true;
}

static int parse_v2(const char *text, const struct io_key keys[NKEYS],
		    struct cg_io *out)
{
	int bad = 0;

	while (text && *text) {
		const char *nl = strchr(text, '\n');
		const char *end = nl ? nl : text + strlen(text);
		struct kval vals[NKEYS];
		unsigned major, minor;
		struct cg_io_dev *d;

		if (!parse_v2_line(text, end, keys, &major, &minor, vals))
			bad += end > text;
		else if ((d = dev_get(out, major, minor)) != NULL)
			for (int i = 0; i < NKEYS; i++)
				if (vals[i].have)
					*at(d, keys[i].offset) = vals[i];
		text = nl ? nl + 1 : end;
	}
	return bad;
}

int cg_io_parse_max(const char *text, struct cg_io *out)
{
	static const struct io_key keys[NKEYS] = {
		{ "rbps", offsetof(struct cg_io_dev, rbps), true },
		{ "wbps", offsetof(struct cg_io_dev, wbps), true },
		{ "riops", offsetof(struct cg_io_dev, riops), true },
		{ "wiops", offsetof(struct cg_io_dev, wiops), true },
	};

	return parse_v2(text, keys, out);
}

void cg_io_parse_stat(const char *text, struct cg_io *out)
{
	static const struct io_key keys[NKEYS] = {
		{ "rbytes", offsetof(struct cg_io_dev, rbytes), false },
		{ "wbytes", offsetof(struct cg_io_dev, wbytes), false },
		{ "rios", offsetof(struct cg_io_dev, rios), false },
		{ "wios", offsetof(struct cg_io_dev, wios), false },
	};

	(void)parse_v2(text, keys, out);
}

void cg_io_no_limit_elsewhere(struct cg_io *out)
{
	static const size_t lim[] = {
		offsetof(struct cg_io_dev, rbps), offsetof(struct cg_io_dev, wbps),
		offsetof(struct cg_io_dev, riops), offsetof(struct cg_io_dev, wiops),
	};

	for (size_t i = 0; i < out->ndev; i++)
		for (size_t j = 0; j < sizeof(lim) / sizeof(lim[0]); j++) {
			struct kval *k = at(&out->dev[i], lim[j]);

			if (!k->have)
				*k = (struct kval){ .have = true, .max = true };
		}
}

int cg_io_parse_v1_limit(const char *text, size_t offset, struct cg_io *out)
{
	int bad = 0;

	while (text && *text) {
		const char *nl = strchr(text, '\n');
		const char *end = nl ? nl : text + strlen(text);
		const char *p = text, *s, *e, *vs, *ve;
		unsigned major, minor;
		struct cg_io_dev *d;
		uint64_t v;

		if (!kval_token(&p, end, &s, &e) || !parse_dev(s, e, &major, &minor) ||
		    !kval_token(&p, end, &vs, &ve) || !kval_parse_u64(vs, ve, &v) ||
		    kval_token(&p, end, &s, &e))
			bad += end > text;
		else if ((d = dev_get(out, major, minor)) != NULL)
			*at(d, offset) = (struct kval){ .have = true, .v = v };
		text = nl ? nl + 1 : end;
	}
	return bad;
}

void cg_io_parse_v1_service(const char *text, size_t read_off,
			    size_t write_off, struct cg_io *out)
{
	while (text && *text) {
		const char *nl = strchr(text, '\n');
		const char *end = nl ? nl : text + strlen(text);
		const char *p = text, *s, *e, *os, *oe, *vs, *ve;
		unsigned major, minor;
		struct cg_io_dev *d;
		size_t off;
		uint64_t v;

		text = nl ? nl + 1 : end;
		if (!kval_token(&p, end, &s, &e) || !parse_dev(s, e, &major, &minor) ||
		    !kval_token(&p, end, &os, &oe) || !kval_token(&p, end, &vs, &ve) ||
		    !kval_parse_u64(vs, ve, &v) || kval_token(&p, end, &s, &e))
			continue;
		if (oe - os == 4 && memcmp(os, "Read", 4) == 0)
			off = read_off;
		else if (oe - os == 5 && memcmp(os, "Write", 5) == 0)
			off = write_off;
		else
			continue;
		d = dev_get(out, major, minor);
		if (d)
			*at(d, off) = (struct kval){ .have = true, .v = v };
	}
}

void cg_io_read_v2(int dirfd, struct cg_io *out)
{
	char buf[IO_BUF];
	bool limits = false, any = false;

	memset(out, 0, sizeof(*out));
	if (dirfd < 0)
		return;
	if (procfs_read_lines(dirfd, "io.max", buf, sizeof(buf)) >= 0) {
		/* a line we could not read may limit any device */
		limits = cg_io_parse_max(buf, out) == 0;
		any = true;
	}
	if (procfs_read_lines(dirfd, "io.stat", buf, sizeof(buf)) >= 0) {
		cg_io_parse_stat(buf, out);
		any = true;
	}
	if (limits)
		cg_io_no_limit_elsewhere(out);
	any |= psi_read_file(dirfd, "io.pressure", out->pressure);
	if (any)
		out->version = 2;
}

void cg_io_read_v1(int dirfd, struct cg_io *out)
{
	static const struct {
		const char *file;
		size_t offset;
	} lim[] = {
		{ "blkio.throttle.read_bps_device", offsetof(struct cg_io_dev, rbps) },
		{ "blkio.throttle.write_bps_device", offsetof(struct cg_io_dev, wbps) },
		{ "blkio.throttle.read_iops_device", offsetof(struct cg_io_dev, riops) },
		{ "blkio.throttle.write_iops_device", offsetof(struct cg_io_dev, wiops) },
	};
	char buf[IO_BUF];
	int limits = 0;
	bool any = false;

	memset(out, 0, sizeof(*out));
	if (dirfd < 0)
		return;
	for (size_t i = 0; i < sizeof(lim) / sizeof(lim[0]); i++) {
		if (procfs_read_lines(dirfd, lim[i].file, buf, sizeof(buf)) < 0)
			continue;
		any = true;
		if (cg_io_parse_v1_limit(buf, lim[i].offset, out) == 0)
			limits++;
	}
	if (procfs_read_lines(dirfd, "blkio.throttle.io_service_bytes", buf,
			   sizeof(buf)) >= 0) {
		cg_io_parse_v1_service(buf, offsetof(struct cg_io_dev, rbytes),
				       offsetof(struct cg_io_dev, wbytes), out);
		any = true;
	}
	if (procfs_read_lines(dirfd, "blkio.throttle.io_serviced", buf,
			   sizeof(buf)) >= 0) {
		cg_io_parse_v1_service(buf, offsetof(struct cg_io_dev, rios),
				       offsetof(struct cg_io_dev, wios), out);
		any = true;
	}
	/* all four limit files read whole: an unlisted device is unlimited */
	if (limits == 4)
		cg_io_no_limit_elsewhere(out);
	any |= psi_read_file(dirfd, "io.pressure", out->pressure);
	if (any)
		out->version = 1;
}
