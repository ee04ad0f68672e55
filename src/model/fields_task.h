/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The task-row fields' getters and setters, for the fields table. */
#ifndef STALLTOP_FIELDS_TASK_H
#define STALLTOP_FIELDS_TASK_H

#include "model/fields.h"

/* getters: a field's value of a row (the table's .get) */
field_get_fn fields_task_get_pid;
field_get_fn fields_task_get_ppid;
field_get_fn fields_task_get_user;
field_get_fn fields_task_get_state;
field_get_fn fields_task_get_threads;
field_get_fn fields_task_get_start;
field_get_fn fields_task_get_cpu_pct;
field_get_fn fields_task_get_total;
field_get_fn fields_task_get_cat;
field_get_fn fields_task_get_delay;
field_get_fn fields_task_get_exited;
field_get_fn fields_task_get_comm;
field_get_fn fields_task_get_cmdline;
field_get_fn fields_task_get_cgroup;
field_get_fn fields_task_get_why;
field_get_fn fields_task_get_kib;
field_get_fn fields_task_get_rate;
field_get_fn fields_task_get_nice;
field_get_fn fields_task_get_wchan;
field_get_fn fields_task_get_cgname;

/* setters: a value read back into a row (the table's .set) */
field_set_fn fields_task_put_pid;
field_set_fn fields_task_put_user;
field_set_fn fields_task_put_state;
field_set_fn fields_task_put_threads;
field_set_fn fields_task_put_start;
field_set_fn fields_task_put_cpu_pct;
field_set_fn fields_task_put_total;
field_set_fn fields_task_put_delay;
field_set_fn fields_task_put_dropped;
field_set_fn fields_task_put_comm;
field_set_fn fields_task_put_cmdline;
field_set_fn fields_task_put_cgroup;
field_set_fn fields_task_put_why;
field_set_fn fields_task_put_kib;
field_set_fn fields_task_put_rate;
field_set_fn fields_task_put_nice;
field_set_fn fields_task_put_wchan;
field_set_fn fields_task_put_cgname;

#endif
