/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The tree of processes: children under their parent in the order the
 * rows came in (the sort key's), rows whose parent is absent at the top,
 * parents in a loop still shown once each, and htop's connectors in
 * UTF-8 and ASCII.
 */
#include <config.h>

#include "model/tree.h"
#include "unit.h"

static struct row row(pid_t pid, pid_t ppid)
{
	struct row r = { .pid = pid, .tgid = pid, .info = TASK_INFO_UNKNOWN };
	r.info.ppid = ppid;
	return r;
}

int main(void)
{
	/* as a sort key ordered them */
	struct row rows[] = {
		row(30, 99), row(11, 1), row(20, 10), row(1, 0), row(10, 1),
		row(12, 11), row(40, 41), row(41, 40),
	};
	size_t n = sizeof(rows) / sizeof(rows[0]);
	struct tree_line out[8];
	CHECK(tree_order(rows, n, out) == 0);
	static const struct {
		pid_t pid;
		int depth;
		const char *utf8, *ascii;
	} want[] = {
		{ 30, 0, "", "" },
		{ 1, 0, "", "" },
		{ 11, 1, "├─ ", "|- " },
		{ 12, 2, "│  └─ ", "|  `- " },
		{ 10, 1, "└─ ", "`- " },
		{ 20, 2, "   └─ ", "   `- " },
		{ 40, 0, "", "" },
		{ 41, 1, "└─ ", "`- " },
	};
	for (size_t i = 0; i < n; i++) {
		char buf[64];
		CHECK_EQ_U(rows[out[i].row].pid, want[i].pid);
		CHECK_EQ_U(out[i].depth, want[i].depth);
		tree_prefix(&out[i], true, buf, sizeof(buf));
		CHECK_STR(buf, want[i].utf8);
		tree_prefix(&out[i], false, buf, sizeof(buf));
		CHECK_STR(buf, want[i].ascii);
	}
	/* every row once */
	bool seen[8] = { false };
	for (size_t i = 0; i < n; i++) {
		CHECK(out[i].row < n && !seen[out[i].row]);
		if (out[i].row < n)
			seen[out[i].row] = true;
	}

	/* a chain deeper than the drawn levels: a prefix that fits */
	enum { DEEP = 100 };
	struct row chain[DEEP];
	struct tree_line lines[DEEP];
	for (int i = 0; i < DEEP; i++)
		chain[i] = row(1000 + i, i ? 1000 + i - 1 : 1);
	CHECK(tree_order(chain, DEEP, lines) == 0);
	CHECK_EQ_U(lines[DEEP - 1].depth, DEEP - 1);
	char small[16];
	tree_prefix(&lines[DEEP - 1], true, small, sizeof(small));
	CHECK(strlen(small) < sizeof(small));
	CHECK(tree_order(chain, 0, lines) == 0);
	return unit_done();
}
