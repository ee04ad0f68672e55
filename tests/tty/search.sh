#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# / searches by name and puts the selection bar on the match.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/tty/tty-lib.sh"
tty_need_root

tty_spawn "$HELPER" name stsearchme
pid=$TTY_LAST
TTY_ENV=NO_COLOR=1
tty_start
tty_keys /
tty_keys -l stsearch
tty_wait '^Search: stsearch' 5 || tty_fail "no search prompt"
tty_keys Enter

# in monochrome the selection bar is reverse video (SGR 7)
selected() {
	T capture-pane -p -e | grep " stsearchme" | grep -q "$(printf '\033')\\[[0-9;]*7[;m]"
}
tty_until 10 selected || tty_fail "the match is not selected"
others=$(T capture-pane -p -e | grep -E "^[^ ]*( )+[0-9]+ " | grep -v stsearchme |
	 grep -c "$(printf '\033')\\[[0-9;]*7[;m]")
[ "$others" = 0 ] || tty_fail "another row is selected as well"
tty_quit_and_check
