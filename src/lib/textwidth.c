/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Display width of UTF-8 text in the current locale, and text settled so
 * that a terminal draws it in exactly that width.
 */
#include <config.h>

#include <limits.h>
#include <stdbool.h>
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

/* Bytes [s, s+len) as \xHH each into out at *pos (room checked). */
static bool hex_bytes(const char *s, size_t len, char *out, size_t size,
		      size_t *pos)
{
	static const char hex[] = "0123456789abcdef";

	if (len * 4 > size - 1 - *pos)
		return false;
	for (size_t i = 0; i < len; i++) {
		unsigned char b = (unsigned char)s[i];

		out[(*pos)++] = '\\';
		out[(*pos)++] = 'x';
		out[(*pos)++] = hex[b >> 4];
		out[(*pos)++] = hex[b & 0xf];
	}
	return true;
}

size_t textwidth_settle(const char *s, char *out, size_t size)
{
	size_t pos = 0, in = 0;
	int marks = -1; /* marks on the last character; -1: none to sit on */

	if (size == 0)
		return 0;
	while (s[in]) {
		mbstate_t st;
		wchar_t wc;
		size_t len;
		int w;

		memset(&st, 0, sizeof(st));
		len = mbrtowc(&wc, s + in, MB_LEN_MAX, &st);
		if (len == (size_t)-1 || len == (size_t)-2 || len == 0) {
			/* not a character here: one cell, as it stands */
			len = 1;
			w = 1;
		} else {
			w = wcwidth(wc);
		}
		if (w < 0 || (w == 0 && (marks < 0 || marks >= TEXTWIDTH_MARKS))) {
			if (!hex_bytes(s + in, len, out, size, &pos))
				break;
			marks = -1; /* an escape is no base */
		} else {
			if (len > size - 1 - pos)
				break;
			memcpy(out + pos, s + in, len);
			pos += len;
			marks = w == 0 ? marks + 1 : 0;
		}
		in += len;
	}
	out[pos] = '\0';
	return pos;
}
