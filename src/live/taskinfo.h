/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What kernel/procinfo.c read of a task, copied into the model's struct
 * task_info and the store's struct store_task: the kernel layer fills its
 * own plain structs, the live system hands them on.
 */
#ifndef STALLTOP_TASKINFO_H
#define STALLTOP_TASKINFO_H

#include "kernel/procinfo.h"
#include "model/sample.h"
#include "store/sample.h"

/* The details of one read into info; its ctx (read apart) is kept. */
void taskinfo_from_details(struct task_info *info,
			   const struct procinfo_details *d);

/*
 * What stands next to a stall, as read (the model makes the rates:
 * assemble_context), into st's context members and their bits.
 */
void taskinfo_store_context(const struct procinfo_context *c,
			    struct store_task *st);

#endif
