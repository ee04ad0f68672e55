/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Text width and settled text (lib/textwidth.h) in C.UTF-8: widths of
 * ASCII, wide and combining characters; a combining mark kept only on a
 * character and at most four of them, everything else of width 0 or
 * unprintable escaped, so that the settled text takes exactly the cells
 * its width says; never more than the room given.
 */
#include <config.h>

#include <locale.h>
#include <string.h>

#include "lib/textwidth.h"
#include "unit.h"

static const char *settle(const char *s)
{
	static char out[256];

	textwidth_settle(s, out, sizeof(out));
	return out;
}

/* Every character of settled text has a width of 1 or 2, or is a mark. */
static void check_settled(const char *in)
{
	char out[256];
	size_t n = textwidth_settle(in, out, sizeof(out));

	CHECK(n == strlen(out));
	/* settling again changes nothing */
	CHECK_STR(settle(out), out);
}

static void test_width(void)
{
	CHECK_EQ_U(textwidth_width("abc"), 3);
	CHECK_EQ_U(textwidth_width("\xe6\x97\xa5\xe6\x9c\xac"), 4);    /* 日本 */
	CHECK_EQ_U(textwidth_width("e\xcc\x81"), 1);                   /* é */
}

static void test_settle(void)
{
	/* plain, wide, a mark on a character: as they are */
	CHECK_STR(settle("postgres"), "postgres");
	CHECK_STR(settle("\xe6\x97\xa5\xe6\x9c\xac"), "\xe6\x97\xa5\xe6\x9c\xac");
	CHECK_STR(settle("e\xcc\x81"), "e\xcc\x81");
	CHECK_STR(settle("\xe6\x97\xa5\xcc\x81"), "\xe6\x97\xa5\xcc\x81");
	/* a mark with nothing to sit on: at the start, after an escape */
	CHECK_STR(settle("\xcc\x81start"), "\\xcc\\x81start");
	CHECK_STR(settle("\xcc\x81\xcc\x81"), "\\xcc\\x81\\xcc\\x81");
	/* four marks on one character, the fifth escaped */
	CHECK_STR(settle("e\xcc\x81\xcc\x81\xcc\x81\xcc\x81\xcc\x81x"),
		  "e\xcc\x81\xcc\x81\xcc\x81\xcc\x81\\xcc\\x81x");
	CHECK_EQ_U(textwidth_width(settle("e\xcc\x81\xcc\x81\xcc\x81\xcc\x81"
					  "\xcc\x81x")), 10);
	/* a character the locale cannot print (unassigned U+0378) */
	CHECK_STR(settle("a\xcd\xb8" "b"), "a\\xcd\\xb8b");
	/* a byte that does not decode stays (escape_text escapes those) */
	CHECK_STR(settle("a\xff" "b"), "a\xff" "b");
	/* a zero width joiner: width 0, so only on a character */
	CHECK_STR(settle("\xe2\x80\x8d" "a"), "\\xe2\\x80\\x8da");
	check_settled("e\xcc\x81\xcc\x81\xcc\x81\xcc\x81\xcc\x81\xcc\x81");
	check_settled("\xcc\x81\xe6\x97\xa5\xcd\xb8");
}

/* Never more than the room, never a split character or escape. */
static void test_room(void)
{
	char out[8];

	CHECK_EQ_U(textwidth_settle("abcdefghij", out, sizeof(out)), 7);
	CHECK_STR(out, "abcdefg");
	/* "\xcc\x81" escapes to 8 bytes: it does not fit in 7 */
	CHECK_EQ_U(textwidth_settle("a\xcc\x81" "b", out, 4), 3);
	CHECK_STR(out, "a\xcc\x81");
	/* a character's escapes come whole or not at all */
	CHECK_EQ_U(textwidth_settle("\xcc\x81" "b", out, sizeof(out)), 0);
	CHECK_STR(out, "");
	CHECK_EQ_U(textwidth_settle("\xe6\x97\xa5", out, 3), 0);
	CHECK_STR(out, "");
	CHECK_EQ_U(textwidth_settle("x", out, 0), 0);
}

int main(void)
{
	if (!setlocale(LC_ALL, "C.UTF-8")) {
		unit_skip("no C.UTF-8 locale");
		return unit_done();
	}
	test_width();
	test_settle();
	test_room();
	return unit_done();
}
