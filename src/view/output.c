/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Batch output: picks the writer for the format and flushes after every
 * sample so a pipe (jq, a logger) sees each refresh as it happens.
 */
#include <config.h>

#include <stdbool.h>
#include <stdio.h>

#include "view/out_openmetrics.h"
#include "view/output.h"

void output_write(FILE *f, struct out_opts *o, const struct sample *s)
{
	switch (o->format) {
	case OUT_TEXT:
		out_text(f, o, s);
		break;
	case OUT_CSV:
		out_csv(f, o, s);
		break;
	case OUT_JSON:
		out_json(f, s);
		break;
	case OUT_OPENMETRICS:
		out_openmetrics_add(o->om, s);
		out_openmetrics_write(f, o->om, OUT_OPENMETRICS_OM);
		break;
	}
	fflush(f);
}
