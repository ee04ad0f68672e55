/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The evidence pane (key w): below the table, the selected process's
 * (or, in the cgroup view, the selected cgroup's) stalls with the
 * evidence the producer gathered next to each, as facts with numbers and
 * units, and the cause the rule table found. A value the kernel did not
 * give is "-", never 0. Nothing here reads the kernel: the row carries
 * what is shown (struct row.why, struct cgroup_row.why).
 */
#include <config.h>

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "lib/escape.h"
#include "lib/nls.h"
#include "model/rowwhy.h"
#include "view/screen_int.h"

#define WHY_LINES 40
#define WHY_WIDTH 512

struct lines {
	char l[WHY_LINES][WHY_WIDTH];
	int n;
	bool title[WHY_LINES];
};

static void add(struct lines *L, bool title, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void add(struct lines *L, bool title, const char *fmt, ...)
{
	va_list ap;

	if (L->n == WHY_LINES)
		return;
	va_start(ap, fmt);
	vsnprintf(L->l[L->n], WHY_WIDTH, fmt, ap);
	va_end(ap);
	L->title[L->n++] = title;
}

/* Bytes as people read them, "-" when unknown, "max" for no limit. */
static const char *bytes(const struct kval *k, char *buf, size_t size)
{
	static const char *unit[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB" };
	double v;
	int u = 0;

	if (!k->have)
		return "-";
	if (k->max)
		return "max";
	v = (double)k->v;
	while (v >= 1024 && u < 5) {
		v /= 1024;
		u++;
	}
	snprintf(buf, size, u && v < 10 ? "%.1f %s" : "%.0f %s", v, unit[u]);
	return buf;
}

static const char *count(const struct kval *k, char *buf, size_t size)
{
	if (!k->have)
		return "-";
	if (k->max)
		return "max";
	snprintf(buf, size, "%llu", (unsigned long long)k->v);
	return buf;
}

/* A counter of the interval: "+12", "-" when unknown. */
static const char *delta(const struct kval *k, char *buf, size_t size)
{
	if (!k->have)
		return "-";
	snprintf(buf, size, "+%llu", (unsigned long long)k->v);
	return buf;
}

static const char *secs(const struct kval *k, char *buf, size_t size)
{
	if (!k->have)
		return "-";
	snprintf(buf, size, _("%.2f s"), (double)k->v / 1e6);
	return buf;
}

static void pressure(struct lines *L, const char *what, const struct kval *some,
		     const struct kval *full)
{
	char a[32], b[32];

	if (!some->have && !full->have)
		return;
	add(L, false, _("  cgroup %s pressure: some %s, full %s"), what,
	    secs(some, a, sizeof(a)), secs(full, b, sizeof(b)));
}

/*
 * Which cgroup a group's figures were read from (model/evorigin.h); of a
 * process in its hierarchy's root, that none were: the root's counters
 * are the machine's.
 */
static void origin(struct lines *L, const char *where, bool cg)
{
	const char *colon = strchr(where, ':');
	char esc[2 * EVIDENCE_CGROUP];

	if (!where[0])
		return;
	escape_text(where, esc, sizeof(esc));
	if (!cg && colon && strcmp(colon + 1, "/") == 0)
		add(L, false, _("  cgroup %s: the root of its hierarchy, "
				"whose figures are the machine's: none shown"),
		    esc);
	else
		add(L, false, _("  figures of cgroup %s"), esc);
}

static void cpu_facts(struct lines *L, const struct evidence *ev, bool cg)
{
	char a[32], b[32], c[32], d[32], e[32], line[WHY_WIDTH];
	const char *file = ev->cpu_cgroup_version == 2 ? "cpu.max"
			   : "cpu.cfs_quota_us/cpu.cfs_period_us";

	origin(L, ev->cpu_cgroup, cg);

	if (ev->cpu_quota_us.have && ev->cpu_quota_us.max) {
		snprintf(line, sizeof(line), _("  %s: no CPU quota"), file);
	} else if (ev->cpu_quota_us.have) {
		snprintf(line, sizeof(line), _("  %s %s/%s µs"), file,
			 count(&ev->cpu_quota_us, a, sizeof(a)),
			 count(&ev->cpu_period_us, b, sizeof(b)));
		if (ev->cpu_throttled_us.have && ev->interval_s > 0) {
			size_t n = strlen(line);
			snprintf(line + n, sizeof(line) - n,
				 _(": throttled %s of %.2f s (%.0f %%) in %s of "
				   "%s periods"),
				 secs(&ev->cpu_throttled_us, c, sizeof(c)),
				 ev->interval_s,
				 (double)ev->cpu_throttled_us.v / 1e4 /
				 ev->interval_s,
				 count(&ev->cpu_throttled_periods, d, sizeof(d)),
				 count(&ev->cpu_periods, a, sizeof(a)));
		}
	} else {
		snprintf(line, sizeof(line), "%s", _("  CPU quota: -"));
	}
	add(L, false, "%s", line);
	if (cg) {
		add(L, false, _("  %s tasks runnable on the machine, %s CPUs "
				"online"),
		    count(&ev->sys_runnable, a, sizeof(a)),
		    count(&ev->cpus_online, b, sizeof(b)));
	} else {
		char its[WHY_WIDTH];

		/* no "- of its - threads": say what is not known */
		if (ev->threads.have && ev->runnable_threads.have)
			snprintf(its, sizeof(its),
				 ngettext("%s of its %s thread runnable",
					  "%s of its %s threads runnable",
					  (unsigned long)ev->threads.v),
				 count(&ev->runnable_threads, c, sizeof(c)),
				 count(&ev->threads, d, sizeof(d)));
		else
			snprintf(its, sizeof(its), "%s",
				 _("its runnable threads unknown"));
		add(L, false, _("  allowed CPUs %s of %s; %s; %s tasks runnable "
				"on the machine"),
		    count(&ev->allowed_cpus, a, sizeof(a)),
		    count(&ev->cpus_online, b, sizeof(b)), its,
		    count(&ev->sys_runnable, e, sizeof(e)));
	}
	pressure(L, "cpu", &ev->cpu_some_us, &ev->cpu_full_us);
}

static void mem_facts(struct lines *L, const struct evidence *ev, bool cg)
{
	char a[32], b[32], c[32], d[32], e[32];
	bool v2 = ev->mem_cgroup_version == 2;

	origin(L, ev->mem_cgroup, cg);

	add(L, false, _("  %s %s, current %s; %s events %s, failcnt %s"),
	    v2 ? "memory.max" : "memory.limit_in_bytes",
	    bytes(&ev->mem_max, a, sizeof(a)),
	    bytes(&ev->mem_current, b, sizeof(b)), "max",
	    delta(&ev->mem_events_max, c, sizeof(c)),
	    delta(&ev->mem_failcnt, d, sizeof(d)));
	if (ev->mem_high.have || ev->mem_events_oom.have)
		add(L, false, _("  memory.high %s, high events %s; oom %s, "
				"oom kills %s"),
		    bytes(&ev->mem_high, a, sizeof(a)),
		    delta(&ev->mem_events_high, b, sizeof(b)),
		    delta(&ev->mem_events_oom, c, sizeof(c)),
		    delta(&ev->mem_events_oom_kill, d, sizeof(d)));
	if (ev->swap_current.have || ev->swap_max.have)
		add(L, false, _("  swap %s of %s"),
		    bytes(&ev->swap_current, a, sizeof(a)),
		    bytes(&ev->swap_max, b, sizeof(b)));
	if (ev->memsw_usage.have || ev->memsw_limit.have)
		add(L, false, _("  memory+swap %s of %s, failcnt %s"),
		    bytes(&ev->memsw_usage, a, sizeof(a)),
		    bytes(&ev->memsw_limit, b, sizeof(b)),
		    delta(&ev->memsw_failcnt, c, sizeof(c)));
	if (ev->refaults.have || ev->refaults_anon.have || ev->refaults_file.have)
		add(L, false, _("  workingset refaults %s (anon %s, file %s)"),
		    delta(&ev->refaults, a, sizeof(a)),
		    delta(&ev->refaults_anon, b, sizeof(b)),
		    delta(&ev->refaults_file, c, sizeof(c)));
	add(L, false, _("  machine: %s free, %s available of %s; swap %s free "
			"of %s"),
	    bytes(&ev->sys_mem_free, a, sizeof(a)),
	    bytes(&ev->sys_mem_available, b, sizeof(b)),
	    bytes(&ev->sys_mem_total, c, sizeof(c)),
	    bytes(&ev->sys_swap_free, d, sizeof(d)),
	    bytes(&ev->sys_swap_total, e, sizeof(e)));
	pressure(L, "memory", &ev->mem_some_us, &ev->mem_full_us);
}

static const char *dev(const char *name, unsigned major, unsigned minor,
		       char *buf, size_t size)
{
	char esc[64];

	if (name[0]) {
		escape_text(name, esc, sizeof(esc));
		snprintf(buf, size, "%s", esc);
	} else {
		snprintf(buf, size, "%u:%u", major, minor);
	}
	return buf;
}

static void io_facts(struct lines *L, const struct evidence *ev, bool cg)
{
	char a[32], b[32], c[32], d[32], n[64];

	origin(L, ev->io_cgroup, cg);
	if (!cg)
		add(L, false, _("  the process read %s from storage and wrote "
				"%s to it (%s, %s through read and write "
				"calls)"),
		    bytes(&ev->task_read_bytes, a, sizeof(a)),
		    bytes(&ev->task_write_bytes, b, sizeof(b)),
		    bytes(&ev->task_rchar, c, sizeof(c)),
		    bytes(&ev->task_wchar, d, sizeof(d)));
	for (size_t i = 0; i < ev->n_io_devs; i++) {
		const struct evidence_io_dev *x = &ev->io_devs[i];
		char e[32], f[32];

		add(L, false, _("  cgroup on %s: read %s, wrote %s; limits read "
				"%s/s, write %s/s"),
		    dev(x->name, x->major, x->minor, n, sizeof(n)),
		    bytes(&x->rbytes, a, sizeof(a)),
		    bytes(&x->wbytes, b, sizeof(b)),
		    bytes(&x->rbps, e, sizeof(e)),
		    bytes(&x->wbps, f, sizeof(f)));
	}
	for (size_t i = 0; i < ev->n_disks; i++) {
		const struct diskstats_busy *x = &ev->disks[i];
		struct kval r = { .have = true, .v = x->read_bytes };
		struct kval w = { .have = true, .v = x->write_bytes };

		add(L, false, _("  disk %s: %.0f %% busy, queue %.2f, read %s, "
				"wrote %s"),
		    dev(x->name, x->major, x->minor, n, sizeof(n)), x->util_pct,
		    x->queue, bytes(&r, a, sizeof(a)), bytes(&w, b, sizeof(b)));
	}
	pressure(L, "io", &ev->io_some_us, &ev->io_full_us);
}

/* A process's forks and private memory; a cgroup has none. */
static void wpcopy_facts(struct lines *L, const struct evidence *ev, bool cg)
{
	char a[32], b[32];

	if (cg)
		return;
	add(L, false, _("  forked %s processes; private memory %s"),
	    delta(&ev->forks, a, sizeof(a)),
	    bytes(&ev->private_bytes, b, sizeof(b)));
}

static void state_facts(struct lines *L, const struct evidence *ev, bool cg)
{
	char a[32], b[32], c[32], d[32], e[32];

	/* a cgroup row's own tasks are of its path */
	if (!cg)
		origin(L, ev->states_cgroup, cg);
	if (ev->states_source == CGSTATS_NONE)
		return;
	add(L, false, cg ? _("  the cgroup's own tasks (%s): %s running, %s "
			     "sleeping, %s uninterruptible, %s stopped, %s "
			     "in IO wait") :
	    _("  its cgroup's tasks (%s): %s running, %s sleeping, "
	      "%s uninterruptible, %s stopped, %s in IO wait"),
	    ev->states_source == CGSTATS_KERNEL ? "cgroupstats" : "/proc",
	    count(&ev->tasks_running, a, sizeof(a)),
	    count(&ev->tasks_sleeping, b, sizeof(b)),
	    count(&ev->tasks_uninterruptible, c, sizeof(c)),
	    count(&ev->tasks_stopped, d, sizeof(d)),
	    count(&ev->tasks_io_wait, e, sizeof(e)));
}

/*
 * The facts of one evidence group a stalled category names (the
 * category table's evidence); the task states come once, after every
 * category.
 */
static void group_facts(struct lines *L, enum evidence_group g,
			const struct evidence *ev, bool cg)
{
	switch (g) {
	case EVIDENCE_CPU:
		cpu_facts(L, ev, cg);
		break;
	case EVIDENCE_MEMORY:
		mem_facts(L, ev, cg);
		break;
	case EVIDENCE_IO:
		io_facts(L, ev, cg);
		break;
	case EVIDENCE_WPCOPY:
		wpcopy_facts(L, ev, cg);
		break;
	case EVIDENCE_STATES:
		break;
	}
}

/* The stalled categories of w with their causes and evidence. */
static void why_lines(struct lines *L, const struct row_why *w,
		      const struct cat_figure d[NCAT], bool cg)
{
	const struct evidence *ev = &w->ev;
	unsigned done = 0;      /* the groups shown, each once */

	for (size_t i = 0; i < w->nranked; i++) {
		char text[ROWWHY_TEXT + 16];

		escape_text(w->ranked[i].text, text, sizeof(text));
		if (i == 0)
			add(L, true, _("Binding: %s, %.1f %% of the interval"),
			    text, w->ranked[i].share_pct);
		else
			add(L, false, _("  also: %s, %.1f %%"), text,
			    w->ranked[i].share_pct);
	}
	for (int c = 0; c < NCAT; c++) {
		const struct row_why_cat *wc = &w->c[c];
		char text[ROWWHY_TEXT + 16];

		if (!wc->stalled)
			continue;
		escape_text(wc->text, text, sizeof(text));
		add(L, true, _("%s %.1f %%: %s"), categories[c].header,
		    d[c].pct, wc->text[0] ? text :
		    _("no cause the evidence supports"));
		for (unsigned g = 0; g < sizeof(done) * 8; g++) {
			unsigned bit = EVIDENCE_WANT(g);

			if (!(categories[c].evidence & bit & ~done))
				continue;
			group_facts(L, (enum evidence_group)g, ev, cg);
			done |= bit;
		}
	}
	state_facts(L, ev, cg);
}

/* The keys of the categories evidence explains: "cpu, io, ... or wpcopy". */
static const char *covered(char *buf, size_t size)
{
	char head[256] = "";
	const char *last = NULL;

	for (int c = 0; c < NCAT; c++) {
		size_t n = strlen(head);

		if (!rowwhy_covers((enum cat)c))
			continue;
		if (last)
			snprintf(head + n, sizeof(head) - n, "%s%s",
				 n ? ", " : "", last);
		last = categories[c].key;
	}
	if (!last)
		snprintf(buf, size, "-");
	else if (!head[0])
		snprintf(buf, size, "%s", last);
	else
		/* TRANSLATORS: the end of a list of category keys: "cpu,
		   io or swap" */
		snprintf(buf, size, _("%s or %s"), head, last);
	return buf;
}

static void no_why(struct lines *L, const struct cat_figure d[NCAT])
{
	char keys[256];

	if (rowwhy_wanted(d))
		add(L, false, "%s", _("  no evidence was gathered for this row"));
	else
		add(L, false, _("  no stall of %.0f %% or more in %s"),
		    ROWWHY_MIN_PCT, covered(keys, sizeof(keys)));
}

/*
 * Memory work runs on the CPU: say why CPU% and its delay can both be
 * high, and how TOTAL counts them, when the row did any.
 */
static void work_line(struct lines *L, const struct cat_figure d[NCAT],
		      double total, bool have_cpu, double cpu_pct)
{
	static const enum cat work[] = { CAT_RECLAIM, CAT_COMPACT,
					 CAT_WPCOPY, CAT_SWAP };
	double most = 0;

	for (size_t i = 0; i < sizeof(work) / sizeof(work[0]); i++)
		if (d[work[i]].avail && d[work[i]].pct > most)
			most = d[work[i]].pct;
	if (!(most >= ROWWHY_MIN_PCT))
		return;
	if (have_cpu)
		add(L, false, _("  TOTAL %.1f %%, CPU%% %.1f: reclaim, compaction, "
				"copy-on-write and swap-in are work on the CPU, "
				"so their time is run time or cpu delay too; "
				"TOTAL counts each moment once"),
		    total, cpu_pct);
	else
		add(L, false, _("  TOTAL %.1f %%: reclaim, compaction, "
				"copy-on-write and swap-in are work on the CPU, "
				"so their time is run time or cpu delay too; "
				"TOTAL counts each moment once"), total);
}

static void row_lines(const struct row *r, struct lines *L)
{
	char name[64];

	escape_text(r->comm ? r->comm : "", name, sizeof(name));
	if (!r->why) {
		add(L, true, _("Why: %d %s"), (int)r->pid, name);
		work_line(L, r->d, r->total_pct, r->have_cpu_pct, r->cpu_pct);
		no_why(L, r->d);
		return;
	}
	if (r->why->ev.interval_s > 0)
		add(L, true, _("Why: %d %s (evidence of %.2f s)"), (int)r->pid,
		    name, r->why->ev.interval_s);
	else
		add(L, true, _("Why: %d %s (first reading: no interval yet)"),
		    (int)r->pid, name);
	work_line(L, r->d, r->total_pct, r->have_cpu_pct, r->cpu_pct);
	why_lines(L, r->why, r->d, false);
}

static void cgroup_lines(const struct cgroup_row *g, struct lines *L)
{
	char path[256];

	escape_text(g->path ? g->path : "", path, sizeof(path));
	if (!g->why) {
		add(L, true, _("Why: cgroup %s"), path);
		no_why(L, g->d);
		return;
	}
	if (g->why->ev.interval_s > 0)
		add(L, true, _("Why: cgroup %s (evidence of %.2f s)"), path,
		    g->why->ev.interval_s);
	else
		add(L, true, _("Why: cgroup %s (first reading: no interval "
			       "yet)"), path);
	why_lines(L, g->why, g->d, true);
}

static void build(const struct screen *s, struct lines *L)
{
	const struct row *r = screen_current(s);

	L->n = 0;
	if (s->cgview) {
		const struct cg_line *l = screen_cgroup_current(s);

		if (l)
			cgroup_lines(l->cg, L);
		else
			add(L, false, "%s", _("no cgroup selected"));
	} else if (!r)
		add(L, false, "%s", _("no row selected"));
	else
		row_lines(r, L);
}

int screen_why_height(const struct screen *s, int h)
{
	static struct lines L;
	int want;

	if (!s->why || h < 8)
		return 0;
	build(s, &L);
	want = L.n + 1;
	return want > h / 2 ? h / 2 : want;
}

void screen_why_draw(struct screen *s, int y, int h)
{
	static struct lines L;

	build(s, &L);
	screen_draw_fill(y, 0, COLS, s->attr[R_TITLE]);
	move(y, 0);
	screen_draw_text(s, _("Evidence (w closes)"), false, COLS, false,
			 s->attr[R_TITLE] | A_BOLD);
	for (int i = 0; i < L.n && i + 1 < h; i++) {
		move(y + 1 + i, 0);
		screen_draw_text(s, L.l[i], false, COLS, false,
				 L.title[i] ? A_BOLD : A_NORMAL);
	}
}
