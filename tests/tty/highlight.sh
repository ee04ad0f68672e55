#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# As htop does: a task that started in the interval has a green row for
# that one refresh, one that ended a red row for one refresh; a task
# seen before has neither.
. "$top_srcdir/tests/tty/tty-lib.sh"

bg_start old "$HELPER" name sthlold
tty_start -d 2
tty_filter sthl
# the selection bar stays on the old task (else it covers the new row)
tty_keys Down
tty_wait_next_sample 2

esc=$(printf '\033')
green_bg="$esc\\[([0-9;]*;)?42(;[0-9;]*)?m"
red_bg="$esc\\[([0-9;]*;)?41(;[0-9;]*)?m"
# the row of a name, with its attributes; empty when not shown
row_of() {
	T capture-pane -p -e | grep -E "^($esc\\[[0-9;]*m| )*[0-9]+ .*$1"
}
row_of sthlold | grep -Eq "$green_bg|$red_bg" &&
	tty_fail "a task seen before is highlighted: $(row_of sthlold)"

bg_start new "$HELPER" name sthlnew
new=$BG_PID
shown() { [ -n "$(row_of sthlnew)" ]; }
tty_until 10 shown || tty_fail "the new task $new is not shown"
# the first screen that shows it (one refresh lasts 2 s here)
row=$(row_of sthlnew)
echo "$row" | grep -Eq "$green_bg" || tty_fail "the new task's row is not green: $row"
tty_wait_next_sample
row=$(row_of sthlnew)
[ -n "$row" ] || tty_fail "the new task vanished"
echo "$row" | grep -Eq "$green_bg" && tty_fail "the new task stays green after a refresh: $row"

bg_kill "$new"
red() { row_of sthlnew | grep -Eq "$red_bg"; }
tty_until 10 red || tty_fail "the ended task's row is not red: $(row_of sthlnew)"
gone() { ! shown; }
tty_wait_next_sample
tty_until 10 gone || tty_fail "the ended task stays after a refresh: $(row_of sthlnew)"
tty_quit_and_check
