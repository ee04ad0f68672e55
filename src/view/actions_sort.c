/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Keys that sort and choose what the columns show: the column to the
 * left or right, a column's shortcut, reverse order, the delay metric.
 * In the cgroup view they sort its columns.
 */
#include <config.h>

#include "lib/nls.h"
#include "model/fields.h"
#include "model/layouts.h"
#include "view/actions.h"
#include "view/screen_int.h"

void actions_sort_set(struct screen *s, int key, bool toggle)
{
	if (key == s->sel.sort)
		s->sel.reverse = toggle ? !s->sel.reverse : s->sel.reverse;
	else
		s->sel.reverse = false;
	s->sel.sort = key;
	actions_control_sync_settings(s);
	screen_fill_for_sort(s);
	screen_rebuild_view(s);
}

/* < and >: the next sortable column that way. */
static void step(struct screen *s, int dir)
{
	int next = s->cgview
		? layouts_step(FIELD_LAYOUT_CGROUPS, s->cg_sort, dir, 0)
		: screen_setup_step(s, s->sel.sort, dir);

	if (s->cgview && next != s->cg_sort)
		screen_cgroup_set_sort(s, next, false);
	else if (!s->cgview)
		actions_sort_set(s, next, false);
}

void actions_sort_left(struct screen *s, int arg)
{
	(void)arg;
	step(s, -1);
}

void actions_sort_right(struct screen *s, int arg)
{
	(void)arg;
	step(s, 1);
}

void actions_sort_reverse(struct screen *s, int arg)
{
	(void)arg;
	if (s->cgview) {
		screen_cgroup_set_sort(s, s->cg_sort, true);
		return;
	}
	s->sel.reverse = !s->sel.reverse;
	actions_control_sync_settings(s);
	screen_rebuild_view(s);
}

void actions_sort_by(struct screen *s, int key)
{
	if (!s->cgview)
		actions_sort_set(s, key, false);
	else if (layouts_has(FIELD_LAYOUT_CGROUPS, key))
		screen_cgroup_set_sort(s, key, false);
	else
		screen_message(s, true, _("the cgroup view has no %s column; "
					  "< and > walk its columns"),
			       fields_get(key)->header);
}

void actions_sort_metric(struct screen *s, int arg)
{
	(void)arg;
	s->sel.metric = (enum metric)((s->sel.metric + 1) % NMETRIC);
	actions_control_sync_settings(s);
	screen_rebuild_view(s);
	screen_message(s, false, _("delay columns show %s"),
		       screen_table_metric_label(s->sel.metric));
}

const struct key_def actions_sort_keys[] = {
	{ { '<' }, actions_sort_left, 0, N_("sort by the column to the left") },
	{ { '>' }, actions_sort_right, 0, N_("sort by the column to the right") },
	{ { 'r' }, actions_sort_reverse, 0, N_("reverse the sort order") },
	{ { KEYS_CATEGORY_SHORTCUTS }, actions_sort_by, 0, N_("sort by %s") },
	{ { 'D' }, actions_sort_by, FIELD_TOTAL, N_("sort by %s") },
	{ { 'P' }, actions_sort_by, FIELD_CPU_PCT, N_("sort by %s") },
	{ { 'N' }, actions_sort_by, FIELD_PID, N_("sort by %s") },
	{ { 'm' }, actions_sort_metric, 0,
	/* xgettext:no-c-format */
	  N_("delay columns: % of interval, avg ms per event, events/s, max ms") },
	{ { 0 }, NULL, 0, NULL },
};
