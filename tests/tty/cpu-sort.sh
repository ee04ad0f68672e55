#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Busy processes sharing one CPU wait for it: sorted by the cpu shortcut
# they are at the top, above a process that waits longer, but for IO.
# By the default sort (TOTAL) that process is first: the test sees it
# there before the key, so a key that changed only the header's label
# fails.
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
by_cpu() {
	[ "$(tty_rows | wc -l)" = 3 ] &&
		[ "$(tty_rows | head -n 2 | grep -c ' sthogcpu *$')" = 2 ] &&
		tty_rows | sed -n 3p | grep -q "^ *$IO_PID .* sthogio *\$"
}
tty_until 20 by_cpu || tty_fail "the CPU hogs are not at the top, the IO waiter last"
tty_quit_and_check
