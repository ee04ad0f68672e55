/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Display width of UTF-8 text (wcwidth), so that names with wide or
 * combining characters line up in columns.
 */
#ifndef STALLTOP_TEXTWIDTH_H
#define STALLTOP_TEXTWIDTH_H

#include <stddef.h>

/* Cells the text takes (a byte that does not decode counts as one). */
int textwidth_width(const char *s);

/*
 * The longest prefix of s that takes at most cols cells, never splitting
 * a character: returns its length in bytes and stores its width.
 */
size_t textwidth_fit(const char *s, int cols, int *width);

#endif
