/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A task's figures from its readings: the model's one derivation. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "model/categories.h"
#include "model/derive.h"

_Static_assert(READING_NCAT == NCAT,
	       "a reading holds every category of the table");

/* -a's window of one task (derive_state.acc). */
struct derive_acc {
	struct delta iv;     /* the window so far */
	uint64_t round;      /* the sample last added to it */
	bool have;           /* iv holds a window */
};

/* Reading r as the kernel's reading delta_interval() takes. */
static void ts_of(const struct task_reading *r, struct ts_reading *t)
{
	memset(t, 0, sizeof(*t));
	t->kind = (r->flags & READING_OWN) ? TS_KIND_PID : TS_KIND_TGID;
	t->id = (uint32_t)r->id;
	t->run_ns = r->run_ns;
	t->have = r->have;
	t->have_max = r->have_max;
	t->have_max_at = r->have_max_at;
	t->no_count = r->no_count;
	for (int c = 0; c < NCAT; c++) {
		t->d[c].count = r->d[c].count;
		t->d[c].total_ns = r->d[c].total_ns;
		t->d[c].max_ns = r->d[c].max_ns;
		t->d[c].max_at = r->max_at[c];
	}
}

/* What bounds the figures of r (delta.h). */
static void bounds(const struct derive_state *s, const struct task_reading *r,
		   const struct derive_window *w, struct delta_bounds *b)
{
	b->cats = r->cats;
	b->age = r->age;
	b->thread = r->flags & READING_ONE;
	for (int c = 0; c < NCAT; c++)
		b->since[c] = s->wait_lo[c] > 0 && r->at > s->wait_lo[c] ?
			      r->at - s->wait_lo[c] : 0;
	b->threads = r->threads > 0 ? r->threads : 0;
	b->from = w->from;
	b->to = w->to;
	b->unstamped = r->flags & READING_UNSTAMPED;
}

/* Two readings into a checked interval; the waits it counted dated. */
static void moved(struct derive_state *s, const struct task_reading *r,
		  const struct derive_window *w, struct delta *iv)
{
	struct delta_bounds b;
	struct ts_reading prev, cur;

	bounds(s, r, w, &b);
	delta_base_reading(&s->prev, &prev);
	ts_of(r, &cur);
	delta_interval(&prev, &cur, &b, iv);
	/* a wait counted now ended after the previous reading began */
	double ended_after = s->prev_at > r->born ? s->prev_at : r->born;
	for (int c = 0; c < NCAT; c++) {
		const struct delta_cat *d = &iv->d[c];
		if ((d->flags & DELTA_AVAIL) &&
		    ((d->flags & DELTA_COUNT) ? d->count > 0 : d->total_ns > 0))
			s->wait_lo[c] = ended_after;
	}
}

void derive_from_zero(struct derive_state *s)
{
	memset(&s->prev, 0, sizeof(s->prev));
	s->have_prev = true;
}

bool derive_interval(struct derive_state *s, const struct task_reading *r,
		     const struct derive_window *w, struct delta *iv)
{
	bool fresh = r && s->have_prev;
	/*
	 * The window keeps what it had when nothing new came: no reading,
	 * a baseline only, or this sample added already.
	 */
	if (w->accumulate && s->acc && s->acc->have &&
	    (!fresh || s->acc->round == w->round)) {
		*iv = s->acc->iv;
		return true;
	}
	if (!fresh)
		return false;
	if (r->flags & READING_CARRIED) {
		/* carried over unasked: nothing moved, nothing to check */
		delta_still(&s->prev, r->cats, iv);
	} else {
		moved(s, r, w, iv);
	}
	if (w->accumulate) {
		if (!s->acc && !(s->acc = calloc(1, sizeof(*s->acc))))
			return true; /* this interval alone, for want of memory */
		delta_accumulate(&s->acc->iv, !s->acc->have, iv);
		s->acc->have = true;
		s->acc->round = w->round;
		*iv = s->acc->iv;
	}
	return true;
}

/*
 * How long the task's threads lived in a window of dt seconds, summed
 * over them; 0 when unknown. A thread: the window, or its age if less.
 * A process: that times its threads, when their number is known to have
 * stayed the same.
 */
static double lived(const struct task_reading *r, double dt)
{
	double one = r->age > 0 && r->age < dt ? r->age : dt;
	if (r->flags & READING_ONE)
		return one;
	if (!(r->flags & READING_STEADY) || r->threads <= 0)
		return 0;
	return one * r->threads;
}

unsigned derive_figures(const struct delta *iv, const struct task_reading *r,
			const struct derive_window *w, struct row *row)
{
	double dt = w->accumulate ? w->now - w->start : w->dt;
	unsigned dropped = 0;

	delta_figures(iv, dt, lived(r, dt), row);
	row->age = w->now - r->first_seen;
	if (r->first_seen > w->prev_time)
		row->flags |= ROW_NEW;
	for (int c = 0; c < NCAT; c++)
		dropped += row->d[c].dropped;
	return dropped;
}

void derive_rebase(struct derive_state *s, const struct task_reading *r)
{
	/* a carried reading repeats the base: it stands */
	if (!(r->flags & READING_CARRIED)) {
		struct ts_reading t;
		ts_of(r, &t);
		delta_base_of(&t, &s->prev);
	}
	s->prev_at = r->asked_at;
	s->have_prev = true;
}

void derive_forget_window(struct derive_state *s)
{
	if (s->acc)
		s->acc->have = false;
}

void derive_free(struct derive_state *s)
{
	free(s->acc);
	s->acc = NULL;
}
