#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Enter on a multi-threaded process shows its threads by thread id, and
# Esc goes back to the processes.
. "$top_srcdir/tests/tty/tty-lib.sh"

bg_start threads "$HELPER" threads stthreads 3
pid=$BG_PID
wait_lines "$TMP/threads.out" 4

tty_start
# only this process, so that it is the selected row
tty_keys p
tty_keys -l "$pid"
tty_keys Enter
first_is_it() {
	tty_first_row | grep -q "^ *$pid .* stthreads *\$"
}
tty_until 10 first_is_it || tty_fail "the p filter did not show $pid"

tty_keys Enter
tty_wait "threads of $pid \\(stthreads\\)" 5 || tty_fail "Enter did not drill in"
all_tids() {
	rows=$(tty_rows)
	for tid in $(cat "$TMP/threads.out"); do
		echo "$rows" | grep -Eq "^ *$tid " || return 1
	done
}
tty_until 10 all_tids || tty_fail "not every thread id is shown"

tty_keys Escape
gone_back() {
	! tty_screen | grep -q 'threads of' && first_is_it
}
tty_until 10 gone_back || tty_fail "Esc did not return to the processes"
tty_quit_and_check
