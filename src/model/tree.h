/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Rows as a tree of processes under their parents (the screen's F5), as
 * htop draws it: each process below its parent (info.ppid, from the
 * source), siblings in the order the rows came in (the sort key's), a
 * row whose parent is not among them at the top level.
 */
#ifndef STALLTOP_TREE_H
#define STALLTOP_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/sample.h"

/* Levels drawn with their own connector; deeper ones share the last. */
#define TREE_MAX_DRAWN 32

struct tree_line {
	size_t row;         /* index into the rows given */
	int depth;          /* 0 at the top level */
	bool last;          /* no later sibling */
	/* bit d: the ancestor at depth d + 1 has a later sibling (a line
	   goes down past this row at that level) */
	uint32_t more;
};

/*
 * The rows in tree order into out (n entries). Returns 0, or -1 with
 * errno ENOMEM.
 */
int tree_order(const struct row *rows, size_t n, struct tree_line *out);

/*
 * What goes in front of a line's name: "├─ ", "│  └─ "...; ASCII
 * ("|- ", "`- ") when utf8 is false. Empty at the top level.
 */
void tree_prefix(const struct tree_line *l, bool utf8, char *buf, size_t size);

#endif
