/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the terminal can do, asked of its terminfo entry before curses
 * writes anything to it. (Apart from screen.c: <term.h> defines names
 * such as "lines" as macros.)
 */
#ifndef STALLTOP_TERMCHECK_H
#define STALLTOP_TERMCHECK_H

#include <stdbool.h>

/*
 * Can the terminal term (NULL: $TERM) put the cursor anywhere (cup)?
 * false for dumb and printing terminals; true when terminfo does not know
 * the terminal (newterm() then says so).
 */
bool termcheck_addressable(const char *term);

#endif
