/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Why the shown rows stall: the evidence of each process a view shows
 * whose delay in a category the rule table covers is a stall (rowwhy.h),
 * read next to it, never for every task. This file only reads: a
 * process's reading (struct store_evidence: its CPUs, IO, private
 * memory, and its cgroups' counters) goes to the model (model/rowev.h),
 * which makes the figures of the interval and the causes from it and
 * the reading before, kept in the state each process holds (struct
 * task.ev); the evidence of its cgroups is read once a round for every
 * process in the same cgroups (the table of cgroups, live/cgtable.h),
 * all that any of them wants, so that they all have the same reading;
 * /proc/diskstats is read only when a shown process stalled on IO. A
 * process shown stalled for the first time has current values only: the
 * next sample has deltas; but the first sample's stalled processes have
 * a base, read with the baseline (gather_base_read), found stalled in a
 * short interval before it (gather_base_pick).
 *
 * A process's cgroups are its own of each hierarchy, from its
 * /proc/PID/cgroup, as the sums per cgroup read it (cgsum_text): once in
 * its life, again after an exec, and at the latest CGSUM_RECHECK seconds
 * after the last read (a process can be moved without either), and
 * with the sums per cgroup whenever they read it.
 *
 * The cgroup rows a view shows stalled get theirs the same way, from
 * the directories of the cgroup's path in each hierarchy (live/cgdirs.h),
 * their previous readings kept in the same table.
 *
 * Every descriptor is opened for one reading and closed after it.
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
#include "kernel/procinfo.h"
#include "kernel/taskev.h"
#include "live/monitor_int.h"
#include "live/cgdirs.h"
#include "live/cgtable.h"
#include "live/evidence_read.h"
#include "live/storesample.h"
#include "live/tasktable.h"
#include "model/evidence.h"
#include "model/rowev.h"
#include "model/rowwhy.h"

/*
 * The most processes whose evidence a baseline reads (gather_base_pick):
 * those stalled in the short interval before it, the first of them.
 */
#define GATHER_BASE_MAX 256

/* What a process keeps between samples (struct task.ev): one malloc. */
struct task_ev {
	struct rowev_state st;     /* the model's: the reading before */
	uint64_t want_round;       /* the round its evidence is read in */
	/* its allowed CPUs as its context read them in cpu_round */
	uint64_t cpu_round;
	struct taskev_cpu cpu;
	/* its /proc/PID/io as its context read it in io_round */
	uint64_t io_round;
	struct taskev_io io;
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
	bool have_disks, have_disks_prev;
	/* the processes whose evidence the next baseline reads (at most
	   GATHER_BASE_MAX): their causes' base for the first interval */
	struct { pid_t pid; unsigned want; } *base;
	size_t nbase;
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
	free(g->base);
	if (g->proc >= 0)
		close(g->proc);
	if (g->cpu_sys >= 0)
		close(g->cpu_sys);
	diskstats_free(&g->disks_prev);
	diskstats_free(&g->disks_cur);
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

		d.cpus = machine_stat(m);
		d.mem = machine_mem(m);
		d.cpu_sys = g->cpu_sys;
		memset(&g->sys, 0, sizeof(g->sys));
		evidence_read_system(&d, &g->sys);
		/* the evidence is dated at the sample, as the counters are */
		g->sys.when = m->reading_time;
		g->sys_round = m->round;
	}
	return &g->sys;
}

/* The table of cgroups (the monitor's), made for the evidence if need be. */
static struct cgtable *table_of(struct monitor *m, struct gather *g)
{
	const struct cg_layout *l;

	if (!m->cgt && (l = layout_of(m, g)))
		m->cgt = cgtable_new(l);
	return m->cgt;
}

/* The text of k's /proc/PID/cgroup (cgsum_text), or NULL: not known. */
static const char *cgroups_of(struct monitor *m, struct gather *g,
			      struct task *k)
{
	return layout_of(m, g) ? cgsum_text(m, k) : NULL;
}

/* The cgroups' part of a reading (cgtable_members): copied, or cleared. */
static void with_cgroups(struct evidence_reading *r,
			 const struct evidence_reading *from)
{
	static const struct evidence_reading none;

	if (!from)
		from = &none;
	r->cpu = from->cpu;
	r->mem = from->mem;
	r->io = from->io;
	r->states = from->states;
}

/*
 * The disks of this reading and of the one before, as a recording holds
 * them (a replay gives the model the same): none read this reading,
 * none; none read the one before, none before.
 */
static void disks_of(const struct monitor *m, const struct gather *g,
		     const struct diskstats **prev, const struct diskstats **cur)
{
	*prev = *cur = NULL;
	if (!g->have_disks)
		return;
	if (g->disks_round == m->round) {
		*cur = &g->disks_cur;
		if (g->have_disks_prev)
			*prev = &g->disks_prev;
	} else if (g->disks_round + 1 == m->round) {
		*prev = &g->disks_cur;
	}
}

/* What the model makes a row's evidence of at this sample. */
static struct rowev_input input_of(struct monitor *m, struct gather *g)
{
	struct rowev_input in = {
		.round = m->round,
		.lost = m->lost + m->exit_lost,
		.interval = m->sample_dt,
	};

	disks_of(m, g, &in.disks_prev, &in.disks_cur);
	return in;
}

/*
 * The reading of process k's evidence of the groups want names into ev:
 * its own part, and its cgroups' (read once a round for all processes
 * in them).
 */
static void read_one(struct monitor *m, struct gather *g, struct task *k,
		     unsigned want, struct store_evidence *ev)
{
	struct task_ev *e = k->proc->ev;
	struct evidence_dirs d = EVIDENCE_DIRS_NONE;
	const struct cgtable_members *cg = NULL;
	const char *cgroups;
	struct cgtable *t;
	char name[32];

	const struct evidence_reading *sys = system_of(m, g);

	d.proc = g->proc;
	d.cpu_sys = g->cpu_sys;
	d.want = want;
	if (d.want & EVIDENCE_WANT(EVIDENCE_CPU))
		d.cpus = machine_stat(m);
	if (e->cpu_round == m->round)
		d.tcpu = &e->cpu;
	if (e->io_round == m->round)
		d.tio = &e->io;
	snprintf(name, sizeof(name), "%d", (int)k->id);
	if (g->proc >= 0 && evidence_read_task_dir_wanted(&d, sys))
		d.pid = openat(g->proc, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	*ev = (struct store_evidence){ .id = k->id, .start = k->start };
	evidence_read_task(&d, sys, &ev->r);
	if (d.pid >= 0)
		close(d.pid);
	cgroups = cgroups_of(m, g, k);
	if (cgroups && (t = table_of(m, g)))
		cg = cgtable_members_read(t, m->ts, g->proc, cgroups, m->round,
					  d.want);
	with_cgroups(&ev->r, cg ? &cg->cur : NULL);
	ev->cgroups = cgroups;
	/* forks are counted from fork events */
	ev->r.forks = (struct kval){ .have = m->pc != NULL, .v = k->proc->forks };
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
	if (!k->proc->ev && !(k->proc->ev = calloc(1, sizeof(struct task_ev))))
		return NULL;
	return k;
}

/*
 * What row r of process k will want of its cgroups this round, said
 * before any process's are read: all the processes of a cgroup then have
 * the same reading of it, whichever is read first (and a recording holds
 * it once: store/schema_ev.c writes a row's values that are as another's
 * of its cgroups as the same).
 */
static void expect_cgroups(struct monitor *m, struct gather *g,
			   struct task *k, const struct row *r)
{
	const char *cgroups = cgroups_of(m, g, k);
	struct cgtable *t;

	if (cgroups && (t = table_of(m, g)))
		cgtable_members_expect(t, cgroups, m->round,
				       rowwhy_wants(r->d));
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
		const struct task_ev *e = k ? k->proc->ev : NULL;

		if (!e || rowev_have(&e->st, m->round))
			continue;
		if (rowwhy_stalled(&rows[i].d[CAT_IO]))
			io = true;
		expect_cgroups(m, g, k, &rows[i]);
	}
	/* the disks, for the rows stalled on IO (rowev.h) */
	if (io)
		read_disks(m, g);
	for (size_t i = 0; i < n; i++) {
		struct task *k = wanted(m, &rows[i]);
		struct task_ev *e;

		if (!k)
			continue;
		e = k->proc->ev;
		if (!rowev_have(&e->st, m->round)) {
			struct store_evidence ev;
			struct rowev_input in = input_of(m, g);

			read_one(m, g, k, rowwhy_wants(rows[i].d), &ev);
			e = k->proc->ev;
			rowev_task(&e->st, &ev, &in, &rows[i]);
			if (m->whole)
				storesample_push_evidence(m->whole, &ev);
		}
		rows[i].why = &e->st.why;
	}
}

void gather_expect(struct monitor *m, const struct row *r)
{
	struct task *k;
	struct task_ev *e;

	/* as gather_rows: of one interval, of processes */
	if (m->o.accumulate || m->o.threads || !(k = wanted(m, r)))
		return;
	e = k->proc->ev;
	e->want_round = m->round;
}

void gather_context(struct monitor *m, struct task *k,
		    const struct procinfo_context *c)
{
	struct task_ev *e = k->proc ? k->proc->ev : NULL;

	/* only one whose evidence is read this round (gather_expect) */
	if (!e || e->want_round != m->round)
		return;
	if (c->status) {
		taskev_parse_cpu(c->status, &e->cpu);
		e->cpu_round = m->round;
	}
	/* one reading of its IO a round: the row's and the evidence's */
	if (c->io.read_bytes.have || c->io.rchar.have) {
		e->io = c->io;
		e->io_round = m->round;
	}
}

const struct diskstats *gather_disks(const struct monitor *m)
{
	const struct gather *g = m->gather;

	return g && g->have_disks && g->disks_round == m->round ?
	       &g->disks_cur : NULL;
}

void gather_new_round(struct monitor *m)
{
	cgtable_prune(m->cgt, m->round);
}

/* The evidence of cgroup row c, from its path in each hierarchy. */
static void gather_cgroup(struct monitor *m, struct gather *g,
			  struct cgroup_row *c)
{
	struct evidence_dirs d = EVIDENCE_DIRS_NONE;
	struct store_evidence read = { .cgroup = NULL };
	const struct diskstats *prev, *cur;

	d.proc = g->proc;
	d.cpu_sys = g->cpu_sys;
	disks_of(m, g, &prev, &cur);
	cgdirs_open(m->cgl, c->path, &d);
	cgtable_why_gather(m->cgt, m->ts, c, &d, system_of(m, g), m->round,
			   m->sample_dt, prev, cur, &read);
	cgdirs_close(&d);
	if (m->whole && read.cgroup)
		storesample_push_evidence(m->whole, &read);
}

void gather_cgroups(struct monitor *m, struct cgroup_row *rows, size_t n)
{
	struct gather *g;
	bool io = false;

	/* cgroup rows are paths of the tree; evidence is of one interval */
	if (m->o.accumulate || !cgsum_used(m) || !m->cgt || !n ||
	    !(g = gather_get(m)))
		return;
	for (size_t i = 0; i < n; i++)
		if (rowwhy_wanted(rows[i].d) &&
		    !cgtable_why_have(m->cgt, &rows[i], m->round) &&
		    rowwhy_stalled(&rows[i].d[CAT_IO]))
			io = true;
	if (io)
		read_disks(m, g);
	for (size_t i = 0; i < n; i++)
		if (rowwhy_wanted(rows[i].d) && rows[i].path)
			gather_cgroup(m, g, &rows[i]);
}

/*
 * The groups a base reading takes: those the first interval's causes of
 * any category but wpcopy need (the cgroups' parts are read once for all
 * the processes in them), and wpcopy's where the process stalled on it
 * (its private memory is a walk of its mappings).
 */
static unsigned base_wants(const struct row *r)
{
	return EVIDENCE_WANT(EVIDENCE_CPU) | EVIDENCE_WANT(EVIDENCE_MEMORY) |
	       EVIDENCE_WANT(EVIDENCE_IO) | EVIDENCE_WANT(EVIDENCE_STATES) |
	       rowwhy_wants(r->d);
}

void gather_base_pick(struct monitor *m, const struct row *rows, size_t n)
{
	struct gather *g;

	if (m->o.accumulate || m->o.threads || !(g = gather_get(m)))
		return;
	g->nbase = 0;
	for (size_t i = 0; i < n && g->nbase < GATHER_BASE_MAX; i++) {
		if (rows[i].flags & ROW_EXITED || !rowwhy_wanted(rows[i].d))
			continue;
		if (!g->base && !(g->base = malloc(GATHER_BASE_MAX *
						   sizeof(*g->base))))
			return;
		g->base[g->nbase].pid = rows[i].pid;
		g->base[g->nbase++].want = base_wants(&rows[i]);
	}
}

/* The live process of a base entry, with its evidence state. */
static struct task *base_task(struct monitor *m, pid_t pid)
{
	struct task *k = tasktable_find(m->procs, pid);

	if (!k || k->exited)
		return NULL;
	if (!k->proc->ev && !(k->proc->ev = calloc(1, sizeof(struct task_ev))))
		return NULL;
	return k;
}

void gather_base_read(struct monitor *m)
{
	struct gather *g = m->gather;
	struct task *k;
	struct cgtable *t;
	const char *cgroups;
	bool io = false;

	if (!g || !g->nbase || m->o.accumulate || m->o.threads) {
		if (g)
			g->nbase = 0;
		return;
	}
	/* each cgroup read once, with all its processes' groups */
	for (size_t i = 0; i < g->nbase; i++) {
		if (g->base[i].want & EVIDENCE_WANT(EVIDENCE_IO))
			io = true;
		if ((k = base_task(m, g->base[i].pid)) &&
		    (cgroups = cgroups_of(m, g, k)) && (t = table_of(m, g)))
			cgtable_members_expect(t, cgroups, m->round,
					       g->base[i].want);
	}
	/* the disks the first interval's are counted from */
	if (io)
		read_disks(m, g);
	for (size_t i = 0; i < g->nbase; i++) {
		struct store_evidence ev;
		struct rowev_input in = input_of(m, g);

		if (!(k = base_task(m, g->base[i].pid)))
			continue;
		read_one(m, g, k, g->base[i].want, &ev);
		rowev_base(&((struct task_ev *)k->proc->ev)->st, &ev, &in);
		if (m->whole)
			storesample_push_evidence(m->whole, &ev);
	}
	g->nbase = 0;
}
