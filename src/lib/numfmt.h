/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Numbers as text the same way in every locale. */
#ifndef STALLTOP_NUMFMT_H
#define STALLTOP_NUMFMT_H

#include <stdbool.h>
#include <stddef.h>

/*
 * v with a fixed number of decimals (0-6) and a '.' whatever LC_NUMERIC
 * says. Returns false, leaving "", when v is not finite.
 */
bool numfmt_fixed(char *buf, size_t size, double v, int decimals);

#endif
