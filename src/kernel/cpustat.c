/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * /proc/stat: the per-CPU lines, "cpu3 user nice system idle iowait irq
 * softirq steal guest guest_nice" (guest time is inside user, and
 * guest_nice inside nice, already: they are not added again), and the
 * procs_ lines, which come last: on big machines the file is long (a
 * line per CPU), so it is read into a buffer of its size class and the
 * procs_ lines must be among the whole lines read.
 */
#include <config.h>

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/cpustat.h"
#include "kernel/kval.h"
#include "kernel/procfs.h"
#include "kernel/sysinfo.h"

#define FIELDS 10

/* One "cpuN ..." line (p at "cpu", end its end) into c. */
static bool parse_line(const char *p, const char *end, struct cpustat_cpu *c)
{
	const char *s, *e;
	uint64_t v[FIELDS] = { 0 }, n;
	int got = 0;

	p += 3;
	if (!kval_token(&p, end, &s, &e) || !kval_parse_u64(s, e, &n) ||
	    n > UINT32_MAX)
		return false;
	c->cpu = (unsigned)n;
	while (got < FIELDS && kval_token(&p, end, &s, &e)) {
		if (!kval_parse_u64(s, e, &v[got]))
			return false;
		got++;
	}
	if (got < 4)
		return false;
	c->idle = v[3] + v[4];
	c->nice = v[1];
	c->total = 0;
	for (int i = 0; i < got && i < 8; i++)
		c->total += v[i];
	return true;
}

int cpustat_parse(const char *text, struct cpustat *out)
{
	static const struct kval_key keys[] = {
		{ "procs_running", offsetof(struct cpustat, procs_running) },
		{ "procs_blocked", offsetof(struct cpustat, procs_blocked) },
	};
	const char *p = text;

	out->n = 0;
	out->procs_running = out->procs_blocked = (struct kval){ .have = false };
	kval_parse_keyed(text, ' ', NULL, keys, 2, out);
	while (p && *p) {
		const char *nl = strchr(p, '\n');
		const char *end = nl ? nl : p + strlen(p);
		struct cpustat_cpu c;

		if (end - p > 3 && memcmp(p, "cpu", 3) == 0 &&
		    p[3] >= '0' && p[3] <= '9' && parse_line(p, end, &c)) {
			if (out->n == out->cap) {
				size_t cap = out->cap ? out->cap * 2 : 16;
				struct cpustat_cpu *a = realloc(out->cpu,
								cap * sizeof(*a));
				if (!a) {
					errno = ENOMEM;
					return -1;
				}
				out->cpu = a;
				out->cap = cap;
			}
			out->cpu[out->n++] = c;
		}
		p = nl ? nl + 1 : end;
	}
	if (!out->n) {
		errno = EINVAL;
		return -1;
	}
	return 0;
}

int cpustat_read(int procfd, struct cpustat *out)
{
	/* a line per CPU of some 60 bytes: 1 MiB is 16000 CPUs */
	size_t size = 1 << 20;
	char *buf = malloc(size);
	int rc;

	if (!buf) {
		errno = ENOMEM;
		return -1;
	}
	if (procfd < 0 || procfs_read_lines(procfd, "stat", buf, size) <= 0)
		buf[0] = '\0';
	rc = cpustat_parse(buf, out);
	free(buf);
	return rc;
}

void cpustat_free(struct cpustat *s)
{
	free(s->cpu);
	memset(s, 0, sizeof(*s));
}

void cpustat_split(const struct cpustat *s, const char *list,
		   struct cpustat_split *out)
{
	memset(out, 0, sizeof(*out));
	if (!s || !s->n || !list || sysinfo_cpulist_count(list) < 0)
		return;
	out->in_idle.have = out->in_total.have = true;
	out->out_idle.have = out->out_total.have = out->out_nice.have = true;
	for (size_t i = 0; i < s->n; i++) {
		const struct cpustat_cpu *c = &s->cpu[i];
		bool in = sysinfo_cpulist_has(list, c->cpu);

		(in ? &out->in_idle : &out->out_idle)->v += c->idle;
		(in ? &out->in_total : &out->out_total)->v += c->total;
		if (!in)
			out->out_nice.v += c->nice;
	}
}
