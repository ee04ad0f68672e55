#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Two busy processes sharing one CPU wait for it: sorted by the cpu
# shortcut, they are at the top.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/tty/tty-lib.sh"
tty_need_root
command -v taskset >/dev/null 2>&1 || tty_skip "taskset is not installed"

tty_delayacct_on
tty_spawn taskset -c 0 "$HELPER" busy sthogcpu
tty_spawn taskset -c 0 "$HELPER" busy sthogcpu
tty_start
tty_keys C
tty_wait 'sort CPU[^%]' 5 || tty_fail "C did not sort by CPU"

top_is_hog() {
	tty_rows | head -n 2 | grep -c ' sthogcpu *$' | grep -qx 2
}
tty_until 20 top_is_hog || tty_fail "the CPU hogs are not at the top"
tty_quit_and_check
