/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The monitor replaying a recording: samples come from the file instead
 * of the kernel, shaped as the view asks (process or thread rows, one
 * process's threads, a cgroup subtree), so views cannot tell the two apart.
 */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "kernel/cgroup.h"
#include "lib/nls.h"
#include "live/monitor_int.h"
#include "record/replay.h"

int monitor_replay_open(struct monitor *m, const char *path, char *err,
			size_t errsize)
{
	m->rp = replay_open(path, err, errsize);
	if (!m->rp)
		return -1;
	if (replay_problem(m->rp))
		monitor_notice(m, replay_problem(m->rp));
	if (!replay_count(m->rp)) {
		monitor_notice(m, _("the recording holds no sample"));
		m->rp_done = true;
	}
	return 0;
}

bool monitor_is_replay(const struct monitor *m)
{
	return m->rp != NULL;
}

static size_t clamp_index(const struct monitor *m, long i)
{
	size_t n = replay_count(m->rp);
	if (i < 0 || n == 0)
		return 0;
	return (size_t)i >= n ? n - 1 : (size_t)i;
}

void monitor_replay_step(struct monitor *m, long delta)
{
	if (m->rp)
		m->rp_next = clamp_index(m, (long)m->rp_shown + delta);
	m->rp_done = false;
}

void monitor_replay_jump(struct monitor *m, double epoch)
{
	if (m->rp)
		m->rp_next = replay_find_time(m->rp, epoch);
	m->rp_done = false;
}

void monitor_replay_pause(struct monitor *m, bool pause)
{
	m->rp_paused = pause;
	if (pause && m->rp)
		m->rp_next = m->rp_shown;
}

bool monitor_replay_paused(const struct monitor *m)
{
	return m->rp_paused;
}

bool monitor_replay_position(const struct monitor *m, size_t *index,
			     size_t *count)
{
	if (!m->rp)
		return false;
	*index = m->rp_shown;
	*count = replay_count(m->rp);
	return true;
}

bool monitor_replay_done(const struct monitor *m)
{
	return m->rp_done;
}

/* Does a recorded row belong in the view? */
static bool wanted(const struct monitor *m, const struct row *r)
{
	if (m->o.only_tgid && r->tgid != m->o.only_tgid)
		return false;
	return !m->o.cgroup_within ||
	       (r->cgroup && cgroup_path_within(r->cgroup, m->o.cgroup_within));
}

/*
 * Keep the recorded rows a view of this kind shows. The sample says
 * whether its rows are threads (-H): then they serve a view of threads
 * and, there being no process rows, a view of processes too. Else a view
 * of threads takes the recorded thread rows, if any.
 */
static void replay_rows(struct monitor *m, struct sample *out)
{
	const struct row *src = out->rows, *gone = out->exited;
	size_t n = out->nrows, ngone = out->nexited;
	bool threads = out->threads;
	if (m->o.threads && !threads) {
		src = out->thread_rows;
		n = src ? out->nthread_rows : 0;
		gone = out->thread_exited;
		ngone = gone ? out->nthread_exited : 0;
		threads = src != NULL;
	}
	m->nrows = m->nexited = 0;
	for (size_t i = 0; i < n; i++) {
		if (!wanted(m, &src[i]))
			continue;
		struct row *r = monitor_push_row(&m->rows, &m->nrows, &m->caprows);
		if (r)
			*r = src[i];
	}
	for (size_t i = 0; i < ngone; i++) {
		if (!wanted(m, &gone[i]))
			continue;
		struct row *r = monitor_push_row(&m->exited, &m->nexited, &m->capexited);
		if (r)
			*r = gone[i];
	}
	out->rows = m->rows;
	out->nrows = m->nrows;
	out->exited = m->exited;
	out->nexited = m->nexited;
	out->threads = threads;
}

int monitor_replay_sample(struct monitor *m, struct sample *out)
{
	size_t n = replay_count(m->rp);
	if (n == 0) {
		errno = ENODATA;
		return -1;
	}
	size_t i = m->rp_next < n ? m->rp_next : n - 1;
	/* a damaged line is skipped (in the direction we were going) */
	int step = i < m->rp_shown && m->rp_started ? -1 : 1;
	while (replay_get(m->rp, i, out) < 0) {
		if (errno != EBADMSG)
			return -1;
		if (replay_problem(m->rp))
			monitor_notice(m, replay_problem(m->rp));
		if ((step > 0 && i + 1 >= n) || (step < 0 && i == 0)) {
			m->rp_done = true;
			errno = ENODATA;
			return -1;
		}
		i = (size_t)((long)i + step);
	}
	m->rp_shown = i;
	m->rp_started = true;
	if (!m->rp_paused) {
		if (i + 1 < n)
			m->rp_next = i + 1;
		else
			m->rp_done = true;
	}
	replay_rows(m, out);
	return 0;
}

