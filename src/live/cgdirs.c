/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Where a cgroup row's and a process's cgroup figures are read from. */
#include <config.h>

#include <stdbool.h>
#include <string.h>
#include <unistd.h>

#include "kernel/kval.h"
#include "live/cgdirs.h"

/* The directory of path in hierarchy h, opened; -1 when there is none. */
static int open_in(const struct cg_layout *l, enum cg_hier h, const char *path)
{
	char dir[4096];

	if (cg_layout_dir(l, h, path, dir, sizeof(dir)) < 0)
		return -1;
	return kval_open_dir(-1, dir);
}

/* Is cpuacct a hierarchy of its own (not mounted together with cpu)? */
static bool cpuacct_apart(const struct cg_layout *l)
{
	return l->m[CG_HIER_CPUACCT].dir[0] &&
	       strcmp(l->m[CG_HIER_CPUACCT].dir, l->m[CG_HIER_CPU].dir) != 0;
}

void cgdirs_open(const struct cg_layout *l, const char *path,
		 struct evidence_dirs *d)
{
	d->cg2 = d->cpu1 = d->cpuacct1 = d->mem1 = d->blkio1 = d->states1 = -1;
	if (!l || !path)
		return;
	d->no_states = strcmp(path, "/") == 0;
	d->cg2 = open_in(l, CG_HIER_V2, path);
	d->cpu1 = open_in(l, CG_HIER_CPU, path);
	if (cpuacct_apart(l))
		d->cpuacct1 = open_in(l, CG_HIER_CPUACCT, path);
	d->mem1 = open_in(l, CG_HIER_MEMORY, path);
	d->blkio1 = open_in(l, CG_HIER_BLKIO, path);
	/* a v1 tree's own directory: the kernel counts its task states */
	if (l->tree != CG_HIER_V2 && !d->no_states)
		d->states1 = open_in(l, l->tree, path);
}

/*
 * The directory of a task's own cgroup in hierarchy h, opened; -1 also
 * where that cgroup is h's root, which holds every task of the machine:
 * its counters are the machine's, no cgroup's figure of the task.
 */
static int open_own(const struct cg_layout *l, enum cg_hier h,
		    const char *proc_cgroup)
{
	char dir[4096];
	int at_root;

	if (cg_layout_task_dir(l, h, proc_cgroup, dir, sizeof(dir),
			       &at_root) < 0 || at_root)
		return -1;
	return kval_open_dir(-1, dir);
}

void cgdirs_open_task(const struct cg_layout *l, const char *proc_cgroup,
		      struct evidence_dirs *d)
{
	d->cg2 = d->cpu1 = d->cpuacct1 = d->mem1 = d->blkio1 = d->states1 = -1;
	d->no_states = true;
	if (!l || !proc_cgroup)
		return;
	/* each controller's figures from its own hierarchy, below the root */
	d->cg2 = open_own(l, CG_HIER_V2, proc_cgroup);
	d->cpu1 = open_own(l, CG_HIER_CPU, proc_cgroup);
	/* cpuacct where it is mounted apart from cpu */
	if (cpuacct_apart(l))
		d->cpuacct1 = open_own(l, CG_HIER_CPUACCT, proc_cgroup);
	d->mem1 = open_own(l, CG_HIER_MEMORY, proc_cgroup);
	d->blkio1 = open_own(l, CG_HIER_BLKIO, proc_cgroup);
	/*
	 * The task states of its cgroup in the view's tree: on a v1 tree
	 * the kernel's cgroupstats of that directory (a query that applies
	 * to v1 hierarchies only); on a v2 tree counted from its v2
	 * directory's cgroup.threads. Never another hierarchy's cgroup,
	 * which may hold other tasks, nor a root's.
	 */
	if (l->tree != CG_HIER_V2) {
		d->states1 = open_own(l, l->tree, proc_cgroup);
		d->no_states = d->states1 < 0;
	} else {
		d->no_states = d->cg2 < 0;
	}
}

void cgdirs_close(struct evidence_dirs *d)
{
	int *fds[] = { &d->cg2, &d->cpu1, &d->cpuacct1, &d->mem1, &d->blkio1,
		       &d->states1 };
	size_t n = sizeof(fds) / sizeof(fds[0]);

	for (size_t i = 0; i < n; i++) {
		bool again = false;

		/* states1 may be one of the others (cgdirs_open_task) */
		for (size_t j = 0; j < i; j++)
			again |= *fds[i] >= 0 && *fds[j] == *fds[i];
		if (*fds[i] >= 0 && !again)
			close(*fds[i]);
	}
	for (size_t i = 0; i < n; i++)
		*fds[i] = -1;
}

void cgdirs_read_psi(const struct cg_layout *l, const char *path,
		     struct psi_reading *out)
{
	/*
	 * v1 pressure files, where a kernel has them (some distributions'
	 * psi_v1), are in the hierarchy of the resource's controller, or
	 * all of them in cpuacct's, whose cgroups the kernel tracks.
	 */
	static const enum cg_hier own[NPSI] = {
		[PSI_CPU] = CG_HIER_CPU, [PSI_MEMORY] = CG_HIER_MEMORY,
		[PSI_IO] = CG_HIER_BLKIO, [PSI_IRQ] = CG_HIER_CPU,
	};
	struct psi_reading r[NCG_HIER];
	bool read[NCG_HIER] = { false };
	char dir[4096];

	/* nothing read yet, but the moment of the reading */
	psi_read_dir(NULL, ".pressure", out);
	if (!l || !path)
		return;
	if (l->m[CG_HIER_V2].dir[0]) {
		/* a path that names no directory: every line stays absent */
		psi_read_dir(cg_layout_dir(l, CG_HIER_V2, path, dir,
					   sizeof(dir)) == 0 ? dir : NULL,
			     ".pressure", out);
		return;
	}
	for (int res = 0; res < NPSI; res++) {
		enum cg_hier where[2] = { own[res], CG_HIER_CPUACCT };

		for (int k = 0; k < 2; k++) {
			enum cg_hier h = where[k];

			if (!read[h]) {
				read[h] = true;
				psi_read_dir(cg_layout_dir(l, h, path, dir,
							   sizeof(dir)) == 0 ?
					     dir : NULL, ".pressure", &r[h]);
			}
			if (r[h].line[res][PSI_SOME].present ||
			    r[h].line[res][PSI_FULL].present) {
				memcpy(out->line[res], r[h].line[res],
				       sizeof(out->line[res]));
				break;
			}
		}
	}
}
