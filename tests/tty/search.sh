#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# / searches by name and puts the selection bar on the match.
. "$top_srcdir/tests/tty/tty-lib.sh"

bg_start named "$HELPER" name stsearchme
TTY_ENV=NO_COLOR=1
tty_start
tty_keys /
tty_keys -l stsearch
tty_wait '^Search: stsearch' 5 || tty_fail "no search prompt"
tty_keys Enter

# in monochrome the selection bar is reverse video (SGR 7); table rows
# are the lines that start with a pid once the attributes are skipped
esc=$(printf '\033')
reverse="$esc\\[([0-9;]*;)?7(;[0-9;]*)?m"
rows_attrs() {
	T capture-pane -p -e | grep -E "^($esc\\[[0-9;]*m)* +[0-9]+ "
}
selected() {
	rows_attrs | grep " stsearchme" | grep -Eq "$reverse"
}
tty_until 10 selected || tty_fail "the match is not selected"
others=$(rows_attrs | grep -v " stsearchme" | grep -Ec "$reverse")
[ "$others" = 0 ] || tty_fail "$others other rows are selected as well"
tty_quit_and_check
