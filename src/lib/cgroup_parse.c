/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The lines of /proc/PID/cgroup, parsed (cgroup_parse.h). */
#include <config.h>

#include <stdbool.h>
#include <string.h>

#include "lib/cgroup_parse.h"

/*
 * Lines are "ID:CONTROLLERS:PATH"; v2 is "0::PATH". The kernel appends
 * " (deleted)" for a removed cgroup (a zombie's): kept, so such a path
 * matches no live cgroup.
 */
int cgroup_parse_proc_cgroup(const char *text, char *path, size_t size)
{
	while (text && *text) {
		const char *nl = strchr(text, '\n');
		const char *end = nl ? nl : text + strlen(text);
		size_t n = (size_t)(end - text);

		if (n > 3 && memcmp(text, "0::", 3) == 0 && text[3] == '/') {
			if (n - 3 >= size)
				return -1;
			memcpy(path, text + 3, n - 3);
			path[n - 3] = '\0';
			return 0;
		}
		text = nl ? nl + 1 : end;
	}
	return -1;
}

bool cgroup_parse_in_list(const char *s, size_t n, const char *word)
{
	size_t wl = strlen(word);
	const char *end = s + n;

	while (s < end) {
		const char *c = memchr(s, ',', (size_t)(end - s));
		const char *e = c ? c : end;

		if ((size_t)(e - s) == wl && memcmp(s, word, wl) == 0)
			return true;
		s = c ? c + 1 : end;
	}
	return false;
}

int cgroup_parse_proc_cgroup_v1(const char *text, const char *controller,
				char *path, size_t size)
{
	while (text && *text && controller && *controller) {
		const char *nl = strchr(text, '\n');
		const char *end = nl ? nl : text + strlen(text);
		const char *c1 = memchr(text, ':', (size_t)(end - text));
		const char *c2 = c1 ? memchr(c1 + 1, ':', (size_t)(end - c1 - 1))
				    : NULL;

		if (c2 && c2 > c1 + 1 && c2[1] == '/' &&
		    cgroup_parse_in_list(c1 + 1, (size_t)(c2 - c1 - 1),
					 controller)) {
			size_t n = (size_t)(end - c2 - 1);

			if (n >= size)
				return -1;
			memcpy(path, c2 + 1, n);
			path[n] = '\0';
			return 0;
		}
		text = nl ? nl + 1 : end;
	}
	return -1;
}
