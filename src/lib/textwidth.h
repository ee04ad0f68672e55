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

/* Combining marks kept on one character: ncursesw keeps four in a cell. */
#define TEXTWIDTH_MARKS 4

/*
 * s as a terminal draws it cell for cell, into out (at most size-1 bytes
 * and a NUL, never splitting a character or an escape): a character of
 * width 0 (a combining mark) is kept only right after a character of
 * width 1 or 2, and at most TEXTWIDTH_MARKS of them; one with nothing to
 * sit on, one too many, and a character the locale cannot print become
 * the \xHH of their bytes, as escape_text writes invisible characters.
 * So what curses draws takes exactly textwidth_width() cells. For UTF-8
 * locales; returns the length written.
 */
size_t textwidth_settle(const char *s, char *out, size_t size);

#endif
