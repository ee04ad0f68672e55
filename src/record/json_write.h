/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Writing the JSON sample format: `stalltop -b --json` and every sample
 * line of a recording (json_read.h reads it back).
 */
#ifndef STALLTOP_JSON_WRITE_H
#define STALLTOP_JSON_WRITE_H

#include <stdio.h>

#include "model/sample.h"

/* One sample as one line of JSON, "\n" included. */
void json_write_sample(FILE *f, const struct sample *s);

#endif
