/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Command-line options (and the settings the config file may hold). */
#ifndef STALLTOP_OPTIONS_H
#define STALLTOP_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "model/select.h"
#include "view/output.h"

struct options {
	bool batch;              /* -b */
	double delay;            /* -d seconds, > 0 */
	unsigned long iterations;/* -n, 0 = forever */
	pid_t *pids;             /* -p, tgids */
	size_t npids;
	bool have_uid;           /* -u */
	uid_t uid;
	bool threads;            /* -H */
	struct select_opts sel;  /* -s -r -o --limit (pids/uid mirrored) */
	bool cmdline;            /* -c */
	bool accumulate;         /* -a */
	bool tree;               /* the settings file only: F5 */
	enum out_format format;  /* --format, --json */
	bool format_set;         /* --format or --json was given */
	unsigned long top;       /* --top: OpenMetrics per-task series */
	const char *textfile;    /* --textfile PATH */
	const char *listen;      /* --listen ADDR:PORT (checked) */
	bool host_psi;           /* --host-psi: the host's PSI in the metrics */
	char **group_rules;      /* settings "group=GROUP:comm|cmdline:REGEX" */
	size_t ngroup_rules;
	bool enable_delayacct;   /* --enable-delayacct */
	bool monochrome;         /* --no-color, NO_COLOR */
	bool no_events;          /* --no-events: scan /proc every refresh */
	double rescan;           /* --rescan seconds, 0 = never */
	bool cgroups;            /* --cgroups: the cgroups are shown */
	bool no_cgroups;         /* --no-cgroups: not even recorded */
	const char *cgroup;      /* --cgroup PATH (as given) */
	char **triggers;         /* --trigger SPEC, repeatable */
	size_t ntriggers;
	const char *record;      /* --record FILE|DIR */
	bool quiet;              /* -q: batch without output */
	uint64_t record_max_size;/* --record-max-size, bytes (DIR only) */
	unsigned keep_days;      /* --keep-days, 0 = all (DIR only) */
	bool rotate_opts_set;    /* either of the two was given */
	const char *replay;      /* --replay PATH: the first one */
	const char **replays;    /* every --replay PATH, in order */
	size_t nreplays;
	double begin, end;       /* --begin, --end: epoch seconds, NAN: none */
	/*
	 * The screen's task columns in order (the settings file's
	 * "columns", column setup F2); ncolumns 0: the default ones.
	 */
	int columns[NFIELD];
	int ncolumns;
	/* which of these the command line set (they override the config) */
	unsigned set_mask;
};

enum opt_set {
	SET_DELAY = 1u << 0,
	SET_SORT = 1u << 1,
	SET_REVERSE = 1u << 2,
	SET_ONLY_STALLED = 1u << 3,
	SET_CMDLINE = 1u << 4,
	SET_THREADS = 1u << 5,
	SET_ACCUMULATE = 1u << 6,
	SET_MONOCHROME = 1u << 7,
	SET_METRIC = 1u << 8,
	SET_COLUMNS = 1u << 9,   /* the settings file only */
	SET_TREE = 1u << 10,     /* the settings file only */
};

/*
 * Parse argv into o (defaults first). Prints --help/--version and exits 0
 * for those; on bad input prints one line on stderr and exits 2.
 */
void options_parse(struct options *o, int argc, char **argv);
void options_free(struct options *o);

#endif
