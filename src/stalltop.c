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
#include "delayacct.h"
#include "evloop.h"
#include "monitor.h"
#include "nls.h"
#include "options.h"
#include "output.h"
#include "privs.h"
#include "screen.h"
#include "select.h"

struct batch {
	struct options *o;
	struct monitor *m;
	struct evloop *loop;
	struct out_opts out;
	unsigned long done;
};

static void batch_tick(void *arg)
{
	struct batch *b = arg;
	struct sample s;
	if (monitor_sample(b->m, &s) < 0) {
		fprintf(stderr, _("%s: taskstats query failed: %s\n"), PACKAGE,
			strerror(errno));
		ev_quit(b->loop, 1);
		return;
	}
	s.nrows = select_rows(s.rows, s.nrows, &b->o->sel, s.interval);
	s.nexited = select_rows(s.exited, s.nexited, &b->o->sel, s.interval);
	monitor_fill_status(b->m, s.rows, s.nrows);
	out_write(stdout, &b->out, &s);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		ev_quit(b->loop, errno == EPIPE ? 0 : 1);
		return;
	}
	if (b->o->iterations && ++b->done >= b->o->iterations)
		ev_quit(b->loop, 0);
}

static void on_quit_signal(int signo, void *arg)
{
	struct evloop *loop = arg;
	(void)signo;
	ev_quit(loop, 0);
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
	check_pids(&o);
	if (!o.batch && (!isatty(STDOUT_FILENO) || !isatty(STDIN_FILENO))) {
		fprintf(stderr, _("%s: not a terminal: use -b for batch output\n"),
			PACKAGE);
		options_free(&o);
		return 2;
	}
	/* the settings file is for the screen; scripts see only their options */
	if (!o.batch)
		config_load(&o, NULL);
	check_delayacct(&o);

	struct evloop *loop = ev_new();
	if (!loop) {
		fprintf(stderr, "%s: %s\n", PACKAGE, strerror(errno));
		return 1;
	}
	static const int quit_signals[] = { SIGINT, SIGTERM };
	ev_add_signals(loop, quit_signals, 2, on_quit_signal, loop);

	struct monitor_opts mo = {
		.threads = o.threads,
		.accumulate = o.accumulate,
		.pids = o.pids,
		.npids = o.npids,
		.no_events = o.no_events,
		.rescan = o.rescan,
	};
	int code;
	struct monitor *m = monitor_new(&mo, loop, &code);
	if (!m) {
		ev_free(loop);
		options_free(&o);
		return code;
	}

	if (o.batch) {
		const char *const *n = monitor_notices(m);
		for (; *n; n++)
			fprintf(stderr, "%s: %s\n", PACKAGE, *n);
		struct batch b = { &o, m, loop, { o.format, o.cmdline, false }, 0 };
		ev_set_timer(loop, o.delay, batch_tick, &b);
		code = ev_run(loop);
	} else {
		code = screen_run(m, loop, &o);
	}

	monitor_free(m);
	ev_free(loop);
	options_free(&o);
	return code;
}
