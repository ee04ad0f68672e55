/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Process details through libproc2. Three item lists, one per use, so
 * that each read opens only the /proc files it needs.
 */
#include <config.h>

#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libproc2/pids.h>

#include "procinfo.h"

/* libproc2 takes at most this many ids per select call. */
#define PI_SELECT_MAX 250

struct user_entry {
	uid_t uid;
	char *name;
};

struct procinfo {
	struct user_entry *users;
	size_t nusers;
	struct pids_info *scan;
	struct pids_info *full;
	struct pids_info *brief;
};

enum scan_rel { S_PID, S_TGID, S_START };
static enum pids_item scan_items[] = { PIDS_ID_PID, PIDS_ID_TGID, PIDS_TICS_BEGAN };

enum full_rel { F_PID, F_TGID, F_PPID, F_START, F_STATE, F_NLWP, F_CMD,
		F_CMDLINE, F_EUID, F_EUSER };
static enum pids_item full_items[] = {
	PIDS_ID_PID, PIDS_ID_TGID, PIDS_ID_PPID, PIDS_TICS_BEGAN, PIDS_STATE,
	PIDS_NLWP, PIDS_CMD, PIDS_CMDLINE, PIDS_ID_EUID, PIDS_ID_EUSER
};

enum brief_rel { B_PID, B_TGID, B_PPID, B_START, B_STATE, B_NLWP };
static enum pids_item brief_items[] = {
	PIDS_ID_PID, PIDS_ID_TGID, PIDS_ID_PPID, PIDS_TICS_BEGAN, PIDS_STATE,
	PIDS_NLWP
};

#define NITEMS(a) ((int)(sizeof(a) / sizeof((a)[0])))

struct procinfo *pi_new(void)
{
	struct procinfo *pi = calloc(1, sizeof(*pi));
	if (!pi)
		return NULL;
	if (procps_pids_new(&pi->scan, scan_items, NITEMS(scan_items)) < 0 ||
	    procps_pids_new(&pi->full, full_items, NITEMS(full_items)) < 0 ||
	    procps_pids_new(&pi->brief, brief_items, NITEMS(brief_items)) < 0) {
		pi_free(pi);
		return NULL;
	}
	return pi;
}

void pi_free(struct procinfo *pi)
{
	if (!pi)
		return;
	if (pi->scan)
		procps_pids_unref(&pi->scan);
	if (pi->full)
		procps_pids_unref(&pi->full);
	if (pi->brief)
		procps_pids_unref(&pi->brief);
	for (size_t i = 0; i < pi->nusers; i++)
		free(pi->users[i].name);
	free(pi->users);
	free(pi);
}

static void emit_tasks(struct pids_fetch *f, pi_task_cb cb, void *arg)
{
	for (int i = 0; i < f->counts->total; i++) {
		struct pids_stack *s = f->stacks[i];
		struct pi_task t = {
			.pid = PIDS_VAL(S_PID, s_int, s, NULL),
			.tgid = PIDS_VAL(S_TGID, s_int, s, NULL),
			.start = PIDS_VAL(S_START, ull_int, s, NULL),
		};
		cb(&t, arg);
	}
}

int pi_scan(struct procinfo *pi, bool threads, pi_task_cb cb, void *arg)
{
	struct pids_fetch *f = procps_pids_reap(pi->scan,
		threads ? PIDS_FETCH_THREADS_TOO : PIDS_FETCH_TASKS_ONLY);
	if (!f)
		return -1;
	emit_tasks(f, cb, arg);
	return f->counts->total;
}

/*
 * libproc2 selects at most PI_SELECT_MAX ids per call: walk them in chunks
 * and hand each fetch to emit.
 */
static int select_chunks(struct pids_info *info, const pid_t *ids, size_t n,
			 enum pids_select_type which,
			 void (*emit)(struct pids_fetch *, void *), void *ctx)
{
	int total = 0;
	for (size_t at = 0; at < n; at += PI_SELECT_MAX) {
		unsigned sel[PI_SELECT_MAX];
		size_t k = n - at < PI_SELECT_MAX ? n - at : PI_SELECT_MAX;
		for (size_t i = 0; i < k; i++)
			sel[i] = (unsigned)ids[at + i];
		struct pids_fetch *f = procps_pids_select(info, sel, (int)k, which);
		if (!f)
			return -1;
		emit(f, ctx);
		total += f->counts->total;
	}
	return total;
}

struct emit_ctx {
	pi_task_cb task_cb;
	pi_details_cb details_cb;
	bool full;
	void *arg;
};

static void emit_tasks_chunk(struct pids_fetch *f, void *ctx)
{
	struct emit_ctx *c = ctx;
	emit_tasks(f, c->task_cb, c->arg);
}

int pi_threads(struct procinfo *pi, const pid_t *tgids, size_t n,
	       pi_task_cb cb, void *arg)
{
	struct emit_ctx c = { .task_cb = cb, .arg = arg };
	return select_chunks(pi->scan, tgids, n, PIDS_SELECT_PID_THREADS,
			     emit_tasks_chunk, &c);
}

static void emit_details(struct pids_fetch *f, bool full, pi_details_cb cb,
			 void *arg)
{
	for (int i = 0; i < f->counts->total; i++) {
		struct pids_stack *s = f->stacks[i];
		struct pi_details d = { 0 };
		if (full) {
			d.pid = PIDS_VAL(F_PID, s_int, s, NULL);
			d.tgid = PIDS_VAL(F_TGID, s_int, s, NULL);
			d.ppid = PIDS_VAL(F_PPID, s_int, s, NULL);
			d.start = PIDS_VAL(F_START, ull_int, s, NULL);
			d.state = PIDS_VAL(F_STATE, s_ch, s, NULL);
			d.threads = PIDS_VAL(F_NLWP, s_int, s, NULL);
			d.comm = PIDS_VAL(F_CMD, str, s, NULL);
			d.cmdline = PIDS_VAL(F_CMDLINE, str, s, NULL);
			d.uid = PIDS_VAL(F_EUID, u_int, s, NULL);
			d.user = PIDS_VAL(F_EUSER, str, s, NULL);
			/* libproc2 shows an empty command line as "-" */
			if (d.cmdline && strcmp(d.cmdline, "-") == 0)
				d.cmdline = "";
		} else {
			d.pid = PIDS_VAL(B_PID, s_int, s, NULL);
			d.tgid = PIDS_VAL(B_TGID, s_int, s, NULL);
			d.ppid = PIDS_VAL(B_PPID, s_int, s, NULL);
			d.start = PIDS_VAL(B_START, ull_int, s, NULL);
			d.state = PIDS_VAL(B_STATE, s_ch, s, NULL);
			d.threads = PIDS_VAL(B_NLWP, s_int, s, NULL);
			d.uid = (uid_t)-1;
		}
		cb(&d, arg);
	}
}

static void emit_details_chunk(struct pids_fetch *f, void *ctx)
{
	struct emit_ctx *c = ctx;
	emit_details(f, c->full, c->details_cb, c->arg);
}

int pi_details(struct procinfo *pi, const pid_t *ids, size_t n, bool full,
	       pi_details_cb cb, void *arg)
{
	struct emit_ctx c = { .details_cb = cb, .full = full, .arg = arg };
	return select_chunks(full ? pi->full : pi->brief, ids, n,
			     PIDS_SELECT_PID, emit_details_chunk, &c);
}

long pi_hertz(void)
{
	static long hz;
	if (!hz) {
		hz = sysconf(_SC_CLK_TCK);
		if (hz <= 0)
			hz = 100;
	}
	return hz;
}

const char *pi_user_name(struct procinfo *pi, uid_t uid)
{
	for (size_t i = 0; i < pi->nusers; i++)
		if (pi->users[i].uid == uid)
			return pi->users[i].name;
	char buf[32];
	const char *name = buf;
	struct passwd *pw = getpwuid(uid);
	if (pw)
		name = pw->pw_name;
	else
		snprintf(buf, sizeof(buf), "%u", (unsigned)uid);
	struct user_entry *n = realloc(pi->users,
				       (pi->nusers + 1) * sizeof(*n));
	char *copy = strdup(name);
	if (!n || !copy) {
		free(copy);
		if (n)
			pi->users = n;
		return "?";
	}
	pi->users = n;
	pi->users[pi->nusers].uid = uid;
	pi->users[pi->nusers].name = copy;
	return pi->users[pi->nusers++].name;
}
