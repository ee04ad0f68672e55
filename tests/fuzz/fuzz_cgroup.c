/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Fuzz target: the cgroup layout and names. The input is split at its
 * first NUL into a mountinfo text and a /proc/PID/cgroup text (all of it
 * both when there is no NUL). The layout of the first (cg_layout_parse),
 * the task's path in its tree from the second, the directory of that
 * path and of the task's own cgroup in every hierarchy, and the operator
 * name (cgname_of) of the path and of the raw second text.
 *
 * Checks: a layout has a tree that is mounted, its kind agrees with the
 * mounts (v2 alone, v2 with v1 controllers, v1 alone); a task's path
 * starts with '/' and climbs nowhere ("/.."); a directory starts with its
 * hierarchy's mount point; a name is "/" or free of '/', as long as
 * cgname_of says, and cut names are terminated.
 */
#include <config.h>

#include <stdbool.h>
#include <string.h>

#include "fuzz.h"
#include "kernel/cg_layout.h"
#include "model/cgname.h"

static bool climbs(const char *p)
{
	for (; (p = strstr(p, "/..")); p += 3)
		if (p[3] == '\0' || p[3] == '/')
			return true;
	return false;
}

static void name(const char *path)
{
	char full[CGNAME_MAX * 4], cut[8];
	int n = cgname_of(path, full, sizeof(full));

	FUZZ_CHECK(n >= 0);
	if ((size_t)n < sizeof(full)) {
		FUZZ_CHECK(strlen(full) == (size_t)n);
		FUZZ_CHECK(!strcmp(full, "/") || !strchr(full, '/'));
	}
	FUZZ_CHECK(cgname_of(path, cut, sizeof(cut)) == n);
	FUZZ_CHECK(strlen(cut) < sizeof(cut));
}

static void dirs(const struct cg_layout *l, const char *path,
		 const char *proc_cgroup)
{
	char dir[4096];

	for (int h = 0; h < NCG_HIER; h++) {
		const char *m = l->m[h].dir;
		size_t ml = strlen(m);

		while (ml > 1 && m[ml - 1] == '/')
			ml--;
		if (path && cg_layout_dir(l, (enum cg_hier)h, path, dir,
					  sizeof(dir)) == 0) {
			FUZZ_CHECK(*m);
			FUZZ_CHECK(!strncmp(dir, m, ml > 1 ? ml : 0));
		}
		int at_root = -1;
		if (cg_layout_task_dir(l, (enum cg_hier)h, proc_cgroup, dir,
				       sizeof(dir), &at_root) == 0) {
			FUZZ_CHECK(*m && (at_root == 0 || at_root == 1));
			FUZZ_CHECK(!strncmp(dir, m, ml > 1 ? ml : 0));
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *a = fuzz_strdup(data, size);
	size_t la = strlen(a);
	const char *b = la < size ? a + la + 1 : a;
	struct cg_layout l;
	char path[4096];

	if (cg_layout_parse(a, &l) == 0) {
		bool v1 = false;

		FUZZ_CHECK(l.tree < NCG_HIER && l.m[l.tree].dir[0]);
		for (int h = CG_HIER_CPU; h < NCG_HIER; h++)
			v1 |= l.m[h].dir[0] != '\0';
		if (l.m[CG_HIER_V2].dir[0])
			FUZZ_CHECK(l.tree == CG_HIER_V2 &&
				   l.kind == (v1 ? CG_LAYOUT_HYBRID : CG_LAYOUT_V2));
		else
			FUZZ_CHECK(l.kind == CG_LAYOUT_V1);
		if (cg_layout_task_path(&l, b, path, sizeof(path)) == 0) {
			FUZZ_CHECK(path[0] == '/' && !climbs(path));
			name(path);
			dirs(&l, path, b);
		} else {
			dirs(&l, NULL, b);
		}
	} else {
		FUZZ_CHECK(l.kind == CG_LAYOUT_NONE);
	}
	name(b);
	free(a);
	return 0;
}
