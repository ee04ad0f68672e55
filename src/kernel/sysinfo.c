/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * /proc/meminfo ("MemAvailable:   23794920 kB"), /proc/loadavg and the
 * online CPU list.
 */
#include <config.h>

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kernel/kval.h"
#include "kernel/procfs.h"
#include "kernel/sysinfo.h"

#define NKEYS(a) (sizeof(a) / sizeof((a)[0]))

int sysinfo_parse_meminfo(const char *text, struct sysinfo_mem *out)
{
	static const struct kval_key keys[] = {
		{ "MemTotal", offsetof(struct sysinfo_mem, mem_total) },
		{ "MemFree", offsetof(struct sysinfo_mem, mem_free) },
		{ "MemAvailable", offsetof(struct sysinfo_mem, mem_available) },
		{ "SwapTotal", offsetof(struct sysinfo_mem, swap_total) },
		{ "SwapFree", offsetof(struct sysinfo_mem, swap_free) },
	};

	return kval_parse_keyed(text, ':', "kB", keys, NKEYS(keys), out);
}

/* Kernel CPU numbers are below this; a range beyond it is garbage. */
#define CPU_LIMIT (1UL << 20)

/*
 * Walk the ranges of a CPU list ("0-3,8\n"): count its CPUs and, when
 * cpu is not NULL, tell in *found whether *cpu is one of them. -1 when
 * the list is malformed.
 */
static long cpulist_walk(const char *text, const unsigned *cpu, bool *found)
{
	const char *p = text, *end;
	long count = 0;

	if (!text)
		return -1;
	end = text + strlen(text);
	while (end > text && (end[-1] == '\n' || end[-1] == ' '))
		end--;
	while (p < end) {
		const char *comma = memchr(p, ',', (size_t)(end - p));
		const char *e = comma ? comma : end;
		const char *dash = memchr(p, '-', (size_t)(e - p));
		uint64_t a, b;

		if (dash) {
			if (!kval_parse_u64(p, dash, &a) ||
			    !kval_parse_u64(dash + 1, e, &b) || b < a)
				return -1;
		} else if (!kval_parse_u64(p, e, &a)) {
			return -1;
		} else {
			b = a;
		}
		if (b >= CPU_LIMIT)
			return -1;
		count += (long)(b - a + 1);
		if (count > (long)CPU_LIMIT)
			return -1;
		if (cpu && *cpu >= a && *cpu <= b)
			*found = true;
		p = comma ? comma + 1 : end;
		if (comma && p == end)
			return -1;
	}
	return count;
}

long sysinfo_cpulist_count(const char *text)
{
	return cpulist_walk(text, NULL, NULL);
}

bool sysinfo_cpulist_has(const char *text, unsigned cpu)
{
	bool found = false;

	return cpulist_walk(text, &cpu, &found) >= 0 && found;
}

int sysinfo_parse_loadavg(const char *text, double out[3])
{
	/* "%lu.%02lu" each, whatever the locale's decimal point */
	const char *p = text;
	for (int i = 0; i < 3; i++) {
		uint64_t whole = 0, frac = 0, scale = 1;
		int digits = 0;
		while (*p >= '0' && *p <= '9' && digits < 12) {
			whole = whole * 10 + (uint64_t)(*p++ - '0');
			digits++;
		}
		if (!digits || *p++ != '.')
			return -1;
		for (digits = 0; *p >= '0' && *p <= '9' && digits < 6; digits++) {
			frac = frac * 10 + (uint64_t)(*p++ - '0');
			scale *= 10;
		}
		if (!digits || (*p != ' ' && *p != '\t'))
			return -1;
		out[i] = (double)whole + (double)frac / (double)scale;
		p++;
	}
	return 0;
}

int sysinfo_read_loadavg(int procfd, double out[3])
{
	char buf[256];
	if (procfd < 0 || procfs_read_lines(procfd, "loadavg", buf, sizeof(buf)) <= 0)
		return -1;
	return sysinfo_parse_loadavg(buf, out);
}

void sysinfo_read_mem(int procfd, struct sysinfo_mem *out)
{
	char buf[8192];

	memset(out, 0, sizeof(*out));
	if (procfd >= 0 &&
	    procfs_read_lines(procfd, "meminfo", buf, sizeof(buf)) > 0)
		sysinfo_parse_meminfo(buf, out);
}

void sysinfo_read_online(int sysfd, struct kval *out)
{
	char buf[4096];
	long n;

	*out = (struct kval){ .have = false };
	if (sysfd >= 0 &&
	    procfs_read_lines(sysfd, "online", buf, sizeof(buf)) > 0 &&
	    (n = sysinfo_cpulist_count(buf)) > 0)
		*out = (struct kval){ .have = true, .v = (uint64_t)n };
}
