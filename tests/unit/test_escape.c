/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Escaping of process-controlled strings: terminal escape sequences,
 * controls, invalid UTF-8, valid multibyte and wide characters, tiny
 * buffers, and the text form being reversible.
 */
#include <config.h>

#include <stdbool.h>
#include <stdint.h>

#include "lib/escape.h"
#include "unit.h"

static char *text(const char *in)
{
	static char buf[1024];

	escape_text(in, buf, sizeof(buf));
	return buf;
}

static char *capture(void (*fn)(FILE *, const char *), const char *in)
{
	static char out[1024];
	char *p = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&p, &n);

	if (!f)
		exit(99);
	fn(f, in);
	fclose(f);
	snprintf(out, sizeof(out), "%s", p);
	free(p);
	return out;
}

/*
 * A JSON string as a writer makes it of escape_json_part: the quotes
 * around, null for NULL, the parts written into a space of `room` bytes
 * each time.
 */
static char *json_in(const char *in, size_t room)
{
	static char out[1024];
	size_t n = 0;

	if (!in)
		return strcpy(out, "null");
	out[n++] = '"';
	while (*in) {
		const char *was = in;

		if (n + room + 2 > sizeof(out))
			exit(99);
		n += escape_json_part(&in, out + n, room);
		if (in == was)
			exit(99); /* no progress */
	}
	out[n++] = '"';
	out[n] = '\0';
	return out;
}

/*
 * escape_json's text, and the same made of parts with room for one unit
 * only and with plenty: one text.
 */
static char *json(const char *in)
{
	char *whole = capture(escape_json, in);

	if (strcmp(json_in(in, ESCAPE_JSON_UNIT_MAX), whole) != 0 ||
	    strcmp(json_in(in, 512), whole) != 0)
		return "(differs by the room given)";
	return whole;
}

/* Independent of escape.c: is s well-formed UTF-8 (RFC 3629)? */
static bool valid_utf8(const unsigned char *s, size_t n)
{
	for (size_t i = 0; i < n;) {
		unsigned char c = s[i];
		uint32_t cp;
		size_t len;

		if (c < 0x80) {
			i++;
			continue;
		} else if ((c & 0xe0) == 0xc0) {
			len = 2;
			cp = c & 0x1f;
		} else if ((c & 0xf0) == 0xe0) {
			len = 3;
			cp = c & 0x0f;
		} else if ((c & 0xf8) == 0xf0) {
			len = 4;
			cp = c & 0x07;
		} else {
			return false;
		}
		if (i + len > n)
			return false;
		for (size_t k = 1; k < len; k++) {
			if ((s[i + k] & 0xc0) != 0x80)
				return false;
			cp = cp << 6 | (s[i + k] & 0x3f);
		}
		if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) ||
		    (len == 4 && cp < 0x10000) || cp > 0x10ffff ||
		    (cp >= 0xd800 && cp <= 0xdfff))
			return false;
		i += len;
	}
	return true;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* Undo the text form; returns the length, or -1 on a malformed escape. */
static long unescape(const char *s, unsigned char *out)
{
	long n = 0;

	while (*s) {
		if (*s != '\\') {
			out[n++] = (unsigned char)*s++;
			continue;
		}
		s++;
		switch (*s) {
		case '\\': out[n++] = '\\'; s++; break;
		case 'n': out[n++] = '\n'; s++; break;
		case 't': out[n++] = '\t'; s++; break;
		case 'e': out[n++] = 0x1b; s++; break;
		case 'x':
			if (hexval(s[1]) < 0 || hexval(s[2]) < 0)
				return -1;
			out[n++] = (unsigned char)(hexval(s[1]) << 4 | hexval(s[2]));
			s += 3;
			break;
		default:
			return -1;
		}
	}
	return n;
}

static void test_text(void)
{
	CHECK_STR(text(""), "");
	CHECK_STR(text(NULL), "");
	CHECK_STR(text("postgres"), "postgres");
	/* Set the terminal title: OSC 0 ; text BEL, and the ST form. */
	CHECK_STR(text("\x1b]0;pwned\x07"), "\\e]0;pwned\\x07");
	CHECK_STR(text("\x1b]0;pwned\x1b\\"), "\\e]0;pwned\\e\\\\");
	CHECK_STR(text("x\x1b[2J\x1b[H"), "x\\e[2J\\e[H");
	CHECK_STR(text("a\nb\tc\rd"), "a\\nb\\tc\\x0dd");
	CHECK_STR(text("\x01\x1f\x7f"), "\\x01\\x1f\\x7f");
	CHECK_STR(text("back\\slash"), "back\\\\slash");
	CHECK_STR(text("\\x41"), "\\\\x41");  /* cannot fake an escape */
	/* C1 CSI as a character (U+009B) and as a raw 8-bit byte. */
	CHECK_STR(text("\xc2\x9b" "31m"), "\\xc2\\x9b31m");
	CHECK_STR(text("\x9b" "31m"), "\\x9b31m");
	/* Line separator, right-to-left override, isolate. */
	CHECK_STR(text("a\xe2\x80\xa8" "b"), "a\\xe2\\x80\\xa8b");
	CHECK_STR(text("\xe2\x80\xae" "cod"), "\\xe2\\x80\\xaecod");
	CHECK_STR(text("\xe2\x81\xa6"), "\\xe2\\x81\\xa6");

	/* Valid characters are kept: Latin, CJK (wide), emoji, the edges. */
	CHECK_STR(text("h\xc3\xa9llo"), "h\xc3\xa9llo");
	CHECK_STR(text("\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e"),
		  "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e");
	CHECK_STR(text("\xf0\x9f\x98\x80"), "\xf0\x9f\x98\x80");
	CHECK_STR(text("\xc2\xa0"), "\xc2\xa0");            /* U+00A0 */
	CHECK_STR(text("\xed\x9f\xbf"), "\xed\x9f\xbf");    /* U+D7FF */
	CHECK_STR(text("\xee\x80\x80"), "\xee\x80\x80");    /* U+E000 */
	CHECK_STR(text("\xef\xbf\xbd"), "\xef\xbf\xbd");    /* U+FFFD */
	CHECK_STR(text("\xf4\x8f\xbf\xbf"), "\xf4\x8f\xbf\xbf"); /* U+10FFFF */

	/* Invalid UTF-8: every bad byte on its own. */
	CHECK_STR(text("\xff\xfe"), "\\xff\\xfe");
	CHECK_STR(text("\x80" "a"), "\\x80a");                       /* stray */
	CHECK_STR(text("\xc0\xaf"), "\\xc0\\xaf");                   /* overlong / */
	CHECK_STR(text("\xc1\xbf"), "\\xc1\\xbf");
	CHECK_STR(text("\xe0\x80\xaf"), "\\xe0\\x80\\xaf");
	CHECK_STR(text("\xf0\x80\x80\xaf"), "\\xf0\\x80\\x80\\xaf");
	CHECK_STR(text("\xed\xa0\x80"), "\\xed\\xa0\\x80");          /* surrogate */
	CHECK_STR(text("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80"); /* > 10FFFF */
	CHECK_STR(text("\xf5\x80\x80\x80"), "\\xf5\\x80\\x80\\x80");
	CHECK_STR(text("ab\xe6\x97"), "ab\\xe6\\x97");               /* truncated */
	CHECK_STR(text("\xe6\x97" "a"), "\\xe6\\x97a");
	CHECK_STR(text("\xf0\x9f\x98"), "\\xf0\\x9f\\x98");
	/* An invalid lead does not swallow the valid character after it. */
	CHECK_STR(text("\xe6\xc3\xa9"), "\\xe6\xc3\xa9");
}

static void test_text_small(void)
{
	char buf[32];
	size_t n;

	memset(buf, '#', sizeof(buf));
	CHECK(escape_text("abc", buf, 0) == 0);
	CHECK(buf[0] == '#');
	CHECK(escape_text("abc", buf, 1) == 0);
	CHECK_STR(buf, "");
	CHECK(escape_text("abc", buf, 3) == 2);
	CHECK_STR(buf, "ab");
	CHECK(escape_text("abc", buf, 4) == 3);
	CHECK_STR(buf, "abc");
	/* An escape goes whole or not at all. */
	CHECK(escape_text("\x1b", buf, 2) == 0);
	CHECK_STR(buf, "");
	CHECK(escape_text("\x1b", buf, 3) == 2);
	CHECK_STR(buf, "\\e");
	CHECK(escape_text("a\x9b", buf, 5) == 1);
	CHECK_STR(buf, "a");
	CHECK(escape_text("a\x9b", buf, 6) == 5);
	CHECK_STR(buf, "a\\x9b");
	CHECK(escape_text("\\", buf, 2) == 0);
	/* A C1 character is one unit, escaped byte by byte. */
	CHECK(escape_text("\xc2\x9b", buf, 8) == 0);
	CHECK(escape_text("\xc2\x9b", buf, 9) == 8);
	CHECK_STR(buf, "\\xc2\\x9b");
	/* A character goes whole or not at all. */
	CHECK(escape_text("\xe6\x97\xa5", buf, 3) == 0);
	CHECK(escape_text("\xe6\x97\xa5", buf, 4) == 3);
	n = escape_text("x\xf0\x9f\x98\x80", buf, 5);
	CHECK(n == 1);
	CHECK_STR(buf, "x");

	/* Every size: a prefix of the full form, cut between units, no overrun. */
	static const char mix[] = "a\x1b]0;\xe6\x97\xa5\xff\\\n\xf0\x9f\x98\x80z";
	char full[128];
	size_t flen = escape_text(mix, full, sizeof(full));
	static const size_t cuts[] = { 0, 1, 3, 4, 5, 6, 9, 13, 15, 17, 21, 22 };

	CHECK_STR(full, "a\\e]0;\xe6\x97\xa5\\xff\\\\\\n\xf0\x9f\x98\x80z");
	CHECK(flen == strlen(full));
	for (size_t size = 1; size <= flen + 2; size++) {
		char out[64];
		size_t got, best = 0;

		memset(out, '#', sizeof(out));
		got = escape_text(mix, out, size);
		CHECK(got < size);
		CHECK(out[got] == '\0');
		CHECK(out[size] == '#');
		CHECK(strncmp(out, full, got) == 0);
		for (size_t i = 0; i < sizeof(cuts) / sizeof(cuts[0]); i++)
			if (cuts[i] < size)
				best = cuts[i];
		CHECK(got == best);
	}
}

/* Random bytes: the text form is safe, valid UTF-8 and reversible. */
static void test_text_random(void)
{
	uint32_t seed = 12345;

	for (int round = 0; round < 2000; round++) {
		unsigned char in[40], back[40];
		char out[40 * 4 + 1];
		size_t len = 1 + round % 39;
		long n;
		bool safe = true;

		for (size_t i = 0; i < len; i++) {
			seed = seed * 1103515245u + 12345u;
			in[i] = (unsigned char)(seed >> 16);
			if (in[i] == 0)
				in[i] = 0xe6;   /* a common lead byte */
		}
		in[len] = '\0';
		escape_text((char *)in, out, sizeof(out));
		for (const char *p = out; *p; p++)
			if ((unsigned char)*p < 0x20 || *p == 0x7f)
				safe = false;
		CHECK(safe);
		CHECK(valid_utf8((unsigned char *)out, strlen(out)));
		n = unescape(out, back);
		CHECK(n == (long)len && memcmp(back, in, len) == 0);
	}
}

static void test_json(void)
{
	CHECK_STR(json(NULL), "null");
	CHECK_STR(json(""), "\"\"");
	CHECK_STR(json("postgres"), "\"postgres\"");
	CHECK_STR(json("a\"b\\c/d"), "\"a\\\"b\\\\c/d\"");
	CHECK_STR(json("\x1b]0;pwned\x07"),
		  "\"\\u001b]0;pwned\\u0007\"");
	CHECK_STR(json("\b\f\n\r\t\x01\x1f"),
		  "\"\\b\\f\\n\\r\\t\\u0001\\u001f\"");
	CHECK_STR(json("\x7f\xc2\x9b\xe2\x80\xa8\xe2\x80\xa9"),
		  "\"\\u007f\\u009b\\u2028\\u2029\"");
	/* Valid characters are kept; bidi controls are data here. */
	CHECK_STR(json("h\xc3\xa9 \xe6\x97\xa5 \xf0\x9f\x98\x80 \xe2\x80\xae"),
		  "\"h\xc3\xa9 \xe6\x97\xa5 \xf0\x9f\x98\x80 \xe2\x80\xae\"");
	/* Every invalid byte becomes U+FFFD. */
	CHECK_STR(json("a\xff" "b"), "\"a\xef\xbf\xbd" "b\"");
	CHECK_STR(json("\xc0\xaf"),
		  "\"\xef\xbf\xbd\xef\xbf\xbd\"");
	CHECK_STR(json("\xed\xa0\x80"),
		  "\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\"");
	CHECK_STR(json("x\xe6\x97"),
		  "\"x\xef\xbf\xbd\xef\xbf\xbd\"");

	/* Every byte: plain exactly when printable ASCII but '"' and '\\'. */
	for (int c = 1; c < 256; c++) {
		char in[3] = { 'a', (char)c, '\0' };
		size_t n = 0;
		bool plain = c >= 0x20 && c <= 0x7e && c != '"' && c != '\\';

		bool got = escape_json_plain(in, &n);

		if (got != plain)
			fprintf(stderr, "byte 0x%02x: plain %d, expected %d\n",
				c, got, plain);
		CHECK(got == plain);
		CHECK(!plain || n == 2);
	}

	/* Random bytes: always valid UTF-8, no raw control. */
	uint32_t seed = 777;
	for (int round = 0; round < 1000; round++) {
		unsigned char in[33];
		const char *out;
		bool safe = true;

		for (size_t i = 0; i < 32; i++) {
			seed = seed * 1103515245u + 12345u;
			in[i] = (unsigned char)(seed >> 16) | 1;
		}
		in[32] = '\0';
		out = json((char *)in);
		for (const char *p = out; *p; p++)
			if ((unsigned char)*p < 0x20 || *p == 0x7f)
				safe = false;
		CHECK(safe);
		CHECK(valid_utf8((const unsigned char *)out, strlen(out)));
	}
}

static void test_csv(void)
{
	CHECK_STR(capture(escape_csv, NULL), "");
	CHECK_STR(capture(escape_csv, ""), "");
	CHECK_STR(capture(escape_csv, "plain"), "plain");
	CHECK_STR(capture(escape_csv, "a b"), "a b");
	CHECK_STR(capture(escape_csv, "a,b"), "\"a,b\"");
	CHECK_STR(capture(escape_csv, "say \"hi\""), "\"say \"\"hi\"\"\"");
	CHECK_STR(capture(escape_csv, "\""), "\"\"\"\"");
	CHECK_STR(capture(escape_csv, " lead"), "\" lead\"");
	CHECK_STR(capture(escape_csv, "trail "), "\"trail \"");
	/* Line breaks are escaped, so the record never breaks. */
	CHECK_STR(capture(escape_csv, "line\nbreak"), "line\\nbreak");
	CHECK_STR(capture(escape_csv, "\r\n"), "\\x0d\\n");
	CHECK_STR(capture(escape_csv, "x\x1b]0;pwned\x07"), "x\\e]0;pwned\\x07");
	CHECK_STR(capture(escape_csv, "\xff,\n"), "\"\\xff,\\n\"");
	CHECK_STR(capture(escape_csv, "C:\\dir"), "C:\\\\dir");
	CHECK_STR(capture(escape_csv, "\xe6\x97\xa5,\xe6\x9c\xac"),
		  "\"\xe6\x97\xa5,\xe6\x9c\xac\"");
	/*
	 * What a spreadsheet would run as a formula gets a single quote in
	 * front, quoted (OWASP); only the first character counts, and a tab
	 * or CR cannot start a field (the text form escapes them).
	 */
	CHECK_STR(capture(escape_csv, "=1+2"), "\"'=1+2\"");
	CHECK_STR(capture(escape_csv, "=HYPERLINK(\"http://x\",\"y\")"),
		  "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\"");
	CHECK_STR(capture(escape_csv, "+1"), "\"'+1\"");
	CHECK_STR(capture(escape_csv, "-bash"), "\"'-bash\"");
	CHECK_STR(capture(escape_csv, "-5"), "\"'-5\""); /* text, as a name */
	CHECK_STR(capture(escape_csv, "@SUM(A1)"), "\"'@SUM(A1)\"");
	CHECK_STR(capture(escape_csv, "a=b-c"), "a=b-c");
	CHECK_STR(capture(escape_csv, "\t=1"), "\\t=1");
	CHECK_STR(capture(escape_csv, "\r=1"), "\\x0d=1");
}

/*
 * Invisible characters that join, select or modify their neighbours: a
 * terminal draws them otherwise than their widths add up to, so they
 * are escaped; the characters around them are kept.
 */
static void test_text_invisible(void)
{
	/* man ZWJ woman ZWJ girl: the emoji stay, the joiners do not */
	CHECK_STR(text("\xf0\x9f\x91\xa8\xe2\x80\x8d\xf0\x9f\x91\xa9"),
		  "\xf0\x9f\x91\xa8\\xe2\\x80\\x8d\xf0\x9f\x91\xa9");
	CHECK_STR(text("a\xe2\x80\x8c" "b"), "a\\xe2\\x80\\x8cb");   /* ZWNJ */
	CHECK_STR(text("\xe2\x80\x8b"), "\\xe2\\x80\\x8b");          /* ZWSP */
	CHECK_STR(text("\xe2\x80\x8e"), "\\xe2\\x80\\x8e");          /* LRM */
	CHECK_STR(text("\xe2\x81\xa0"), "\\xe2\\x81\\xa0");          /* WJ */
	/* heart + VS16, thumbs up + skin tone, a flag, a tag, BOM, SHY */
	CHECK_STR(text("\xe2\x9d\xa4\xef\xb8\x8f"),
		  "\xe2\x9d\xa4\\xef\\xb8\\x8f");
	CHECK_STR(text("\xf0\x9f\x91\x8d\xf0\x9f\x8f\xbd"),
		  "\xf0\x9f\x91\x8d\\xf0\\x9f\\x8f\\xbd");
	CHECK_STR(text("\xf0\x9f\x87\xa9\xf0\x9f\x87\xaa"),
		  "\\xf0\\x9f\\x87\\xa9\\xf0\\x9f\\x87\\xaa");
	CHECK_STR(text("\xf3\xa0\x80\x81"), "\\xf3\\xa0\\x80\\x81");
	CHECK_STR(text("\xef\xbb\xbfx"), "\\xef\\xbb\\xbfx");
	CHECK_STR(text("a\xc2\xad" "b"), "a\\xc2\\xadb");
	/* ... but a combining mark on a letter is text (the screen settles) */
	CHECK_STR(text("e\xcc\x81"), "e\xcc\x81");
	/* the neighbours of the ranges are kept */
	CHECK_STR(text("\xe2\x80\x8a"), "\xe2\x80\x8a");    /* U+200A */
	CHECK_STR(text("\xef\xb8\x90"), "\xef\xb8\x90");    /* U+FE10 */
	CHECK_STR(text("\xf0\x9f\x8f\xba"), "\xf0\x9f\x8f\xba"); /* 1F3FA */
}

int main(void)
{
	test_text();
	test_text_invisible();
	test_text_small();
	test_text_random();
	test_json();
	test_csv();
	return unit_done();
}
