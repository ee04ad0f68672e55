/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The cgroup hierarchies of a system as mountinfo shows them, and which
 * one is read for what. Three layouts are in service:
 *
 *   v2      one cgroup2 hierarchy with the controllers (/sys/fs/cgroup);
 *   hybrid  v1 hierarchies with the controllers (/sys/fs/cgroup/cpu,
 *           memory, blkio, pids...), a v1 "name=systemd" one and a v2
 *           one without controllers (/sys/fs/cgroup/unified), where
 *           tasks are placed as in name=systemd and which has PSI;
 *   v1      only v1 hierarchies (legacy), usually with name=systemd.
 *
 * The tree of cgroups a view shows is the one the service manager places
 * tasks in: v2 where there is one, else name=systemd, else the cpu
 * hierarchy. A cgroup is named by its path in that tree, relative to the
 * part of it that is mounted ("/system.slice/nginx.service"); its figures
 * come from the same path in the hierarchy that has each controller.
 *
 * Parsing takes texts (mountinfo, /proc/PID/cgroup), so fixtures stand in
 * for the running system.
 */
#ifndef STALLTOP_CG_LAYOUT_H
#define STALLTOP_CG_LAYOUT_H

#include <stddef.h>

/* The hierarchies stalltop reads, v2 and the v1 ones by what they hold. */
enum cg_hier {
	CG_HIER_V2,        /* cgroup2 */
	CG_HIER_SYSTEMD,   /* v1 name=systemd */
	CG_HIER_CPU,       /* v1 cpu (often with cpuacct) */
	CG_HIER_CPUACCT,   /* v1 cpuacct */
	CG_HIER_MEMORY,    /* v1 memory */
	CG_HIER_BLKIO,     /* v1 blkio */
	CG_HIER_PIDS,      /* v1 pids */
	NCG_HIER
};

enum cg_layout_kind {
	CG_LAYOUT_NONE,    /* no cgroup hierarchy is mounted */
	CG_LAYOUT_V2,
	CG_LAYOUT_HYBRID,
	CG_LAYOUT_V1,
};

/* Mount points and roots longer than this are not taken. */
#define CG_LAYOUT_PATH 1024

struct cg_mount {
	char dir[CG_LAYOUT_PATH];   /* mount point; "" when not mounted */
	char root[CG_LAYOUT_PATH];  /* the part of the hierarchy it shows */
};

struct cg_layout {
	enum cg_layout_kind kind;
	enum cg_hier tree;          /* the hierarchy of the view's tree */
	struct cg_mount m[NCG_HIER];
};

/*
 * The layout of a mountinfo text: each hierarchy's first mount, the
 * kind, the tree. 0, or -1 with errno set (ENOENT: no hierarchy to make
 * a tree of; out->kind is CG_LAYOUT_NONE then).
 */
int cg_layout_parse(const char *mountinfo, struct cg_layout *out);

/* The same for this system (/proc/self/mountinfo). */
int cg_layout_find(struct cg_layout *out);

/*
 * The path in the tree of a task, from the text of its /proc/PID/cgroup:
 * its line of the tree's hierarchy made relative to the tree's mounted
 * part. 0, or -1 when it has none or lies outside that part.
 */
int cg_layout_task_path(const struct cg_layout *l, const char *proc_cgroup,
			char *path, size_t size);

/*
 * The directory of tree path `path` in hierarchy h: the same cgroup path,
 * below h's mount point. 0, or -1 when h is not mounted, the path lies
 * outside the part of h that is, or the result does not fit. Whether the
 * directory exists is for the caller to find out.
 */
int cg_layout_dir(const struct cg_layout *l, enum cg_hier h, const char *path,
		  char *dir, size_t size);

/*
 * The directory of a task's own cgroup in hierarchy h, from the text of
 * its /proc/PID/cgroup (its line for h, which need not be its tree
 * path). 0, or -1 as cg_layout_dir, or when the task has no line for h.
 * at_root, when not NULL, tells whether that cgroup is h's root.
 */
int cg_layout_task_dir(const struct cg_layout *l, enum cg_hier h,
		       const char *proc_cgroup, char *dir, size_t size,
		       int *at_root);

#endif
