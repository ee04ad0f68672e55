/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reading the JSON sample format back: the recording's lines and
 * `stalltop -b --json` output (view/out_json.c writes them).
 */
#ifndef STALLTOP_JSON_READ_H
#define STALLTOP_JSON_READ_H

#include <stdbool.h>
#include <stddef.h>

#include <json.h>

#include "model/cgname.h"
#include "model/sample.h"

/* The memory a decoded sample's rows live in, reused from one to the next. */
struct json_read {
	struct row *rows, *exited, *trows, *texited;
	size_t caprows, capexited, captrows, captexited;
	struct cgroup_row *cgroups;
	size_t capcg;
	char (*cgnames)[CGNAME_MAX]; /* names made from the paths of a
					recording without them */
	size_t capcgnames;
	struct row_why *whys;       /* the rows' "why" objects */
	size_t capwhys, nwhys;
	/* of the last sample read */
	size_t rows_skipped;        /* rows that are not tasks (rec_check.h) */
	size_t values_dropped;      /* impossible evidence values */
};

/* A tokener for json_read_line() (strict, UTF-8 checked); NULL: no memory. */
json_tokener *json_read_tokener(void);

/* One line (without "\n") as a JSON object and nothing after it, or NULL. */
json_object *json_read_line(json_tokener *tok, const char *s, size_t len);

/* The recording format version of a header object, 0 when it is not one. */
int json_read_header_version(json_object *o);

/* Whether o has the shape of a sample ("time" and a "tasks" array). */
bool json_read_is_sample(json_object *o);

/*
 * Fill s from the sample object o. Rows and strings point into o and
 * into rp's memory: valid until o is put or rp is used again. Elements
 * of the row arrays that are not objects, or lack a pid and thread group
 * id a kernel can give (1 to REC_CHECK_PID_MAX), are left out and counted
 * (rp->rows_skipped); impossible evidence values are dropped and counted
 * in s->dropped and rp->values_dropped. Returns 0, or -1 when memory ran
 * out.
 */
int json_read_sample(struct json_read *rp, json_object *o, struct sample *s);

/* The bytes json_read_sample() will allocate for o (its rows, at most). */
size_t json_read_room(json_object *o);

void json_read_free(struct json_read *rp);

/* Values of an object: NULL, NAN or dflt when absent or of another type. */
json_object *json_read_get(json_object *o, const char *key);
double json_read_num(json_object *v);
long long json_read_int_or(json_object *v, long long dflt);
const char *json_read_str(json_object *v);

#endif
