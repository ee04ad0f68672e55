/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The producer interface's dispatch: each helper calls the producer's own
 * operation, or answers for one that it does not have. Also what every
 * producer shares: the callbacks, the notices, growing a row array.
 */
#include <config.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model/producer.h"

int producer_sample(struct producer *p, struct sample *out)
{
	return p->ops->sample(p, out);
}

void producer_fill_status(struct producer *p, struct row *rows, size_t n)
{
	if (p->ops->fill_status)
		p->ops->fill_status(p, rows, n);
}

void producer_fill_cgroups(struct producer *p, struct cgroup_row *rows,
			   size_t n)
{
	if (p->ops->fill_cgroups)
		p->ops->fill_cgroups(p, rows, n);
}

void producer_set_threads(struct producer *p, bool threads, pid_t only_tgid)
{
	p->ops->set_threads(p, threads, only_tgid);
}

bool producer_measures(const struct producer *p)
{
	return p->ops->enable_delayacct != NULL;
}

int producer_enable_delayacct(struct producer *p)
{
	if (!p->ops->enable_delayacct) {
		errno = ENOTSUP;
		return -1;
	}
	return p->ops->enable_delayacct(p);
}

bool producer_can_act(const struct producer *p)
{
	return p->ops->act != NULL;
}

int producer_act(struct producer *p, struct producer_act *a)
{
	a->done = 0;
	if (!p->ops->act) {
		errno = ENOTSUP;
		return -1;
	}
	return p->ops->act(p, a);
}

int producer_prio(struct producer *p, const struct producer_act *who,
		  struct producer_prio *out)
{
	*out = (struct producer_prio){ .io_level = -1 };
	if (!p->ops->prio) {
		errno = ENOTSUP;
		return -1;
	}
	return p->ops->prio(p, who, out);
}

int producer_set_accumulate(struct producer *p, bool accumulate)
{
	if (!p->ops->set_accumulate) {
		errno = ENOTSUP;
		return -1;
	}
	p->ops->set_accumulate(p, accumulate);
	return 0;
}

bool producer_can_accumulate(const struct producer *p)
{
	return p->ops->set_accumulate != NULL;
}

int producer_set_interval(struct producer *p, double seconds)
{
	if (!p->ops->set_interval) {
		errno = ENOTSUP;
		return -1;
	}
	p->ops->set_interval(p, seconds);
	return 0;
}

bool producer_sets_interval(const struct producer *p)
{
	return p->ops->set_interval != NULL;
}

bool producer_makes_threads(const struct producer *p)
{
	return p->ops->makes_threads;
}

int producer_set_cgroups(struct producer *p, bool on)
{
	return p->ops->set_cgroups(p, on);
}

void producer_on_trigger(struct producer *p, void (*cb)(void *), void *arg)
{
	p->trigger_cb = cb;
	p->trigger_arg = arg;
}

void producer_on_sample(struct producer *p,
			void (*cb)(const struct sample *, void *), void *arg)
{
	p->sample_cb = cb;
	p->sample_arg = arg;
}

bool producer_seekable(const struct producer *p)
{
	return p->ops->step != NULL;
}

const struct store_sample *producer_readings(struct producer *p)
{
	return p->ops->readings ? p->ops->readings(p) : NULL;
}

bool producer_finite(const struct producer *p)
{
	return p->ops->done != NULL;
}

void producer_step(struct producer *p, long delta)
{
	if (p->ops->step)
		p->ops->step(p, delta);
}

void producer_jump(struct producer *p, double epoch)
{
	if (p->ops->jump)
		p->ops->jump(p, epoch);
}

void producer_pause(struct producer *p, bool pause)
{
	if (p->ops->pause)
		p->ops->pause(p, pause);
}

bool producer_paused(const struct producer *p)
{
	return p->ops->paused && p->ops->paused(p);
}

bool producer_position(const struct producer *p, size_t *index,
		       size_t *count)
{
	return p->ops->position && p->ops->position(p, index, count);
}

bool producer_done(const struct producer *p)
{
	return p->ops->done && p->ops->done(p);
}

bool producer_damaged(const struct producer *p)
{
	return p->ops->damaged && p->ops->damaged(p);
}

const char *producer_words(const struct producer *p, enum producer_words w)
{
	return p->ops->words ? p->ops->words(p, w) : NULL;
}

const char *producer_refusal(const struct producer *p, enum producer_words w)
{
	const char *text = producer_words(p, w);
	return text ? text : strerror(ENOTSUP);
}

const char *const *producer_notices(const struct producer *p)
{
	return (const char *const *)p->notices;
}

void producer_notice(struct producer *p, const char *text)
{
	for (int i = 0; i < p->nnotices; i++)
		if (strcmp(p->notices[i], text) == 0)
			return;
	if (p->nnotices < PRODUCER_MAX_NOTICES) {
		char *copy = strdup(text);
		if (copy)
			p->notices[p->nnotices++] = copy;
	}
	p->notices[p->nnotices] = NULL;
}

void producer_notice_first(struct producer *p, const char *text)
{
	producer_notice(p, text);
	for (int i = 1; i < p->nnotices; i++) {
		if (strcmp(p->notices[i], text) != 0)
			continue;
		char *t = p->notices[i];
		memmove(&p->notices[1], &p->notices[0],
			(size_t)i * sizeof(p->notices[0]));
		p->notices[0] = t;
		break;
	}
}

void producer_notice_replace(struct producer *p, const char *old,
			     const char *text)
{
	for (int i = 0; old && i < p->nnotices; i++) {
		if (strcmp(p->notices[i], old) != 0)
			continue;
		char *copy = strdup(text);
		if (!copy)
			return;
		free(p->notices[i]);
		p->notices[i] = copy;
		return;
	}
	producer_notice(p, text);
}

void producer_on_note(struct producer *p, void (*cb)(const char *, void *),
		      void *arg)
{
	p->note_cb = cb;
	p->note_arg = arg;
}

void producer_note(struct producer *p, const char *text)
{
	if (p->note_cb)
		p->note_cb(text, p->note_arg);
}

struct row *producer_push_row(struct row **v, size_t *n, size_t *cap)
{
	if (*n == *cap) {
		size_t nc = *cap ? *cap * 2 : 256;
		struct row *r = realloc(*v, nc * sizeof(*r));
		if (!r)
			return NULL;
		*v = r;
		*cap = nc;
	}
	struct row *r = &(*v)[(*n)++];
	memset(r, 0, sizeof(*r));
	return r;
}

/* Free what every producer has, then the producer's own. */
void producer_free(struct producer *p)
{
	if (!p)
		return;
	for (int i = 0; i < p->nnotices; i++)
		free(p->notices[i]);
	p->ops->free(p);
}
