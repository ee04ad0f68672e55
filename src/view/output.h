/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Batch writers: one sample in, text, CSV, JSON or OpenMetrics out. */
#ifndef STALLTOP_OUTPUT_H
#define STALLTOP_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

#include "model/sample.h"

enum out_format { OUT_TEXT, OUT_CSV, OUT_JSON, OUT_OPENMETRICS };

struct out_openmetrics;

struct out_opts {
	enum out_format format;
	struct out_openmetrics *om; /* OpenMetrics: the counters' state */
	bool cmdline;       /* text/CSV: show the command line, not comm */
	bool header_done;   /* CSV: the header line was written */
};

/* Write one sample; rows are written in the order given. */
void output_write(FILE *f, struct out_opts *o, const struct sample *s);

void out_text(FILE *f, const struct out_opts *o, const struct sample *s);
void out_csv(FILE *f, struct out_opts *o, const struct sample *s);
/* One sample as one line of JSON, "\n" included (record/json_read.h reads
 * it back). */
void out_json(FILE *f, const struct sample *s);

#endif
