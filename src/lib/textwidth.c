/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Display width of UTF-8 text in the current locale. */
#include <config.h>

#include <limits.h>
#include <string.h>
#include <wchar.h>

#include "lib/textwidth.h"

/* Decode one character: its length in bytes (>= 1) and cells (>= 0). */
static size_t one_char(const char *s, int *cells)
{
	mbstate_t st;
	wchar_t wc;
	memset(&st, 0, sizeof(st));
	size_t len = mbrtowc(&wc, s, MB_LEN_MAX, &st);
	if (len == (size_t)-1 || len == (size_t)-2 || len == 0) {
		*cells = 1;
		return 1;
	}
	int w = wcwidth(wc);
	*cells = w < 0 ? 1 : w;
	return len;
}

size_t textwidth_fit(const char *s, int cols, int *width)
{
	size_t pos = 0;
	int used = 0;
	while (s[pos]) {
		int cells;
		size_t len = one_char(s + pos, &cells);
		if (used + cells > cols)
			break;
		used += cells;
		pos += len;
	}
	if (width)
		*width = used;
	return pos;
}

int textwidth_width(const char *s)
{
	int w;
	textwidth_fit(s, INT_MAX, &w);
	return w;
}
