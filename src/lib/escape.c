/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Escaping of process-controlled strings. The input is walked one unit at
 * a time -- a valid UTF-8 character or a single invalid byte -- and every
 * unit is kept or replaced as a whole, so no character and no escape is
 * ever split. Nothing here depends on the locale.
 *
 * The text form is reversible: \\ is a backslash, \n \t \e and \xHH stand
 * for exactly those bytes.
 */
#include <config.h>

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "lib/escape.h"

/* Longest replacement of one unit: a 4-byte character as \xHH\xHH\xHH\xHH. */
#define UNIT_MAX 16

/*
 * Length (1-4) of the valid UTF-8 sequence at s and its code point, or 0
 * when s[0] does not start one: a stray continuation byte, an overlong
 * form, a surrogate, a value above U+10FFFF or a truncated sequence. s is
 * NUL-terminated; the NUL is not a continuation byte, so the lookahead
 * stops there.
 */
static int utf8_next(const unsigned char *s, uint32_t *cp)
{
	unsigned char c = s[0], lo = 0x80, hi = 0xbf;
	uint32_t v;
	int n;

	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if (c < 0xc2)
		return 0;
	if (c < 0xe0) {
		n = 2;
		v = c & 0x1f;
	} else if (c < 0xf0) {
		n = 3;
		v = c & 0x0f;
		if (c == 0xe0)
			lo = 0xa0;      /* overlong */
		else if (c == 0xed)
			hi = 0x9f;      /* surrogates */
	} else if (c < 0xf5) {
		n = 4;
		v = c & 0x07;
		if (c == 0xf0)
			lo = 0x90;      /* overlong */
		else if (c == 0xf4)
			hi = 0x8f;      /* above U+10FFFF */
	} else {
		return 0;
	}
	for (int i = 1; i < n; i++) {
		if (s[i] < lo || s[i] > hi)
			return 0;
		v = v << 6 | (s[i] & 0x3f);
		lo = 0x80;
		hi = 0xbf;
	}
	*cp = v;
	return n;
}

/*
 * Invisible characters that join, select or change their neighbours, so
 * that a terminal draws the text otherwise than the widths of its
 * characters add up to (a ZWJ sequence of emoji is one glyph; a variation
 * selector or a skin tone changes the glyph before it; two regional
 * indicators are one flag): the soft hyphen, the combining grapheme
 * joiner, the Arabic letter mark, Mongolian variation selectors, zero
 * width space, (non-)joiner and the directional marks, word joiner and
 * invisible operators, deprecated format characters, variation
 * selectors, the byte order mark, interlinear annotation, regional
 * indicators, emoji modifiers, tags.
 */
static bool text_invisible(uint32_t cp)
{
	return cp == 0xad || cp == 0x34f || cp == 0x61c ||
	       (cp >= 0x180b && cp <= 0x180f) ||
	       (cp >= 0x200b && cp <= 0x200f) ||
	       (cp >= 0x2060 && cp <= 0x206f) ||
	       (cp >= 0xfe00 && cp <= 0xfe0f) || cp == 0xfeff ||
	       (cp >= 0xfff9 && cp <= 0xfffb) ||
	       (cp >= 0x1f1e6 && cp <= 0x1f1ff) ||
	       (cp >= 0x1f3fb && cp <= 0x1f3ff) ||
	       (cp >= 0xe0000 && cp <= 0xe0fff);
}

/*
 * Characters a terminal must not get raw: C0 controls, DEL, C1 controls,
 * the line and paragraph separators, the bidirectional embedding,
 * override and isolate controls that reorder the text after them, and
 * the invisible characters above.
 */
static bool text_unsafe(uint32_t cp)
{
	return cp < 0x20 || (cp >= 0x7f && cp < 0xa0) ||
	       cp == 0x2028 || cp == 0x2029 ||
	       (cp >= 0x202a && cp <= 0x202e) ||
	       (cp >= 0x2066 && cp <= 0x2069) || text_invisible(cp);
}

static size_t hex_byte(char *out, unsigned char b)
{
	static const char hex[] = "0123456789abcdef";

	out[0] = '\\';
	out[1] = 'x';
	out[2] = hex[b >> 4];
	out[3] = hex[b & 0xf];
	return 4;
}

/*
 * The text form of the unit at s into u (at most UNIT_MAX bytes, not
 * terminated); *used gets the number of input bytes it stands for.
 */
static size_t text_unit(const unsigned char *s, char *u, size_t *used)
{
	uint32_t cp;
	int n = utf8_next(s, &cp);

	if (n == 0) {
		*used = 1;
		return hex_byte(u, s[0]);
	}
	*used = (size_t)n;
	switch (cp) {
	case '\\':
		memcpy(u, "\\\\", 2);
		return 2;
	case '\n':
		memcpy(u, "\\n", 2);
		return 2;
	case '\t':
		memcpy(u, "\\t", 2);
		return 2;
	case 0x1b:
		memcpy(u, "\\e", 2);
		return 2;
	}
	if (text_unsafe(cp)) {
		size_t k = 0;
		for (int i = 0; i < n; i++)
			k += hex_byte(u + k, s[i]);
		return k;
	}
	memcpy(u, s, (size_t)n);
	return (size_t)n;
}

size_t escape_text(const char *in, char *out, size_t size)
{
	const unsigned char *s = (const unsigned char *)in;
	size_t len = 0;

	if (size == 0)
		return 0;
	while (s && *s) {
		char u[UNIT_MAX];
		size_t used, k = text_unit(s, u, &used);

		if (k > size - 1 - len)
			break;
		memcpy(out + len, u, k);
		len += k;
		s += used;
	}
	out[len] = '\0';
	return len;
}

/* The bytes JSON carries as they are: printable ASCII but '"' and '\\'. */
#define J2(b) [b] = 1, [b + 1] = 1
#define J4(b) J2(b), J2(b + 2)
#define J8(b) J4(b), J4(b + 4)
static const unsigned char json_plain[256] = {
	J2(0x20), /* '"' */ J4(0x23), J8(0x27), J8(0x2f), J8(0x37), J8(0x3f),
	J8(0x47), J8(0x4f), J4(0x57), [0x5b] = 1, /* '\\' */
	J2(0x5d), J8(0x5f), J8(0x67), J8(0x6f), J8(0x77) /* to 0x7e */,
};
#undef J8
#undef J4
#undef J2

/* The end of the run of plain bytes at s (a NUL ends it). */
static const unsigned char *json_run(const unsigned char *s)
{
	while (json_plain[*s])
		s++;
	return s;
}

bool escape_json_plain(const char *s, size_t *len)
{
	const unsigned char *end = json_run((const unsigned char *)s);

	if (*end)
		return false;
	*len = (size_t)(end - (const unsigned char *)s);
	return true;
}

/*
 * JSON may carry most of these raw, but a JSON line often ends up on a
 * terminal (jq, less): controls, DEL, C1 and U+2028/9 go out as \uXXXX.
 * The JSON form of the unit at s into u (ESCAPE_JSON_UNIT_MAX bytes at
 * most); *used is the unit's length in s.
 */
static size_t json_unit(const unsigned char *s, char *u, size_t *used)
{
	uint32_t cp;
	int n = utf8_next(s, &cp);
	char ubuf[8];

	if (n == 0) {
		*used = 1;
		memcpy(u, "\xef\xbf\xbd", 3);     /* U+FFFD */
		return 3;
	}
	*used = (size_t)n;
	switch (cp) {
	case '"':
		memcpy(u, "\\\"", 2);
		return 2;
	case '\\':
		memcpy(u, "\\\\", 2);
		return 2;
	case '\b':
		memcpy(u, "\\b", 2);
		return 2;
	case '\f':
		memcpy(u, "\\f", 2);
		return 2;
	case '\n':
		memcpy(u, "\\n", 2);
		return 2;
	case '\r':
		memcpy(u, "\\r", 2);
		return 2;
	case '\t':
		memcpy(u, "\\t", 2);
		return 2;
	}
	if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0) ||
	    cp == 0x2028 || cp == 0x2029) {
		snprintf(ubuf, sizeof(ubuf), "\\u%04x", (unsigned)cp);
		memcpy(u, ubuf, 6);
		return 6;
	}
	memcpy(u, s, (size_t)n);
	return (size_t)n;
}

size_t escape_json_part(const char **in, char *out, size_t size)
{
	const unsigned char *s = (const unsigned char *)*in;
	size_t w = 0;

	while (*s) {
		char u[ESCAPE_JSON_UNIT_MAX];
		size_t used, n = (size_t)(json_run(s) - s);

		if (n) {
			if (n > size - w)
				n = size - w;
			memcpy(out + w, s, n);
			w += n;
			s += n;
			if (w == size)
				break;
			continue;
		}
		n = json_unit(s, u, &used);
		if (w + n > size)
			break;
		memcpy(out + w, u, n);
		w += n;
		s += used;
	}
	*in = (const char *)s;
	return w;
}

void escape_json(FILE *f, const char *in)
{
	char buf[256];

	if (!in) {
		fputs("null", f);
		return;
	}
	putc('"', f);
	while (*in)
		fwrite(buf, 1, escape_json_part(&in, buf, sizeof(buf)), f);
	putc('"', f);
}

/*
 * The field is first put in text form, which leaves no CR, LF or other
 * control byte; it is then quoted when it holds a comma or a quote or
 * starts or ends with a space. A text that a spreadsheet would take for a
 * formula (its first character one of = + - @; a tab or CR cannot start
 * it, the text form escapes them) gets a single quote in front, and is
 * quoted: the OWASP rule against CSV injection. NULL and "" give an empty
 * field.
 */
void escape_csv(FILE *f, const char *in)
{
	const unsigned char *s = (const unsigned char *)in;
	size_t len = in ? strlen(in) : 0;
	bool quote, formula;

	if (len == 0)
		return;
	formula = strchr("=+-@", in[0]) != NULL;
	quote = formula || strpbrk(in, ",\"") || in[0] == ' ' ||
		in[len - 1] == ' ';
	if (quote)
		putc('"', f);
	if (formula)
		putc('\'', f);
	while (*s) {
		char u[UNIT_MAX];
		size_t used, k = text_unit(s, u, &used);

		if (k == 1 && u[0] == '"')
			fputs("\"\"", f);
		else
			fwrite(u, 1, k, f);
		s += used;
	}
	if (quote)
		putc('"', f);
}
