/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the screen's keys do, one function per action, by area; each
 * area's file also holds its rows of the key table (keys.c joins them).
 * Other parts name an action to find its key (keys_for_action).
 */
#ifndef STALLTOP_ACTIONS_H
#define STALLTOP_ACTIONS_H

#include <stdbool.h>
#include <stddef.h>

#include "view/keys.h"

struct screen;

/* actions_move.c: moving around, threads */
extern const struct key_def actions_move_keys[];
key_action_fn actions_move_up;
key_action_fn actions_move_down;
key_action_fn actions_move_page_up;
key_action_fn actions_move_page_down;
key_action_fn actions_move_home;
key_action_fn actions_move_end;
key_action_fn actions_move_drill;       /* Enter: threads of the process */
key_action_fn actions_move_back;        /* leave the threads, the zoom */
key_action_fn actions_move_threads;     /* all-threads mode */
key_action_fn actions_move_tree;        /* F5: the tree of processes */
/* Select row i of the process view (the last one when past the end). */
void actions_move_select(struct screen *s, size_t i);
/* Move the selection by d rows in the view on screen. */
void actions_move_by(struct screen *s, long d);

/* actions_sort.c: sorting and what the columns show */
extern const struct key_def actions_sort_keys[];
key_action_fn actions_sort_left;
key_action_fn actions_sort_right;
key_action_fn actions_sort_reverse;
key_action_fn actions_sort_by;          /* arg: enum sort_key or category */
key_action_fn actions_sort_metric;
/* Sort the process view by key (the same one again: reverse if toggle). */
void actions_sort_set(struct screen *s, int key, bool toggle);

/* actions_filter.c: searching and filtering */
extern const struct key_def actions_filter_keys[];
key_action_fn actions_filter_search;
key_action_fn actions_filter_search_next;
key_action_fn actions_filter_name;      /* names or command lines */
key_action_fn actions_filter_user;
key_action_fn actions_filter_pids;
key_action_fn actions_filter_only_stalled;

/* actions_cgroup.c: the cgroup view */
extern const struct key_def actions_cgroup_keys[];
key_action_fn actions_cgroup_view;      /* on/off */
key_action_fn actions_cgroup_fold;
key_action_fn actions_cgroup_unfold;

/* actions_replay.c: moving through a recording */
extern const struct key_def actions_replay_keys[];
key_action_fn actions_replay_step_forward;
key_action_fn actions_replay_step_back;
key_action_fn actions_replay_jump;      /* asks for a time */

/* actions_task.c: acting on the selected task */
extern const struct key_def actions_task_keys[];
key_action_fn actions_task_kill;        /* a list of signals, then asks */
key_action_fn actions_task_renice;      /* arg: the step of the nice value */
key_action_fn actions_task_ionice;      /* class, level, then asks */

/* actions_control.c: display and control */
extern const struct key_def actions_control_keys[];
key_action_fn actions_control_cmdline;
key_action_fn actions_control_accumulate;
key_action_fn actions_control_freeze;
key_action_fn actions_control_delay;
key_action_fn actions_control_delayacct; /* asks first */
key_action_fn actions_control_save;
key_action_fn actions_control_why;
key_action_fn actions_control_setup;
key_action_fn actions_move_left;
key_action_fn actions_move_right;
key_action_fn actions_control_redraw;
key_action_fn actions_control_suspend;
key_action_fn actions_control_help;
key_action_fn actions_control_quit;
/* Keep the screen's settings (s->set) in step with its state: W saves them. */
void actions_control_sync_settings(struct screen *s);

#endif
