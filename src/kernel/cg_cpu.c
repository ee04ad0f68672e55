/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cgroup CPU files. v2:
 *   cpu.max     "max 100000" or "20000 100000"
 *   cpu.stat    usage_usec, ..., nr_periods, nr_throttled, throttled_usec
 * v1 (the cpu controller's directory):
 *   cpu.cfs_quota_us "-1" (no quota) or microseconds; cpu.cfs_period_us
 *   cpu.stat    nr_periods, nr_throttled, throttled_time (nanoseconds)
 *   cpuacct.usage nanoseconds, where cpuacct is mounted with cpu
 * A file of the other version is simply not there: its values stay absent.
 */
#include <config.h>

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "kernel/cg_cpu.h"
#include "kernel/procfs.h"
#include "kernel/psi.h"

#define SMALL 4096

int cg_cpu_parse_max(const char *text, struct kval *quota, struct kval *period)
{
	const char *sp, *end;
	struct kval q = { 0 }, p = { 0 };

	*quota = *period = (struct kval){ 0 };
	if (!text)
		return -1;
	end = text + strlen(text);
	if (end > text && end[-1] == '\n')
		end--;
	sp = memchr(text, ' ', (size_t)(end - text));
	if (!sp)
		return -1;
	if (sp - text == 3 && memcmp(text, "max", 3) == 0)
		q.max = true;
	else if (!kval_parse_u64(text, sp, &q.v))
		return -1;
	if (!kval_parse_u64(sp + 1, end, &p.v) || p.v == 0)
		return -1;
	q.have = p.have = true;
	*quota = q;
	*period = p;
	return 0;
}

void cg_cpu_parse_stat(const char *text, int version, struct cg_cpu *out)
{
	static const struct kval_key v2[] = {
		{ "usage_usec", offsetof(struct cg_cpu, usage_us) },
		{ "nr_periods", offsetof(struct cg_cpu, nr_periods) },
		{ "nr_throttled", offsetof(struct cg_cpu, nr_throttled) },
		{ "throttled_usec", offsetof(struct cg_cpu, throttled_us) },
	};
	static const struct kval_key v1[] = {
		{ "nr_periods", offsetof(struct cg_cpu, nr_periods) },
		{ "nr_throttled", offsetof(struct cg_cpu, nr_throttled) },
		{ "throttled_time", offsetof(struct cg_cpu, throttled_us) },
	};

	if (version == 2) {
		kval_parse_keyed(text, ' ', NULL, v2, sizeof(v2) / sizeof(v2[0]),
				 out);
		return;
	}
	kval_parse_keyed(text, ' ', NULL, v1, sizeof(v1) / sizeof(v1[0]), out);
	out->throttled_us.v /= 1000; /* v1 counts nanoseconds */
}

void cg_cpu_read_v2(int dirfd, struct cg_cpu *out)
{
	char buf[SMALL];

	memset(out, 0, sizeof(*out));
	if (dirfd < 0)
		return;
	if (procfs_read_lines(dirfd, "cpu.max", buf, sizeof(buf)) > 0 &&
	    cg_cpu_parse_max(buf, &out->quota_us, &out->period_us) == 0)
		out->version = 2;
	if (procfs_read_lines(dirfd, "cpu.stat", buf, sizeof(buf)) > 0) {
		cg_cpu_parse_stat(buf, 2, out);
		out->version = 2;
	}
	if (psi_read_file(dirfd, "cpu.pressure", out->pressure))
		out->version = 2;
}

/* cfs_quota_us: "-1" is no quota; 0 or garbage is absent. */
static struct kval parse_v1_quota(const char *text)
{
	struct kval k = { 0 };

	if (strcmp(text, "-1\n") == 0 || strcmp(text, "-1") == 0) {
		k.have = k.max = true;
		return k;
	}
	k = kval_parse_number(text);
	if (k.have && k.v == 0)
		k = (struct kval){ 0 };
	return k;
}

void cg_cpu_read_v1(int dirfd, struct cg_cpu *out)
{
	char buf[SMALL];
	struct kval k;

	memset(out, 0, sizeof(*out));
	if (dirfd < 0)
		return;
	if (procfs_read_lines(dirfd, "cpu.cfs_quota_us", buf, sizeof(buf)) > 0) {
		out->quota_us = parse_v1_quota(buf);
		out->version = 1;
	}
	if (procfs_read_lines(dirfd, "cpu.cfs_period_us", buf, sizeof(buf)) > 0) {
		k = kval_parse_number(buf);
		if (k.have && k.v > 0)
			out->period_us = k;
		out->version = 1;
	}
	if (procfs_read_lines(dirfd, "cpu.stat", buf, sizeof(buf)) > 0) {
		cg_cpu_parse_stat(buf, 1, out);
		out->version = 1;
	}
	cg_cpu_read_cpuacct(dirfd, out);
	if (psi_read_file(dirfd, "cpu.pressure", out->pressure))
		out->version = 1;
}

void cg_cpu_read_cpuacct(int dirfd, struct cg_cpu *out)
{
	char buf[SMALL];

	if (dirfd >= 0 &&
	    procfs_read_lines(dirfd, "cpuacct.usage", buf, sizeof(buf)) > 0) {
		out->usage_us = kval_parse_number(buf);
		out->usage_us.v /= 1000;
	}
}
