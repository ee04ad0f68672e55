/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Escaping of process-controlled strings (comm, cmdline). A name can hold
 * terminal escape sequences, newlines and invalid UTF-8: nothing reaches a
 * terminal or a file raw.
 */
#ifndef STALLTOP_ESCAPE_H
#define STALLTOP_ESCAPE_H

#include <stddef.h>
#include <stdio.h>

/*
 * For a terminal or text output: valid printable UTF-8 is kept, control
 * bytes become \n, \t, \e or \xHH, invalid UTF-8 bytes become \xHH, and a
 * backslash becomes \\. Writes at most size-1 bytes plus a NUL, never
 * splitting a character or an escape; returns the length written.
 */
size_t escape_text(const char *in, char *out, size_t size);

/* JSON string with quotes, RFC 8259; invalid UTF-8 becomes U+FFFD. */
void escape_json(FILE *f, const char *in);

/* CSV field, RFC 4180: quoted when needed; control bytes as in escape_text. */
void escape_csv(FILE *f, const char *in);

#endif
