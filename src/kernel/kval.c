/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The values of small kernel files (cgroup interface files, /proc/PID/io,
 * meminfo): a strict parser for their numbers and "key value" lines
 * (procfs.c reads the files). Nothing here allocates.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "kernel/kval.h"

bool kval_parse_u64(const char *p, const char *end, uint64_t *out)
{
	uint64_t v = 0;

	if (!p || p >= end)
		return false;
	for (; p < end; p++) {
		unsigned d;

		if (*p < '0' || *p > '9')
			return false;
		d = (unsigned)(*p - '0');
		if (v > (UINT64_MAX - d) / 10)
			return false;
		v = v * 10 + d;
	}
	*out = v;
	return true;
}

/* The text without one trailing newline: [text, *end). */
static const char *line_end(const char *text)
{
	size_t n = strlen(text);

	if (n && text[n - 1] == '\n')
		n--;
	return text + n;
}

struct kval kval_parse_number(const char *text)
{
	struct kval k = { 0 };

	if (text && kval_parse_u64(text, line_end(text), &k.v))
		k.have = true;
	else
		k.v = 0;
	return k;
}

struct kval kval_parse_limit(const char *text)
{
	struct kval k = { 0 };
	const char *end;

	if (!text)
		return k;
	end = line_end(text);
	if (end - text == 3 && memcmp(text, "max", 3) == 0) {
		k.have = k.max = true;
		return k;
	}
	return kval_parse_number(text);
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

bool kval_token(const char **p, const char *end, const char **s,
		const char **e)
{
	const char *q = *p;

	while (q < end && is_blank(*q))
		q++;
	if (q == end)
		return false;
	*s = q;
	while (q < end && !is_blank(*q))
		q++;
	*e = q;
	*p = q;
	return true;
}

/* "value" or "value unit" in [p, end); false when it is anything else. */
static bool parse_value(const char *p, const char *end, const char *unit,
			uint64_t *out)
{
	const char *num = p;
	uint64_t v;

	while (p < end && !is_blank(*p))
		p++;
	if (!kval_parse_u64(num, p, &v))
		return false;
	while (p < end && is_blank(*p))
		p++;
	if (p < end) {
		size_t n = (size_t)(end - p);

		if (!unit || n != strlen(unit) || memcmp(p, unit, n) != 0)
			return false;
		if (v > UINT64_MAX / 1024)
			return false;
		v *= 1024; /* the only unit the kernel writes here is kB */
	}
	*out = v;
	return true;
}

int kval_parse_keyed(const char *text, char sep, const char *unit,
		     const struct kval_key *keys, size_t nkeys, void *base)
{
	uint64_t seen = 0, bad = 0; /* bit per key; at most 64 keys */
	int found = 0;

	for (size_t i = 0; i < nkeys && i < 64; i++)
		*(struct kval *)((char *)base + keys[i].offset) = (struct kval){ 0 };
	while (text && *text) {
		const char *nl = strchr(text, '\n');
		const char *end = nl ? nl : text + strlen(text);
		const char *s = memchr(text, sep, (size_t)(end - text));

		for (size_t i = 0; s && i < nkeys && i < 64; i++) {
			struct kval *k = (void *)((char *)base + keys[i].offset);
			size_t n = strlen(keys[i].name);
			const char *v = s + 1;
			uint64_t val;

			if ((size_t)(s - text) != n ||
			    memcmp(text, keys[i].name, n) != 0)
				continue;
			while (v < end && is_blank(*v))
				v++;
			if ((seen >> i) & 1 ||
			    !parse_value(v, end, unit, &val)) {
				bad |= 1ULL << i;
			} else {
				k->have = true;
				k->v = val;
			}
			seen |= 1ULL << i;
			break;
		}
		text = nl ? nl + 1 : end;
	}
	for (size_t i = 0; i < nkeys && i < 64; i++) {
		struct kval *k = (void *)((char *)base + keys[i].offset);

		if ((bad >> i) & 1)
			*k = (struct kval){ 0 };
		found += k->have;
	}
	return found;
}

int kval_open_dir(int dirfd, const char *path)
{
	return openat(dirfd, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
}
