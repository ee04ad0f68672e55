/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Batch writers: one sample in, text, CSV or JSON out. */
#ifndef STALLTOP_OUTPUT_H
#define STALLTOP_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

#include "model/sample.h"

enum out_format { OUT_TEXT, OUT_CSV, OUT_JSON };

struct out_opts {
	enum out_format format;
	bool cmdline;       /* text/CSV: show the command line, not comm */
	bool header_done;   /* CSV: the header line was written */
};

/* Write one sample; rows are written in the order given. */
void output_write(FILE *f, struct out_opts *o, const struct sample *s);

void out_text(FILE *f, const struct out_opts *o, const struct sample *s);
void out_csv(FILE *f, struct out_opts *o, const struct sample *s);
void out_json(FILE *f, const struct sample *s);

/*
 * For the writers: v with a fixed number of decimals (0-6) and a '.'
 * whatever LC_NUMERIC says. Returns false, leaving "", when v is not finite.
 */
bool output_fixed(char *buf, size_t size, double v, int decimals);

#endif
