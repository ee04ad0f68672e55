/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The monitor's sums per cgroup: where each process is in the cgroup
 * tree of the layout (kernel/cg_layout.h: v2, else name=systemd, else
 * cpu; tasks can be moved at any time, and a child that ended early is
 * where its parent is), and the cgroup rows of a sample (live/cgtable.c,
 * model/cgrows.c does the sums).
 */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/cg_layout.h"
#include "kernel/cgroup.h"
#include "live/monitor_int.h"
#include "live/cgtable.h"
#include "live/tasktable.h"
#include "model/producer.h"

bool cgsum_used(const struct monitor *m)
{
	return m->cgl != NULL;
}

/*
 * Where a process is now (tasks can be moved at any time): the one read
 * of its /proc/PID/cgroup, for its path in the tree (when the sums per
 * cgroup are used) and its whole text (when text is asked for, or kept
 * already: the evidence's key of its cgroups).
 */
static void read_cgroup(struct monitor *m, struct task *k, bool text)
{
	struct tt_proc *p = k->proc;
	char path[4096], file[64], *pc;
	if (k->exited)
		return;
	double now = monitor_now();
	if (!p->cgroup && !p->cgroups) {
		/*
		 * Spread the re-reads over the period: a new process's first
		 * one falls due at a point of it that its id picks.
		 */
		double phase = (double)((uint32_t)k->id * 2654435761u) / 4294967296.0;
		p->cg_at = now - phase * CGSUM_RECHECK;
	} else {
		p->cg_at = now;
	}
	k->cg_stale = false;
	snprintf(file, sizeof(file), "/proc/%d/cgroup", (int)k->id);
	pc = cgroup_read_file(file);
	if (text || p->cgroups) {
		free(p->cgroups);
		p->cgroups = pc;
	}
	char *copy = NULL;
	if (pc && cgsum_used(m) &&
	    cg_layout_task_path(m->cgl, pc, path, sizeof(path)) == 0 &&
	    (!p->cgroup || strcmp(p->cgroup, path) != 0) &&
	    (copy = strdup(path))) {
		free(p->cgroup);
		p->cgroup = copy;
	}
	if (pc != p->cgroups)
		free(pc);
}

/*
 * Read for a new process at once; then again when it ran or exec'd, and
 * at the latest CGSUM_RECHECK seconds after the last read: a task can be
 * moved by another without running, and nothing announces it.
 */
void cgsum_update(struct monitor *m, struct task *k)
{
	if (cgsum_used(m))
		read_cgroup(m, k, false);
}

const char *cgsum_text(struct monitor *m, struct task *k)
{
	if (!k->proc->cgroups || k->cg_stale ||
	    monitor_now() - k->proc->cg_at >= CGSUM_RECHECK)
		read_cgroup(m, k, true);
	return k->proc->cgroups;
}

static void read_cgroup_cb(struct task *k, void *arg)
{
	cgsum_update(arg, k);
}

static void update_cgroup_cb(struct task *k, void *arg)
{
	struct monitor *m = arg;
	if (!k->proc->cgroup || k->cg_stale || k->moved == m->round ||
	    monitor_now() - k->proc->cg_at >= CGSUM_RECHECK)
		cgsum_update(m, k);
}

/* A child that ended before its cgroup was read is where its parent is. */
void cgsum_inherit(struct monitor *m, struct task *k, pid_t parent)
{
	struct task *p;
	if (!cgsum_used(m) || k->proc->cgroup || !(p = tasktable_find(m->procs, parent)) ||
	    !p->proc->cgroup)
		return;
	k->proc->cgroup = strdup(p->proc->cgroup);
}

struct cgroup_rows {
	struct row *rows;
	size_t n, cap;
};

static void push_cgroup_row(struct task *k, void *arg)
{
	struct cgroup_rows *c = arg;
	struct row *r;
	if (k->proc->cgroup && (r = producer_push_row(&c->rows, &c->n, &c->cap)))
		r->cgroup = k->proc->cgroup;
}

/*
 * Read every cgroup's pressure once, so the first interval has a share;
 * the number of cgroups read (cgtable_readings), 0 when none could be.
 */
size_t cgsum_prime(struct monitor *m)
{
	struct cgroup_rows c = { NULL, 0, 0 };
	struct cgroup_row *rows;
	size_t n = 0;
	tasktable_foreach(m->procs, push_cgroup_row, &c);
	if (cgtable_build(m->cgt, c.rows, c.n, NULL, 0, 0, m->o.cgroup_within,
			  &rows, &n) < 0)
		n = 0;
	free(c.rows);
	return n;
}

void cgsum_update_all(struct monitor *m)
{
	tasktable_foreach(m->procs, update_cgroup_cb, m);
}

void cgsum_read_all(struct monitor *m)
{
	tasktable_foreach(m->procs, read_cgroup_cb, m);
}

int cgsum_open(struct monitor *m)
{
	struct cg_layout *l = malloc(sizeof(*l));

	if (!l)
		return -1;
	if (cg_layout_find(l) < 0) {
		free(l);
		errno = ENOENT;
		return -1;
	}
	/* the evidence of processes may have made the table already */
	if (!m->cgt && !(m->cgt = cgtable_new(l))) {
		free(l);
		return -1;
	}
	m->cgl = l;
	return 0;
}

void cgsum_build(struct monitor *m, struct sample *out)
{
	static struct cgroup_row none;
	if (cgtable_build(m->cgt, out->rows, out->nrows, out->exited, out->nexited,
			  out->interval, m->o.cgroup_within, &out->cgroups,
			  &out->ncgroups) < 0 || !out->cgroups) {
		out->cgroups = &none;
		out->ncgroups = 0;
	}
}
