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
 * the cgroup's own v2 directory (model/cgwhy.h keeps their previous
 * readings by path).
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

#include "kernel/cgroup.h"
#include "kernel/cpustat.h"
#include "kernel/diskstats.h"
#include "kernel/kval.h"
#include "live/monitor_int.h"
#include "model/cgwhy.h"
#include "model/evidence.h"
#include "model/rowwhy.h"
#include "model/tasktable.h"

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
	char cg2_root[4096];       /* the v2 mount, "" when none */
	bool root_looked;
	struct diskstats disks_prev, disks_cur;
	uint64_t disks_round;      /* the reading disks_cur was taken after */
	/* what is the same for every process of one round: read once */
	struct evidence_reading sys;
	uint64_t sys_round;
	struct cpustat cpus;       /* per-CPU times of cpus_round */
	uint64_t cpus_round;
	bool have_cpus;
	char *mountinfo;
	uint64_t mountinfo_round;
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
	free(g->mountinfo);
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

static const char *v2_root(struct monitor *m, struct gather *g)
{
	if (m->cg_root[0])
		return m->cg_root;
	if (!g->root_looked) {
		g->root_looked = true;
		if (cgroup_find_root(g->cg2_root, sizeof(g->cg2_root)) < 0)
			g->cg2_root[0] = '\0';
	}
	return g->cg2_root;
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

/* This round's /proc/self/mountinfo (the v1 hierarchies), or NULL. */
static const char *mountinfo_of(struct monitor *m, struct gather *g)
{
	if (g->mountinfo_round != m->round || !g->mountinfo) {
		free(g->mountinfo);
		g->mountinfo = cgroup_read_file("/proc/self/mountinfo");
		g->mountinfo_round = m->round;
	}
	return g->mountinfo;
}

/* The directory of the process's v1 cgroup of controller, opened. */
static int open_v1(const char *mountinfo, const char *proc_cgroup,
		   const char *controller, char *dir, size_t size)
{
	if (!mountinfo ||
	    cgroup_v1_dir(mountinfo, proc_cgroup, controller, dir, size) < 0)
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
	static const char *const v1[] = { "cpu", "memory", "blkio" };
	char name[64], path[4096], full[8192], dir[4096];
	const char *root = v2_root(m, g);
	const char *mi = mountinfo_of(m, g);
	int *fd[3] = { &d->cpu1, &d->mem1, &d->blkio1 };
	char *pc;

	*d = EVIDENCE_DIRS_NONE;
	d->proc = g->proc;
	d->cpu_sys = g->cpu_sys;
	states_dir[0] = '\0';
	snprintf(name, sizeof(name), "%d", (int)pid);
	if (g->proc >= 0)
		d->pid = openat(g->proc, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	snprintf(name, sizeof(name), "/proc/%d/cgroup", (int)pid);
	if (!(pc = cgroup_read_file(name)))
		return;
	/* the v2 root holds no limits, and its cgroup.threads is everyone */
	if (root[0] && cgroup_parse_proc_cgroup(pc, path, sizeof(path)) == 0 &&
	    strcmp(path, "/") != 0) {
		snprintf(full, sizeof(full), "%s%s", root, path);
		d->cg2 = kval_open_dir(-1, full);
	}
	for (int i = 0; i < 3; i++) {
		*fd[i] = open_v1(mi, pc, v1[i], dir, sizeof(dir));
		/* the first v1 cgroup below its hierarchy's root gives states */
		if (*fd[i] < 0 || states_dir[0] ||
		    cgroup_parse_proc_cgroup_v1(pc, v1[i], path,
						sizeof(path)) < 0 ||
		    strcmp(path, "/") == 0)
			continue;
		d->states1 = *fd[i];
		snprintf(states_dir, size, "%s", dir);
	}
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
	int fds[] = { d->cg2, d->cpu1, d->mem1, d->blkio1, d->pid };

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

/* The evidence of cgroup row c (v2 path below root). */
static void gather_cgroup(struct monitor *m, struct gather *g,
			  const char *root, struct cgroup_row *c)
{
	struct evidence_dirs d = EVIDENCE_DIRS_NONE;
	char full[8192];

	d.proc = g->proc;
	d.cpu_sys = g->cpu_sys;
	/* the root's cgroup.threads lists every thread of the machine */
	d.no_states = strcmp(c->path, "/") == 0;
	snprintf(full, sizeof(full), "%s%s", root,
		 d.no_states ? "" : c->path);
	d.cg2 = kval_open_dir(-1, full);
	cgwhy_gather(g->cgw, c, &d, system_of(m, g), m->round, m->sample_dt,
		     g->have_disks_prev ? &g->disks_prev : NULL,
		     g->have_disks ? &g->disks_cur : NULL);
	if (d.cg2 >= 0)
		close(d.cg2);
}

void gather_cgroups(struct monitor *m, struct cgroup_row *rows, size_t n)
{
	struct gather *g;
	bool io = false;

	/* cgroup rows are v2 paths; evidence is of one interval */
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
			gather_cgroup(m, g, m->cg_root, &rows[i]);
}
