#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Acting on a task without the privilege is refused with the reason on
# the bottom line (stalltop run as nobody, the task root's), and the task
# is untouched; in a replay the keys only say that recorded tasks cannot
# be acted on.
. "$top_srcdir/tests/tty/tty-lib.sh"
need_cmd setpriv renice

bg_start victim "$HELPER" name strefuse
pid=$BG_PID
# from nice 0, whatever the test runs at (make check under nice, say)
renice -n 0 -p "$pid" >/dev/null || hard_error "cannot set the nice value of $pid to 0"

# stalltop as nobody (setpriv drops every capability with the uid)
cat >"$TMP/as-nobody" <<EOF2
#!/bin/sh
exec setpriv --reuid=nobody --regid=nogroup --clear-groups --inh-caps=-all '$STALLTOP' "\$@"
EOF2
chmod 0755 "$TMP/as-nobody"
chmod 0755 "$TMP"
REAL_STALLTOP=$STALLTOP
STALLTOP=$TMP/as-nobody
tty_start
STALLTOP=$REAL_STALLTOP
tty_keys p
tty_keys -l "$pid"
tty_keys Enter
first_is_it() {
	tty_first_row | grep -q "^ *$pid .* strefuse *\$"
}
tty_until 10 first_is_it || tty_fail "the p filter did not show $pid"

who="'strefuse' \\(pid $pid\\)"
tty_keys k
tty_wait "Send signal to $who" 5 || tty_fail "k did not open the signal list"
tty_keys Enter
tty_wait "Send SIGTERM \\(15\\) to $who" 5 || tty_fail "no question"
tty_keys y
tty_wait "not permitted to signal $who: another user's task needs CAP_KILL" 5 ||
	tty_fail "no refusal naming CAP_KILL"
running "$pid" || fail "process $pid ended: the refused signal reached it"

tty_keys F7
tty_wait "Renice $who from 0 to -1" 5 || tty_fail "F7 did not ask"
tty_keys y
tty_wait "not permitted to renice $who: .*CAP_SYS_NICE" 5 ||
	tty_fail "no refusal naming CAP_SYS_NICE"
n=$(awk '{ print $19 }' "/proc/$pid/stat")
[ "$n" = 0 ] || fail "the refused renice changed the nice value to $n"
tty_quit_and_check

# a replay: no action, and the keys say why
tty_restart
TTY_ENV="TZ=UTC"
tty_start --replay "$REC_DEMO" -d 3600
for key in k F9 F7 F8 ']' '[' i; do
	tty_keys Escape
	tty_wait_gone() { ! tty_screen | grep -q 'no action on them'; }
	tty_until 5 tty_wait_gone || tty_fail "the message stayed after Esc"
	tty_keys "$key"
	tty_wait 'a replay shows recorded tasks: no action on them is possible' 5 ||
		tty_fail "$key in a replay did not say that no action is possible"
done
tty_screen | grep -q 'Send signal' && tty_fail "a replay opened the signal list"
tty_quit_and_check
