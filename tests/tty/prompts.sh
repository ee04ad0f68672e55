#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A prompt's pre-filled value is selected: the first key typed replaces
# it ("d", "3", Enter gives 3 s, not 13), while Backspace and the arrow
# keys keep it to edit. The \ filter matches names in any case.
. "$top_srcdir/tests/tty/tty-lib.sh"

bg_start named "$HELPER" name stcasefind
FOUND_PID=$BG_PID
TTY_ENV=NO_COLOR=1
tty_start -d 1

# typing replaces the pre-filled interval
tty_keys d
tty_wait '^Refresh interval in seconds: 1 *$' 5 ||
	tty_fail "d did not offer the interval 1"
tty_keys -l 3
tty_wait '^Refresh interval in seconds: 3 *$' 5 ||
	tty_fail "typing 3 did not replace the pre-filled 1"
tty_keys Enter
tty_wait 'refresh every 3 s' 5 || tty_fail "d 3 Enter did not set 3 s"

# an arrow key keeps the value: what follows is appended to it
tty_keys d
tty_wait '^Refresh interval in seconds: 3 *$' 5 ||
	tty_fail "d did not offer the interval 3"
tty_keys Right
tty_keys -l 5
tty_wait '^Refresh interval in seconds: 35 *$' 5 ||
	tty_fail "after Right, 5 did not append to 3"
# Backspace edits the value too
tty_keys BSpace
tty_keys -l 0
tty_wait '^Refresh interval in seconds: 30 *$' 5 ||
	tty_fail "Backspace and 0 did not make 30 of 35"
tty_keys Enter
tty_wait 'refresh every 30 s' 5 || tty_fail "the edited 30 was not taken"
# Backspace as the first key drops one character of the value
tty_keys d
tty_wait '^Refresh interval in seconds: 30 *$' 5 ||
	tty_fail "d did not offer the interval 30"
tty_keys BSpace Enter
tty_wait 'refresh every 3 s' 5 || tty_fail "Backspace did not make 3 of 30"

# the filter matches in any case
tty_keys '\'
tty_keys -l STCASEFIND
tty_keys Enter
tty_wait 'filter "STCASEFIND"' 5 || tty_fail "the filter did not take"
only_found() {
	[ "$(tty_pids)" = "$FOUND_PID " ]
}
tty_until 10 only_found ||
	tty_fail "the filter STCASEFIND shows $(tty_pids), wanted $FOUND_PID (stcasefind)"
# the filter's prompt offers it again, and typing replaces it
tty_keys '\'
tty_wait '^Filter.*STCASEFIND' 5 || tty_fail "\\ did not offer the filter"
tty_keys -l CaseFind
tty_keys Enter
tty_wait 'filter "CaseFind"' 5 || tty_fail "the new filter replaced nothing"
tty_until 10 only_found ||
	tty_fail "the filter CaseFind shows $(tty_pids), wanted $FOUND_PID"
tty_quit_and_check
