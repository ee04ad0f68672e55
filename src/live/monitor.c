/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The live monitor: keeps the task table in step with the kernel and
 * closes one interval per sample. This file opens and closes the sources,
 * follows the delay accounting switch and the PSI triggers, and makes the
 * monitor a producer (model/producer.h) of samples. Its parts:
 *
 *   tasks.c     the lives in the task tables
 *   events.c    fork/exit notifications and exit records
 *   readings.c  the queries, the /proc fallback, the scans
 *   rows.c      rows and their details, from the tasks
 *   cgsum.c     the sums per cgroup
 *
 * Membership comes from fork/exit notifications (proc connector) after one
 * initial scan of /proc; final figures of every task that ends come from
 * the taskstats exit records, so a task that lived 5 ms is still counted.
 * Where a notification source is missing the monitor scans /proc at every
 * sample instead, and says so. Lost notifications are counted and repaired
 * by one rescan.
 */
#include <config.h>

#include <err.h>
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef HAVE_MALLOC_TRIM
#include <malloc.h>
#endif

#include "kernel/delayacct.h"
#include "kernel/procinfo.h"
#include "kernel/procstat.h"
#include "kernel/psi.h"
#include "kernel/taskstats.h"
#include "lib/evloop.h"
#include "lib/nls.h"
#include "live/monitor.h"
#include "live/monitor_int.h"
#include "live/cgtable.h"
#include "live/storesample.h"
#include "live/tasktable.h"
#include "model/producer.h"

static struct monitor *of(struct producer *p)
{
	return (struct monitor *)p;
}

/*
 * Categories the kernel cannot collect although struct taskstats has room
 * for them: irq delay needs CONFIG_IRQ_TIME_ACCOUNTING. With PSI on, that
 * option is what makes /proc/pressure/irq exist; without PSI the kernel's
 * configuration tells, where it is published.
 */
static unsigned detect_kernel_cats(struct monitor *m)
{
	unsigned cats = (1u << NCAT) - 1;
	if (access("/proc/pressure/irq", F_OK) == 0)
		return cats;
	if (access("/proc/pressure/cpu", F_OK) == 0)
		return cats & ~(1u << CAT_IRQ);
	int irqtime = procinfo_kernel_config("CONFIG_IRQ_TIME_ACCOUNTING");
	if (irqtime < 0)
		producer_notice(&m->p,
				_("irq delay unknown: without PSI and without "
				  "the kernel's configuration, stalltop cannot "
				  "tell whether this kernel collects it"));
	if (irqtime != 1)
		cats &= ~(1u << CAT_IRQ);
	return cats;
}

/*
 * Follow kernel.task_delayacct. When it comes on, note between which
 * moments: stalltop's own switch (--enable-delayacct) knows them to the
 * microsecond; a switch by hand is seen at the next refresh. On already
 * when stalltop started: every task counts as measured (the kernel keeps
 * no trace of when it came on).
 */
static void update_delayacct(struct monitor *m)
{
	int now = delayacct_state();
	double t = monitor_now();
	if (now == 1 && m->delayacct != 1) {
		/* those born while it was off before stay unmeasured */
		tasks_mark_unmeasured(m);
		double lo, hi;
		if (delayacct_switched(&lo, &hi) && hi >= m->acct_checked) {
			m->acct_lo = lo;
			m->acct_hi = hi;
		} else if (m->delayacct == -2) {
			m->acct_lo = m->acct_hi = -INFINITY;
		} else {
			m->acct_lo = m->acct_checked;
			m->acct_hi = t;
		}
		tasks_mark_unmeasured(m);
		if (m->delayacct == 0)
			producer_notice(&m->p,
					_("delay accounting came on while stalltop "
					  "ran: the waits that ended in that "
					  "interval are dropped (!), they may have "
					  "begun unmeasured; tasks started while it "
					  "was off have cpu delay only (the kernel "
					  "never measures them)"));
	}
	if (now == 0 && m->delayacct == 1)
		m->acct_on_until = m->acct_checked;
	m->delayacct = now;
	m->acct_checked = t;
}

static void on_trigger_fd(int fd, unsigned revents, void *arg)
{
	struct monitor *m = arg;
	for (size_t i = 0; i < m->o.ntriggers; i++) {
		struct psi_trigger *t = &m->o.triggers[i];
		if (t->fd != fd)
			continue;
		int fired = psi_trigger_fired(t, revents);
		if (fired < 0) {
			/* the kernel dropped it: stop watching */
			if (m->loop)
				evloop_del_fd(m->loop, fd);
			producer_notice(&m->p,
					_("a PSI trigger stopped working"));
			return;
		}
		if (!fired)
			return;
		m->fired = t->label;
		if (m->p.trigger_cb)
			m->p.trigger_cb(m->p.trigger_arg);
	}
}

/*
 * The sample's readings apart from the tasks' (which rows_build gives the
 * model one at a time): its clocks, the kernel's state, PSI.
 */
static void store_begin(struct monitor *m, struct store_sample *in)
{
	*in = (struct store_sample){ .mono = m->reading_time };
	in->real = m->reading_real;
	in->query_start = m->query_start;
	in->delayacct = m->delayacct == 1 ? STORE_DELAYACCT_ON :
			m->delayacct == 0 ? STORE_DELAYACCT_OFF :
					    STORE_DELAYACCT_UNKNOWN;
	in->ts_version = m->ts ? taskstats_kernel_version(m->ts) : 0;
	in->events_lost = m->lost + m->exit_lost;
	in->exit_records_lost = m->exit_lost;
	in->threads = m->o.threads;
	in->thread_readings = rows_thread_readings(m);
	psi_read_open(&m->psi, &in->psi);
	in->time = monitor_clock(CLOCK_REALTIME);
	in->boot = monitor_clock(CLOCK_BOOTTIME);
}

/* How the model makes the figures: the monitor's settings. */
static void model_settings(struct monitor *m)
{
	m->model.set = (struct assemble_settings){
		.accumulate = m->o.accumulate,
		.start = m->start_time,
		.cgroup_within = m->o.cgroup_within,
	};
}

/*
 * The sample's readings whole, for a recording: the tasks' as the rows
 * were given them, with the details and context read for the rows, the
 * cgroups' as their rows were made of them.
 */
static void keep_whole(struct monitor *m, const struct store_sample *in,
		       const struct sample *out)
{
	struct store_sample s = *in;

	rows_keep_status(m);
	s.disks = gather_disks(m);
	storesample_end(m->whole, &s,
			out->cgroups && m->cgt ? cgtable_readings(m->cgt) : NULL,
			out->ncgroups);
}

/*
 * Tasks let go at once, that many or more (a large process ended),
 * with half or fewer of the most known left: the memory they and the
 * arrays sized for them held is given back.
 */
#define TASKS_TRIM 1000

/*
 * When many tasks ended, what held them is freed over the next samples
 * (their entries at the next, the arrays sized for them as samples
 * without them come, a recording's too): the heap's free pages go back
 * to the system after this sample and the two after it, instead of
 * staying at the mark the large process left.
 */
static void give_back(struct monitor *m)
{
	size_t n = tasktable_count(m->procs) +
		   (m->threads ? tasktable_count(m->threads) : 0);

	if (n > m->tasks_high)
		m->tasks_high = n;
	if (m->tasks_high - n >= TASKS_TRIM && n <= m->tasks_high / 2) {
		m->tasks_high = n;
		m->trim_left = 3;
	}
	if (!m->trim_left)
		return;
	m->trim_left--;
#ifdef HAVE_MALLOC_TRIM
	malloc_trim(0);
#endif
}

static int monitor_sample(struct producer *p, struct sample *out)
{
	struct monitor *m = of(p);
	struct store_sample in;

	rows_forget(m);
	update_delayacct(m);
	if (m->whole)
		storesample_begin(m->whole);
	if (readings_take(m) < 0)
		return -1;
	double now = m->reading_time;
	store_begin(m, &in);
	model_settings(m);
	assemble_begin(&m->model, &in);
	assemble_reserve(&m->model, tasktable_count(m->o.threads ? m->threads :
							    m->procs));
	rows_build(m);
	readings_rebase(m, true);
	m->sample_dt = now - m->prev_time;
	in.nprocs = tasktable_count(m->procs);
	in.nthreads = rows_count_threads(m);
	in.trigger = m->fired;
	m->fired = NULL;
	if (m->o.machine)
		machine_read(m, &in.machine);
	assemble_end(&m->model, &in, out);

	gather_new_round(m);
	if (m->o.cgroups)
		cgsum_build(m, out);
	if (m->p.sample_cb || m->whole) {
		/*
		 * A recording keeps what views show: the state of every row,
		 * read once, so that a view of this sample shows the same.
		 */
		rows_fill_status(m, out->rows, out->nrows);
		m->status_filled = true;
		if (out->cgroups)
			gather_cgroups(m, out->cgroups, out->ncgroups);
		if (m->whole)
			keep_whole(m, &in, out);
		if (m->p.sample_cb)
			m->p.sample_cb(out, m->p.sample_arg);
	}

	m->prev_time = now;
	m->prev_boot = m->reading_boot;
	m->prev_real = m->reading_real;
	give_back(m);
	return 0;
}

/* Take the baseline: readings to compute the first interval against. */
static int baseline(struct monitor *m)
{
	if (readings_take(m) < 0)
		return -1;
	rows_refresh_details(m, m->procs);
	if (m->whole)
		rows_keep_baseline(m);
	readings_rebase(m, false);
	/* the evidence the first interval's causes are counted from */
	gather_base_read(m);
	/* tasks that ended before the first interval are not part of it */
	tasktable_given(m->procs);
	if (m->threads)
		tasktable_given(m->threads);
	tasktable_free_retired(m->procs);
	if (m->threads)
		tasktable_free_retired(m->threads);
	size_t ncg = cgsum_used(m) ? cgsum_prime(m) : 0;
	struct store_sample in;
	store_begin(m, &in);
	in.nprocs = tasktable_count(m->procs);
	if (m->o.machine)
		machine_read(m, &in.machine);
	in.disks = gather_disks(m);
	assemble_baseline(&m->model, &in);
	/*
	 * the cgroups' pressure the first interval's shares are counted
	 * from goes into the recording with the tasks' readings
	 */
	if (m->whole)
		storesample_end(m->whole, &in,
				ncg ? cgtable_readings(m->cgt) : NULL, ncg);
	m->prev_time = m->reading_time;
	m->prev_boot = m->reading_boot;
	m->prev_real = m->reading_real;
	return 0;
}

/*
 * The first interval's causes are counted from a reading of its stalled
 * processes' evidence at its start: which processes stall is found in a
 * short interval after the first baseline (as top's first frame is of a
 * short interval), not shown, and the baseline taken again with their
 * evidence. A signal ends the wait: the loop then handles it.
 */
#define FIRST_BASE_MS 200

static void first_base(struct monitor *m)
{
	struct pollfd sig = { .fd = m->loop ? evloop_signal_fd(m->loop) : -1,
			      .events = POLLIN };
	struct storesample *whole = m->whole;
	struct sample s;
	int rc;

	if (m->o.accumulate || m->o.threads)
		return;
	/* the whole 0.2 s, whatever signals (the quit guard's) cut it */
	double until = monitor_now() + FIRST_BASE_MS / 1000.0;
	for (;;) {
		double left = until - monitor_now();
		rc = poll(&sig, 1, left > 0 ? (int)(left * 1000.0 + 0.999) : 0);
		if (rc >= 0 || errno != EINTR || left <= 0)
			break;
	}
	if (rc != 0)
		return;
	/* not a sample of the recording: its readings are the baseline's */
	m->whole = NULL;
	rc = monitor_sample(&m->p, &s);
	m->whole = whole;
	/* a signal that came meanwhile ends the run before any sample */
	if (rc < 0 || poll(&sig, 1, 0) != 0)
		return;
	gather_base_pick(m, s.rows, s.nrows);
	baseline(m);
}

static const struct store_sample *monitor_readings(struct producer *p)
{
	return storesample_get(of(p)->whole);
}

static void fill_status(struct producer *p, struct row *rows, size_t n)
{
	rows_fill_status(of(p), rows, n);
}

static void fill_cgroups(struct producer *p, struct cgroup_row *rows,
			 size_t n)
{
	gather_cgroups(of(p), rows, n);
}

static void monitor_set_threads(struct producer *p, bool threads,
				pid_t only_tgid)
{
	struct monitor *m = of(p);

	if (m->threads) {
		tasktable_free(m->threads);
		m->threads = NULL;
	}
	m->o.threads = threads;
	m->o.only_tgid = threads ? only_tgid : 0;
	if (threads)
		m->threads = tasktable_new();
	m->need_rescan = true;
	baseline(m);
}

static void forget_window(struct task *k, void *arg)
{
	(void)arg;
	derive_forget_window(&k->ds);
}

static int monitor_set_cgroups(struct producer *p, bool on)
{
	struct monitor *m = of(p);

	if (!on || cgsum_used(m)) {
		m->o.cgroups = on;
		return 0;
	}
	if (cgsum_open(m) < 0)
		return -1;
	m->o.cgroups = true;
	cgsum_read_all(m);
	/*
	 * A reading of the cgroups now, between two samples, would give the
	 * next sample's pressure shares a base that a recording never holds:
	 * recorded, the cgroups are first read with the next sample, and
	 * their shares are unknown for its interval, live as in the replay.
	 */
	if (!m->o.record)
		cgsum_prime(m);
	return 0;
}

static void monitor_set_accumulate(struct producer *p, bool accumulate)
{
	struct monitor *m = of(p);

	m->o.accumulate = accumulate;
	/* figures since now: the next readings become the base */
	tasktable_foreach(m->procs, forget_window, NULL);
	if (m->threads)
		tasktable_foreach(m->threads, forget_window, NULL);
	baseline(m);
	m->start_time = m->prev_time;
}

static void monitor_free(struct producer *p)
{
	struct monitor *m = of(p);
	events_close(m);
	for (size_t i = 0; i < m->o.ntriggers; i++) {
		if (m->loop && m->o.triggers[i].fd >= 0)
			evloop_del_fd(m->loop, m->o.triggers[i].fd);
		psi_trigger_close(&m->o.triggers[i]);
	}
	psi_close(&m->psi);
	cgtable_free(m->cgt);
	free(m->cgl);
	gather_free(m);
	machine_free(m);
	taskstats_close(m->ts);
	procstat_free(m->ps);
	procinfo_free(m->pi);
	tasktable_free(m->procs);
	tasktable_free(m->threads);
	assemble_free(&m->model);
	storesample_free(m->whole);
	free(m->ids);
	free(m->pidbuf);
	free(m);
}

/* The screen's E: on now, and the switch's moments noted at once. */
static int monitor_enable_delayacct(struct producer *p)
{
	struct monitor *m = of(p);

	if (delayacct_enable() < 0)
		return -1;
	update_delayacct(m);
	return 0;
}

static const struct producer_ops monitor_ops = {
	.sample = monitor_sample,
	.readings = monitor_readings,
	.fill_status = fill_status,
	.fill_cgroups = fill_cgroups,
	.set_threads = monitor_set_threads,
	.makes_threads = true,
	.set_accumulate = monitor_set_accumulate,
	.set_cgroups = monitor_set_cgroups,
	.enable_delayacct = monitor_enable_delayacct,
	.act = act_run,
	.prio = act_prio,
	.free = monitor_free,
};

struct producer *monitor_new(const struct monitor_opts *o, struct evloop *loop,
			     int *exit_code)
{
	struct monitor *m = calloc(1, sizeof(*m));
	*exit_code = 1;
	if (!m) {
		warnx("%s", strerror(ENOMEM));
		return NULL;
	}
	m->p.ops = &monitor_ops;
	m->hold_fd = -1;
	m->io_quiet = true;
	psi_open("/proc/pressure", "", &m->psi);
	assemble_init(&m->model, &(struct assemble_settings){ .accumulate = o->accumulate });
	m->o = *o;
	m->loop = loop;
	m->rescan_every = o->rescan;
	/* the first reading walks /proc, however long the machine has been up */
	m->need_rescan = true;
	m->delayacct = -2; /* first reading: tasks already running count */
	m->acct_on_until = -INFINITY;
	m->kernel_cats = detect_kernel_cats(m);
	m->own_pidns = !procinfo_in_initial_pid_ns();
	update_delayacct(m);

	m->ts = taskstats_open();
	if (!m->ts && readings_use_procstat(m, errno) < 0) {
		warnx("%s", strerror(ENOMEM));
		producer_free(&m->p);
		return NULL;
	}
	m->pi = procinfo_new();
	m->procs = tasktable_new();
	if (!m->pi || !m->procs) {
		warnx(_("cannot read process details"));
		producer_free(&m->p);
		return NULL;
	}
	if (o->record && !(m->whole = storesample_new())) {
		warnx("%s", strerror(ENOMEM));
		producer_free(&m->p);
		return NULL;
	}
	if ((o->threads || o->record_threads) && !(m->threads = tasktable_new())) {
		producer_free(&m->p);
		return NULL;
	}
	if ((o->cgroups || o->cgroup_within) && cgsum_open(m) < 0) {
		if (errno == ENOENT)
			warnx(_("no cgroup hierarchy is mounted"));
		else
			warnx("%s", strerror(errno));
		producer_free(&m->p);
		return NULL;
	}
	for (size_t i = 0; i < o->ntriggers; i++) {
		char err[256];
		if (psi_trigger_arm(&o->triggers[i], "/proc/pressure", err,
				    sizeof(err)) < 0) {
			warnx("%s", err);
			producer_free(&m->p);
			return NULL;
		}
		if (loop)
			evloop_add_fd(loop, o->triggers[i].fd, POLLPRI, on_trigger_fd, m);
	}

	events_open(m);

	int rc = baseline(m);
	if (rc < 0 && m->ts) {
		/* the family answers anyone; the queries need the capability */
		if (readings_use_procstat(m, errno == EPERM ? EPERM : 0) == 0)
			rc = baseline(m);
	}
	if (rc < 0) {
		warn(_("cannot read task figures"));
		producer_free(&m->p);
		return NULL;
	}
	first_base(m);
	/* accumulated figures cover the time since the baseline reading */
	m->start_time = m->prev_time;
	*exit_code = 0;
	return &m->p;
}
