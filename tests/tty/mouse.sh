#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A click on a column header sorts by that column; a second click on it
# reverses the order.
. "$top_srcdir/tests/tty/tty-lib.sh"

# Click at a 1-based screen cell: xterm mouse reports of a press of
# button 1 and a release.
click() {
	pos=$(printf '%b%b' "\\$(printf '%03o' $((32 + $1)))" \
		"\\$(printf '%03o' $((32 + $2)))")
	tty_keys -l "$(printf '\033[M ')$pos$(printf '\033[M#')$pos"
}

tty_start
y=$(tty_screen | grep -n '^ *PID USER' | cut -d: -f1)
[ -n "$y" ] || tty_fail "no column headers"
x=$(tty_screen | sed -n "${y}p" | awk '{ print index($0, " SWAP ") + 2 }')
[ "$x" -gt 2 ] || tty_fail "no SWAP header"

click "$x" "$y"
tty_wait 'sort SWAP▼' 5 || tty_fail "a click on SWAP did not sort by it"
click "$x" "$y"
tty_wait 'sort SWAP▲' 5 || tty_fail "a second click did not reverse the order"
tty_quit_and_check
