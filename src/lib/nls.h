/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Message translation: every user-visible string goes through _(). */
#ifndef STALLTOP_NLS_H
#define STALLTOP_NLS_H

#include <libintl.h>

#define _(s) gettext(s)
#define N_(s) (s)

#endif
