/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The help screen's text, built from the key table and the column and
 * category tables, so it lists every bound key and every column.
 */
#ifndef STALLTOP_HELP_H
#define STALLTOP_HELP_H

#include <stdbool.h>
#include <stddef.h>

struct help_text {
	char **lines;
	bool *title;     /* the line is a heading */
	size_t n;
};

/* Build the text (translated). Returns 0, or -1 when out of memory. */
int help_build(struct help_text *h, const char *config_file_path);
void help_free(struct help_text *h);

#endif
