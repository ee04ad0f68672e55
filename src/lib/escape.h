/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Escaping of process-controlled strings (comm, cmdline). A name can hold
 * terminal escape sequences, newlines and invalid UTF-8: nothing reaches a
 * terminal or a file raw.
 */
#ifndef STALLTOP_ESCAPE_H
#define STALLTOP_ESCAPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/*
 * For a terminal or text output: valid printable UTF-8 is kept, control
 * bytes become \n, \t, \e or \xHH, invalid UTF-8 bytes become \xHH, and a
 * backslash becomes \\. Writes at most size-1 bytes plus a NUL, never
 * splitting a character or an escape; returns the length written.
 * C1 controls, U+2028/9, the bidi override/isolate controls and the
 * invisible characters that join, select or modify their neighbours (ZWJ,
 * variation selectors, emoji modifiers, regional indicators, tags ...:
 * a terminal would not draw them as wide as they count) are written as
 * the \xHH of their bytes. in == NULL writes "".
 */
size_t escape_text(const char *in, char *out, size_t size);

/*
 * Whether escape_json_part would write s unchanged between its quotes (printable
 * ASCII without '"' and '\\'), the common case a writer can copy as it is;
 * *len is then its length.
 */
bool escape_json_plain(const char *s, size_t *len);

/* The longest JSON form of one unit of input: \uXXXX. */
#define ESCAPE_JSON_UNIT_MAX 6

/*
 * The inside of a JSON string, RFC 8259, without its quotes: invalid UTF-8
 * becomes U+FFFD; controls, DEL, C1 and U+2028/9 become \uXXXX or a short
 * escape. Writes the JSON form of as many whole units of *in as fit in
 * size bytes (no NUL), moves *in past them and returns the bytes written;
 * *in at its NUL is all of it. size below ESCAPE_JSON_UNIT_MAX may write
 * nothing.
 */
size_t escape_json_part(const char **in, char *out, size_t size);

/* The JSON string of in with its quotes to f; NULL writes null. */
void escape_json(FILE *f, const char *in);

/*
 * CSV text field, RFC 4180: the text form of escape_text (so no CR/LF
 * remains), quoted when it holds a comma or quote or starts/ends with a
 * space. A text starting with = + - or @, which a spreadsheet would run
 * as a formula, is written quoted with a single quote in front ("'=x");
 * numbers are not text fields and never pass here. NULL and "" write an
 * empty field.
 */
void escape_csv(FILE *f, const char *in);

#endif
