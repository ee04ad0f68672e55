/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Rows as a tree of processes under their parents. */
#include <config.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model/tree.h"

struct by_pid {
	pid_t pid;
	size_t row;
};

static int cmp_pid(const void *a, const void *b)
{
	const struct by_pid *x = a, *y = b;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	/* one pid twice (a task that ended and one new with its id): the
	   first row holds it */
	return x->row < y->row ? -1 : x->row > y->row;
}

/* The row of the parent of row i among rows, or (size_t)-1. */
static size_t parent_of(const struct row *rows, const struct by_pid *idx,
			size_t n, size_t i)
{
	pid_t pp = rows[i].info.ppid;
	if (pp <= 0 || pp == rows[i].pid)
		return (size_t)-1;
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (idx[mid].pid < pp)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && idx[lo].pid == pp ? idx[lo].row : (size_t)-1;
}

int tree_order(const struct row *rows, size_t n, struct tree_line *out)
{
	if (!n)
		return 0;
	struct by_pid *idx = malloc(n * sizeof(*idx));
	size_t *first = malloc(n * sizeof(*first));
	size_t *last = malloc(n * sizeof(*last));
	size_t *next = malloc(n * sizeof(*next));
	size_t *stack = malloc(n * sizeof(*stack));
	size_t *line_of = malloc(n * sizeof(*line_of));
	bool *placed = calloc(n, sizeof(*placed));
	int rc = -1;
	if (!idx || !first || !last || !next || !stack || !line_of || !placed) {
		errno = ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		idx[i] = (struct by_pid){ rows[i].pid, i };
		first[i] = last[i] = next[i] = (size_t)-1;
	}
	qsort(idx, n, sizeof(*idx), cmp_pid);
	/* children in the order of the rows: the sort key's */
	size_t none = (size_t)-1, roots = none, roots_end = none;
	for (size_t i = 0; i < n; i++) {
		size_t p = parent_of(rows, idx, n, i);
		size_t *head = p == none ? &roots : &first[p];
		size_t *tail = p == none ? &roots_end : &last[p];
		if (*head == none)
			*head = i;
		else
			next[*tail] = i;
		*tail = i;
	}
	size_t k = 0;
	/*
	 * Depth first from each root; rows that no root reaches (parents in
	 * a loop, which a pid reused within one sample could make) start
	 * trees of their own afterwards.
	 */
	for (size_t pass = 0; pass < 2; pass++) {
		for (size_t r = pass ? 0 : roots; r != none && r < n;
		     r = pass ? r + 1 : next[r]) {
			if (placed[r])
				continue;
			size_t sp = 0;
			stack[sp++] = r;
			placed[r] = true;
			/* the top level draws no connector: last does not matter */
			out[k] = (struct tree_line){ .row = r, .last = true };
			line_of[r] = k++;
			/* stack[d]: the node at depth d whose children come next */
			size_t child = first[r];
			while (sp) {
				while (child != none && placed[child])
					child = next[child];
				if (child == none) {
					/* back up: the next sibling of the node on top */
					size_t top = stack[--sp];
					if (!sp)
						break;
					child = next[top];
					continue;
				}
				placed[child] = true;
				const struct tree_line *parent =
					&out[line_of[stack[sp - 1]]];
				size_t sib = next[child];
				while (sib != none && placed[sib])
					sib = next[sib];
				struct tree_line l = { .row = child,
					.depth = (int)sp, .last = sib == none };
				l.more = parent->more;
				if (parent->depth > 0 && !parent->last &&
				    parent->depth <= TREE_MAX_DRAWN)
					l.more |= 1u << (parent->depth - 1);
				line_of[child] = k;
				out[k++] = l;
				stack[sp++] = child;
				child = first[child];
			}
		}
	}
	rc = 0;
out:
	free(idx);
	free(first);
	free(last);
	free(next);
	free(stack);
	free(line_of);
	free(placed);
	return rc;
}

void tree_prefix(const struct tree_line *l, bool utf8, char *buf, size_t size)
{
	if (!size)
		return;
	buf[0] = '\0';
	if (l->depth <= 0)
		return;
	size_t len = 0;
	int drawn = l->depth < TREE_MAX_DRAWN ? l->depth : TREE_MAX_DRAWN;
	for (int d = 1; d <= drawn; d++) {
		const char *piece;
		if (d < drawn)
			piece = l->more & (1u << (d - 1)) ? (utf8 ? "│  " : "|  ")
							  : "   ";
		else
			piece = l->last ? (utf8 ? "└─ " : "`- ")
					: (utf8 ? "├─ " : "|- ");
		size_t pl = strlen(piece);
		if (len + pl + 1 > size)
			break;
		memcpy(buf + len, piece, pl + 1);
		len += pl;
	}
}
