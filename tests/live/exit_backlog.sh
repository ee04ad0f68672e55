#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 3: a backlog of exits. stalltop is stopped (SIGSTOP) while 40,000
# short-lived processes come and go, more than the pid space of a default
# machine (32,768), so pids are used twice within the backlog; then it
# resumes. Every child must appear in "exited" once per life: two lives of
# one pid may not merge into one row, and none may be dropped. The
# kernel's exit records wait in the socket buffers meanwhile (30,000 and
# more fit); a record lost all the same would show in events_lost, so
# the rows plus events_lost must cover the children.
. "$top_srcdir/tests/lib/functions.sh"
live_init

count=40000
start_stalltop st -d 0.5
wait_lines "$TMP/st.out" 1
kill -s STOP "$ST_PID"
bg_start storm env ASAN_OPTIONS=detect_leaks=0 "$WL/wl_storm" -n "$count" "$TMP/pids"
storm=$BG_PID
bg_wait "$storm" || { kill -s CONT "$ST_PID"; fail "wl_storm failed: $(cat "$TMP/storm.err")"; }
kill -s CONT "$ST_PID"
wait_more_lines "$TMP/st.out" 3
stop_stalltop st "$ST_PID"

twice=$(sort "$TMP/pids" | uniq -d | wc -l)
rows=$(jq -r --argjson storm "$storm" \
	'.exited[] | select(.ppid == $storm) | .pid' "$TMP/st.out" | wc -l)
lost=$(jq -s '.[-1].events_lost' "$TMP/st.out")
note "$count children ($twice pids used twice), $rows exited rows, events_lost $lost"
[ "$rows" -le "$count" ] || fail "$rows exited rows for $count children"
[ $((rows + lost)) -ge "$count" ] ||
	fail "$((count - rows)) children missing, but events_lost is $lost"
exit 0
