/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The manual page lists every key the screen binds, every category and
 * every setting of the settings file: checked against the tables.
 */
#include <config.h>

#include "model/categories.h"
#include "unit.h"
#include "view/keys.h"

/* The text of one section (".SH NAME" up to the next ".SH"). */
static char *section(const char *man, const char *name)
{
	char head[64];
	snprintf(head, sizeof(head), ".SH %s\n", name);
	const char *a = strstr(man, head);
	if (!a)
		return NULL;
	a += strlen(head);
	const char *b = strstr(a, "\n.SH ");
	size_t n = b ? (size_t)(b - a) : strlen(a);
	char *s = malloc(n + 1);
	memcpy(s, a, n);
	s[n] = '\0';
	return s;
}

/* Does a .B/.BR line of text name this key as a word of its own? */
static bool names_key(const char *text, const char *key)
{
	char esc[64];
	/* roff writes '\' as '\e' and '-' as '\-' */
	size_t j = 0;
	for (const char *p = key; *p && j + 3 < sizeof(esc); p++) {
		if (*p == '\\') {
			esc[j++] = '\\';
			esc[j++] = 'e';
		} else if (*p == '-') {
			esc[j++] = '\\';
			esc[j++] = '-';
		} else {
			esc[j++] = *p;
		}
	}
	esc[j] = '\0';
	for (const char *line = text; line && *line;
	     line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		if (strncmp(line, ".B", 2) != 0)
			continue;
		const char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) : strlen(line);
		for (const char *p = line; p + strlen(esc) <= line + len; p++) {
			if (strncmp(p, esc, strlen(esc)) != 0)
				continue;
			char before = p == line ? ' ' : p[-1];
			char after = p[strlen(esc)];
			if ((before == ' ' || before == '"') &&
			    (after == ' ' || after == '"' || after == '\n' ||
			     after == '\0'))
				return true;
		}
	}
	return false;
}

int main(void)
{
	char *man = unit_fixture("../../man/stalltop.1", NULL);
	char *keys = section(man, "KEYS");
	char *cats = section(man, "CATEGORIES");
	char *settings = section(man, "SETTINGS FILE");
	CHECK(keys && cats && settings);
	if (!keys || !cats || !settings)
		return unit_done();

	size_t n;
	const struct key_binding *t = keys_table(&n);
	for (size_t i = 0; i < n; i++) {
		char name[32];
		keys_name(t[i].key, name, sizeof(name));
		if (!names_key(keys, name)) {
			fprintf(stderr, "key %s is not in the KEYS section\n", name);
			CHECK(false);
		}
	}
	for (int c = 0; c < NCAT; c++) {
		char line[64];
		snprintf(line, sizeof(line), ".B %s\n", categories[c].key);
		if (!strstr(cats, line)) {
			fprintf(stderr, "category %s is not in CATEGORIES\n",
				categories[c].key);
			CHECK(false);
		}
	}
	static const char *const keys_of_file[] = {
		"delay=", "sort=", "reverse=", "metric=", "only_stalled=",
		"cmdline=", "threads=", "accumulate=", "monochrome=",
	};
	for (size_t i = 0; i < sizeof(keys_of_file) / sizeof(*keys_of_file); i++)
		CHECK(strstr(settings, keys_of_file[i]) != NULL);
	free(keys);
	free(cats);
	free(settings);
	free(man);
	return unit_done();
}
