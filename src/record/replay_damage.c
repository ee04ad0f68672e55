/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What went wrong in reading a recording of the older text format: lines
 * skipped and why, samples out of time order, torn lines, rows and values
 * dropped, where reading stopped; counted in the replay's damage and said
 * in one problem text (replay_problem()).
 */
#include <config.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/nls.h"
#include "record/json_scan.h"
#include "record/replay_damage.h"
#include "record/replay_int.h"

/* Add "; " and a formatted note to the text being built. */
static void __attribute__((format(printf, 2, 3)))
add_note(char **text, const char *fmt, ...)
{
	char buf[800];
	va_list ap;
	size_t old = *text ? strlen(*text) : 0;
	char *p;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	p = realloc(*text, old + strlen(buf) + 3);
	if (!p)
		return;
	if (old)
		strcpy(p + old, "; ");
	strcpy(p + (old ? old + 2 : 0), buf);
	*text = p;
}

/* Why a line was skipped, as the end of a sentence. */
static void skip_reason(const struct skip *k, char *buf, size_t size)
{
	switch (k->why) {
	case SKIP_SYNTAX:
		snprintf(buf, size, "%s", _("it is not valid JSON"));
		break;
	case SKIP_CUT:
		snprintf(buf, size, "%s", _("it ends in the middle of its JSON "
					    "object (cut short)"));
		break;
	case SKIP_CONTROL:
		snprintf(buf, size, "%s", _("it holds a raw control byte, which "
					    "JSON never has"));
		break;
	case SKIP_DEPTH:
		snprintf(buf, size, _("it nests deeper than %d levels (a sample "
				      "nests 6)"), JSON_SCAN_DEPTH);
		break;
	case SKIP_LONG:
		snprintf(buf, size, _("it is longer than the %zu MiB a line may "
				      "be"), REPLAY_LINE_MAX >> 20);
		break;
	case SKIP_COST:
		snprintf(buf, size, _("decoding it would take about %.1f GiB of "
				      "memory, more than the %u GiB a sample "
				      "may take"),
			 (double)k->cost / (1 << 30),
			 (unsigned)(REPLAY_DECODE_MAX >> 30));
		break;
	case SKIP_NOMEM:
		snprintf(buf, size, "%s", _("there was not enough memory to "
					    "decode it"));
		break;
	case SKIP_NOT_SAMPLE:
		snprintf(buf, size, "%s", _("it is neither a sample nor a "
					    "recording header"));
		break;
	case SKIP_TIME:
		snprintf(buf, size, "%s", _("its time is impossible"));
		break;
	case SKIP_TIMES:
		snprintf(buf, size, "%s", _("it holds more than one time"));
		break;
	case SKIP_ORDER:
		snprintf(buf, size, "%s", _("its time is not after that of the "
					    "sample before it (out of order or "
					    "repeated)"));
		break;
	}
}

void replay_damage_problem(struct replay *rp)
{
	const struct damage *d = &rp->dmg;
	char *text = NULL, why[300];

	if (d->skipped) {
		skip_reason(&d->first_skip, why, sizeof(why));
		if (d->skipped == 1)
			add_note(&text, _("line %zu was skipped: %s"),
				 d->first_skipped, why);
		else
			add_note(&text, ngettext("%zu line was skipped (the "
						 "first, line %zu: %s)",
						 "%zu lines were skipped (the "
						 "first, line %zu: %s)",
						 d->skipped),
				 d->skipped, d->first_skipped, why);
	}
	if (d->order == 1) {
		struct skip k = { SKIP_ORDER, 0 };

		skip_reason(&k, why, sizeof(why));
		add_note(&text, _("line %zu was skipped: %s"), d->first_order,
			 why);
	} else if (d->order) {
		add_note(&text, ngettext("%zu sample was skipped because its "
					 "time is not after that of the sample "
					 "before it (out of order or repeated; "
					 "the first is line %zu)",
					 "%zu samples were skipped because their "
					 "time is not after that of the sample "
					 "before them (out of order or repeated; "
					 "the first is line %zu)", d->order),
			 d->order, d->first_order);
	}
	if (d->torn == 1)
		add_note(&text, _("line %zu is torn (the recording was "
				  "interrupted there) and was ignored"),
			 d->first_torn);
	else if (d->torn)
		add_note(&text, ngettext("%zu torn line (the recording was "
					 "interrupted; the first is line %zu) "
					 "was ignored",
					 "%zu torn lines (the recording was "
					 "interrupted; the first is line %zu) "
					 "were ignored", d->torn),
			 d->torn, d->first_torn);
	if (d->rows)
		add_note(&text, ngettext("%zu row that is not a task was "
					 "skipped (the first in line %zu)",
					 "%zu rows that are not tasks were "
					 "skipped (the first in line %zu)",
					 d->rows),
			 d->rows, d->first_rows);
	if (d->values)
		add_note(&text, ngettext("%zu impossible value was dropped "
					 "(the first in line %zu)",
					 "%zu impossible values were dropped "
					 "(the first in line %zu)", d->values),
			 d->values, d->first_values);
	if (d->notime)
		add_note(&text, ngettext("%zu sample has no time (the first in "
					 "line %zu): its time is shown as "
					 "unknown (-, JSON null, an empty CSV "
					 "field)",
					 "%zu samples have no time (the first "
					 "in line %zu): their time is shown as "
					 "unknown (-, JSON null, an empty CSV "
					 "field)", d->notime),
			 d->notime, d->first_notime);
	if (*d->stop)
		add_note(&text, "%s", d->stop);
	if (d->torn_last)
		add_note(&text, "%s", _("the last record is torn (incomplete) "
					"and was ignored"));
	if (d->not_closed)
		add_note(&text, "%s", _("the compressed recording was not "
					"closed (stalltop was interrupted or is "
					"still recording); every complete "
					"record was replayed"));
	free(rp->problem);
	rp->problem = text;
}

void replay_damage_skip(struct damage *d, size_t line_no,
			const struct skip *k)
{
	if (k->why == SKIP_ORDER) {
		if (!d->order++ || line_no < d->first_order)
			d->first_order = line_no;
		return;
	}
	if (!d->skipped++ || line_no < d->first_skipped) {
		d->first_skipped = line_no;
		d->first_skip = *k;
	}
}

void replay_damage_bad_line(struct replay *rp, size_t index,
			    const struct skip *why)
{
	char reason[300];

	skip_reason(why, reason, sizeof(reason));
	snprintf(rp->skipped_note, sizeof(rp->skipped_note),
		 _("line %zu was skipped: %s"), rp->idx[index].line, reason);
	if (rp->idx[index].bad)
		return;
	rp->idx[index].bad = 1;
	replay_damage_skip(&rp->dmg, rp->idx[index].line, why);
	replay_damage_problem(rp);
}

void replay_damage_dropped(struct replay *rp, size_t index, size_t rows,
			   size_t values)
{
	struct damage *d = &rp->dmg;
	size_t line = rp->idx[index].line;

	if (rp->idx[index].counted)
		return;
	rp->idx[index].counted = 1;

	if (rows && (!d->rows || line < d->first_rows))
		d->first_rows = line;
	if (values && (!d->values || line < d->first_values))
		d->first_values = line;
	d->rows += rows;
	d->values += values;
	if (rows || values)
		replay_damage_problem(rp);
}
