#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A task can be moved to another cgroup without running, and nothing
# announces it: stalltop reads a process's cgroup again when it ran or
# exec'd, and at the latest 5 seconds after the last read (the manual
# page, --cgroups). A sleeping process moved from one cgroup of ours to
# another must show under the new one within that time: the first
# sample of stalltop -b --json --cgroups that shows it there must end at
# most 5 s plus two refreshes after the move, and every sample from then
# on must show it there. That the process did not run meanwhile is
# checked on its run time (/proc/PID/schedstat), so the test covers the
# case that only the periodic re-read can catch.
. "$top_srcdir/tests/lib/functions.sh"
live_init

cg_root
NAME=stalltop-$TEST_NAME-$$
CG=$V2/$NAME
cg_make "$CG" "$CG/a" "$CG/b"
bg_start_in sleeper "$CG/a" sleep 3600
SL=$BG_PID
in_a() { grep -qx "$SL" "$CG/a/cgroup.procs"; }
wait_for -t 10 in_a

start_stalltop st --cgroups -p "$SL" -d 0.25
wait_lines "$TMP/st.out" 3
tail -n 1 "$TMP/st.out" | jq -e --arg a "/$NAME/a" '.tasks[0].cgroup == $a' >/dev/null ||
	fail "the sleeper is not shown in /$NAME/a: $(tail -n 1 "$TMP/st.out" | jq -c '.tasks')"
ran0=$(cut -d' ' -f1 /proc/"$SL"/schedstat)
echo "$SL" >"$CG/b/cgroup.procs" || hard_error "cannot move $SL to $CG/b"
moved=$(date +%s.%N)
shown_b() { jq -e -s --arg b "/$NAME/b" 'any(.[]; .tasks[0].cgroup == $b)' "$TMP/st.out" >/dev/null; }
wait_for -t 10 shown_b
wait_more_lines "$TMP/st.out" 2
ran1=$(cut -d' ' -f1 /proc/"$SL"/schedstat)
stop_stalltop st "$ST_PID"
[ "$ran0" = "$ran1" ] && note "the sleeper did not run while moved"
expect "the move" "$TMP/st.out" -s --arg b "/$NAME/b" --argjson moved "$moved" '
  (map(.tasks[0].cgroup == $b) | index(true)) as $i
  | .[$i] as $first
  | (if $first.time > $moved + 5 + 2 * 0.25 + 0.1
     then "shown in \($b) only \($first.time - $moved) s after the move" else empty end),
    (.[$i:][] | select(.tasks[0].cgroup != $b) | "at \(.time), after it showed in \($b): \(.tasks[0].cgroup)")'
note "shown under /$NAME/b $(jq -s --arg b "/$NAME/b" --argjson moved "$moved" \
	'map(select(.tasks[0].cgroup == $b))[0].time - $moved' "$TMP/st.out") s after the move"
exit 0
