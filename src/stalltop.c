/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stalltop: which tasks are stalled right now, on what, and for how long.
 * main() parses the options, opens the monitor and runs either the batch
 * writer or the interactive screen on the event loop.
 */
#include <config.h>

#include <err.h>
#include <errno.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config_file.h"
#include "kernel/cg_layout.h"
#include "kernel/cgroup.h"
#include "kernel/delayacct.h"
#include "kernel/privs.h"
#include "kernel/psi_trigger.h"
#include "lib/escape.h"
#include "lib/evloop.h"
#include "lib/nls.h"
#include "lib/quitguard.h"
#include "live/monitor.h"
#include "model/producer.h"
#include "model/select.h"
#include "options.h"
#include "record/player.h"
#include "recording.h"
#include "view/om_series.h"
#include "view/out_openmetrics.h"
#include "view/output.h"
#include "view/screen.h"
#include "view/scrape.h"
#include "view/textfile.h"

/* The failures of one output said since it last worked. */
#define OUTPUT_FAILURES_TOLD 4
struct output_failures {
	char told[OUTPUT_FAILURES_TOLD][512];
	int n;
};

struct batch {
	struct options *o;
	struct producer *m;
	struct evloop *loop;
	struct out_opts out;
	unsigned long done;
	char *told[PRODUCER_MAX_NOTICES]; /* the notices printed */
	int ntold;
	char *last_note;                  /* the note printed last */
	bool hide_cgroups;    /* not asked for (summed for the recording,
				 or recorded in the one replayed) */
	struct scrape *scrape;            /* --listen */
	struct output_failures textfile_failures, listen_failures;
};

/* A message with outside text in it (file names, a recording's notes). */
static void warn_text(const char *text)
{
	size_t size = strlen(text) * 4 + 1;
	char *esc = malloc(size);
	if (!esc) {
		warnx("%s", strerror(ENOMEM));
		return;
	}
	escape_text(text, esc, size);
	warnx("%s", esc);
	free(esc);
}

/* The producer's notices not printed yet, to stderr. */
static void batch_notices(struct batch *b)
{
	for (const char *const *n = producer_notices(b->m); *n; n++) {
		/* a count of one line skipped is that line's note again */
		bool told = b->last_note && strcmp(b->last_note, *n) == 0;
		for (int i = 0; i < b->ntold && !told; i++)
			told = strcmp(b->told[i], *n) == 0;
		if (told)
			continue;
		warn_text(*n);
		if (b->ntold < PRODUCER_MAX_NOTICES)
			b->told[b->ntold++] = strdup(*n);
	}
}

/* A line of a recording skipped as it was met. */
static void batch_note(const char *text, void *arg)
{
	struct batch *b = arg;
	warn_text(text);
	free(b->last_note);
	b->last_note = strdup(text);
}

/* A group rule's note (a limit reached, a sample's time spent). */
static void batch_rule_note(const char *text, void *arg)
{
	(void)arg;
	warn_text(text);
}

/*
 * An output that could not be written this sample (the textfile, the
 * metrics for --listen): said once for each kind of failure while they
 * last, retried at the next sample, and said again when it works again.
 */
static void output_failed(struct output_failures *f, const char *what,
			  const char *why)
{
	for (int i = 0; i < f->n; i++)
		if (strcmp(f->told[i], why) == 0)
			return;
	warnx(_("%s: %s (tried again at each sample)"), what, why);
	if (f->n < OUTPUT_FAILURES_TOLD)
		snprintf(f->told[f->n++], sizeof(f->told[0]), "%s", why);
}

static void output_worked(struct output_failures *f, const char *what)
{
	if (!f->n)
		return;
	warnx(_("%s: written again"), what);
	f->n = 0;
}

/* node_exporter's textfile collector reads the Prometheus text format. */
static int fill_textfile(FILE *f, void *arg)
{
	return out_openmetrics_write(f, arg, OUT_OPENMETRICS_PROM);
}

/*
 * --listen: the sample's exposition in each format, rendered once here,
 * so that a scrape only hands out text.
 */
static int publish_metrics(struct batch *b)
{
	static const enum out_openmetrics_format fmts[] = {
		OUT_OPENMETRICS_PROM, OUT_OPENMETRICS_OM
	};
	for (size_t i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i++) {
		char *text = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&text, &len);
		if (!f)
			return -1;
		int ret = out_openmetrics_write(f, b->out.om, fmts[i]);
		if (fclose(f) != 0 || ret < 0) {
			free(text);
			errno = ENOMEM;
			return -1;
		}
		if (scrape_publish(b->scrape, fmts[i], text, len) < 0)
			return -1;
	}
	return 0;
}

/*
 * OpenMetrics counters add up every row, not only those shown: only the
 * filters that choose tasks (-p, -u) apply, not the limit or -o.
 */
static void batch_metrics(struct batch *b, struct sample *s)
{
	struct select_opts all = b->o->sel;
	all.only_stalled = false;
	/* the writer ranks the rows itself: filtered, not sorted */
	s->nrows = select_keep(s->rows, s->nrows, &all);
	s->nexited = select_keep(s->exited, s->nexited, &all);
	if (!b->o->textfile && !b->scrape) {
		output_write(stdout, &b->out, s);
		return;
	}
	out_openmetrics_add(b->out.om, s);
	/* a failure of either is not the end of the run nor its recording */
	if (b->scrape) {
		if (publish_metrics(b) < 0)
			output_failed(&b->listen_failures, "--listen",
				      strerror(errno));
		else
			output_worked(&b->listen_failures, "--listen");
	}
	if (!b->o->textfile)
		return;
	char why[512];
	if (textfile_replace(b->o->textfile, fill_textfile, b->out.om, why,
			     sizeof(why)) < 0)
		output_failed(&b->textfile_failures, "--textfile", why);
	else
		output_worked(&b->textfile_failures, "--textfile");
}

/* The rows chosen, their details read, written out. */
static void batch_write(struct batch *b, struct sample *s)
{
	if (b->out.format == OUT_OPENMETRICS) {
		batch_metrics(b, s);
		return;
	}
	/* a detail sorted by is read for every row first (FIELD_DETAIL) */
	if (fields_get(b->o->sel.sort)->flags & FIELD_DETAIL)
		producer_fill_status(b->m, s->rows, s->nrows);
	select_sample_rows(s->rows, &s->nrows, s->exited, &s->nexited,
			   &b->o->sel, s->interval);
	if (b->hide_cgroups) {
		s->cgroups = NULL;
		s->ncgroups = 0;
	}
	if (s->cgroups)
		select_cgroups(s->cgroups, s->ncgroups, &b->o->sel);
	producer_fill_status(b->m, s->rows, s->nrows);
	if (s->cgroups)
		producer_fill_cgroups(b->m, s->cgroups, s->ncgroups);
	output_write(stdout, &b->out, s);
}

static void batch_tick(void *arg)
{
	struct batch *b = arg;
	struct sample s;
	if (producer_sample(b->m, &s) < 0) {
		/* a signal (the loop has it next), or a replay's last lines
		   unusable: said as they were met */
		if (errno == EINTR || (errno == ENODATA && producer_done(b->m)))
			return;
		warn(_("cannot take a sample"));
		evloop_quit(b->loop, 1);
		return;
	}
	/* what changed while it runs (delay accounting switched), at once */
	if (producer_measures(b->m))
		batch_notices(b);
	/* -q: the recording (producer_on_sample) is all there is */
	if (b->o->textfile || b->scrape || !b->o->quiet)
		batch_write(b, &s);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		evloop_quit(b->loop, errno == EPIPE ? 0 : 1);
		return;
	}
	if (++b->done == b->o->iterations)
		evloop_quit(b->loop, 0);
}

/* A PSI trigger fired: a sample now, so the culprits are caught. */
static void batch_trigger(void *arg)
{
	batch_tick(arg);
}

/*
 * The metrics' workload-group rules of the settings file, compiled
 * (checked as the file was read); NULL when there are none.
 */
static struct om_rule *group_rules(struct options *o)
{
	config_file_load_groups(o, NULL);
	if (!o->ngroup_rules)
		return NULL;
	struct om_rule *r = calloc(o->ngroup_rules, sizeof(*r));
	if (!r)
		err(1, NULL);
	for (size_t i = 0; i < o->ngroup_rules; i++) {
		char why[256];
		if (om_rule_parse(&r[i], o->group_rules[i], why,
					 sizeof(why)) < 0)
			errx(1, "%s", why); /* read back as it was checked */
	}
	return r;
}

/* stalltop ends this long after SIGINT or SIGTERM at most (quitguard.h). */
#define QUIT_GRACE 0.3

struct quitting {
	struct evloop *loop;
	bool replay;
};

/*
 * SIGINT, SIGTERM: live, the normal end (0); a replay they cut short ends
 * as one killed by them would (128 + the signal).
 */
static void on_quit_signal(int signo, void *arg)
{
	struct quitting *q = arg;
	evloop_quit(q->loop, q->replay ? 128 + signo : 0);
}

/* A batch replay: every sample at once, a signal noticed between two. */
static int batch_replay(struct batch *b)
{
	int code = 0;
	producer_on_note(b->m, batch_note, b);
	for (;;) {
		if (evloop_poll(b->loop, &code) || producer_done(b->m))
			break;
		batch_tick(b);
	}
	batch_notices(b); /* the counts of what was skipped, in the end */
	if (code == 0 && b->done == 0) {
		/* every line was skipped as it was met (and said so) */
		warnx("%s", _("the recording holds no usable sample"));
		code = 1;
	}
	return code;
}

static void check_pids(const struct options *o)
{
	for (size_t i = 0; i < o->npids; i++) {
		if (kill(o->pids[i], 0) < 0 && errno == ESRCH)
			errx(2, _("no process with id %d"), (int)o->pids[i]);
	}
}

/*
 * --cgroup: an existing cgroup of the tree the views show (v2, else
 * name=systemd, else cpu: kernel/cg_layout.h), normalised.
 */
static void check_cgroup(const struct options *o, char *norm, size_t size)
{
	struct cg_layout l;
	char root[4096];
	if (cg_layout_find(&l) < 0 ||
	    cg_layout_dir(&l, l.tree, "/", root, sizeof(root)) < 0)
		errx(2, _("--cgroup: no cgroup hierarchy is mounted"));
	if (cgroup_check_path(root, o->cgroup, norm, size) < 0)
		errx(2, _("--cgroup '%s': not a cgroup directory below %s "
			  "(%s)"), o->cgroup, root, strerror(errno));
}

static void check_textfile(const struct options *o)
{
	char why[512];
	size_t n = strlen(o->textfile);
	if (textfile_check(o->textfile, why, sizeof(why)) < 0)
		errx(1, "--textfile: %s", why);
	if (n < 5 || strcmp(o->textfile + n - 5, ".prom") != 0)
		warnx(_("--textfile '%s': node_exporter reads only files named "
			"*.prom"), o->textfile);
}

static struct psi_trigger *parse_triggers(const struct options *o)
{
	if (!o->ntriggers)
		return NULL;
	struct psi_trigger *t = calloc(o->ntriggers, sizeof(*t));
	if (!t)
		err(1, NULL);
	for (size_t i = 0; i < o->ntriggers; i++) {
		char why[256];
		if (psi_trigger_parse(o->triggers[i], &t[i], why,
				      sizeof(why)) < 0)
			errx(2, "--trigger '%s': %s", o->triggers[i], why);
	}
	return t;
}

static void check_delayacct(const struct options *o)
{
	if (o->enable_delayacct && delayacct_state() != 1) {
		if (delayacct_enable() < 0)
			errx(1, _("cannot turn on delay accounting (%s): run "
				  "as root"), strerror(errno));
		warnx(_("delay accounting turned on; tasks started from now "
			"on have every category"));
	}
	int state = delayacct_state();
	if (state == 0 && o->batch)
		warnx(_("delay accounting is off (kernel.task_delayacct=0): "
			"only cpu delay is measured. Turn it on with "
			"--enable-delayacct or 'sysctl kernel.task_delayacct=1'; "
			"only tasks started after that have the other "
			"categories."));
	else if (state < 0 && o->batch)
		warnx(_("this kernel has no delay accounting "
			"(CONFIG_TASK_DELAY_ACCT is off): only cpu delay is "
			"measured"));
}

/* W on the screen: its settings into o, o into the settings file. */
static int save_screen_settings(const struct screen_settings *set, void *arg)
{
	struct options *o = arg;
	o->delay = set->delay;
	o->sel.sort = set->sel.sort;
	o->sel.reverse = set->sel.reverse;
	o->sel.metric = set->sel.metric;
	o->sel.only_stalled = set->sel.only_stalled;
	o->cmdline = set->cmdline;
	o->threads = set->threads;
	o->accumulate = set->accumulate;
	o->tree = set->tree;
	memcpy(o->columns, set->columns, sizeof(o->columns));
	o->ncolumns = set->ncolumns;
	return config_file_save(o, set->path);
}

/* The screen, opened with o's settings; W saves them through o. */
/*
 * A replay's figures as asked: -a over the window, -d the interval they
 * cover (a recording of readings makes both; an NDJSON one has its
 * intervals as recorded, and there -d stays the screen's speed).
 */
static void replay_settings(struct producer *m, const struct options *o)
{
	if (o->accumulate && producer_set_accumulate(m, true) < 0 &&
	    (o->set_mask & SET_ACCUMULATE))
		warnx("-a: %s",
		      producer_refusal(m, PRODUCER_WORDS_NO_ACCUMULATE));
	if ((o->set_mask & SET_DELAY) && producer_sets_interval(m))
		producer_set_interval(m, o->delay);
}

/*
 * The pace of a replay on the screen where -d is the interval the
 * figures cover: one sample a second, as top refreshes by default.
 */
#define REPLAY_PACE 1.0

static int run_screen(struct producer *m, struct evloop *loop,
		      struct options *o)
{
	struct screen_settings set = {
		.sel = o->sel,
		.delay = o->delay,
		.iterations = o->iterations,
		.threads = o->threads,
		.cmdline = o->cmdline,
		.accumulate = o->accumulate,
		.tree = o->tree,
		.monochrome = o->monochrome,
		.cgroups = o->cgroups,
		.ncolumns = o->ncolumns,
		.save = save_screen_settings,
		.save_arg = o,
	};
	memcpy(set.columns, o->columns, sizeof(set.columns));
	if (producer_sets_interval(m)) {
		set.interval = (o->set_mask & SET_DELAY) ? o->delay : 0;
		set.delay = REPLAY_PACE;
	}
	char *path = config_file_path();
	set.path = path;
	int code = screen_run(m, loop, &set);
	free(path);
	return code;
}

int main(int argc, char **argv)
{
	setlocale(LC_ALL, "");
	bindtextdomain(PACKAGE, LOCALEDIR);
	textdomain(PACKAGE);

	if (privs_restrict() < 0)
		err(1, _("cannot drop capabilities"));
	struct options o;
	options_parse(&o, argc, argv);
	/* a replay parses files and never needs taskstats: keep nothing */
	if (o.replay && privs_drop_all() < 0)
		err(1, _("cannot drop capabilities"));
	if (o.replay && o.record)
		errx(2, _("--record and --replay do not go together"));
	if (!o.replay)
		check_pids(&o); /* a recording's processes are long gone */
	if (!o.batch && (!isatty(STDOUT_FILENO) || !isatty(STDIN_FILENO)))
		errx(2, _("not a terminal: use -b for batch output"));
	/* the settings file is for the screen; scripts see only their options */
	if (!o.batch)
		config_file_load(&o, NULL);
	if (!o.replay)
		check_delayacct(&o);

	struct evloop *loop = evloop_new();
	if (!loop)
		err(1, NULL);
	/*
	 * Each ends the run through main's end, which finishes the recording
	 * (the screen watches them itself); a closed pipe or the file size
	 * limit is then an error of the write, not a death.
	 */
	static const int quit_signals[] = { SIGINT, SIGTERM, SIGHUP };
	struct quitting quitting = { loop, o.replay != NULL };
	evloop_add_signals(loop, quit_signals, 3, on_quit_signal, &quitting);
	signal(SIGPIPE, SIG_IGN);
	signal(SIGXFSZ, SIG_IGN);
	atexit(recording_at_exit);
	/*
	 * stalltop ends within half a second of them, whatever it is doing:
	 * a replay reading, a write to a pipe or terminal nobody reads
	 */
	if (quitguard_start(quit_signals, 3, QUIT_GRACE) < 0)
		err(1, _("cannot watch signals"));

	char cgroup[4096];
	if (o.cgroup)
		check_cgroup(&o, cgroup, sizeof(cgroup));
	if (o.textfile)
		check_textfile(&o);
	/* before the monitor: a port in use ends the start, not a run */
	struct scrape *scrape = NULL;
	if (o.listen) {
		char why[512];
		if (!(scrape = scrape_open(o.listen, loop, why, sizeof(why))))
			errx(1, "--listen '%s': %s", o.listen, why);
		if (!scrape_local(scrape))
			warnx(_("--listen '%s': serves beyond this machine's "
				"loopback: whoever reaches the port reads the "
				"metrics (the commands and users of its tasks)"),
			      o.listen);
	}
	/*
	 * The metrics and recordings have the cgroups wherever there is a
	 * hierarchy; the screen and the batch formats show them when asked.
	 */
	struct cg_layout layout;
	bool sum_cgroups = o.cgroups;
	if (!o.replay && !o.no_cgroups && (o.format == OUT_OPENMETRICS || o.record) &&
	    cg_layout_find(&layout) == 0) {
		sum_cgroups = true;
		if (o.format == OUT_OPENMETRICS)
			o.cgroups = true;
	}
	/* a replay's metrics have the cgroups recorded, as live ones */
	if (o.replay && !o.no_cgroups && o.format == OUT_OPENMETRICS)
		o.cgroups = true;
	struct psi_trigger *triggers = parse_triggers(&o);
	struct recording recording = { NULL, NULL, loop, NULL, NULL };
	recording_open(&recording, &o);
	bool recording_on = recording.rec || recording.rot;

	struct monitor_opts mo = {
		.threads = o.threads,
		.accumulate = o.accumulate,
		.pids = o.pids,
		.npids = o.npids,
		.no_events = o.no_events,
		.rescan = o.rescan,
		.cgroups = sum_cgroups,
		.cgroup_within = o.cgroup ? cgroup : NULL,
		.record = recording_on,
		.record_threads = recording_on,
		.triggers = triggers,
		.ntriggers = o.ntriggers,
		.machine = !o.batch || recording_on,
		/* batch -H: a thread's state where it waited off the CPU,
		   every one's when sorting by it or another detail */
		.thread_state_waits = o.batch && o.threads &&
				      !(fields_get(o.sel.sort)->flags & FIELD_DETAIL),
	};
	int code = 2;
	char err[512];
	struct producer *m = o.replay ?
		player_open_set(o.replays, o.nreplays, o.begin, o.end,
				o.threads, mo.cgroup_within,
				evloop_signal_fd(loop), err, sizeof(err)) :
		monitor_new(&mo, loop, &code);
	int open_errno = errno;
	if (!m && o.replay && evloop_poll(loop, &code)) {
		/* reading was stopped by a signal: quietly, with its status */
	} else if (!m && o.replay) {
		char *msg = NULL;
		if (open_errno == ENODATA)
			code = 1; /* a recording, but nothing in it to show */
		if (o.nreplays == 1 ?
		    asprintf(&msg, _("--replay '%s': %s"), o.replay, err) < 0 :
		    asprintf(&msg, "--replay: %s", err) < 0)
			msg = NULL;
		warn_text(msg ? msg : err);
		free(msg);
	}
	if (!m) {
		scrape_close(scrape);
		recording_close(&recording);
		free(triggers);
		evloop_free(loop);
		options_free(&o);
		return code;
	}

	if (o.replay)
		replay_settings(m, &o);
	if (recording_on) {
		/* the readings before the first interval come first */
		recording.m = m;
		if (!recording_write(&recording)) {
			producer_free(m);
			recording_close(&recording);
			scrape_close(scrape);
			free(triggers);
			evloop_free(loop);
			options_free(&o);
			return 1;
		}
		producer_on_sample(m, recording_sample, &recording);
	}
	if (o.batch) {
		struct batch b = { &o, m, loop,
				   { o.format, NULL, o.cmdline, false }, 0,
				   { NULL }, 0, NULL, !o.cgroups,
				   scrape, { .n = 0 }, { .n = 0 } };
		batch_notices(&b);
		struct om_rule *rules = NULL;
		if (o.format == OUT_OPENMETRICS) {
			if (!(b.out.om = out_openmetrics_new(o.top)))
				errx(1, "%s", strerror(errno));
			rules = group_rules(&o);
			out_openmetrics_set_rules(b.out.om, rules, o.ngroup_rules);
			out_openmetrics_on_note(b.out.om, batch_rule_note, NULL);
			out_openmetrics_set_host_psi(b.out.om, o.host_psi);
		}
		producer_on_trigger(m, batch_trigger, &b);
		if (producer_finite(m)) {
			/* a recording is re-emitted at once, sample by sample */
			code = batch_replay(&b);
		} else {
			evloop_set_timer(loop, o.delay, batch_tick, &b);
			code = evloop_run(loop);
		}
		/* ended by itself: no metrics of a stalltop that is gone (a
		   kill leaves them; the file's mtime tells) */
		if (o.textfile && unlink(o.textfile) < 0 && errno != ENOENT)
			warn(_("--textfile: cannot remove %s"), o.textfile);
		out_openmetrics_free(b.out.om);
		for (size_t i = 0; rules && i < o.ngroup_rules; i++)
			om_rule_free(&rules[i]);
		free(rules);
		for (int i = 0; i < b.ntold; i++)
			free(b.told[i]);
		free(b.last_note);
	} else {
		code = run_screen(m, loop, &o);
	}
	/* what was replayed is not all the recording held: it said what */
	if (code == 0 && producer_damaged(m))
		code = 3;

	/*
	 * Ended by a signal: at once. Freeing a huge sample takes longer
	 * than the kernel takes to reclaim it, and a replay has nothing to
	 * finish (no recording: --record and --replay do not go together).
	 */
	if (o.replay && code > 128)
		exit(code);
	quitguard_stop();
	scrape_close(scrape);
	producer_free(m);
	if (recording_close(&recording) < 0 && code == 0)
		code = 1;
	free(triggers);
	evloop_free(loop);
	options_free(&o);
	return code;
}
