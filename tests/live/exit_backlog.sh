#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 3: a backlog of exits. stalltop is stopped (SIGSTOP) while 40,000
# short-lived processes come and go, more than the pid space
# (kernel.pid_max is lowered to 32,768 for the test where it is larger),
# so pids are used twice within the backlog; then it resumes. Every child
# must appear in "exited" once per life: per pid, as many rows as the
# pid had lives among the children. Two lives of one pid may not merge
# into one row, nor one life make two. The kernel's exit records wait in
# the socket buffers meanwhile; a record lost all the same is counted in
# exit_records_lost, and only that many rows may be missing.
. "$top_srcdir/tests/lib/functions.sh"
live_init
need_cmd sort uniq join awk

count=40000
pid_max=32768
[ "$(cat /proc/sys/kernel/pid_max)" -gt "$pid_max" ] &&
	set_sysctl /proc/sys/kernel/pid_max "$pid_max"
start_stalltop st -d 0.5
wait_lines "$TMP/st.out" 1
kill -s STOP "$ST_PID"
bg_start storm env ASAN_OPTIONS=detect_leaks=0 "$WL/wl_storm" -n "$count" "$TMP/pids"
storm=$BG_PID
bg_wait "$storm" || { kill -s CONT "$ST_PID"; fail "wl_storm failed: $(cat "$TMP/storm.err")"; }
kill -s CONT "$ST_PID"
wait_more_lines "$TMP/st.out" 3
stop_stalltop st "$ST_PID"

# per pid: its lives (children), its rows; "pid lives rows"
sort "$TMP/pids" | uniq -c | awk '{ print $2, $1 }' | sort >"$TMP/lives"
jq -r --argjson storm "$storm" '.exited[] | select(.ppid == $storm) | .pid' \
	"$TMP/st.out" | sort | uniq -c | awk '{ print $2, $1 }' | sort >"$TMP/rows"
join -a 1 -a 2 -e 0 -o 0,1.2,2.2 "$TMP/lives" "$TMP/rows" >"$TMP/per_pid"
twice=$(awk '$2 > 1' "$TMP/per_pid" | wc -l)
rows=$(awk '{ n += $3 } END { print n + 0 }' "$TMP/per_pid")
missing=$(awk '$3 < $2 { n += $2 - $3 } END { print n + 0 }' "$TMP/per_pid")
lost=$(jq -s '.[-1].exit_records_lost' "$TMP/st.out")
note "$count children, $twice pids used more than once, $rows exited rows, $missing missing, exit_records_lost $lost"

[ "$twice" -gt 0 ] ||
	hard_error "no pid was used twice (pid_max $(cat /proc/sys/kernel/pid_max)): the test shows nothing"
awk '$2 == 0' "$TMP/per_pid" >"$TMP/strangers"
[ -s "$TMP/strangers" ] &&
	fail "exited rows of the storm with pids it never had: $(head -5 "$TMP/strangers" | tr '\n' ' ')"
awk '$3 > $2 && $2 > 0' "$TMP/per_pid" >"$TMP/more"
[ -s "$TMP/more" ] &&
	fail "more rows than lives (pid lives rows): $(head -5 "$TMP/more" | tr '\n' ',')"
[ "$missing" -le "$lost" ] ||
	fail "$missing lives have no row (pid lives rows: $(awk '$3 < $2' "$TMP/per_pid" | head -5 | tr '\n' ',')), but exit_records_lost is $lost"
exit 0
