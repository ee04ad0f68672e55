/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One task life as the keepers of task states name it (the model object,
 * model/engine.c; -d's span, record/coarse.c): processes before thread
 * readings, then by id, start and life (store/reading.h).
 */
#ifndef STALLTOP_TASKLIFE_H
#define STALLTOP_TASKLIFE_H

#include <stdbool.h>
#include <stdint.h>

struct tasklife {
	bool thread;              /* a thread reading (thread_tasks) */
	int32_t id;
	uint64_t start;
	uint32_t life;            /* with id and start: one life */
};

/* The order of structs that begin with a struct tasklife (tsearch). */
static inline int tasklife_cmp(const void *x, const void *y)
{
	const struct tasklife *a = x, *b = y;

	if (a->thread != b->thread)
		return a->thread ? 1 : -1;
	if (a->id != b->id)
		return a->id < b->id ? -1 : 1;
	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	return (a->life > b->life) - (a->life < b->life);
}

#endif
