/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Command-line parsing: strict, one clear line and exit 2 on bad input. */
#include <config.h>

#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/nls.h"
#include "lib/numparse.h"
#include "model/categories.h"
#include "model/fields.h"
#include "options.h"
#include "view/out_openmetrics.h"


enum {
	OPT_LIMIT = 256,
	OPT_FORMAT,
	OPT_JSON,
	OPT_ENABLE_DELAYACCT,
	OPT_NO_COLOR,
	OPT_NO_EVENTS,
	OPT_RESCAN,
	OPT_CGROUPS,
	OPT_CGROUP,
	OPT_TRIGGER,
	OPT_RECORD,
	OPT_REPLAY,
	OPT_TOP,
	OPT_TEXTFILE,
};

static const struct option long_opts[] = {
	{ "batch", no_argument, NULL, 'b' },
	{ "delay", required_argument, NULL, 'd' },
	{ "iterations", required_argument, NULL, 'n' },
	{ "pid", required_argument, NULL, 'p' },
	{ "user", required_argument, NULL, 'u' },
	{ "threads", no_argument, NULL, 'H' },
	{ "sort", required_argument, NULL, 's' },
	{ "reverse", no_argument, NULL, 'r' },
	{ "only-stalled", no_argument, NULL, 'o' },
	{ "limit", required_argument, NULL, OPT_LIMIT },
	{ "cmdline", no_argument, NULL, 'c' },
	{ "accumulate", no_argument, NULL, 'a' },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "enable-delayacct", no_argument, NULL, OPT_ENABLE_DELAYACCT },
	{ "no-color", no_argument, NULL, OPT_NO_COLOR },
	{ "no-events", no_argument, NULL, OPT_NO_EVENTS },
	{ "rescan", required_argument, NULL, OPT_RESCAN },
	{ "cgroups", no_argument, NULL, OPT_CGROUPS },
	{ "cgroup", required_argument, NULL, OPT_CGROUP },
	{ "trigger", required_argument, NULL, OPT_TRIGGER },
	{ "record", required_argument, NULL, OPT_RECORD },
	{ "replay", required_argument, NULL, OPT_REPLAY },
	{ "top", required_argument, NULL, OPT_TOP },
	{ "textfile", required_argument, NULL, OPT_TEXTFILE },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

static void __attribute__((noreturn)) usage(void)
{
	FILE *f = stdout;
	fprintf(f, _("Usage: %s [options]\n"), PACKAGE);
	fputs(_("\nShow which tasks are stalled, on what, and for how long.\n"), f);
	fputs(_("\nOptions:\n"), f);
	fputs(_(" -b, --batch              print samples instead of the interactive screen\n"), f);
	fputs(_(" -d, --delay SECONDS      refresh interval, fractional (default 1)\n"), f);
	fputs(_(" -n, --iterations N       stop after N samples\n"), f);
	fputs(_(" -p, --pid PID[,PID...]   only these processes (with -H, their threads);\n"
		"                          may be repeated\n"), f);
	fputs(_(" -u, --user NAME|UID      only this user's tasks\n"), f);
	fputs(_(" -H, --threads            one row per thread\n"), f);
	fputs(_(" -s, --sort KEY           sort by KEY (see below; default total)\n"), f);
	fputs(_(" -r, --reverse            reverse the sort order\n"), f);
	fputs(_(" -o, --only-stalled       only tasks that stalled in the interval\n"), f);
	fputs(_("     --limit N            at most N rows per sample\n"), f);
	fputs(_(" -c, --cmdline            show the command line instead of the name\n"), f);
	fputs(_(" -a, --accumulate         figures since stalltop started, including\n"
		"                          tasks that have exited\n"), f);
	fputs(_("     --format FORMAT      batch output: text, csv, json or openmetrics\n"), f);
	fputs(_("     --json               the same as --format json\n"), f);
	fputs(_("     --top N              OpenMetrics: series of the N tasks that stalled\n"
		"                          most in each interval (default 20, 0 = none)\n"), f);
	fputs(_("     --textfile PATH      batch mode without output: rewrite PATH with\n"
		"                          the metrics at every refresh (for node_exporter's\n"
		"                          textfile collector; name it *.prom)\n"), f);
	fputs(_("     --enable-delayacct   turn on kernel.task_delayacct (needs root)\n"), f);
	fputs(_("     --no-color           no colours on the screen (also NO_COLOR)\n"), f);
	fputs(_("     --no-events          do not use fork/exit notifications: scan\n"
		"                          /proc at every refresh\n"), f);
	fputs(_("     --rescan SECONDS     resynchronise with a scan of /proc this often\n"
		"                          (default 300, 0 = only after lost events)\n"), f);
	fputs(_("     --cgroups            sum the tasks per cgroup (v2), next to each\n"
		"                          cgroup's own pressure\n"), f);
	fputs(_("     --cgroup PATH        only tasks in this cgroup v2 subtree\n"), f);
	fputs(_("     --trigger RES:some|full:STALL_MS/WINDOW_MS\n"
		"                          take a sample at once when the kernel's PSI\n"
		"                          trigger fires (repeatable), e.g. memory:some:150/1000\n"), f);
	fputs(_("     --record FILE        append every sample to FILE (.gz: compressed)\n"), f);
	fputs(_("     --replay FILE        show a recording instead of the live system\n"), f);
	fputs(_(" -h, --help               show this help and exit\n"), f);
	fputs(_(" -V, --version            show the version and exit\n"), f);
	fputs(_("\nDelay categories (columns and sort keys):\n"), f);
	for (int c = 0; c < NCAT; c++)
		fprintf(f, "  %-10s %s\n", categories[c].key, _(categories[c].help));
	fputs(_("\nOther sort keys: total, cpu_pct, pid, comm.\n"
		"TOTAL (total) is cpu + irq + the largest of the other categories:\n"
		"the kernel nests waits (swap-in IO is block IO too), so a sum would\n"
		"count one wait twice.\n"
		"A figure the kernel reports that cannot be true (a wait longer than\n"
		"the task has existed) is dropped: shown as !, null in JSON, never\n"
		"sorted on or summed, and counted in the header.\n"), f);
	fputs(_("\nFiles:\n"
		"  /proc/pressure/*                          system pressure (PSI)\n"
		"  /proc/sys/kernel/task_delayacct           delay accounting switch\n"
		"  $XDG_CONFIG_HOME/stalltop/stalltoprc      saved settings\n"
		"  /proc/PID/cgroup, <cgroup v2>/*.pressure  cgroups and their pressure\n"), f);
	fputs(_("\nTaskstats needs CAP_NET_ADMIN: run as root, or grant it once with\n"
		"  setcap cap_net_admin+ep /path/to/stalltop   (or make install-setcap)\n"
		"Then anyone who may run that binary reads every task's delay and IO\n"
		"accounting; stalltop keeps no other capability and passes none on.\n"), f);
	exit(0);
}

/* One line naming what is wrong, a pointer to --help, status 2. */
static void __attribute__((noreturn, format(printf, 1, 2))) bad(const char *fmt, ...)
{
	char *what;
	va_list ap;
	va_start(ap, fmt);
	if (vasprintf(&what, fmt, ap) < 0)
		what = NULL;
	va_end(ap);
	if (!what)
		err(2, NULL);
	errx(2, _("%s (try '%s --help')"), what, program_invocation_short_name);
}

static void add_pids(struct options *o, const char *arg)
{
	char *copy = strdup(arg);
	if (!copy)
		bad("%s", strerror(ENOMEM));
	char *save = NULL;
	int any = 0;
	for (char *tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		pid_t pid;
		if (numparse_pid(tok, &pid) < 0) {
			bad(_("invalid process id '%s'"), tok); /* tok is in copy */
		}
		pid_t *n = realloc(o->pids, (o->npids + 1) * sizeof(*n));
		if (!n)
			bad("%s", strerror(ENOMEM));
		o->pids = n;
		o->pids[o->npids++] = pid;
		any = 1;
	}
	free(copy);
	if (!any)
		bad(_("invalid process id '%s'"), arg);
}

static void set_user(struct options *o, const char *arg)
{
	unsigned long uid;
	struct passwd *pw = getpwnam(arg);
	if (pw) {
		o->uid = pw->pw_uid;
	} else if (numparse_ulong(arg, 0, (uid_t)-2, &uid) == 0) {
		o->uid = (uid_t)uid;
	} else {
		bad(_("unknown user '%s'"), arg);
	}
	o->have_uid = true;
}

void options_parse(struct options *o, int argc, char **argv)
{
	memset(o, 0, sizeof(*o));
	o->delay = 1.0;
	o->rescan = 300;
	o->sel.sort = FIELD_TOTAL;
	o->format = OUT_TEXT;
	o->top = OUT_OPENMETRICS_TOP;
	o->monochrome = getenv("NO_COLOR") && *getenv("NO_COLOR");

	int c;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":bd:n:p:u:Hs:roachV", long_opts,
				NULL)) != -1) {
		unsigned long n;
		switch (c) {
		case 'b':
			o->batch = true;
			break;
		case 'd':
			if (numparse_delay(optarg, &o->delay) < 0)
				bad(_("invalid delay '%s': give seconds from 0.01 "
				      "to 86400, e.g. 0.5"), optarg);
			o->set_mask |= SET_DELAY;
			break;
		case 'n':
			if (numparse_ulong(optarg, 1, 1000000000UL, &n) < 0)
				bad(_("invalid number of iterations '%s'"), optarg);
			o->iterations = n;
			break;
		case 'p':
			add_pids(o, optarg);
			break;
		case 'u':
			set_user(o, optarg);
			break;
		case 'H':
			o->threads = true;
			o->set_mask |= SET_THREADS;
			break;
		case 's':
			o->sel.sort = fields_sort_by_name(optarg);
			if (o->sel.sort < 0)
				bad(_("unknown sort key '%s'"), optarg);
			o->set_mask |= SET_SORT;
			break;
		case 'r':
			o->sel.reverse = true;
			o->set_mask |= SET_REVERSE;
			break;
		case 'o':
			o->sel.only_stalled = true;
			o->set_mask |= SET_ONLY_STALLED;
			break;
		case OPT_LIMIT:
			if (numparse_ulong(optarg, 1, 100000000UL, &n) < 0)
				bad(_("invalid limit '%s'"), optarg);
			o->sel.limit = n;
			break;
		case 'c':
			o->cmdline = true;
			o->set_mask |= SET_CMDLINE;
			break;
		case 'a':
			o->accumulate = true;
			o->set_mask |= SET_ACCUMULATE;
			break;
		case OPT_FORMAT:
			if (strcmp(optarg, "text") == 0)
				o->format = OUT_TEXT;
			else if (strcmp(optarg, "csv") == 0)
				o->format = OUT_CSV;
			else if (strcmp(optarg, "json") == 0)
				o->format = OUT_JSON;
			else if (strcmp(optarg, "openmetrics") == 0)
				o->format = OUT_OPENMETRICS;
			else
				bad(_("unknown format '%s': use text, csv, json or "
				      "openmetrics"), optarg);
			o->format_set = true;
			break;
		case OPT_JSON:
			o->format = OUT_JSON;
			o->format_set = true;
			break;
		case OPT_TOP:
			if (numparse_ulong(optarg, 0, 100000000UL, &n) < 0)
				bad(_("invalid number of tasks '%s' for --top"),
				    optarg);
			o->top = n;
			break;
		case OPT_TEXTFILE:
			if (!*optarg)
				bad(_("an empty file name for --textfile"));
			o->textfile = optarg;
			break;
		case OPT_ENABLE_DELAYACCT:
			o->enable_delayacct = true;
			break;
		case OPT_NO_COLOR:
			o->monochrome = true;
			o->set_mask |= SET_MONOCHROME;
			break;
		case OPT_NO_EVENTS:
			o->no_events = true;
			break;
		case OPT_RESCAN:
			if (strcmp(optarg, "0") == 0)
				o->rescan = 0;
			else if (numparse_positive_double(optarg, 1e9, &o->rescan) < 0)
				bad(_("invalid rescan interval '%s'"), optarg);
			break;
		case OPT_CGROUPS:
			o->cgroups = true;
			break;
		case OPT_CGROUP:
			if (!*optarg)
				bad(_("an empty cgroup path"));
			o->cgroup = optarg;
			break;
		case OPT_TRIGGER: {
			char **n = realloc(o->triggers,
					   (o->ntriggers + 1) * sizeof(*n));
			if (!n)
				bad("%s", strerror(ENOMEM));
			o->triggers = n;
			o->triggers[o->ntriggers++] = optarg;
			break;
		}
		case OPT_RECORD:
			if (!*optarg)
				bad(_("an empty file name for --record"));
			o->record = optarg;
			break;
		case OPT_REPLAY:
			if (!*optarg)
				bad(_("an empty file name for --replay"));
			o->replay = optarg;
			break;
		case 'h':
			usage();
		case 'V':
			printf("%s %s\n", PACKAGE, VERSION);
			exit(0);
		case ':':
			bad(_("option '%s' needs a value"), argv[optind - 1]);
		default:
			if (optopt >= 256 || (optopt && strchr("bHroach", optopt) &&
					      strncmp(argv[optind - 1], "--", 2) == 0))
				bad(_("option '%s' takes no value"), argv[optind - 1]);
			if (optopt && optopt < 256)
				bad(_("unknown option '-%c'"), optopt);
			bad(_("unknown option '%s'"), argv[optind - 1]);
		}
	}
	if (optind < argc)
		bad(_("unexpected argument '%s'"), argv[optind]);
	if (o->textfile) {
		if (o->format_set && o->format != OUT_OPENMETRICS)
			bad(_("--textfile writes OpenMetrics: it does not go "
			      "with another --format"));
		if (o->replay)
			bad(_("--textfile and --replay do not go together"));
		o->batch = true;
		o->format = OUT_OPENMETRICS;
	}

	o->sel.pids = o->pids;
	o->sel.npids = o->npids;
	o->sel.have_uid = o->have_uid;
	o->sel.uid = o->uid;
}

void options_free(struct options *o)
{
	free(o->triggers);
	o->triggers = NULL;
	free(o->pids);
	o->pids = NULL;
	o->npids = 0;
}
