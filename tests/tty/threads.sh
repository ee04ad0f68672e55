#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Enter on a multi-threaded process shows its threads by thread id, and
# Esc goes back to the processes. In the thread view an action is the
# selected thread's: F8 and y lower the priority of that thread only
# (the kernel's /proc/PID/task/TID/stat says nice 1 for it, 0 for its
# siblings), for the first row and the one below it, whichever threads
# (the leader among them or not) they are; and the same in the thread
# view of -H.
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

# nice_of TID: field 19 of the thread's stat (the name has no spaces)
nice_of() {
	awk '{ print $19 }' "/proc/$pid/task/$1/stat"
}
# renice_selected: F8 on the selected row, y; the thread id it named
renice_selected() {
	tty_keys F8
	tty_wait "Renice thread 'stthreads[^']*' \\(tid [0-9]+ of pid $pid\\) from 0 to 1" 5 ||
		tty_fail "F8 in the thread view ($1) did not ask to renice a thread of $pid"
	RENICED=$(tty_screen | sed -n "s/.*Renice thread 'stthreads[^']*' (tid \([0-9]*\) of pid $pid).*/\1/p" | head -n 1)
	tty_keys y
	tty_wait "nice of thread 'stthreads[^']*' \\(tid $RENICED of pid $pid\\) is now 1" 5 ||
		tty_fail "no message of the thread's new nice value ($1)"
}
# act_on_threads VIEW: renice the selected thread and the one below it;
# only those two change
act_on_threads() {
	for tid in $pid $(cat "$TMP/threads.out"); do
		renice -n 0 -p "$tid" >/dev/null ||
			hard_error "cannot set the nice value of thread $tid to 0"
	done
	renice_selected "$1"
	first=$RENICED
	tty_keys Down
	renice_selected "$1"
	second=$RENICED
	[ "$first" != "$second" ] || fail "$1: Down did not select another thread (both $first)"
	for tid in $pid $(cat "$TMP/threads.out"); do
		want=0
		[ "$tid" = "$first" ] || [ "$tid" = "$second" ] && want=1
		[ "$(nice_of "$tid")" = "$want" ] ||
			fail "$1: thread $tid has nice $(nice_of "$tid") after reniced $first and $second, expected $want"
	done
	note "$1: reniced threads $first and $second of $pid, the others left at 0"
}
act_on_threads "Enter on the process"

tty_keys Escape
gone_back() {
	! tty_screen | grep -q 'threads of' && first_is_it
}
tty_until 10 gone_back || tty_fail "Esc did not return to the processes"
tty_quit_and_check

# the thread view of -H, only this process's threads
tty_restart
tty_start -H
tty_keys p
tty_keys -l "$pid"
tty_keys Enter
tty_until 10 all_tids || tty_fail "-H, filtered to $pid, does not show every thread id"
act_on_threads "-H"
tty_quit_and_check
