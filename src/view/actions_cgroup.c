/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Keys of the cgroup view: the view itself (on/off) and folding the
 * selected cgroup's children. The view's sorting, search and Enter are
 * the other areas' keys, which look at s->cgview.
 */
#include <config.h>

#include "lib/nls.h"
#include "view/actions.h"
#include "view/screen_int.h"

void actions_cgroup_view(struct screen *s, int arg)
{
	(void)arg;
	screen_set_cgview(s, !s->cgview);
}

/* Folding keys outside the cgroup view: say where they work. */
static void not_cgview(struct screen *s)
{
	char a[32], b[32], key[32];
	keys_name(keys_for_action(actions_cgroup_fold, 0), a, sizeof(a));
	keys_name(keys_for_action(actions_cgroup_unfold, 0), b, sizeof(b));
	keys_name(keys_for_action(actions_cgroup_view, 0), key, sizeof(key));
	screen_message(s, true, _("%s and %s fold and unfold cgroups in the "
				  "cgroup view (%s)"), a, b, key);
}

void actions_cgroup_fold(struct screen *s, int arg)
{
	(void)arg;
	if (s->cgview)
		screen_cgroup_fold(s, true);
	else
		not_cgview(s);
}

void actions_cgroup_unfold(struct screen *s, int arg)
{
	(void)arg;
	if (s->cgview)
		screen_cgroup_fold(s, false);
	else
		not_cgview(s);
}

const struct key_def actions_cgroup_keys[] = {
	{ { 'g' }, actions_cgroup_view, 0,
	  N_("the cgroup view: a tree of cgroups with their pressure (on/off)") },
	{ { '-' }, actions_cgroup_fold, 0,
	  N_("fold the selected cgroup (on a folded one: go to its parent)") },
	{ { '+' }, actions_cgroup_unfold, 0,
	  N_("unfold the selected cgroup") },
	{ { 0 }, NULL, 0, NULL },
};
