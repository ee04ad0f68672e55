/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Process details through libproc2. Three item lists, one per use, so
 * that each read opens only the /proc files it needs.
 */
#include <config.h>

#include <fcntl.h>
#include <pwd.h>
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
	struct pids_info *brief;
	struct pids_info *context;
	struct pids_info *memory;
};

enum scan_rel { S_PID, S_TGID, S_START };
static enum pids_item scan_items[] = { PIDS_ID_PID, PIDS_ID_TGID, PIDS_TICS_BEGAN };

/*
 * The details. The brief list has the items before D_EUID: the ids, the
 * start and every member of struct procinfo_info, so that both reads fill it
 * whole; the full list adds the identity. Names and command lines are
 * read raw, not through libproc2, which replaces control bytes with '?':
 * the views must see the real bytes to show them escaped (and JSON to
 * carry them).
 */
enum details_rel {
	D_PID, D_TGID, D_START,
	D_PPID, D_STATE, D_NLWP,        /* struct procinfo_info */
	D_EUID, D_EUSER,                /* the full read only */
	NDETAILS
};
static enum pids_item details_items[NDETAILS] = {
	[D_PID] = PIDS_ID_PID, [D_TGID] = PIDS_ID_TGID,
	[D_START] = PIDS_TICS_BEGAN,
	[D_PPID] = PIDS_ID_PPID, [D_STATE] = PIDS_STATE, [D_NLWP] = PIDS_NLWP,
	[D_EUID] = PIDS_ID_EUID, [D_EUSER] = PIDS_ID_EUSER,
};

/* What stands next to a stall (procinfo_context). */
enum context_rel {
	C_PID, C_START, C_STATE, C_FLAGS, C_NICE, C_RSS, C_SWAP, C_MAJFLT,
	C_WCHAN, NCONTEXT
};
static enum pids_item context_items[NCONTEXT] = {
	[C_PID] = PIDS_ID_PID, [C_START] = PIDS_TICS_BEGAN,
	[C_STATE] = PIDS_STATE, [C_FLAGS] = PIDS_FLAGS, [C_NICE] = PIDS_NICE,
	[C_RSS] = PIDS_VM_RSS, [C_SWAP] = PIDS_VM_SWAP,
	[C_MAJFLT] = PIDS_FLT_MAJ, [C_WCHAN] = PIDS_WCHAN_NAME,
};

/* The memory of a process, which its threads share. */
enum memory_rel { M_PID, M_STATE, M_RSS, M_SWAP };
static enum pids_item memory_items[] = {
	PIDS_ID_PID, PIDS_STATE, PIDS_VM_RSS, PIDS_VM_SWAP,
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
			    NITEMS(details_items)) < 0 ||
	    procps_pids_new(&pi->brief, details_items, D_EUID) < 0 ||
	    procps_pids_new(&pi->context, context_items,
			    NITEMS(context_items)) < 0 ||
	    procps_pids_new(&pi->memory, memory_items,
			    NITEMS(memory_items)) < 0) {
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
	if (pi->brief)
		procps_pids_unref(&pi->brief);
	if (pi->context)
		procps_pids_unref(&pi->context);
	if (pi->memory)
		procps_pids_unref(&pi->memory);
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
	bool full;
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

const char *procinfo_cmdline(struct procinfo *pi, pid_t pid)
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

/* What both reads give: items of both lists (before D_EUID). */
static void read_info(struct pids_stack *s, struct procinfo_info *info)
{
	info->ppid = PIDS_VAL(D_PPID, s_int, s, NULL);
	info->state = PIDS_VAL(D_STATE, s_ch, s, NULL);
	info->threads = PIDS_VAL(D_NLWP, s_int, s, NULL);
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

static void emit_details(struct procinfo *pi, struct pids_fetch *f, bool full,
			 pi_details_cb cb, void *arg)
{
	for (int i = 0; i < f->counts->total; i++) {
		struct pids_stack *s = f->stacks[i];
		struct procinfo_details d = {
			.pid = PIDS_VAL(D_PID, s_int, s, NULL),
			.tgid = PIDS_VAL(D_TGID, s_int, s, NULL),
			.start = PIDS_VAL(D_START, ull_int, s, NULL),
			.uid = (uid_t)-1,
		};
		read_info(s, &d.info);
		d.info.start = start_time(d.start);
		if (full) {
			d.uid = PIDS_VAL(D_EUID, u_int, s, NULL);
			d.user = PIDS_VAL(D_EUSER, str, s, NULL);
			d.comm = procinfo_comm(pi, d.pid);
			d.cmdline = procinfo_cmdline(pi, d.pid);
			if (!d.comm)
				continue; /* ended meanwhile */
			if (!d.cmdline)
				d.cmdline = "";
		}
		cb(&d, arg);
	}
}

static void emit_details_chunk(struct pids_fetch *f, void *ctx)
{
	struct emit_ctx *c = ctx;
	emit_details(c->pi, f, c->full, c->details_cb, c->arg);
}

int procinfo_details(struct procinfo *pi, const pid_t *ids, size_t n, bool full,
	       pi_details_cb cb, void *arg)
{
	struct emit_ctx c = { .pi = pi, .details_cb = cb, .full = full,
			      .arg = arg };
	return select_chunks(full ? pi->full : pi->brief, ids, n,
			     PIDS_SELECT_PID, emit_details_chunk, &c);
}

/* The IO of a process through its /proc directory (absent: unreadable). */
static void read_io(pid_t pid, struct procinfo_context *c)
{
	char path[64];
	struct taskev_io io;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d", (int)pid);
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	taskev_read_io(fd, &io);
	if (fd >= 0)
		close(fd);
	c->have_io = io.read_bytes.have && io.write_bytes.have;
	c->read_bytes = io.read_bytes.v;
	c->write_bytes = io.write_bytes.v;
}

struct context_ctx {
	pi_context_cb cb;
	void *arg;
};

static void emit_context_chunk(struct pids_fetch *f, void *arg)
{
	struct context_ctx *cc = arg;
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	for (int i = 0; i < f->counts->total; i++) {
		struct pids_stack *s = f->stacks[i];
		struct procinfo_context c = {
			.pid = PIDS_VAL(C_PID, s_int, s, NULL),
			.start = PIDS_VAL(C_START, ull_int, s, NULL),
			.state = PIDS_VAL(C_STATE, s_ch, s, NULL),
			.at = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9,
		};
		unsigned long flags = PIDS_VAL(C_FLAGS, ul_int, s, NULL);
		int nice = PIDS_VAL(C_NICE, s_int, s, NULL);
		const char *wchan = PIDS_VAL(C_WCHAN, str, s, NULL);

		if (nice >= -20 && nice <= 19) {
			c.nice = nice;
			c.have_nice = true;
		}
		/* a kernel thread or a zombie has no memory to tell */
		if (!(flags & PI_PF_KTHREAD) && c.state != 'Z' &&
		    c.state != 'X') {
			c.rss_kib = (long long)PIDS_VAL(C_RSS, ul_int, s, NULL);
			c.swap_kib = (long long)PIDS_VAL(C_SWAP, ul_int, s, NULL);
			c.have_mem = true;
		}
		/* a wait channel means something in an uninterruptible sleep */
		if (c.state == 'D' && wchan && *wchan && strcmp(wchan, "-") &&
		    strcmp(wchan, "?") && strcmp(wchan, "0")) {
			snprintf(c.wchan, sizeof(c.wchan), "%s", wchan);
		}
		c.have_majflt = true;
		c.majflt = PIDS_VAL(C_MAJFLT, ul_int, s, NULL);
		read_io(c.pid, &c);
		cc->cb(&c, cc->arg);
	}
}

int procinfo_context(struct procinfo *pi, const pid_t *ids, size_t n,
		     pi_context_cb cb, void *arg)
{
	struct context_ctx cc = { .cb = cb, .arg = arg };

	return select_chunks(pi->context, ids, n, PIDS_SELECT_PID,
			     emit_context_chunk, &cc);
}

struct proc_memory {
	pid_t pid;
	bool have;                /* not a zombie: it has memory to tell */
	long long rss_kib, swap_kib;
};

struct memory_ctx {
	struct proc_memory *mem;
	size_t n;
};

static void emit_memory_chunk(struct pids_fetch *f, void *arg)
{
	struct memory_ctx *mc = arg;

	for (int i = 0; i < f->counts->total; i++) {
		struct pids_stack *s = f->stacks[i];
		char state = PIDS_VAL(M_STATE, s_ch, s, NULL);
		struct proc_memory *pm = &mc->mem[mc->n++];

		pm->pid = PIDS_VAL(M_PID, s_int, s, NULL);
		pm->have = state != 'Z' && state != 'X';
		pm->rss_kib = (long long)PIDS_VAL(M_RSS, ul_int, s, NULL);
		pm->swap_kib = (long long)PIDS_VAL(M_SWAP, ul_int, s, NULL);
	}
}

static int cmp_pid(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;
	return (x > y) - (x < y);
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

/* The memory of the processes of threads by[0..n) (sorted), sorted. */
static struct proc_memory *read_memory(struct procinfo *pi,
				       const struct thread_id *by, size_t n,
				       size_t *nmem)
{
	pid_t *ids = malloc((n ? n : 1) * sizeof(*ids));
	struct memory_ctx mc = { NULL, 0 };
	size_t k = 0;

	*nmem = 0;
	if (!ids)
		return NULL;
	for (size_t i = 0; i < n; i++)
		if (!k || ids[k - 1] != by[i].tgid)
			ids[k++] = by[i].tgid;
	mc.mem = malloc((k ? k : 1) * sizeof(*mc.mem));
	if (mc.mem && select_chunks(pi->memory, ids, k, PIDS_SELECT_PID,
				    emit_memory_chunk, &mc) < 0)
		mc.n = 0; /* what was read before the failure stands */
	free(ids);
	if (mc.mem)
		qsort(mc.mem, mc.n, sizeof(*mc.mem), cmp_pid);
	*nmem = mc.n;
	return mc.mem;
}

/*
 * One thread's context, from its own stat and its process's memory;
 * taskdir: its process's /proc/TGID/task.
 */
static bool thread_context(int taskdir, pid_t tid, const struct proc_memory *pm,
			   struct procinfo_context *c)
{
	char path[32], buf[512];
	struct procfs_stat st;
	struct timespec ts;

	snprintf(path, sizeof(path), "%d/stat", (int)tid);
	if (procfs_read(taskdir, path, buf, sizeof(buf)) <= 0 ||
	    procfs_parse_stat(buf, &st) < 0)
		return false; /* gone */
	clock_gettime(CLOCK_MONOTONIC, &ts);
	*c = (struct procinfo_context){
		.pid = tid,
		.start = st.have_start ? st.start : 0,
		.state = st.state,
		.have_nice = st.have_nice,
		.nice = st.nice,
		.at = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9,
	};
	/* a kernel thread or a zombie has no memory to tell */
	if (pm && pm->have && st.have_flags && !(st.flags & PI_PF_KTHREAD) &&
	    c->state != 'Z' && c->state != 'X') {
		c->rss_kib = pm->rss_kib;
		c->swap_kib = pm->swap_kib;
		c->have_mem = true;
	}
	/* a wait channel means something in an uninterruptible sleep */
	snprintf(path, sizeof(path), "%d/wchan", (int)tid);
	if (c->state == 'D' &&
	    procfs_read(taskdir, path, buf, sizeof(buf)) > 0 &&
	    strcmp(buf, "0") && strcmp(buf, "-") && strcmp(buf, "?"))
		snprintf(c->wchan, sizeof(c->wchan), "%.*s",
			 (int)sizeof(c->wchan) - 1, buf);
	return true;
}

/*
 * The threads by[0..n), sorted by process: each process's task directory
 * is opened once (a shorter walk for every thread's files), one at a time.
 */
static int read_threads(const struct thread_id *by, size_t n,
			const struct proc_memory *mem, size_t nmem,
			pi_context_cb cb, void *arg)
{
	int taskdir = -1, total = 0;
	const struct proc_memory *pm = NULL;

	for (size_t i = 0; i < n; i++) {
		struct procinfo_context c;

		if (!i || by[i].tgid != by[i - 1].tgid) {
			char path[64];
			struct proc_memory key = { .pid = by[i].tgid };

			if (taskdir >= 0)
				close(taskdir);
			snprintf(path, sizeof(path), "/proc/%d/task",
				 (int)by[i].tgid);
			taskdir = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
			pm = bsearch(&key, mem, nmem, sizeof(*mem), cmp_pid);
		}
		if (taskdir >= 0 && thread_context(taskdir, by[i].tid, pm, &c)) {
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
	struct proc_memory *mem = NULL;
	size_t nmem;
	int total = -1;

	if (!by)
		return -1;
	for (size_t i = 0; i < n; i++)
		by[i] = (struct thread_id){ tgids[i], tids[i] };
	qsort(by, n, sizeof(*by), cmp_thread);
	mem = read_memory(pi, by, n, &nmem);
	if (mem)
		total = read_threads(by, n, mem, nmem, cb, arg);
	free(mem);
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
