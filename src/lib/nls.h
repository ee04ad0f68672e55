/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Message translation: every user-visible string goes through _().
 *
 * Errors, one idiom per layer:
 *  - Program code (stalltop.c, options.c, config_file.c, live/, view/)
 *    reports with <err.h>, which puts the program's name in front:
 *    err()/errx() to stop (status 2 for bad usage, 1 for a missing
 *    privilege, kernel feature or resource, as the man page's EXIT STATUS
 *    says), warn()/warnx() for what it goes on after.
 *  - Library code (kernel/, model/, record/, lib/) never prints or exits.
 *    A function fails by returning -1 or NULL with errno set; only where
 *    errno cannot say enough (a trigger spec naming the expected form, a
 *    file that is not a recording) it writes one translated line, without
 *    the program's name, into a buffer of the caller's (char *err,
 *    size_t errsize).
 */
#ifndef STALLTOP_NLS_H
#define STALLTOP_NLS_H

#include <libintl.h>

#define _(s) gettext(s)
#define N_(s) (s)

#endif
