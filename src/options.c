/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Command-line parsing: strict, one clear line and exit 2 on bad input. */
#include <config.h>

#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/nls.h"
#include "lib/numparse.h"
#include "lib/timeparse.h"
#include "model/categories.h"
#include "model/fields.h"
#include "record/rotate.h"
#include "options.h"
#include "view/out_openmetrics.h"
#include "view/scrape.h"


enum {
	OPT_LIMIT = 256,
	OPT_FORMAT,
	OPT_JSON,
	OPT_ENABLE_DELAYACCT,
	OPT_NO_COLOR,
	OPT_NO_EVENTS,
	OPT_RESCAN,
	OPT_CGROUPS,
	OPT_NO_CGROUPS,
	OPT_CGROUP,
	OPT_TRIGGER,
	OPT_RECORD,
	OPT_REPLAY,
	OPT_TOP,
	OPT_TEXTFILE,
	OPT_LISTEN,
	OPT_HOST_PSI,
	OPT_RECORD_MAX_SIZE,
	OPT_KEEP_DAYS,
	OPT_BEGIN,
	OPT_END,
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
	{ "no-cgroups", no_argument, NULL, OPT_NO_CGROUPS },
	{ "cgroup", required_argument, NULL, OPT_CGROUP },
	{ "trigger", required_argument, NULL, OPT_TRIGGER },
	{ "record", required_argument, NULL, OPT_RECORD },
	{ "replay", required_argument, NULL, OPT_REPLAY },
	{ "top", required_argument, NULL, OPT_TOP },
	{ "textfile", required_argument, NULL, OPT_TEXTFILE },
	{ "listen", required_argument, NULL, OPT_LISTEN },
	{ "host-psi", no_argument, NULL, OPT_HOST_PSI },
	{ "quiet", no_argument, NULL, 'q' },
	{ "record-max-size", required_argument, NULL, OPT_RECORD_MAX_SIZE },
	{ "keep-days", required_argument, NULL, OPT_KEEP_DAYS },
	{ "begin", required_argument, NULL, OPT_BEGIN },
	{ "end", required_argument, NULL, OPT_END },
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
	fputs(_(" -q, --quiet              batch mode that writes nothing on stdout, only\n"
		"                          the recording, the textfile or the endpoint\n"
		"                          (implies -b)\n"), f);
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
	fputs(_("     --top N              OpenMetrics: also series of the N tasks that\n"
		"                          stalled most in each interval (default 0: none)\n"), f);
	fputs(_("     --host-psi           OpenMetrics: also the host's PSI (node_exporter's\n"
		"                          node_pressure_* has it)\n"), f);
	fputs(_("     --textfile PATH      batch mode without output: rewrite PATH with\n"
		"                          the metrics at every refresh (for node_exporter's\n"
		"                          textfile collector; name it *.prom)\n"), f);
	fputs(_("     --listen [ADDR:]PORT batch mode without output: serve the metrics\n"
		"                          of the last sample over HTTP at /metrics for\n"
		"                          Prometheus; PORT alone is 127.0.0.1:PORT\n"
		"                          (loopback), 0.0.0.0:PORT or [::]:PORT every\n"
		"                          address, [ADDR]:PORT an IPv6 address\n"), f);
	fputs(_("     --enable-delayacct   turn on kernel.task_delayacct (needs root)\n"), f);
	fputs(_("     --no-color           no colours on the screen (also NO_COLOR)\n"), f);
	fputs(_("     --no-events          do not use fork/exit notifications: scan\n"
		"                          /proc at every refresh\n"), f);
	fputs(_("     --rescan SECONDS     resynchronise with a scan of /proc this often\n"
		"                          (default 300, 0 = only after lost events)\n"), f);
	fputs(_("     --cgroups            sum the tasks per cgroup, next to each\n"
		"                          cgroup's own pressure, limits and name (v2,\n"
		"                          hybrid or v1 hierarchies)\n"), f);
	fputs(_("     --no-cgroups         no cgroups, not even in --record or the\n"
		"                          metrics, which have them by default\n"), f);
	fputs(_("     --cgroup PATH        only tasks in this cgroup subtree\n"), f);
	fputs(_("     --trigger RES:some|full:STALL_MS/WINDOW_MS\n"
		"                          take a sample at once when the kernel's PSI\n"
		"                          trigger fires (repeatable), e.g. memory:some:150/1000\n"), f);
	fputs(_("     --record FILE        append what the kernel said at every sample\n"
		"                          to FILE (name it *.stk; each record compressed),\n"
		"                          with the cgroups unless --no-cgroups\n"), f);
	fputs(_("     --record DIR/        record into daily files in DIR\n"
		"                          (stalltop-YYYY-MM-DD.stk), a new one at\n"
		"                          local midnight and at the size limit\n"), f);
	fputs(_("     --record-max-size SIZE\n"
		"                          start a new file of the day at SIZE (K, M, G;\n"
		"                          default 256M, 0 = no limit)\n"), f);
	fputs(_("     --keep-days N        remove daily files older than N days, those\n"
		"                          of the older *.ndjson.gz naming too\n"
		"                          (default 28, 0 = keep all)\n"), f);
	fputs(_("     --replay FILE|DIR    show a recording instead of the live system;\n"
		"                          a directory: every recording in it; repeat for\n"
		"                          several, replayed as one timeline\n"), f);
	fputs(_("     --begin TIME         replay from TIME on: 'YYYY-MM-DD HH:MM[:SS]',\n"
		"                          'HH:MM[:SS]' (today), 'YYYY-MM-DD' or @EPOCH\n"), f);
	fputs(_("     --end TIME           replay up to TIME (the same forms)\n"), f);
	fputs(_("     with --replay of a recording of readings: -d SECONDS the interval\n"
		"                          the figures cover, -a figures since the first\n"
		"                          sample replayed\n"), f);
	fputs(_(" -h, --help               show this help and exit\n"), f);
	fputs(_(" -V, --version            show the version and exit\n"), f);
	fputs(_("\nDelay categories (columns and sort keys):\n"), f);
	for (int c = 0; c < NCAT; c++)
		fprintf(f, "  %-10s %s\n", categories[c].key, _(categories[c].help));
	fputs(_("\nOther sort keys: total, cpu_pct, pid, comm, state.\n"
		"TOTAL (total) is the share of the interval the task was held back,\n"
		"never more than the time it lived: cpu + irq + io + the memory work\n"
		"W = swap + max(wpcopy, reclaim + compact) times R / (R + cpu + irq)\n"
		"(R = CPU%: reclaim and the like run on the CPU, so their time is\n"
		"run time or cpu delay too) + thrashing beyond swap and io; held\n"
		"between max(cpu + irq + io, W, thrashing) and the sum of all.\n"
		"A figure the kernel reports that cannot be true (a wait longer than\n"
		"the task has existed) is dropped: shown as !, null in JSON, never\n"
		"sorted on or summed, and counted in the header.\n"), f);
	fputs(_("\nNext to a stall (columns and sort keys; the screen shows them\n"
		"when chosen with F2, batch text, CSV and JSON always):\n"), f);
	for (int id = 0; id < NFIELD; id++) {
		const struct field *fd = fields_get(id);

		if (fd->flags & FIELD_OFF)
			fprintf(f, "  %-10s %s: %s\n", fields_sort_name(id),
				fd->header, _(fd->help));
	}
	fputs(_("The IRQ column and the irq row of PSI are hidden where the "
		"kernel\ncollects no IRQ time (CONFIG_IRQ_TIME_ACCOUNTING off: no\n"
		"/proc/pressure/irq); F2 shows the column anyway.\n"), f);
	fputs(_("\nWhy it stalls: for the shown processes and cgroups that stall\n"
		"on cpu, io, memory or wpcopy, the counters that tell why (cgroup\n"
		"limits, throttling, events and pressure, task states, allowed CPUs,\n"
		"IO, busiest disks): the screen's WHY column and evidence pane\n"
		"(key w), and a \"why\" object per row and cgroup in JSON and\n"
		"recordings.\n"), f);
	fputs(_("\nFiles:\n"
		"  /proc/pressure/*                          system pressure (PSI)\n"
		"  /proc/sys/kernel/task_delayacct           delay accounting switch\n"
		"  $XDG_CONFIG_HOME/stalltop/stalltoprc      saved settings\n"
		"  /var/log/stalltop/                        the recording service's files\n"
		"  /proc/self/mountinfo, /proc/PID/cgroup    the cgroup hierarchies, where\n"
		"                                            each task is in them\n"
		"  <cgroup>/*.pressure                       a cgroup's pressure (v2)\n"
		"  <cgroup>/cpu.* memory.* io.* blkio.*,\n"
		"  /proc/PID/io, /proc/diskstats             evidence of stalls (WHY)\n"
		"  /proc/PID/status, stat, io, wchan         RSS, SWAP, NI, faults, IO,\n"
		"                                            WCHAN\n"), f);
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

static void add_replay(struct options *o, const char *arg)
{
	if (!*arg)
		bad(_("an empty file name for --replay"));
	const char **n = realloc(o->replays, (o->nreplays + 1) * sizeof(*n));
	if (!n)
		bad("%s", strerror(ENOMEM));
	o->replays = n;
	o->replays[o->nreplays++] = arg;
	o->replay = o->replays[0];
}

/* --begin or --end: a point in time (lib/timeparse.h). */
static void set_time(double *out, const char *opt, const char *arg)
{
	if (timeparse_point(arg, time(NULL), out) == 0)
		return;
	if (errno == ERANGE)
		bad(_("invalid time '%s' for %s: out of range (a year from "
		      "1970 to 9999, a local time that exists)"), arg, opt);
	bad(_("invalid time '%s' for %s: give 'YYYY-MM-DD HH:MM[:SS]', "
	      "'HH:MM[:SS]' (today), 'YYYY-MM-DD' or @EPOCH"), arg, opt);
}

/* Options that need another, or exclude one. */
static void check_combinations(struct options *o)
{
	if (o->textfile) {
		if (o->format_set && o->format != OUT_OPENMETRICS)
			bad(_("--textfile writes OpenMetrics: it does not go "
			      "with another --format"));
		if (o->replay)
			bad(_("--textfile and --replay do not go together"));
		o->batch = true;
		o->format = OUT_OPENMETRICS;
	}
	if (o->listen) {
		if (o->format_set && o->format != OUT_OPENMETRICS)
			bad(_("--listen serves the metrics: it does not go "
			      "with another --format"));
		if (o->replay)
			bad(_("--listen and --replay do not go together"));
		o->batch = true;
		o->format = OUT_OPENMETRICS;
	}
	if ((!isnan(o->begin) || !isnan(o->end)) && !o->replay)
		bad(_("--begin and --end select samples of --replay"));
	if (!isnan(o->begin) && !isnan(o->end) && o->begin > o->end)
		bad(_("--begin is later than --end"));
	if (o->no_cgroups && (o->cgroups || o->cgroup))
		bad(_("--no-cgroups goes with neither --cgroups nor --cgroup"));
	if (o->quiet && !o->record && !o->textfile && !o->listen)
		bad(_("--quiet writes nothing without --record, --textfile or "
		      "--listen"));
	if (o->rotate_opts_set && (!o->record || !rotate_is_dir(o->record)))
		bad(_("--record-max-size and --keep-days are for --record "
		      "DIRECTORY"));
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
	o->record_max_size = ROTATE_MAX_SIZE_DEFAULT;
	o->keep_days = ROTATE_KEEP_DEFAULT;
	o->begin = o->end = NAN;
	while ((c = getopt_long(argc, argv, ":bd:n:p:u:Hs:roachVq", long_opts,
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
		case OPT_HOST_PSI:
			o->host_psi = true;
			break;
		case OPT_TEXTFILE:
			if (!*optarg)
				bad(_("an empty file name for --textfile"));
			o->textfile = optarg;
			break;
		case OPT_LISTEN: {
			struct sockaddr_storage sa;
			socklen_t len;
			char why[256];
			if (scrape_parse_address(optarg, &sa, &len, why,
						 sizeof(why)) < 0)
				bad(_("invalid address '%s' for --listen: %s"),
				    optarg, why);
			o->listen = optarg;
			break;
		}
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
		case OPT_NO_CGROUPS:
			o->no_cgroups = true;
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
			add_replay(o, optarg);
			break;
		case 'q':
			o->quiet = true;
			o->batch = true;
			break;
		case OPT_RECORD_MAX_SIZE: {
			uint64_t size;
			if (numparse_size(optarg, 0, UINT64_MAX, &size) < 0 ||
			    (size && size < 4096))
				bad(_("invalid size '%s': give bytes, or a number "
				      "with K, M or G (at least 4K; 0 = no "
				      "limit), e.g. 256M"), optarg);
			o->record_max_size = size;
			o->rotate_opts_set = true;
			break;
		}
		case OPT_KEEP_DAYS:
			if (numparse_ulong(optarg, 0, 100000, &n) < 0)
				bad(_("invalid number of days '%s': give 0 to "
				      "100000 (0 = keep every file)"), optarg);
			o->keep_days = (unsigned)n;
			o->rotate_opts_set = true;
			break;
		case OPT_BEGIN:
			set_time(&o->begin, "--begin", optarg);
			break;
		case OPT_END:
			set_time(&o->end, "--end", optarg);
			break;
		case 'h':
			usage();
		case 'V':
			printf("%s %s\n", PACKAGE, VERSION);
			exit(0);
		case ':':
			bad(_("option '%s' needs a value"), argv[optind - 1]);
		default:
			if (optopt >= 256 || (optopt && strchr("bHroachq", optopt) &&
					      strncmp(argv[optind - 1], "--", 2) == 0))
				bad(_("option '%s' takes no value"), argv[optind - 1]);
			if (optopt && optopt < 256)
				bad(_("unknown option '-%c'"), optopt);
			bad(_("unknown option '%s'"), argv[optind - 1]);
		}
	}
	if (optind < argc)
		bad(_("unexpected argument '%s'"), argv[optind]);
	check_combinations(o);

	o->sel.pids = o->pids;
	o->sel.npids = o->npids;
	o->sel.have_uid = o->have_uid;
	o->sel.uid = o->uid;
}

void options_free(struct options *o)
{
	for (size_t i = 0; i < o->ngroup_rules; i++)
		free(o->group_rules[i]);
	free(o->group_rules);
	o->group_rules = NULL;
	o->ngroup_rules = 0;
	free(o->triggers);
	o->triggers = NULL;
	free(o->replays);
	o->replays = NULL;
	o->nreplays = 0;
	free(o->pids);
	o->pids = NULL;
	o->npids = 0;
}
