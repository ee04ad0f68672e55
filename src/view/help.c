/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The help screen's text: keys, columns and what the figures mean. */
#include <config.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/nls.h"
#include "lib/textwidth.h"
#include "model/categories.h"
#include "model/fields.h"
#include "model/layouts.h"
#include "view/actions.h"
#include "view/help.h"
#include "view/keys.h"

#define KEY_COL 18

static const char *const section_title[NKS] = {
	[KS_MOVE] = N_("Moving around"),
	[KS_SORT] = N_("Sorting and what the columns show"),
	[KS_FILTER] = N_("Searching and filtering"),
	[KS_CGROUP] = N_("The cgroup view"),
	[KS_REPLAY] = N_("Replaying a recording (--replay)"),
	[KS_TASK] = N_("Acting on the selected task"),
	[KS_CONTROL] = N_("Display and control"),
};

static int add(struct help_text *h, bool title, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int add(struct help_text *h, bool title, const char *fmt, ...)
{
	char *line;
	va_list ap;
	va_start(ap, fmt);
	int r = vasprintf(&line, fmt, ap);
	va_end(ap);
	if (r < 0)
		return -1;
	char **lines = realloc(h->lines, (h->n + 1) * sizeof(*lines));
	bool *t = realloc(h->title, (h->n + 1) * sizeof(*t));
	if (lines)
		h->lines = lines;
	if (t)
		h->title = t;
	if (!lines || !t) {
		free(line);
		return -1;
	}
	h->lines[h->n] = line;
	h->title[h->n] = title;
	h->n++;
	return 0;
}

/* "text" followed by spaces up to cols display cells. */
static int add_entry(struct help_text *h, const char *left, int cols,
		     const char *right)
{
	int pad = cols - textwidth_width(left);
	if (pad < 1)
		pad = 1;
	return add(h, false, "  %s%*s%s", left, pad, "", right);
}

/* Append name to a space-separated list unless it is there already. */
static void add_name(char *list, size_t size, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = list; (p = strstr(p, name)); p += n)
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
			return;
	if (*list)
		strncat(list, " ", size - strlen(list) - 1);
	strncat(list, name, size - strlen(list) - 1);
}

static int keys_part(struct help_text *h)
{
	size_t n;
	const struct key_binding *t = keys_table(&n);
	int section = -1;

	for (size_t i = 0; i < n; ) {
		if ((int)t[i].section != section) {
			section = t[i].section;
			if (add(h, false, "%s", "") < 0 ||
			    add(h, true, "%s", _(section_title[section])) < 0)
				return -1;
		}
		/* consecutive bindings with the same action share a line */
		char names[128] = "", name[32];
		size_t j = i;
		for (; j < n && t[j].action == t[i].action && t[j].arg == t[i].arg &&
		       t[j].help == t[i].help; j++)
			add_name(names, sizeof(names), keys_name(t[j].key, name,
								 sizeof(name)));
		char text[256];
		if (t[i].action == actions_sort_by) {
			const struct field *c = fields_get(t[i].arg);
			snprintf(text, sizeof(text), _(t[i].help),
				 c ? c->header : "?");
		} else {
			snprintf(text, sizeof(text), "%s", _(t[i].help));
		}
		if (add_entry(h, names, KEY_COL, text) < 0)
			return -1;
		i = j;
	}
	return 0;
}

static int columns_part(struct help_text *h)
{
	if (add(h, false, "%s", "") < 0 || add(h, true, "%s", _("Columns")) < 0)
		return -1;
	int n;
	const int *ids = layouts_fields(FIELD_LAYOUT_SCREEN, &n);
	for (int i = 0; i < n; i++) {
		const struct field *c = fields_get(ids[i]);
		if (add_entry(h, c->header, KEY_COL, _(c->help)) < 0)
			return -1;
	}
	static const char *const hidden[] = {
		N_("Hidden until chosen with F2 (column setup, saved): NI, RSS,"),
		N_("SWAP, RD, WR, MAJFL, WCHAN, CGROUP; and IRQ, with the irq row"),
		N_("of PSI, where the kernel collects no IRQ time"),
		N_("(CONFIG_IRQ_TIME_ACCOUNTING off: no /proc/pressure/irq)."),
	};
	for (size_t i = 0; i < sizeof(hidden) / sizeof(hidden[0]); i++)
		if (add(h, false, "%s", _(hidden[i])) < 0)
			return -1;
	return 0;
}

static int cgcolumns_part(struct help_text *h)
{
	if (add(h, false, "%s", "") < 0 ||
	    add(h, true, "%s", _("Columns of the cgroup view (g)")) < 0)
		return -1;
	int n;
	const int *ids = layouts_fields(FIELD_LAYOUT_CGROUPS_SCREEN, &n);
	for (int i = 0; i < n; i++) {
		int cat = fields_cat(ids[i]);
		if (cat > 0)
			continue;
		if (cat == 0) {
			char names[64];
			snprintf(names, sizeof(names), "%s..%s",
				 fields_get(FIELD_CAT)->header,
				 fields_get(FIELD_CAT + NCAT - 1)->header);
			if (add_entry(h, names, KEY_COL,
				      _("the delay columns, summed over the "
					"cgroup's processes and below")) < 0)
				return -1;
			continue;
		}
		const struct field *c = fields_get(ids[i]);
		const char *help = c->cg_help ? c->cg_help : c->help;
		if (add_entry(h, c->header, KEY_COL, _(help)) < 0)
			return -1;
	}
	return 0;
}

static int meaning_part(struct help_text *h, const char *path)
{
	static const char *const text[] = {
		N_("What the delay columns show (key m):"),
		/* xgettext:no-c-format */
		N_("  % of interval  time spent waiting as a share of the interval;"),
		N_("                 a process with several threads can exceed 100"),
		N_("  avg ms         average length of one wait in the interval"),
		N_("  events/s       waits per second"),
		N_("  max ms         longest single wait that ended in the interval,"),
		N_("                 where it is known (see the manual page)"),
		N_("  -              no true figure: the kernel gives none, or the"),
		N_("                 task predates delay accounting being switched on"),
		N_("  !              the kernel's figure cannot be true (a wait longer"),
		N_("                 than the task has existed): dropped, never sorted"),
		N_("                 on or summed; the header counts them"),
		N_("TOTAL is the time held back: CPU + IRQ + IO + the memory work"),
		N_("W = SWAP + max(WPCOPY, RECLAIM + COMPACT) that ran, W x R / (R +"),
		/* xgettext:no-c-format */
		N_("CPU + IRQ) with R the CPU% (+ THRASHING beyond SWAP and IO); held"),
		N_("between max(CPU + IRQ + IO, W, THRASHING) and the sum of all, and"),
		N_("never above the time the task lived (100 per thread). Reclaim,"),
		N_("compaction, copy-on-write and swap-in are work on the CPU: their"),
		/* xgettext:no-c-format */
		N_("time is run time or CPU delay too, so CPU% and RECLAIM can both"),
		N_("be high for one thread; the columns overlap and never add up."),
		"",
		N_("Colours: red a large stall, yellow a notable one. As in htop, a"),
		N_("task that started in the interval has a green row and one that"),
		N_("ended a red row, for that one refresh (bold and dim without"),
		N_("colours)."),
		"",
		N_("PSI: the share of the interval in which some (or all) non-idle"),
		N_("tasks stalled on the resource, then the kernel's 10 s, 60 s and"),
		N_("300 s averages; the history shows some (full for irq)."),
		"",
		N_("Delay accounting (kernel.task_delayacct) is off by default; E turns"),
		N_("it on. Tasks alive before it came on only have CPU figures."),
		"",
		N_("g starts summing per cgroup if --cgroups did not. Its sort keys"),
		N_("order each cgroup's children; Enter shows the processes of the"),
		N_("selected cgroup, Esc goes back up. NAME is what operators call"),
		N_("a cgroup: its systemd unit, a container's runtime and short id,"),
		N_("a Kubernetes pod's UID and QoS class. In the cgroup view / finds"),
		N_("names and paths and \\ filters the cgroups by them; the other"),
		N_("filters apply to the processes. v2, hybrid and v1 hierarchies"),
		N_("all work: each figure comes from the hierarchy that has it."),
		"",
		N_("A replay (--replay FILE) of a recording of readings gives what"),
		N_("live gave, from the same model: a the window since the sample"),
		N_("shown, d the interval the figures cover; it plays one sample a"),
		N_("second. An NDJSON recording plays one sample per interval (d);"),
		N_("the header shows REPLAY, the sample's own time and its position."),
		N_("Threads can be shown only when the recording holds them."),
		"",
		N_("A PSI trigger (--trigger) takes a sample at once when it fires;"),
		N_("the header then shows TRIGGER and which one."),
	};
	if (add(h, false, "%s", "") < 0 ||
	    add(h, true, "%s", _("How to read it")) < 0)
		return -1;
	for (size_t i = 0; i < sizeof(text) / sizeof(text[0]); i++)
		if (add(h, false, "%s", *text[i] ? _(text[i]) : "") < 0)
			return -1;
	if (add(h, false, "%s", "") < 0 ||
	    add(h, false, _("Settings file (key W): %s"),
		path ? path : _("(no home directory)")) < 0)
		return -1;
	return 0;
}

int help_build(struct help_text *h, const char *config_file_path)
{
	memset(h, 0, sizeof(*h));
	if (add(h, true, _("%s %s: which tasks stall, on what, for how long"),
		PACKAGE, VERSION) < 0 ||
	    add(h, false, "%s",
		_("Arrows, PgUp/PgDn, Home/End scroll; q, Esc or h leave.")) < 0 ||
	    keys_part(h) < 0 || columns_part(h) < 0 || cgcolumns_part(h) < 0 ||
	    meaning_part(h, config_file_path) < 0) {
		help_free(h);
		return -1;
	}
	return 0;
}

void help_free(struct help_text *h)
{
	for (size_t i = 0; i < h->n; i++)
		free(h->lines[i]);
	free(h->lines);
	free(h->title);
	memset(h, 0, sizeof(*h));
}
