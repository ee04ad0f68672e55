/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The shape of a line of JSON in one pass (json_scan.h): strings are
 * skipped with their escapes, brackets counted and matched, members
 * counted by their commas. Nothing is allocated: nesting deeper than 64
 * levels is only counted, not matched (such a line is refused anyway).
 */
#include <config.h>

#include <locale.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "record/json_keys.h"
#include "record/json_scan.h"

/* Bytes json-c 0.16 takes (see json_scan.h), rounded up. */
#define COST_OBJECT 800
#define COST_ARRAY 160
#define COST_MEMBER 240

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

static bool is_control(unsigned char c)
{
	return c < 0x20 && c != '\t' && c != '\r';
}

void json_scan_line(const char *s, size_t len, struct json_scan *out)
{
	/* bit d of open_arrays: the container at depth d + 1 is an array */
	uint64_t open_arrays = 0;
	int depth = 0;
	bool started = false, closed = false, in_string = false;

	memset(out, 0, sizeof(*out));
	out->end = JSON_SCAN_WHOLE;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (in_string) {
			/* the common case: plain bytes of a string */
			size_t j = i;

			while (j < len && s[j] != '"' && s[j] != '\\' &&
			       (unsigned char)s[j] >= 0x20)
				j++;
			out->string_bytes += j - i;
			i = j;
			if (i >= len)
				break;
			c = (unsigned char)s[i];
			if (c == '"') {
				in_string = false;
			} else if (c == '\\') {
				/* the escaped byte is part of the string */
				if (i + 1 < len) {
					i++;
					out->string_bytes++;
				}
			} else {
				out->control = true;
			}
			continue;
		}
		if (is_control(c)) {
			out->control = true;
			continue;
		}
		if (is_space((char)c))
			continue;
		if (closed || (!started && c != '{')) {
			/* text after the object, or a line that is no object */
			out->end = JSON_SCAN_BAD;
			continue;
		}
		started = true;
		switch (c) {
		case '"':
			in_string = true;
			break;
		case '{':
		case '[':
			if (depth < 64) {
				if (c == '[')
					open_arrays |= UINT64_C(1) << depth;
				else
					open_arrays &= ~(UINT64_C(1) << depth);
			}
			depth++;
			if (depth > out->depth)
				out->depth = depth;
			if (c == '{')
				out->objects++;
			else
				out->arrays++;
			out->members++;
			break;
		case '}':
		case ']':
			if (depth == 0) {
				out->end = JSON_SCAN_BAD;
				break;
			}
			depth--;
			if (depth < 64 &&
			    (c == ']') != !!(open_arrays & (UINT64_C(1) << depth)))
				out->end = JSON_SCAN_BAD;
			if (depth == 0)
				closed = true;
			break;
		case ',':
			out->members++;
			break;
		default:
			break;
		}
	}
	if (out->end == JSON_SCAN_BAD)
		return;
	if (!started)
		out->end = JSON_SCAN_BAD;
	else if (in_string || depth > 0)
		out->end = JSON_SCAN_OPEN;
}

uint64_t json_scan_cost(const struct json_scan *m, size_t len)
{
	return (uint64_t)m->objects * COST_OBJECT +
	       (uint64_t)m->arrays * COST_ARRAY +
	       (uint64_t)m->members * COST_MEMBER +
	       (uint64_t)m->string_bytes + (uint64_t)len;
}

static bool has_prefix(const char *s, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);

	return len >= n && memcmp(s, prefix, n) == 0;
}

bool json_scan_time(const char *s, size_t len, double *time)
{
	static const char key[] = "{\"" JSON_KEY_TIME "\":";
	static locale_t c;
	char num[64];
	size_t i = sizeof(key) - 1, n = 0;
	char *end;

	if (!has_prefix(s, len, key))
		return false;
	if (has_prefix(s + i, len - i, "null")) {
		*time = NAN;
		i += 4;
		return i < len && (s[i] == ',' || s[i] == '}');
	}
	while (i < len && n < sizeof(num) - 1 && s[i] &&
	       strchr("+-.0123456789eE", s[i]))
		num[n++] = s[i++];
	num[n] = '\0';
	if (!c)
		c = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
	if (!n || i >= len || (s[i] != ',' && s[i] != '}') || !c)
		return false;
	*time = strtod_l(num, &end, c);
	return *end == '\0';
}
