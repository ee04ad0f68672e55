/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Process details. libproc2 lists the tasks and gives a new task's
 * details (two item lists). What is read again while a task lives (its
 * state, parent and threads; what stands next to a stall) is read from
 * its /proc files with procfs.h: libproc2 reads /proc/PID/status once
 * more for every id it selects (for the tgid), and status is the
 * costliest file a refresh reads.
 */
#include <config.h>

#include <fcntl.h>
#include <pwd.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include <libproc2/pids.h>
#include <libproc2/stat.h>

#include "kernel/kval.h"
#include "kernel/procfs.h"
#include "kernel/procinfo.h"
#include "kernel/taskev.h"

/* libproc2 takes at most this many ids per select call. */
#define PI_SELECT_MAX 250

struct user_entry {
	uid_t uid;
	char *name;
};

struct procinfo {
	char comm[64];
	char *cmdline;
	size_t cmdline_cap;
	struct user_entry *users;
	size_t nusers;
	struct pids_info *scan;
	struct pids_info *full;
};

enum scan_rel { S_PID, S_TGID, S_START };
static enum pids_item scan_items[] = { PIDS_ID_PID, PIDS_ID_TGID, PIDS_TICS_BEGAN };

/*
 * The details of a new task (procinfo_details, full). Names and command
 * lines are read raw, not through libproc2, which replaces control bytes
 * with '?': the views must see the real bytes to show them escaped (and
 * JSON to carry them).
 */
enum details_rel {
	D_PID, D_TGID, D_START, D_PPID, D_STATE, D_NLWP, D_EUID, D_EUSER,
	NDETAILS
};
static enum pids_item details_items[NDETAILS] = {
	[D_PID] = PIDS_ID_PID, [D_TGID] = PIDS_ID_TGID,
	[D_START] = PIDS_TICS_BEGAN,
	[D_PPID] = PIDS_ID_PPID, [D_STATE] = PIDS_STATE, [D_NLWP] = PIDS_NLWP,
	[D_EUID] = PIDS_ID_EUID, [D_EUSER] = PIDS_ID_EUSER,
};

/* A kernel thread (task flag PF_KTHREAD): no memory of its own. */
#define PI_PF_KTHREAD 0x00200000u

/* The longest command line kept; longer ones are cut. */
#define CMDLINE_MAX 65536

#define NITEMS(a) ((int)(sizeof(a) / sizeof((a)[0])))

struct procinfo *procinfo_new(void)
{
	struct procinfo *pi = calloc(1, sizeof(*pi));
	if (!pi)
		return NULL;
	if (procps_pids_new(&pi->scan, scan_items, NITEMS(scan_items)) < 0 ||
	    procps_pids_new(&pi->full, details_items,
			    NITEMS(details_items)) < 0) {
		procinfo_free(pi);
		return NULL;
	}
	return pi;
}

void procinfo_free(struct procinfo *pi)
{
	if (!pi)
		return;
	if (pi->scan)
		procps_pids_unref(&pi->scan);
	if (pi->full)
		procps_pids_unref(&pi->full);
	free(pi->cmdline);
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

int procinfo_scan(struct procinfo *pi, bool threads, pi_task_cb cb, void *arg)
{
	struct pids_fetch *f = procps_pids_reap(pi->scan,
		threads ? PIDS_FETCH_THREADS_TOO : PIDS_FETCH_TASKS_ONLY);
	if (!f)
		return -1;
	emit_tasks(f, cb, arg);
	int total = f->counts->total;
	/*
	 * libproc2 keeps a reap's stacks for the next one (about 120 B a
	 * task); a scan is rare: let them go.
	 */
	struct pids_info *fresh = NULL;
	if (procps_pids_new(&fresh, scan_items, NITEMS(scan_items)) >= 0) {
		procps_pids_unref(&pi->scan);
		pi->scan = fresh;
	}
	return total;
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
	struct procinfo *pi;
	pi_task_cb task_cb;
	pi_details_cb details_cb;
	void *arg;
};

static void emit_tasks_chunk(struct pids_fetch *f, void *ctx)
{
	struct emit_ctx *c = ctx;
	emit_tasks(f, c->task_cb, c->arg);
}

int procinfo_threads(struct procinfo *pi, const pid_t *tgids, size_t n,
	       pi_task_cb cb, void *arg)
{
	struct emit_ctx c = { .task_cb = cb, .arg = arg };
	return select_chunks(pi->scan, tgids, n, PIDS_SELECT_PID_THREADS,
			     emit_tasks_chunk, &c);
}

/* Read a small /proc file of pid; returns the length or -1. */
static ssize_t read_proc(pid_t pid, const char *name, char *buf, size_t size)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/%s", (int)pid, name);
	return procfs_read(AT_FDCWD, path, buf, size);
}

const char *procinfo_comm(struct procinfo *pi, pid_t pid)
{
	ssize_t n = read_proc(pid, "comm", pi->comm, sizeof(pi->comm));
	if (n < 0)
		return NULL;
	if (n > 0 && pi->comm[n - 1] == '\n')
		pi->comm[n - 1] = '\0';
	return pi->comm;
}

/*
 * The raw command line (arguments joined by spaces) of a task, control
 * bytes and all; NULL if it ended. Valid until the next call.
 */
static const char *procinfo_cmdline(struct procinfo *pi, pid_t pid)
{
	if (!pi->cmdline) {
		pi->cmdline_cap = CMDLINE_MAX;
		pi->cmdline = malloc(pi->cmdline_cap + 1);
		if (!pi->cmdline)
			return NULL;
	}
	ssize_t n = read_proc(pid, "cmdline", pi->cmdline, pi->cmdline_cap + 1);
	if (n < 0)
		return NULL;
	/* arguments are NUL-separated: join them with spaces */
	while (n > 0 && pi->cmdline[n - 1] == '\0')
		n--;
	for (ssize_t i = 0; i < n; i++)
		if (pi->cmdline[i] == '\0')
			pi->cmdline[i] = ' ';
	pi->cmdline[n] = '\0';
	return pi->cmdline;
}

/* The boot time, seconds since the epoch (/proc/stat btime); 0 unknown. */
static unsigned long long boot_time(void)
{
	static unsigned long long bt;
	static bool tried;
	struct stat_info *info = NULL;

	if (tried)
		return bt;
	tried = true;
	if (procps_stat_new(&info) < 0)
		return 0;
	bt = STAT_GET(info, STAT_SYS_TIME_OF_BOOT, ul_int);
	procps_stat_unref(&info);
	return bt;
}

/* A start in ticks since boot as seconds since the epoch; 0 unknown. */
static double start_time(unsigned long long ticks)
{
	unsigned long long bt = boot_time();

	if (!ticks || !bt)
		return 0;
	return (double)bt + (double)ticks / (double)procinfo_hertz();
}

double procinfo_start_epoch(unsigned long long ticks)
{
	return start_time(ticks);
}

static void emit_details(struct procinfo *pi, struct pids_fetch *f,
			 pi_details_cb cb, void *arg)
{
	for (int i = 0; i < f->counts->total; i++) {
		struct pids_stack *s = f->stacks[i];
		struct procinfo_details d = {
			.pid = PIDS_VAL(D_PID, s_int, s, NULL),
			.tgid = PIDS_VAL(D_TGID, s_int, s, NULL),
			.start = PIDS_VAL(D_START, ull_int, s, NULL),
			.info = {
				.ppid = PIDS_VAL(D_PPID, s_int, s, NULL),
				.state = PIDS_VAL(D_STATE, s_ch, s, NULL),
				.threads = PIDS_VAL(D_NLWP, s_int, s, NULL),
			},
			.uid = PIDS_VAL(D_EUID, u_int, s, NULL),
			.user = PIDS_VAL(D_EUSER, str, s, NULL),
		};
		d.info.start = start_time(d.start);
		d.comm = procinfo_comm(pi, d.pid);
		d.cmdline = procinfo_cmdline(pi, d.pid);
		if (!d.comm)
			continue; /* ended meanwhile */
		if (!d.cmdline)
			d.cmdline = "";
		cb(&d, arg);
	}
}

static void emit_details_chunk(struct pids_fetch *f, void *ctx)
{
	struct emit_ctx *c = ctx;
	emit_details(c->pi, f, c->details_cb, c->arg);
}

/* The stat line name (relative to dirfd) parsed into st: false if gone. */
static bool read_stat(int dirfd, const char *name, struct procfs_stat *st)
{
	char buf[1024];

	return procfs_read(dirfd, name, buf, sizeof(buf)) > 0 &&
	       procfs_parse_stat(buf, st) == 0;
}

/* The brief details of id: what its stat line tells. */
static bool brief_details(pid_t id, struct procinfo_details *d)
{
	char path[64];
	struct procfs_stat st;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)id);
	if (!read_stat(AT_FDCWD, path, &st))
		return false; /* gone */
	*d = (struct procinfo_details){
		.pid = id,
		.start = st.have_start ? st.start : 0,
		.info = {
			.ppid = st.have_ppid ? st.ppid : 0,
			.state = st.state,
			.threads = st.have_threads ? st.threads : -1,
		},
		.uid = (uid_t)-1,
	};
	d->info.start = start_time(d->start);
	return true;
}

int procinfo_details(struct procinfo *pi, const pid_t *ids, size_t n, bool full,
	       pi_details_cb cb, void *arg)
{
	struct emit_ctx c = { .pi = pi, .details_cb = cb, .arg = arg };
	int total = 0;

	if (full)
		return select_chunks(pi->full, ids, n, PIDS_SELECT_PID,
				     emit_details_chunk, &c);
	for (size_t i = 0; i < n; i++) {
		struct procinfo_details d;

		if (brief_details(ids[i], &d)) {
			cb(&d, arg);
			total++;
		}
	}
	return total;
}

/* VmRSS and VmSwap of a process's status, in bytes. */
struct vm_mem {
	struct kval rss, swap;
};

static const struct kval_key vm_keys[] = {
	{ "VmRSS", offsetof(struct vm_mem, rss) },
	{ "VmSwap", offsetof(struct vm_mem, swap) },
};

/*
 * The memory of a process from the text of its status, in KiB: false
 * without it (a kernel thread or a zombie has none).
 */
static bool parse_vm(const char *status, long long *rss_kib,
		     long long *swap_kib)
{
	struct vm_mem vm = { 0 };

	if (kval_parse_keyed(status, ':', "kB", vm_keys, 2, &vm) != 2 ||
	    !vm.rss.have || !vm.swap.have)
		return false;
	*rss_kib = (long long)(vm.rss.v / 1024);
	*swap_kib = (long long)(vm.swap.v / 1024);
	return true;
}

/*
 * The memory of the process whose status is name (relative to dirfd), in
 * KiB: false without it (it has none, or it ended).
 */
static bool read_vm(int dirfd, const char *name, long long *rss_kib,
		    long long *swap_kib)
{
	char buf[8192];

	return procfs_read_lines(dirfd, name, buf, sizeof(buf)) > 0 &&
	       parse_vm(buf, rss_kib, swap_kib);
}

/*
 * The wait channel of a task in D, its file name relative to dirfd: a
 * wait channel means something in an uninterruptible sleep.
 */
static void read_wchan(int dirfd, const char *name, struct procinfo_context *c)
{
	char buf[PROCINFO_WCHAN_MAX];

	if (c->state == 'D' && procfs_read(dirfd, name, buf, sizeof(buf)) > 0 &&
	    strcmp(buf, "0") && strcmp(buf, "-") && strcmp(buf, "?"))
		snprintf(c->wchan, sizeof(c->wchan), "%s", buf);
}

/* What the stat line st says of a task read now. */
static void context_of(pid_t id, const struct procfs_stat *st,
		       struct procinfo_context *c)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	*c = (struct procinfo_context){
		.pid = id,
		.start = st->have_start ? st->start : 0,
		.state = st->state,
		.threads = -1,
		.have_nice = st->have_nice,
		.nice = st->nice,
		.at = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9,
	};
}

/*
 * Whether a task so read may have memory to tell: not a kernel thread
 * (task flag PF_KTHREAD), not a zombie.
 */
static bool has_memory(const struct procfs_stat *st)
{
	return st->have_flags && !(st->flags & PI_PF_KTHREAD) &&
	       st->state != 'Z' && st->state != 'X';
}

/*
 * One process's context through its /proc directory: its stat line,
 * the memory of its status, its IO (absent: unreadable without ptrace
 * rights) and, in D, its wait channel. Asleep: the stat line of its
 * leader alone (task/PID/stat) and no IO, the reads that do not walk
 * every thread of it (see procinfo_context_asleep).
 */
static bool process_context(pid_t id, bool asleep, struct procinfo_context *c,
			    char *status, size_t size)
{
	char path[64];
	struct procfs_stat st;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d", (int)id);
	if ((fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return false;
	snprintf(path, sizeof(path), "task/%d/stat", (int)id);
	if (!read_stat(fd, asleep ? path : "stat", &st)) {
		close(fd);
		return false; /* gone */
	}
	context_of(id, &st, c);
	if (st.have_ppid)
		c->ppid = st.ppid;
	if (st.have_threads)
		c->threads = st.threads;
	/* the leader's own line counts only its own faults */
	c->have_majflt = !asleep && st.have_majflt;
	c->majflt = c->have_majflt ? st.majflt : 0;
	if (has_memory(&st) && procfs_read_lines(fd, "status", status, size) > 0) {
		c->status = status;
		c->have_mem = parse_vm(status, &c->rss_kib, &c->swap_kib);
	}
	read_wchan(fd, "wchan", c);
	if (!asleep)
		taskev_read_io(fd, &c->io);
	close(fd);
	return true;
}

static int contexts(const pid_t *ids, size_t n, bool asleep,
		    pi_context_cb cb, void *arg)
{
	int total = 0;
	char status[8192];

	for (size_t i = 0; i < n; i++) {
		struct procinfo_context c;

		if (process_context(ids[i], asleep, &c, status, sizeof(status))) {
			cb(&c, arg);
			total++;
		}
	}
	return total;
}

int procinfo_context(struct procinfo *pi, const pid_t *ids, size_t n,
		     pi_context_cb cb, void *arg)
{
	(void)pi;
	return contexts(ids, n, false, cb, arg);
}

int procinfo_context_asleep(struct procinfo *pi, const pid_t *ids, size_t n,
			    pi_context_cb cb, void *arg)
{
	(void)pi;
	return contexts(ids, n, true, cb, arg);
}

/* A thread to read, by its process and its own id. */
struct thread_id {
	pid_t tgid, tid;
};

static int cmp_thread(const void *a, const void *b)
{
	const struct thread_id *x = a, *y = b;
	if (x->tgid != y->tgid)
		return (x->tgid > y->tgid) - (x->tgid < y->tgid);
	return (x->tid > y->tid) - (x->tid < y->tid);
}

/* The memory of a process, which its threads share. */
struct proc_memory {
	bool have;                /* it has memory to tell */
	long long rss_kib, swap_kib;
};

/*
 * One thread's context, from its own stat and its process's memory;
 * taskdir: its process's /proc/TGID/task.
 */
static bool thread_context(int taskdir, pid_t tid, const struct proc_memory *pm,
			   struct procinfo_context *c)
{
	char path[32];
	struct procfs_stat st;

	snprintf(path, sizeof(path), "%d/stat", (int)tid);
	if (!read_stat(taskdir, path, &st))
		return false; /* gone */
	context_of(tid, &st, c);
	if (pm->have && has_memory(&st)) {
		c->rss_kib = pm->rss_kib;
		c->swap_kib = pm->swap_kib;
		c->have_mem = true;
	}
	snprintf(path, sizeof(path), "%d/wchan", (int)tid);
	read_wchan(taskdir, path, c);
	return true;
}

/*
 * The task directory of process tgid (-1: it ended), its memory into pm
 * on the way.
 */
static int open_task_dir(pid_t tgid, struct proc_memory *pm)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/status", (int)tgid);
	pm->have = read_vm(AT_FDCWD, path, &pm->rss_kib, &pm->swap_kib);
	snprintf(path, sizeof(path), "/proc/%d/task", (int)tgid);
	return open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
}

/*
 * The threads by[0..n), sorted by process: each process's task
 * directory is opened once (the shortest walk to every thread's files)
 * and its memory read once, one process at a time.
 */
static int read_threads(const struct thread_id *by, size_t n,
			pi_context_cb cb, void *arg)
{
	int taskdir = -1, total = 0;
	struct proc_memory pm = { 0 };

	for (size_t i = 0; i < n; i++) {
		struct procinfo_context c;

		if (!i || by[i].tgid != by[i - 1].tgid) {
			if (taskdir >= 0)
				close(taskdir);
			taskdir = open_task_dir(by[i].tgid, &pm);
		}
		if (taskdir >= 0 && thread_context(taskdir, by[i].tid, &pm, &c)) {
			cb(&c, arg);
			total++;
		}
	}
	if (taskdir >= 0)
		close(taskdir);
	return total;
}

int procinfo_thread_context(struct procinfo *pi, const pid_t *tgids,
			    const pid_t *tids, size_t n, pi_context_cb cb,
			    void *arg)
{
	struct thread_id *by = malloc((n ? n : 1) * sizeof(*by));
	int total;

	(void)pi;
	if (!by)
		return -1;
	for (size_t i = 0; i < n; i++)
		by[i] = (struct thread_id){ tgids[i], tids[i] };
	qsort(by, n, sizeof(*by), cmp_thread);
	total = read_threads(by, n, cb, arg);
	free(by);
	return total;
}

long procinfo_hertz(void)
{
	static long hz;
	if (!hz) {
		hz = sysconf(_SC_CLK_TCK);
		if (hz <= 0)
			hz = 100;
	}
	return hz;
}

const char *procinfo_user_name(struct procinfo *pi, uid_t uid)
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

long procinfo_system_threads(void)
{
	char buf[128];
	if (procfs_read(AT_FDCWD, "/proc/loadavg", buf, sizeof(buf)) <= 0)
		return -1;
	/* "0.00 0.01 0.05 1/345 6789": the number after the slash */
	char *slash = strchr(buf, '/');
	if (!slash)
		return -1;
	char *end;
	long v = strtol(slash + 1, &end, 10);
	return end == slash + 1 ? -1 : v;
}

/* The inode of the initial pid namespace (PROC_PID_INIT_INO). */
#define PID_NS_INIT_INO 0xEFFFFFFCu

bool procinfo_in_initial_pid_ns(void)
{
	struct stat st;
	if (stat("/proc/self/ns/pid", &st) < 0)
		return true;
	return st.st_ino == PID_NS_INIT_INO;
}

/* Look for option in a configuration file read through zlib (plain too). */
static int config_lookup(const char *path, const char *option)
{
	gzFile f = gzopen(path, "rb");
	if (!f)
		return -1;
	char line[512];
	size_t len = strlen(option);
	int found = 0;
	while (gzgets(f, line, sizeof(line))) {
		if (strncmp(line, option, len) == 0 && line[len] == '=') {
			found = line[len + 1] == 'y' || line[len + 1] == 'm';
			break;
		}
	}
	gzclose(f);
	return found;
}

int procinfo_kernel_config(const char *option)
{
	int v = config_lookup("/proc/config.gz", option);
	if (v >= 0)
		return v;
	struct utsname u;
	char path[sizeof(u.release) + 32];
	if (uname(&u) < 0)
		return -1;
	snprintf(path, sizeof(path), "/boot/config-%s", u.release);
	return config_lookup(path, option);
}
