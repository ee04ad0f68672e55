#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Busy processes sharing one CPU wait for it: sorted by the cpu shortcut
# they are at the top, above a process that waits longer, but for IO.
. "$top_srcdir/tests/tty/tty-lib.sh"
live_init
tty_sort_workloads

tty_start
tty_filter sthog
tty_keys C
tty_wait 'sort CPU[^%]' 5 || tty_fail "C did not sort by CPU"
top_is_hog() {
	[ "$(tty_rows | head -n 4 | grep -c ' sthogcpu *$')" = 4 ] &&
		tty_rows | sed -n 5p | grep -q ' sthogio *$'
}
tty_until 20 top_is_hog || tty_fail "the CPU hogs are not at the top"
tty_quit_and_check
