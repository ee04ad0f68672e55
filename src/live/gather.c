/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Why the shown rows stall: the evidence of each process a view shows
 * whose delay in a category the rule table covers is a stall (rowwhy.h),
 * read next to it, never for every task. Each such process keeps its
 * previous reading (struct task.ev), so that the counters of its cgroups
 * and its IO give the figures of the interval; /proc/diskstats is read
 * only when a shown process stalled on IO. A process shown stalled for
 * the first time has current values only: the next sample has deltas.
 *
 * The cgroup rows a view shows stalled get theirs the same way, from
 * the directories of the cgroup's path in each hierarchy (model/cgdirs.h;
 * model/cgwhy.h keeps their previous readings by path). A process reads
 * its own cgroups of the same hierarchies, from /proc/PID/cgroup.
 *
 * Every descriptor is opened for one reading and closed after it: a
 * process may move to another cgroup between two.
 */
#include <config.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kernel/cg_layout.h"
#include "kernel/cgroup.h"
#include "kernel/cpustat.h"
#include "kernel/diskstats.h"
#include "kernel/kval.h"
#include "live/monitor_int.h"
#include "live/tasktable.h"
#include "model/cgdirs.h"
#include "model/cgwhy.h"
#include "model/evidence.h"
#include "model/rowwhy.h"

/* What a process keeps between samples (struct task.ev). */
struct task_ev {
	struct evidence_reading prev;
	uint64_t prev_round;       /* the reading prev was taken after */
	bool have_prev;
	uint64_t lost_at;          /* notifications lost at prev */
	uint64_t why_round;        /* why holds this reading's evidence */
	bool have_why;
	struct row_why why;
};

/* The task states of one v1 cgroup, asked once a round for all its rows. */
struct states_memo {
	char *dir;
	uint64_t round;
	struct cgstats states;
};

struct gather {
	int proc;                  /* /proc */
	int cpu_sys;               /* /sys/devices/system/cpu */
	struct cg_layout layout;   /* the hierarchies, when the monitor's
				      sums per cgroup do not keep them */
	bool layout_looked, have_layout;
	struct diskstats disks_prev, disks_cur;
	uint64_t disks_round;      /* the reading disks_cur was taken after */
	/* what is the same for every process of one round: read once */
	struct evidence_reading sys;
	uint64_t sys_round;
	struct cpustat cpus;       /* per-CPU times of cpus_round */
	uint64_t cpus_round;
	bool have_cpus;
	struct states_memo *memo;
	size_t nmemo;
	bool have_disks, have_disks_prev;
	struct cgwhy *cgw;         /* the cgroup rows' previous readings */
};

static struct gather *gather_get(struct monitor *m)
{
	struct gather *g = m->gather;

	if (g)
		return g;
	if (!(g = calloc(1, sizeof(*g))))
		return NULL;
	g->proc = kval_open_dir(-1, "/proc");
	g->cpu_sys = kval_open_dir(-1, "/sys/devices/system/cpu");
	m->gather = g;
	return g;
}

void gather_free(struct monitor *m)
{
	struct gather *g = m->gather;

	if (!g)
		return;
	if (g->proc >= 0)
		close(g->proc);
	if (g->cpu_sys >= 0)
		close(g->cpu_sys);
	diskstats_free(&g->disks_prev);
	diskstats_free(&g->disks_cur);
	cpustat_free(&g->cpus);
	cgwhy_free(g->cgw);
	for (size_t i = 0; i < g->nmemo; i++)
		free(g->memo[i].dir);
	free(g->memo);
	free(g);
	m->gather = NULL;
}

/* /proc/diskstats once per reading, the one before kept for the interval. */
static void read_disks(struct monitor *m, struct gather *g)
{
	struct diskstats tmp;

	if (g->have_disks && g->disks_round == m->round)
		return;
	if (g->have_disks && g->disks_round + 1 == m->round) {
		tmp = g->disks_prev;
		g->disks_prev = g->disks_cur;
		g->disks_cur = tmp;
		g->have_disks_prev = true;
	} else {
		g->have_disks_prev = false;
	}
	g->have_disks = diskstats_read("/proc/diskstats", &g->disks_cur) >= 0;
	g->disks_round = m->round;
}

/* The cgroup hierarchies (found once), or NULL when there are none. */
static const struct cg_layout *layout_of(struct monitor *m, struct gather *g)
{
	if (m->cgl)
		return m->cgl;
	if (!g->layout_looked) {
		g->layout_looked = true;
		g->have_layout = cg_layout_find(&g->layout) == 0;
	}
	return g->have_layout ? &g->layout : NULL;
}

/* The machine-wide part of this round's readings. */
static const struct evidence_reading *system_of(struct monitor *m,
						struct gather *g)
{
	if (g->sys_round != m->round) {
		struct evidence_dirs d = EVIDENCE_DIRS_NONE;

		d.proc = g->proc;
		d.cpu_sys = g->cpu_sys;
		memset(&g->sys, 0, sizeof(g->sys));
		evidence_read_system(&d, &g->sys);
		g->sys_round = m->round;
	}
	return &g->sys;
}

/* This round's per-CPU times (/proc/stat), read once; NULL: unknown. */
static const struct cpustat *cpus_of(struct monitor *m, struct gather *g)
{
	if (g->cpus_round != m->round || !g->cpus_round) {
		g->have_cpus = cpustat_read(g->proc, &g->cpus) == 0;
		g->cpus_round = m->round;
	}
	return g->have_cpus ? &g->cpus : NULL;
}

/* The directory of the process's cgroup in hierarchy h, opened. */
static int open_own(const struct cg_layout *l, enum cg_hier h,
		    const char *proc_cgroup, char *dir, size_t size,
		    int *at_root)
{
	if (cg_layout_task_dir(l, h, proc_cgroup, dir, size, at_root) < 0)
		return -1;
	return kval_open_dir(-1, dir);
}

/*
 * The descriptors of one process's evidence; -1 where there is none.
 * states_dir: the v1 cgroup whose task states are asked for, "" when
 * none: a hierarchy's root holds every task of the machine, and counting
 * them would cost a walk of all (then its v2 cgroup's are counted, if
 * it is not the root either).
 */
static void open_dirs(struct monitor *m, struct gather *g, pid_t pid,
		      struct evidence_dirs *d, char *states_dir, size_t size)
{
	static const enum cg_hier v1[] = {
		CG_HIER_CPU, CG_HIER_MEMORY, CG_HIER_BLKIO, CG_HIER_PIDS,
	};
	const struct cg_layout *l = layout_of(m, g);
	char name[64], dir[4096];
	int *fd[] = { &d->cpu1, &d->mem1, &d->blkio1, NULL };
	int at_root, pids = -1;
	char *pc;

	*d = EVIDENCE_DIRS_NONE;
	d->proc = g->proc;
	d->cpu_sys = g->cpu_sys;
	states_dir[0] = '\0';
	snprintf(name, sizeof(name), "%d", (int)pid);
	if (g->proc >= 0)
		d->pid = openat(g->proc, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	snprintf(name, sizeof(name), "/proc/%d/cgroup", (int)pid);
	if (!l || !(pc = cgroup_read_file(name)))
		return;
	/* the v2 root holds no limits, and its cgroup.threads is everyone */
	d->cg2 = open_own(l, CG_HIER_V2, pc, dir, sizeof(dir), &at_root);
	if (d->cg2 >= 0 && at_root) {
		close(d->cg2);
		d->cg2 = -1;
	}
	/* cpuacct where it is mounted apart from cpu */
	if (strcmp(l->m[CG_HIER_CPUACCT].dir, l->m[CG_HIER_CPU].dir) != 0)
		d->cpuacct1 = open_own(l, CG_HIER_CPUACCT, pc, dir, sizeof(dir),
				       NULL);
	for (size_t i = 0; i < sizeof(v1) / sizeof(v1[0]); i++) {
		int f = open_own(l, v1[i], pc, dir, sizeof(dir), &at_root);

		if (fd[i])
			*fd[i] = f;
		else
			pids = f;
		/* the first v1 cgroup below its hierarchy's root gives states */
		if (f < 0 || states_dir[0] || at_root)
			continue;
		d->states1 = f;
		snprintf(states_dir, size, "%s", dir);
	}
	if (pids >= 0 && pids != d->states1)
		close(pids);
	free(pc);
}

/* The task states of v1 cgroup dir asked this round already, or NULL. */
static struct states_memo *memo_find(struct gather *g, const char *dir,
				     uint64_t round)
{
	for (size_t i = 0; i < g->nmemo; i++)
		if (g->memo[i].round == round && strcmp(g->memo[i].dir, dir) == 0)
			return &g->memo[i];
	return NULL;
}

/* Keep this round's states of dir, in a slot of an earlier round if any. */
static void memo_keep(struct gather *g, const char *dir, uint64_t round,
		      const struct cgstats *states)
{
	struct states_memo *s = NULL;
	char *copy = strdup(dir);

	if (!copy)
		return;
	for (size_t i = 0; i < g->nmemo && !s; i++)
		if (g->memo[i].round != round)
			s = &g->memo[i];
	if (!s) {
		struct states_memo *p = realloc(g->memo,
						(g->nmemo + 1) * sizeof(*p));
		if (!p) {
			free(copy);
			return;
		}
		g->memo = p;
		s = &g->memo[g->nmemo++];
		s->dir = NULL;
	}
	free(s->dir);
	*s = (struct states_memo){ copy, round, *states };
}

static void close_dirs(struct evidence_dirs *d)
{
	int fds[] = { d->cg2, d->cpu1, d->cpuacct1, d->mem1, d->blkio1,
		      d->pid, d->states1 };

	/* states1 is one of the v1 directories, or the pids one */
	if (d->states1 == d->cpu1 || d->states1 == d->mem1 ||
	    d->states1 == d->blkio1)
		fds[6] = -1;

	for (size_t i = 0; i < sizeof(fds) / sizeof(fds[0]); i++)
		if (fds[i] >= 0)
			close(fds[i]);
}

/* The evidence of process k's row r over this interval, into k->ev. */
static void gather_one(struct monitor *m, struct gather *g, struct task *k,
		       struct row *r)
{
	struct task_ev *e = k->ev;
	struct evidence_reading cur;
	struct evidence_dirs d;
	struct states_memo *memo = NULL;
	char states_dir[4096];
	uint64_t lost = m->lost + m->exit_lost;
	bool prev_ok;

	open_dirs(m, g, k->id, &d, states_dir, sizeof(states_dir));
	d.want = rowwhy_wants(r->d);
	if (d.want & EVIDENCE_WANT(EVIDENCE_CPU))
		d.cpus = cpus_of(m, g);
	/* the processes of one cgroup share its task states: asked once */
	if (states_dir[0] && (memo = memo_find(g, states_dir, m->round)))
		d.no_states = true;
	evidence_read_with(&d, m->ts, system_of(m, g), &cur);
	close_dirs(&d);
	if (memo)
		cur.states = memo->states;
	else if (states_dir[0])
		memo_keep(g, states_dir, m->round, &cur.states);
	/* forks are counted from fork events: none may have been lost */
	cur.forks = (struct kval){ .have = m->pc != NULL, .v = k->forks };
	prev_ok = e->have_prev && e->prev_round + 1 == m->round;
	if (prev_ok && e->lost_at != lost)
		e->prev.forks.have = false;
	evidence_interval(prev_ok ? &e->prev : NULL, &cur,
			  g->have_disks_prev ? &g->disks_prev : NULL,
			  g->have_disks ? &g->disks_cur : NULL, &e->why.ev);
	/* the first cause of the interval before stays while it binds */
	rowwhy_eval(&e->why, r->d, r->total_pct, r->have_cpu_pct, r->cpu_pct,
		    m->sample_dt,
		    e->have_why && e->why_round + 1 == m->round ?
		    rowwhy_first(&e->why) : WHY_NONE);
	e->prev = cur;
	e->have_prev = true;
	e->prev_round = m->round;
	e->lost_at = lost;
	e->why_round = m->round;
	e->have_why = true;
}

/* The live process behind a row whose evidence is wanted, or NULL. */
static struct task *wanted(struct monitor *m, const struct row *r)
{
	struct task *k;

	if (r->flags & ROW_EXITED || !rowwhy_wanted(r->d))
		return NULL;
	k = tasktable_find(m->procs, r->pid);
	if (!k || k->exited)
		return NULL;
	if (!k->ev && !(k->ev = calloc(1, sizeof(struct task_ev))))
		return NULL;
	return k;
}

void gather_rows(struct monitor *m, struct row *rows, size_t n)
{
	struct gather *g;
	bool io = false;

	/*
	 * Evidence is of one interval: not of accumulated figures, and of
	 * processes (thread rows have none).
	 */
	if (m->o.accumulate || m->o.threads || !n || !(g = gather_get(m)))
		return;
	for (size_t i = 0; i < n; i++) {
		struct task *k = wanted(m, &rows[i]);
		const struct task_ev *e = k ? k->ev : NULL;

		if (e && !(e->have_why && e->why_round == m->round) &&
		    rowwhy_stalled(&rows[i].d[CAT_IO]))
			io = true;
	}
	if (io)
		read_disks(m, g);
	for (size_t i = 0; i < n; i++) {
		struct task *k = wanted(m, &rows[i]);
		struct task_ev *e;

		if (!k)
			continue;
		e = k->ev;
		if (!(e->have_why && e->why_round == m->round))
			gather_one(m, g, k, &rows[i]);
		rows[i].why = &e->why;
	}
}

void gather_new_round(struct monitor *m)
{
	if (m->gather)
		cgwhy_prune(m->gather->cgw, m->round);
}

/* The evidence of cgroup row c, from its path in each hierarchy. */
static void gather_cgroup(struct monitor *m, struct gather *g,
			  struct cgroup_row *c)
{
	struct evidence_dirs d = EVIDENCE_DIRS_NONE;

	d.proc = g->proc;
	d.cpu_sys = g->cpu_sys;
	cgdirs_open(m->cgl, c->path, &d);
	cgwhy_gather_ts(g->cgw, m->ts, c, &d, system_of(m, g), m->round,
			m->sample_dt, g->have_disks_prev ? &g->disks_prev : NULL,
			g->have_disks ? &g->disks_cur : NULL);
	cgdirs_close(&d);
}

void gather_cgroups(struct monitor *m, struct cgroup_row *rows, size_t n)
{
	struct gather *g;
	bool io = false;

	/* cgroup rows are paths of the tree; evidence is of one interval */
	if (m->o.accumulate || !cgsum_used(m) || !n || !(g = gather_get(m)))
		return;
	if (!g->cgw && !(g->cgw = cgwhy_new()))
		return;
	for (size_t i = 0; i < n; i++)
		if (cgwhy_wanted(&rows[i]) &&
		    !cgwhy_have(g->cgw, &rows[i], m->round) &&
		    rowwhy_stalled(&rows[i].d[CAT_IO]))
			io = true;
	if (io)
		read_disks(m, g);
	for (size_t i = 0; i < n; i++)
		if (cgwhy_wanted(&rows[i]) && rows[i].path)
			gather_cgroup(m, g, &rows[i]);
}
