/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The unprivileged source: delays from /proc when taskstats is out of reach. */
#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <search.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kernel/procfs.h"
#include "kernel/procinfo.h"
#include "kernel/procstat.h"

/*
 * What is kept of one task between two readings, by id (a tsearch tree):
 * a thread's last raw values, or a process's running totals. start is
 * the task's (its main thread's), to tell a reused id.
 */
struct ps_entry {
	pid_t id;
	unsigned long long start;  /* clock ticks since boot; 0 unknown */
	uint64_t seen;             /* the query that last saw it */
	struct ts_reading r;
};

struct procstat {
	int procfd;                 /* the /proc directory */
	void *threads;              /* last raw values per thread and start */
	void *procs;                /* running totals per process and start */
	uint64_t gen;
};

static int entry_cmp(const void *a, const void *b)
{
	pid_t x = ((const struct ps_entry *)a)->id;
	pid_t y = ((const struct ps_entry *)b)->id;
	return x < y ? -1 : x > y;
}

/*
 * The entry of (id, start) in *root: the one kept when its start matches
 * (or either is unknown), else a fresh one (*created) in place of one of
 * an earlier life of the id. NULL when out of memory.
 */
static struct ps_entry *entry_get(void **root, pid_t id,
				  unsigned long long start, bool *created)
{
	struct ps_entry key = { .id = id };
	struct ps_entry **found = tfind(&key, root, entry_cmp);
	*created = false;
	if (found) {
		struct ps_entry *e = *found;
		if (e->start == start || !start || !e->start) {
			if (!e->start)
				e->start = start;
			return e;
		}
		/* the id was reused: a new task */
		memset(e, 0, sizeof(*e));
		e->id = id;
		e->start = start;
		*created = true;
		return e;
	}
	struct ps_entry *e = calloc(1, sizeof(*e));
	if (!e)
		return NULL;
	e->id = id;
	e->start = start;
	if (!tsearch(e, root, entry_cmp)) {
		free(e);
		return NULL;
	}
	*created = true;
	return e;
}

/* The entries a walk found not seen by the latest query. */
struct stale_list {
	uint64_t gen;
	struct ps_entry **e;
	size_t n, cap;
};

static void collect_stale(const void *node, VISIT v, void *arg)
{
	struct stale_list *l = arg;
	struct ps_entry *e = *(struct ps_entry *const *)node;
	if ((v != postorder && v != leaf) || e->seen == l->gen)
		return;
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 64;
		struct ps_entry **p = realloc(l->e, cap * sizeof(*p));
		if (!p)
			return; /* kept until a later query */
		l->e = p;
		l->cap = cap;
	}
	l->e[l->n++] = e;
}

/* Forget the entries of *root that the query of gen did not see. */
static void forget_stale(void **root, uint64_t gen)
{
	struct stale_list l = { .gen = gen };
	twalk_r(*root, collect_stale, &l);
	for (size_t i = 0; i < l.n; i++) {
		tdelete(l.e[i], root, entry_cmp);
		free(l.e[i]);
	}
	free(l.e);
}

struct procstat *procstat_new(void)
{
	return procstat_new_at("/proc");
}

struct procstat *procstat_new_at(const char *proc)
{
	struct procstat *ps = calloc(1, sizeof(*ps));
	if (!ps)
		return NULL;
	ps->procfd = open(proc, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (ps->procfd < 0) {
		procstat_free(ps);
		return NULL;
	}
	return ps;
}

void procstat_free(struct procstat *ps)
{
	if (!ps)
		return;
	if (ps->procfd >= 0)
		close(ps->procfd);
	tdestroy(ps->threads, free);
	tdestroy(ps->procs, free);
	free(ps);
}

static int parse_u64(const char **p, uint64_t *out)
{
	const char *s = *p;
	while (*s == ' ')
		s++;
	if (*s < '0' || *s > '9')
		return -1;
	uint64_t v = 0;
	for (; *s >= '0' && *s <= '9'; s++) {
		uint64_t digit = (uint64_t)(*s - '0');
		if (v > (UINT64_MAX - digit) / 10)
			return -1;
		v = v * 10 + digit;
	}
	*p = s;
	*out = v;
	return 0;
}

int procstat_parse_schedstat(const char *text, uint64_t *run_ns, uint64_t *delay_ns,
		       uint64_t *count)
{
	const char *p = text;
	if (parse_u64(&p, run_ns) < 0 || parse_u64(&p, delay_ns) < 0 ||
	    parse_u64(&p, count) < 0)
		return -1;
	while (*p == ' ')
		p++;
	return *p == '\n' || *p == '\0' ? 0 : -1;
}

struct raw {
	char comm[TS_COMM_BYTES + 1]; /* the task's name, "" unknown */
	bool have_cpu;
	uint64_t run, delay, count;
	bool have_io;
	unsigned long long start, blkio;
};

/* Read one task's files below dirfd (/proc/PID or /proc/PID/task/TID). */
static int read_raw(int dirfd, struct raw *r)
{
	char buf[1024];
	struct procfs_stat st;
	memset(r, 0, sizeof(*r));
	if (procfs_read(dirfd, "stat", buf, sizeof(buf)) < 0)
		return -1;
	if (procfs_parse_stat(buf, &st) == 0 && st.have_start) {
		r->start = st.start;
		size_t n = strnlen(st.comm, sizeof(r->comm) - 1);
		memcpy(r->comm, st.comm, n);
		r->comm[n] = '\0';
		r->blkio = st.blkio_ticks;
		r->have_io = st.have_blkio;
	}
	if (procfs_read(dirfd, "schedstat", buf, sizeof(buf)) >= 0 &&
	    procstat_parse_schedstat(buf, &r->run, &r->delay, &r->count) == 0)
		r->have_cpu = true;
	return 0;
}

static void to_reading(const struct raw *w, struct ts_reading *r)
{
	long hz = procinfo_hertz();
	if (w->have_cpu) {
		r->have |= 1u << TS_DELAY_CPU;
		r->d[TS_DELAY_CPU].count += w->count;
		/* whole microseconds, as taskstats' (ts_decode.h) */
		r->d[TS_DELAY_CPU].total_ns += ts_time_res(w->delay);
		r->run_ns += ts_time_res(w->run);
	}
	if (w->have_io) {
		r->have |= 1u << TS_DELAY_BLKIO;
		r->no_count |= 1u << TS_DELAY_BLKIO;
		r->d[TS_DELAY_BLKIO].total_ns +=
			ts_time_res(w->blkio * (1000000000ULL / (uint64_t)hz));
	}
}

static int query_thread(struct procstat *ps, uint32_t tid,
			struct ts_reading *r)
{
	char path[32];
	snprintf(path, sizeof(path), "%u", tid);
	int dirfd = openat(ps->procfd, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0)
		return -1;
	struct raw w;
	int rc = read_raw(dirfd, &w);
	close(dirfd);
	if (rc < 0)
		return -1;
	to_reading(&w, r);
	memcpy(r->comm, w.comm, sizeof(r->comm));
	r->threads = 1;
	return 0;
}

static uint64_t grow(uint64_t prev, uint64_t cur)
{
	return cur >= prev ? cur - prev : 0;
}

/*
 * Add one thread's growth since the last reading to its process's
 * running totals acc. A thread seen for the first time adds all it has
 * when the process is known (it started since), nothing otherwise (the
 * totals start from the threads' sum).
 */
static void add_thread(struct procstat *ps, struct ts_reading *acc, bool known,
		       pid_t tid, const struct raw *w)
{
	bool tnew;
	struct ps_entry *t = entry_get(&ps->threads, tid, w->start, &tnew);
	if (!t)
		return;
	t->seen = ps->gen;
	struct ts_reading now = { 0 };
	to_reading(w, &now);
	static const struct ts_reading zero;
	const struct ts_reading *base = &t->r;
	if (tnew)
		base = known ? &zero : &now;
	acc->have |= now.have;
	acc->no_count |= now.no_count;
	acc->run_ns += grow(base->run_ns, now.run_ns);
	for (int c = 0; c < TS_NDELAY; c++) {
		acc->d[c].count += grow(base->d[c].count, now.d[c].count);
		acc->d[c].total_ns += grow(base->d[c].total_ns, now.d[c].total_ns);
	}
	if (tnew && !known) {
		/* the first reading: totals start from the sum */
		acc->run_ns += now.run_ns;
		for (int c = 0; c < TS_NDELAY; c++) {
			acc->d[c].count += now.d[c].count;
			acc->d[c].total_ns += now.d[c].total_ns;
		}
	}
	t->r = now;
}

/*
 * A process: its running totals, kept per pid and start time (the main
 * thread's), so that a new process with the pid of one that ended starts
 * from its own threads and never continues the old one's totals.
 */
static int query_process(struct procstat *ps, uint32_t tgid,
			 struct ts_reading *out)
{
	char path[32];
	snprintf(path, sizeof(path), "%u/task", tgid);
	int taskfd = openat(ps->procfd, path, O_RDONLY | O_DIRECTORY |
			    O_CLOEXEC);
	if (taskfd < 0)
		return -1;
	/* the main thread first: its start is the process's */
	struct raw lead = { .comm = "" };
	bool have_lead = false;
	snprintf(path, sizeof(path), "%u", tgid);
	int fd = openat(taskfd, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		have_lead = read_raw(fd, &lead) == 0;
		close(fd);
	}
	DIR *d = fdopendir(taskfd);
	if (!d) {
		close(taskfd);
		return -1;
	}
	bool created;
	struct ps_entry *p = entry_get(&ps->procs, (pid_t)tgid,
				       have_lead ? lead.start : 0, &created);
	if (!p) {
		closedir(d);
		return -1;
	}
	bool known = !created;
	struct ts_reading *acc = &p->r;
	uint32_t nthreads = 0;
	if (have_lead) {
		add_thread(ps, acc, known, (pid_t)tgid, &lead);
		nthreads++;
	}
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		pid_t tid = (pid_t)atoi(e->d_name);
		if (have_lead && tid == (pid_t)tgid)
			continue;
		fd = openat(taskfd, e->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0)
			continue;
		struct raw w;
		int rc = read_raw(fd, &w);
		close(fd);
		if (rc < 0)
			continue;
		add_thread(ps, acc, known, tid, &w);
		nthreads++;
	}
	closedir(d);
	if (nthreads == 0) {
		/* every thread ended since the directory was opened: gone */
		return -1;
	}
	p->seen = ps->gen;
	/*
	 * Only the threads there now add to the totals: where the main
	 * thread was alone at every reading, every wait counted is its own.
	 */
	bool alone = have_lead && nthreads == 1;
	acc->one_thread = created ? alone : acc->one_thread && alone;
	*out = *acc;
	/* the process's name is its main thread's */
	memcpy(out->comm, lead.comm, sizeof(out->comm));
	out->threads = nthreads;
	return 0;
}

int procstat_query(struct procstat *ps, enum ts_kind kind, const uint32_t *ids,
	     size_t n, ts_reading_cb cb, void *arg, size_t *vanished)
{
	size_t gone = 0;
	ps->gen++;
	for (size_t i = 0; i < n; i++) {
		struct ts_reading r = { 0 };
		int rc = kind == TS_KIND_TGID ? query_process(ps, ids[i], &r)
					      : query_thread(ps, ids[i], &r);
		if (rc < 0) {
			gone++;
			continue;
		}
		r.kind = kind;
		r.id = ids[i];
		cb(&r, arg);
	}
	if (kind == TS_KIND_TGID) {
		/* forget threads and processes that were not asked for or ended */
		forget_stale(&ps->threads, ps->gen);
		forget_stale(&ps->procs, ps->gen);
	}
	if (vanished)
		*vanished = gone;
	return 0;
}
