#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A process doing synchronous direct writes waits for block IO: sorted by
# the io shortcut it is at the top, above processes that wait for a CPU.
. "$top_srcdir/tests/tty/tty-lib.sh"
live_init
tty_sort_workloads

tty_start
tty_filter sthog
tty_keys I
tty_wait 'sort IO' 5 || tty_fail "I did not sort by IO"
top_is_io() {
	tty_first_row | grep -q "^ *$IO_PID .* sthogio *\$" &&
		[ "$(tty_rows | wc -l)" = 3 ]
}
tty_until 20 top_is_io || tty_fail "the IO workload is not at the top"
tty_quit_and_check
