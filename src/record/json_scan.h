/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The shape of one line of a recording before json-c builds it: how deep
 * it nests, whether it ends where its object ends (or was cut short), and
 * how much memory parsing and decoding it would take at most. One pass,
 * no allocation, so that a line of any size and content can be judged
 * (and refused) before it costs anything.
 *
 * This is not a validator: a line it calls whole may still not be JSON
 * (json-c decides that); but a line it calls open, bad or too deep is not
 * a sample.
 */
#ifndef STALLTOP_JSON_SCAN_H
#define STALLTOP_JSON_SCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Nesting json-c is allowed (a sample nests 6 levels: cgroups[].why.disks[]) */
#define JSON_SCAN_DEPTH 16

enum json_scan_end {
	JSON_SCAN_WHOLE,  /* one object, its brackets and strings closed */
	JSON_SCAN_OPEN,   /* an object cut short: a string or bracket open */
	JSON_SCAN_BAD,    /* not one object: another value, a bracket that
			     closes what it did not open, text after it */
};

struct json_scan {
	enum json_scan_end end;
	int depth;            /* the deepest nesting; a flat object is 1 */
	bool control;         /* a raw control byte (JSON escapes them all) */
	size_t objects;       /* { */
	size_t arrays;        /* [ */
	size_t members;       /* members and elements, at least */
	size_t string_bytes;  /* inside quotes */
};

/* The shape of the len bytes at s (a line without its "\n"). */
void json_scan_line(const char *s, size_t len, struct json_scan *out);

/*
 * An upper bound of the bytes json-c takes to parse a line of len bytes
 * of this shape, the line itself included (json-c 0.16, measured: an
 * empty object 792, an empty array 152, a member or element with a
 * scalar value at most 230, strings their length).
 */
uint64_t json_scan_cost(const struct json_scan *m, size_t len);

/*
 * The time of a sample line as the recorder writes it, without json-c:
 * the number after {"time": at s (len bytes), when it is one (or null:
 * NAN) followed by "," or "}" (true), read in the C locale.
 */
bool json_scan_time(const char *s, size_t len, double *time);

#endif
