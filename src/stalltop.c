/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stalltop: which tasks are stalled right now, on what, and for how long.
 * main() parses the options, opens the monitor and runs either the batch
 * writer or the interactive screen on the event loop.
 */
#include <config.h>

#include <errno.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config_file.h"
#include "kernel/cgroup.h"
#include "kernel/delayacct.h"
#include "kernel/privs.h"
#include "kernel/psi_trigger.h"
#include "lib/evloop.h"
#include "lib/nls.h"
#include "live/monitor.h"
#include "model/producer.h"
#include "model/select.h"
#include "options.h"
#include "record/player.h"
#include "record/record.h"
#include "view/output.h"
#include "view/screen.h"

struct batch {
	struct options *o;
	struct producer *m;
	struct evloop *loop;
	struct out_opts out;
	unsigned long done;
};

static void batch_tick(void *arg)
{
	struct batch *b = arg;
	struct sample s;
	if (producer_sample(b->m, &s) < 0) {
		fprintf(stderr, _("%s: cannot take a sample: %s\n"), PACKAGE,
			strerror(errno));
		evloop_quit(b->loop, 1);
		return;
	}
	select_sample_rows(s.rows, &s.nrows, s.exited, &s.nexited, &b->o->sel,
			   s.interval);
	if (s.cgroups)
		select_cgroups(s.cgroups, s.ncgroups, &b->o->sel);
	producer_fill_status(b->m, s.rows, s.nrows);
	output_write(stdout, &b->out, &s);
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

struct recording {
	struct recorder *rec;
	struct evloop *loop;
};

/* Every sample goes to the recording, whatever the view shows of it. */
static void record_sample(const struct sample *s, void *arg)
{
	struct recording *r = arg;
	if (record_write(r->rec, s) < 0) {
		fprintf(stderr, _("%s: cannot write the recording: %s\n"),
			PACKAGE, strerror(errno));
		evloop_quit(r->loop, 1);
	}
}

static void on_quit_signal(int signo, void *arg)
{
	struct evloop *loop = arg;
	(void)signo;
	evloop_quit(loop, 0);
}

static void check_pids(const struct options *o)
{
	for (size_t i = 0; i < o->npids; i++) {
		if (kill(o->pids[i], 0) < 0 && errno == ESRCH) {
			fprintf(stderr, _("%s: no process with id %d\n"), PACKAGE,
				(int)o->pids[i]);
			exit(2);
		}
	}
}

/* --cgroup: an existing directory of the v2 hierarchy, normalised. */
static void check_cgroup(const struct options *o, char *norm, size_t size)
{
	char root[4096];
	if (cgroup_find_root(root, sizeof(root)) < 0) {
		fprintf(stderr, _("%s: --cgroup: no cgroup v2 hierarchy is "
				  "mounted\n"), PACKAGE);
		exit(2);
	}
	if (cgroup_check_path(root, o->cgroup, norm, size) < 0) {
		fprintf(stderr, _("%s: --cgroup '%s': not a cgroup v2 directory "
				  "below %s (%s)\n"),
			PACKAGE, o->cgroup, root, strerror(errno));
		exit(2);
	}
}

static struct psi_trigger *parse_triggers(const struct options *o)
{
	if (!o->ntriggers)
		return NULL;
	struct psi_trigger *t = calloc(o->ntriggers, sizeof(*t));
	if (!t) {
		fprintf(stderr, "%s: %s\n", PACKAGE, strerror(ENOMEM));
		exit(1);
	}
	for (size_t i = 0; i < o->ntriggers; i++) {
		char err[256];
		if (psi_trigger_parse(o->triggers[i], &t[i], err,
				      sizeof(err)) < 0) {
			fprintf(stderr, "%s: --trigger '%s': %s\n", PACKAGE,
				o->triggers[i], err);
			exit(2);
		}
	}
	return t;
}

static void check_delayacct(const struct options *o)
{
	if (o->enable_delayacct && delayacct_state() != 1) {
		if (delayacct_enable() < 0) {
			fprintf(stderr, _("%s: cannot turn on delay accounting "
					  "(%s): run as root\n"),
				PACKAGE, strerror(errno));
			exit(1);
		}
		fprintf(stderr, _("%s: delay accounting turned on; tasks started "
				  "from now on have every category\n"), PACKAGE);
	}
	int state = delayacct_state();
	if (state == 0 && o->batch)
		fprintf(stderr, _("%s: delay accounting is off "
				  "(kernel.task_delayacct=0): only cpu delay "
				  "is measured. Turn it on with --enable-delayacct "
				  "or 'sysctl kernel.task_delayacct=1'; only tasks "
				  "started after that have the other categories.\n"),
			PACKAGE);
	else if (state < 0 && o->batch)
		fprintf(stderr, _("%s: this kernel has no delay accounting "
				  "(CONFIG_TASK_DELAY_ACCT is off): only cpu "
				  "delay is measured\n"), PACKAGE);
}

int main(int argc, char **argv)
{
	setlocale(LC_ALL, "");
	bindtextdomain(PACKAGE, LOCALEDIR);
	textdomain(PACKAGE);

	if (privs_restrict() < 0) {
		fprintf(stderr, _("%s: cannot drop capabilities: %s\n"), PACKAGE,
			strerror(errno));
		return 1;
	}
	struct options o;
	options_parse(&o, argc, argv);
	if (o.replay && o.record) {
		fprintf(stderr, _("%s: --record and --replay do not go together\n"),
			PACKAGE);
		return 2;
	}
	if (!o.replay)
		check_pids(&o); /* a recording's processes are long gone */
	if (!o.batch && (!isatty(STDOUT_FILENO) || !isatty(STDIN_FILENO))) {
		fprintf(stderr, _("%s: not a terminal: use -b for batch output\n"),
			PACKAGE);
		options_free(&o);
		return 2;
	}
	/* the settings file is for the screen; scripts see only their options */
	if (!o.batch)
		config_file_load(&o, NULL);
	if (!o.replay)
		check_delayacct(&o);

	struct evloop *loop = evloop_new();
	if (!loop) {
		fprintf(stderr, "%s: %s\n", PACKAGE, strerror(errno));
		return 1;
	}
	static const int quit_signals[] = { SIGINT, SIGTERM };
	evloop_add_signals(loop, quit_signals, 2, on_quit_signal, loop);

	char cgroup[4096];
	if (o.cgroup)
		check_cgroup(&o, cgroup, sizeof(cgroup));
	struct psi_trigger *triggers = parse_triggers(&o);
	struct recorder *rec = NULL;
	if (o.record) {
		char err[512];
		rec = record_open(o.record, err, sizeof(err));
		if (!rec) {
			fprintf(stderr, "%s: --record '%s': %s\n", PACKAGE,
				o.record, err);
			return 1;
		}
	}

	struct monitor_opts mo = {
		.threads = o.threads,
		.accumulate = o.accumulate,
		.pids = o.pids,
		.npids = o.npids,
		.no_events = o.no_events,
		.rescan = o.rescan,
		.cgroups = o.cgroups,
		.cgroup_within = o.cgroup ? cgroup : NULL,
		.record_threads = rec != NULL,
		.triggers = triggers,
		.ntriggers = o.ntriggers,
	};
	int code;
	struct producer *m = o.replay ?
		player_open(o.replay, o.threads, mo.cgroup_within, &code) :
		monitor_new(&mo, loop, &code);
	if (!m) {
		record_close(rec);
		free(triggers);
		evloop_free(loop);
		options_free(&o);
		return code;
	}

	struct recording recording = { rec, loop };
	if (rec)
		producer_on_sample(m, record_sample, &recording);
	if (o.batch) {
		const char *const *n = producer_notices(m);
		for (; *n; n++)
			fprintf(stderr, "%s: %s\n", PACKAGE, *n);
		struct batch b = { &o, m, loop, { o.format, o.cmdline, false },
				   0 };
		producer_on_trigger(m, batch_trigger, &b);
		if (producer_finite(m)) {
			/* a recording is re-emitted at once, sample by sample */
			code = 0;
			while (!producer_done(m) &&
			       !evloop_quit_requested(loop, &code))
				batch_tick(&b);
		} else {
			evloop_set_timer(loop, o.delay, batch_tick, &b);
			code = evloop_run(loop);
		}
	} else {
		code = screen_run(m, loop, &o);
	}

	producer_free(m);
	record_close(rec);
	free(triggers);
	evloop_free(loop);
	options_free(&o);
	return code;
}
