/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The cgroup-row fields' getters, for the fields table. */
#ifndef STALLTOP_FIELDS_CGROUP_H
#define STALLTOP_FIELDS_CGROUP_H

#include "model/fields.h"

/* a field's value of a cgroup row (the table's .cg) */
field_cg_get_fn fields_cgroup_why;
field_cg_get_fn fields_cgroup_psi_pct;
field_cg_get_fn fields_cgroup_psi_avg10;
field_cg_get_fn fields_cgroup_cat;
field_cg_get_fn fields_cgroup_total;
field_cg_get_fn fields_cgroup_nr;
field_cg_get_fn fields_cgroup_name;
field_cg_get_fn fields_cgroup_path;

#endif
