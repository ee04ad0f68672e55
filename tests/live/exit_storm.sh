#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Exit storm: 5,000 short-lived processes, forked as fast as one process
# can (about 3,500 a second here), each taking a copy-on-write burst of
# exactly 16 pages before it exits, while stalltop runs in batch JSON
# mode. Every one of them must appear in "exited" exactly once over all
# samples, each with its burst, unless exit records were lost: then
# exit_records_lost must equal the number missing. (The fork/exit
# notifications may overflow too: the exit records do not depend on them,
# and such a loss is not theirs.) No other exited row may claim to be one
# of the storm's children.
#
# The burst, summed over a child's rows: its wpcopy count is at least the
# 16 pages it writes (the parent wrote each before the storm, so each is
# one copy-on-write fault), plus the child's own faults on its stack and
# on the libc and TLS pages fork's return touches: 4..8 here, 3..9 when
# the workload is built with the sanitizers. We accept 16..31: a child
# whose rows count it twice has at least 2 x 16 = 32 (about 44 in fact),
# and one that lost its burst has fewer than 16.
. "$top_srcdir/tests/lib/functions.sh"
live_init
need_cmd sort uniq comm

count=5000
pages=16
start_stalltop st -d 0.5
# (a workload built with LeakSanitizer would clone a checker task of its
# own at exit: one more child than it spawned)
bg_start storm env ASAN_OPTIONS=detect_leaks=0 \
	"$WL/wl_storm" -n "$count" -p "$pages" "$TMP/pids"
storm=$BG_PID
bg_wait "$storm" || fail "wl_storm failed: $(cat "$TMP/storm.err")"
# two samples after the last exit: its interval has been closed
wait_more_lines "$TMP/st.out" 2
stop_stalltop st "$ST_PID"
note "$(cat "$TMP/storm.out") (count, seconds)"

sort "$TMP/pids" >"$TMP/spawned"
[ "$(uniq "$TMP/spawned" | wc -l)" -eq "$count" ] ||
	hard_error "the storm reused pids: the pid list cannot identify its children"
# the storm's children are the exited rows whose parent is the storm
# (a wl_storm of another test, left over, cannot be taken for one)
jq -r --argjson storm "$storm" \
	'.exited[] | select(.comm == "wl_storm" and .ppid == $storm) | .pid' \
	"$TMP/st.out" | sort >"$TMP/seen"
uniq -d "$TMP/seen" >"$TMP/twice"
comm -23 "$TMP/spawned" "$TMP/seen" >"$TMP/missing"
comm -13 "$TMP/spawned" "$TMP/seen" | uniq >"$TMP/strangers"
lost=$(jq -s '.[-1].exit_records_lost' "$TMP/st.out")
missing=$(lines "$TMP/missing")
note "exited rows: $(lines "$TMP/seen") for $count children; missing $missing; exit_records_lost $lost; events_lost $(jq -s '.[-1].events_lost' "$TMP/st.out")"

[ -s "$TMP/twice" ] && fail "children in \"exited\" more than once: $(head -5 "$TMP/twice" | tr '\n' ' ')"
[ -s "$TMP/strangers" ] && fail "exited rows named wl_storm that are not its children: $(head -5 "$TMP/strangers" | tr '\n' ' ')"
# for the failure message: every row (tasks, exited) holding a missing pid
missing_rows() {
	head -3 "$TMP/missing" | while read -r pid; do
		printf '%s: %s\n' "$pid" "$(jq -c --argjson p "$pid" \
			'[(.tasks[] | select(.pid == $p) | {in: "tasks", comm, state}),
			  (.exited[] | select(.pid == $p) | {in: "exited", comm, state})]' \
			"$TMP/st.out" | tr -d '\n')"
	done
}
if [ "$missing" -gt 0 ] || [ "$lost" -gt 0 ]; then
	[ "$lost" -gt 0 ] ||
		fail "$missing children never appear in \"exited\" and exit_records_lost is 0; rows with their pids: $(missing_rows)"
	[ "$lost" -eq "$missing" ] ||
		fail "exit_records_lost is $lost but $missing children are missing"
fi

# the figures of each child: its copy-on-write burst, summed over its rows
# (a sample may catch a child alive, before its "exited" row)
expect "storm children" "$TMP/st.out" -s --rawfile pids "$TMP/spawned" \
	--argjson pages "$pages" '
  ($pids | split("\n") | map(select(. != "") | {key: ., value: true})
   | from_entries) as $kid
  | [.[] | (.tasks + .exited)[] | select($kid[.pid | tostring])]
  | (map(select(.delay.wpcopy.pct < 0 or .delay.wpcopy.pct > 100))
     | if length > 0
       then "wpcopy pct out of 0..100: \(.[:3] | map({pid, wpcopy: .delay.wpcopy}))"
       else empty end),
    (group_by(.pid) | map({pid: .[0].pid, count: (map(.delay.wpcopy.count) | add)})
     | map(select(.count < $pages or .count > 2 * $pages - 1))
     | if length > 0
       then "\(length) children with a wpcopy count outside \($pages)..\(2 * $pages - 1), e.g. \(.[:3])"
       else empty end)'
exit 0
