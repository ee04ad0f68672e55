#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# F7 and ] lower the selected process's nice value, F8 and [ raise it,
# each after a question that names the task and both values (n changes
# nothing); i sets its IO class and level after the same kind of
# question. The kernel's own view is the judge: /proc/PID/stat's nice
# field and ionice -p.
. "$top_srcdir/tests/tty/tty-lib.sh"
need_cmd ionice renice

bg_start victim "$HELPER" name stprio
pid=$BG_PID
# from nice 0, whatever the test runs at (make check under nice, say)
renice -n 0 -p "$pid" >/dev/null || hard_error "cannot set the nice value of $pid to 0"

# field 19 of /proc/PID/stat (the name has no spaces: fields are words)
nice_of() {
	awk '{ print $19 }' "/proc/$pid/stat"
}
[ "$(nice_of)" = 0 ] || hard_error "the helper starts at nice $(nice_of), not 0"

tty_start
tty_keys p
tty_keys -l "$pid"
tty_keys Enter
first_is_it() {
	tty_first_row | grep -q "^ *$pid .* stprio *\$"
}
tty_until 10 first_is_it || tty_fail "the p filter did not show $pid"

who="'stprio' \\(pid $pid\\)"
tty_keys F7
tty_wait "Renice $who from 0 to -1 \\(higher priority\\)\\? \\[y/N\\]" 5 ||
	tty_fail "F7 did not ask to renice from 0 to -1"
tty_keys y
tty_wait "nice of $who is now -1 \\(threads: 1\\)" 5 || tty_fail "no message of the new nice value"
[ "$(nice_of)" = -1 ] || fail "after F7 and y the nice value is $(nice_of), not -1"

tty_keys ']'
tty_wait "Renice $who from -1 to -2 \\(higher priority\\)" 5 || tty_fail "] did not ask to renice to -2"
tty_keys n
tty_wait 'cancelled: nothing was done' 5 || tty_fail "n did not cancel"
[ "$(nice_of)" = -1 ] || fail "after ] and n the nice value is $(nice_of), not -1"

tty_keys '['
tty_wait "Renice $who from -1 to 0 \\(lower priority\\)" 5 || tty_fail "[ did not ask to renice to 0"
tty_keys y
tty_wait "nice of $who is now 0" 5 || tty_fail "no message of nice 0"
tty_keys F8
tty_wait "Renice $who from 0 to 1 \\(lower priority\\)" 5 || tty_fail "F8 did not ask to renice to 1"
tty_keys y
tty_wait "nice of $who is now 1" 5 || tty_fail "no message of nice 1"
[ "$(nice_of)" = 1 ] || fail "after [ and F8 the nice value is $(nice_of), not 1"

# ionice: the classes with best-effort chosen first (none set yet), one
# down is idle
ionice -p "$pid" | grep -q '^none' || hard_error "the helper starts with IO class $(ionice -p "$pid")"
tty_keys i
tty_wait "IO class for $who \\(now none" 5 || tty_fail "i did not open the IO classes"
tty_keys Down Enter
tty_wait "Set the IO priority of $who from none .* to idle\\? \\[y/N\\]" 5 ||
	tty_fail "choosing idle did not ask"
tty_keys y
tty_wait "IO priority of $who is now idle" 5 || tty_fail "no message of the idle class"
class=$(ionice -p "$pid")
[ "$class" = idle ] || fail "after i, idle and y ionice -p says '$class'"

# back to best-effort, level 7 typed
tty_keys i
tty_wait "IO class for $who \\(now idle\\)" 5 || tty_fail "i did not show the idle class"
tty_keys Up Enter
tty_wait "IO level for $who" 5 || tty_fail "best-effort did not ask for the level"
tty_keys 7 Enter
tty_wait "from idle to best-effort 7\\? \\[y/N\\]" 5 || tty_fail "level 7 did not ask"
tty_keys y
tty_wait "IO priority of $who is now best-effort 7" 5 || tty_fail "no message of best-effort 7"
class=$(ionice -p "$pid")
[ "$class" = "best-effort: prio 7" ] || fail "after best-effort 7 ionice -p says '$class'"
tty_quit_and_check
