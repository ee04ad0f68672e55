#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Busy processes sharing one CPU wait for it: sorted by the cpu shortcut
# the rows are in the order of their CPU figures, the busy ones above a
# process that waits longer, but for IO.
# By the default sort (TOTAL) that process is first: the test sees it
# there before the key, so a key that changed only the header's label
# fails. After the key the order must hold on 3 samples in a row (one
# screen could still show another order).
. "$top_srcdir/tests/tty/tty-lib.sh"
live_init
tty_sort_workloads

tty_start
tty_filter sthog
tty_wait 'sort TOTAL' 5 || tty_fail "the default sort is not TOTAL"
by_total() {
	[ "$(tty_rows | wc -l)" = 3 ] &&
		tty_first_row | grep -q "^ *$IO_PID .* sthogio *\$"
}
tty_until 20 by_total || tty_fail "by TOTAL the IO waiter is not first: the test cannot see the sort"
tty_keys C
tty_wait 'sort CPU[^%]' 5 || tty_fail "C did not sort by CPU"
# in the order of the CPU figures; the workloads make it another order
# than the IO figures' (the IO waiter hardly waits for its CPU), unless
# something else on the machine starves the IO waiter of its CPU
by_cpu() {
	[ "$(tty_rows | wc -l)" = 3 ] && tty_sorted_by CPU
}
tty_steady 3 20 by_cpu || tty_steady_fail "the rows are not in the order of CPU: $TTY_WHY"
tty_quit_and_check
