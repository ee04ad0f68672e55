#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A process doing synchronous direct writes waits for block IO: sorted by
# the io shortcut the rows are in the order of their IO figures, the IO
# waiter at the top above processes that wait for a CPU, on 3 samples in
# a row (one screen could still show another order).
. "$top_srcdir/tests/tty/tty-lib.sh"
live_init
tty_sort_workloads

tty_start
tty_filter sthog
tty_keys I
tty_wait 'sort IO' 5 || tty_fail "I did not sort by IO"
top_is_io() {
	[ "$(tty_rows | wc -l)" = 3 ] && tty_sorted_by IO &&
		tty_first_row | grep -q "^ *$IO_PID .* sthogio *\$"
}
tty_steady 3 20 top_is_io ||
	tty_steady_fail "the rows are not in the order of IO with the IO waiter at the top (${TTY_WHY:-})"
tty_quit_and_check
