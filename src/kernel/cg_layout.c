/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The cgroup layout (cg_layout.h): mountinfo says where each hierarchy
 * is mounted and which part of it ("cgroup2", or "cgroup" with the
 * controller among its super options); /proc/PID/cgroup says where a
 * task is in each ("0::/a" for v2, "4:memory:/a" for v1). Paths are
 * kept relative to the mounted part, as a cgroup namespace shows them.
 */
#include <config.h>

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/cg_layout.h"
#include "kernel/cgroup.h"
#include "lib/cgroup_parse.h"

static const char *const hier_names[NCG_HIER] = {
	[CG_HIER_V2] = "",
	[CG_HIER_SYSTEMD] = "name=systemd",
	[CG_HIER_CPU] = "cpu",
	[CG_HIER_CPUACCT] = "cpuacct",
	[CG_HIER_MEMORY] = "memory",
	[CG_HIER_BLKIO] = "blkio",
	[CG_HIER_PIDS] = "pids",
};

static bool mounted(const struct cg_layout *l, enum cg_hier h)
{
	return h < NCG_HIER && l->m[h].dir[0] != '\0';
}

int cg_layout_parse(const char *mountinfo, struct cg_layout *out)
{
	bool v1 = false;

	memset(out, 0, sizeof(*out));
	if (cgroup_parse_mountinfo_v2(mountinfo, out->m[CG_HIER_V2].dir,
				      CG_LAYOUT_PATH, out->m[CG_HIER_V2].root,
				      CG_LAYOUT_PATH) < 0)
		memset(&out->m[CG_HIER_V2], 0, sizeof(out->m[0]));
	for (int h = CG_HIER_SYSTEMD; h < NCG_HIER; h++) {
		struct cg_mount *m = &out->m[h];

		if (cgroup_parse_mountinfo_v1(mountinfo, hier_names[h], m->dir,
					      sizeof(m->dir), m->root,
					      sizeof(m->root)) < 0)
			memset(m, 0, sizeof(*m));
		else if (h != CG_HIER_SYSTEMD)
			v1 = true;
	}
	/* where the service manager places tasks */
	if (mounted(out, CG_HIER_V2))
		out->tree = CG_HIER_V2;
	else if (mounted(out, CG_HIER_SYSTEMD))
		out->tree = CG_HIER_SYSTEMD;
	else if (mounted(out, CG_HIER_CPU))
		out->tree = CG_HIER_CPU;
	else {
		out->kind = CG_LAYOUT_NONE;
		errno = ENOENT;
		return -1;
	}
	if (!mounted(out, CG_HIER_V2))
		out->kind = CG_LAYOUT_V1;
	else
		out->kind = v1 ? CG_LAYOUT_HYBRID : CG_LAYOUT_V2;
	return 0;
}

int cg_layout_find(struct cg_layout *out)
{
	char *text = cgroup_read_file("/proc/self/mountinfo");
	int ret;

	if (!text) {
		memset(out, 0, sizeof(*out));
		return -1;
	}
	ret = cg_layout_parse(text, out);
	free(text);
	return ret;
}

/* Does a path have a ".." component (a cgroup outside the namespace)? */
static bool climbs(const char *p)
{
	for (; (p = strstr(p, "/..")); p += 3)
		if (p[3] == '\0' || p[3] == '/')
			return true;
	return false;
}

/*
 * An absolute cgroup path of hierarchy h made relative to the part of it
 * that is mounted ("/" for that part's root). False when outside it.
 */
static bool below_root(const struct cg_mount *m, const char *abs, char *rel,
		       size_t size)
{
	size_t rl = strlen(m->root);
	const char *rest;
	int n;

	while (rl > 0 && m->root[rl - 1] == '/')
		rl--;
	if (abs[0] != '/' || climbs(abs) || strncmp(abs, m->root, rl) != 0 ||
	    (abs[rl] && abs[rl] != '/'))
		return false;
	rest = abs + rl;
	n = snprintf(rel, size, "%s", *rest ? rest : "/");
	return n >= 0 && (size_t)n < size;
}

/* The line of hierarchy h in a /proc/PID/cgroup text. */
static int line_of(enum cg_hier h, const char *proc_cgroup, char *path,
		   size_t size)
{
	if (h == CG_HIER_V2)
		return cgroup_parse_proc_cgroup(proc_cgroup, path, size);
	return cgroup_parse_proc_cgroup_v1(proc_cgroup, hier_names[h], path,
					   size);
}

int cg_layout_task_path(const struct cg_layout *l, const char *proc_cgroup,
			char *path, size_t size)
{
	char abs[4096];

	if (!l || !mounted(l, l->tree) ||
	    line_of(l->tree, proc_cgroup, abs, sizeof(abs)) < 0 ||
	    !below_root(&l->m[l->tree], abs, path, size))
		return -1;
	return 0;
}

/* mount point + relative path, without a doubled slash at the join. */
static int join(const struct cg_mount *m, const char *rel, char *dir,
		size_t size)
{
	size_t ml = strlen(m->dir);
	int n;

	while (ml > 1 && m->dir[ml - 1] == '/')
		ml--;
	if (ml == 1)
		ml = 0; /* a hierarchy mounted on / */
	while (*rel == '/')
		rel++;
	n = snprintf(dir, size, "%.*s%s%s", (int)ml, m->dir,
		     *rel || !ml ? "/" : "", rel);
	return n >= 0 && (size_t)n < size ? 0 : -1;
}

int cg_layout_dir(const struct cg_layout *l, enum cg_hier h, const char *path,
		  char *dir, size_t size)
{
	const struct cg_mount *t, *m;
	char abs[4096], rel[4096];
	size_t tl;
	int n;

	if (!l || !path || path[0] != '/' || !mounted(l, h) ||
	    !mounted(l, l->tree) || climbs(path))
		return -1;
	t = &l->m[l->tree];
	m = &l->m[h];
	/* the tree's path is relative to its mounted part: make it whole */
	tl = strlen(t->root);
	while (tl > 0 && t->root[tl - 1] == '/')
		tl--;
	n = snprintf(abs, sizeof(abs), "%.*s%s", (int)tl, t->root,
		     tl && !strcmp(path, "/") ? "" : path);
	if (n < 0 || (size_t)n >= sizeof(abs) ||
	    !below_root(m, abs, rel, sizeof(rel)))
		return -1;
	return join(m, rel, dir, size);
}

int cg_layout_task_dir(const struct cg_layout *l, enum cg_hier h,
		       const char *proc_cgroup, char *dir, size_t size,
		       int *at_root)
{
	char abs[4096], rel[4096];

	if (!l || !mounted(l, h) ||
	    line_of(h, proc_cgroup, abs, sizeof(abs)) < 0 ||
	    !below_root(&l->m[h], abs, rel, sizeof(rel)))
		return -1;
	if (at_root)
		*at_root = strcmp(abs, "/") == 0;
	return join(&l->m[h], rel, dir, size);
}
