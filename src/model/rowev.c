/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A row's evidence and causes from sample to sample (rowev.h).
 */
#include <config.h>

#include <string.h>

#include "model/evorigin.h"
#include "model/rowev.h"
#include "model/rowwhy.h"

bool rowev_have(const struct rowev_state *s, uint64_t round)
{
	return s->have_why && s->why_round == round;
}

/* The cgroups' part of a reading (cpu, mem, io, states) cleared. */
static void without_cgroups(struct evidence_reading *r)
{
	static const struct evidence_reading none;

	r->cpu = none.cpu;
	r->mem = none.mem;
	r->io = none.io;
	r->states = none.states;
}

/* The text of a process's cgroups as rowev_state keeps it. */
static uint64_t cgroups_hash(const char *text)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (const unsigned char *p = (const unsigned char *)text; *p; p++)
		h = (h ^ *p) * 0x100000001b3ull;
	return h;
}

/*
 * The cgroups' part of the groups a row did not want cleared: the live
 * side reads a cgroup's part once a sample for all its processes, so a
 * process's reading may hold a group another one wanted; that is not a
 * reading taken for this row (want 0: every group).
 */
static void only_wanted(struct evidence_reading *r, unsigned want)
{
	static const struct evidence_reading none;

	if (!want)
		return;
	if (!(want & EVIDENCE_WANT(EVIDENCE_CPU)))
		r->cpu = none.cpu;
	if (!(want & EVIDENCE_WANT(EVIDENCE_MEMORY)))
		r->mem = none.mem;
	if (!(want & EVIDENCE_WANT(EVIDENCE_IO)))
		r->io = none.io;
	if (!(want & EVIDENCE_WANT(EVIDENCE_STATES)))
		r->states = none.states;
}

/* cur becomes the reading before of the next sample. */
static void keep(struct rowev_state *s, const struct store_evidence *cur,
		 const struct rowev_input *in, unsigned want)
{
	s->prev = cur->r;
	s->prev_round = in->round;
	s->prev_lost = in->lost;
	s->prev_want = want;
	s->have_prev = true;
	s->prev_cgroups_known = cur->cgroups != NULL;
	if (s->prev_cgroups_known)
		s->prev_cgroups = cgroups_hash(cur->cgroups);
	s->why_round = in->round;
	s->have_why = true;
}

/*
 * The evidence of row figures d over in's window. The disks only for a
 * row stalled on IO: the live side reads them in a sample only when a
 * row of it is (live/gather.c), after rows that are not may have been
 * made; so no row sees disks that a replay's would not.
 */
static void interval_of(const struct evidence_reading *prev,
			const struct evidence_reading *cur,
			const struct rowev_input *in,
			const struct cat_figure *d, struct evidence *out)
{
	bool io = rowwhy_stalled(&d[CAT_IO]);

	evidence_interval(prev, cur, io ? in->disks_prev : NULL,
			  io ? in->disks_cur : NULL, out);
}

/* Whether the reading before is of the sample before this one. */
static bool follows(const struct rowev_state *s, const struct rowev_input *in)
{
	return s->have_prev && s->prev_round + 1 == in->round;
}

const struct row_why *rowev_task(struct rowev_state *s,
				 const struct store_evidence *cur,
				 const struct rowev_input *in,
				 const struct row *r)
{
	bool prev_ok = follows(s, in);
	bool why_ok = s->have_why && s->why_round + 1 == in->round;
	struct evidence_reading prev = s->prev;

	/* the groups read for it the sample before, no other */
	only_wanted(&prev, s->prev_want);
	/* forks are counted from fork events: none may have been lost */
	if (prev_ok && s->prev_lost != in->lost)
		prev.forks.have = false;
	/* the cgroups' part: of the same cgroups only */
	if (!(cur->cgroups && s->prev_cgroups_known &&
	      cgroups_hash(cur->cgroups) == s->prev_cgroups))
		without_cgroups(&prev);
	interval_of(prev_ok ? &prev : NULL, &cur->r, in, r->d, &s->why.ev);
	evorigin_task(cur->cgroups, &s->why.ev);
	s->why.ev.have_nice = r->ctx.have & CTX_NICE;
	s->why.ev.nice = r->ctx.nice;
	rowwhy_eval(&s->why, r->d, r->total_pct, r->have_cpu_pct, r->cpu_pct,
		    in->interval, why_ok ? rowwhy_first(&s->why) : WHY_NONE);
	keep(s, cur, in, rowwhy_wants(r->d));
	return &s->why;
}

void rowev_base(struct rowev_state *s, const struct store_evidence *cur,
		const struct rowev_input *in)
{
	/* every group its reading holds: what was read of its cgroups */
	keep(s, cur, in, 0);
	/* no causes of its own: the next sample's are of its interval */
	s->have_why = false;
	memset(&s->why, 0, sizeof(s->why));
}

const struct row_why *rowev_cgroup(struct rowev_state *s,
				   const struct store_evidence *cur,
				   const struct rowev_input *in,
				   const struct cgroup_row *g)
{
	bool prev_ok = follows(s, in);

	interval_of(prev_ok ? &s->prev : NULL, &cur->r, in, g->d, &s->why.ev);
	evorigin_cgroup(cur->cgroup, &s->why.ev);
	rowwhy_eval(&s->why, g->d, g->total_pct, false, 0, in->interval,
		    prev_ok ? rowwhy_first(&s->why) : WHY_NONE);
	keep(s, cur, in, 0);
	return &s->why;
}
