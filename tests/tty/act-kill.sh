#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# k shows the signals with SIGTERM chosen and names the task; Esc there,
# or n at the question, sends nothing; a signal chosen by its number and
# confirmed with y reaches the selected process (its wait status says
# which signal ended it).
. "$top_srcdir/tests/tty/tty-lib.sh"

bg_start victim "$HELPER" name stkillme
pid=$BG_PID

tty_start
# only this process, so that it is the selected row
tty_keys p
tty_keys -l "$pid"
tty_keys Enter
first_is_it() {
	tty_first_row | grep -q "^ *$pid .* stkillme *\$"
}
tty_until 10 first_is_it || tty_fail "the p filter did not show $pid"

# the list, SIGTERM chosen: its line is the selected one (reverse video
# with colours off is the same cell attributes as the bar; look at text)
tty_keys k
tty_wait "Send signal to 'stkillme' \\(pid $pid\\):" 5 ||
	tty_fail "k did not open the signal list naming the task"
tty_screen | grep -q ' 9 SIGKILL' || tty_fail "the list has no SIGKILL"
tty_keys Escape
tty_wait 'cancelled: nothing was done' 5 || tty_fail "Esc did not cancel the list"

# the question, answered n
tty_keys k
tty_wait "Send signal to 'stkillme'" 5 || tty_fail "k did not open the list again"
tty_keys Enter
tty_wait "Send SIGTERM \\(15\\) to 'stkillme' \\(pid $pid\\)\\? \\[y/N\\]" 5 ||
	tty_fail "Enter on the preselected entry did not ask about SIGTERM"
tty_keys n
tty_wait 'cancelled: nothing was done' 5 || tty_fail "n did not cancel"
# nothing sent: the process lives on over a new sample
tty_wait_next_sample
running "$pid" || fail "process $pid ended though every action was cancelled"

# SIGUSR1 by its number, confirmed: it ends the helper (default action)
tty_keys k
tty_wait "Send signal to 'stkillme'" 5 || tty_fail "k did not open the list a third time"
tty_keys 1 0 Enter
tty_wait "Send SIGUSR1 \\(10\\) to 'stkillme' \\(pid $pid\\)\\?" 5 ||
	tty_fail "typing 10 did not choose SIGUSR1"
tty_keys y
tty_wait "sent SIGUSR1 \\(10\\) to 'stkillme' \\(pid $pid\\)" 5 ||
	tty_fail "no message that the signal was sent"
bg_wait "$pid"
status=$?
[ "$status" = $((128 + 10)) ] ||
	fail "process $pid ended with status $status, not by SIGUSR1 (138)"
tty_quit_and_check
