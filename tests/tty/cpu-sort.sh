#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Busy processes sharing one CPU wait for it: sorted by the cpu shortcut,
# they are at the top. Four of them, so that each waits three quarters of
# the time, more than anything else the machine may be running.
. "$top_srcdir/tests/tty/tty-lib.sh"
live_init
need_cmd taskset

for i in 1 2 3 4; do
	bg_start hog$i taskset -c 0 "$HELPER" busy sthogcpu
done
tty_start
tty_keys C
tty_wait 'sort CPU[^%]' 5 || tty_fail "C did not sort by CPU"

top_is_hog() {
	[ "$(tty_rows | head -n 2 | grep -c ' sthogcpu *$')" = 2 ]
}
tty_until 20 top_is_hog || tty_fail "the CPU hogs are not at the top"
tty_quit_and_check
