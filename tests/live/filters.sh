#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The row filters of batch output, live: -o (only tasks that stalled in the
# interval), --limit N (the first N rows after sorting) and -u (one user's
# tasks, by name or uid), each in every sample.
#
# The workload: two spinners sharing one CPU at nice -20 (each waits about
# half the time: they stall in every interval), a process sleeping as root
# and one sleeping as nobody (they never wait for anything: total 0).
#  - -o: on the whole machine every row, live or exited, stalled: its
#    total_pct is above 0 or, where the 3 decimals of the output round a
#    tiny wait to 0, it had events in the interval (a task that ran waited
#    a little; an idle one has none); the spinners are there, the sleepers
#    not. Among our four (-p) exactly the spinners; without -o all four
#    (the control).
#  - --limit: on the whole machine exactly 3 rows, live and exited
#    together (it has more), each list sorted; among our four, --limit 2
#    -s cpu gives
#    the spinners (the largest cpu delays) and with -r the sleepers: the
#    limit takes the first rows after the sort, not before.
#  - -u nobody and -u 65534: only nobody's rows, among them our sleeper and
#    none of root's workload; -u root among our four: all but nobody's.
. "$top_srcdir/tests/lib/functions.sh"
live_init
need_cmd setpriv getent

nobody=$(getent passwd 65534 | cut -d: -f1)
[ -n "$nobody" ] || hard_error "no user with uid 65534"
cpu=$((NCPU - 1))
bg_start spin1 "$WL/wl_spin" -c "$cpu" -N -20
spin1=$BG_PID
bg_start spin2 "$WL/wl_spin" -c "$cpu" -N -20
spin2=$BG_PID
bg_start sleep_root sleep 3600
sleep_root=$BG_PID
bg_start sleep_nobody setpriv --reuid=65534 --regid=65534 --clear-groups sleep 3600
sleep_nobody=$BG_PID
wait_for has_line "$TMP/spin1.out" ready
wait_for has_line "$TMP/spin2.out" ready
# the sleeper has become nobody's (setpriv has exec'd sleep)
is_nobodys() { [ "$(stat -c %u "/proc/$sleep_nobody")" = 65534 ] && [ "$(cat "/proc/$sleep_nobody/comm")" = sleep ]; }
wait_for is_nobodys
ours="$spin1,$spin2,$sleep_root,$sleep_nobody"
set_of() { echo "$*" | tr ' ' '\n' | jq -s -c 'sort'; }
spinners=$(set_of $spin1 $spin2)
sleepers=$(set_of $sleep_root $sleep_nobody)
all=$(set_of $spin1 $spin2 $sleep_root $sleep_nobody)
note "spinners $spinners, root sleeper $sleep_root, $nobody's sleeper $sleep_nobody"

# --- -o ---
run_stalltop_json -p "$ours" -n 2 -d 0.5
expect "-p (the control)" "$JSON" --argjson want "$all" '
  [.tasks[].pid] | sort | if . != $want then "rows \(.), expected \($want)" else empty end'
run_stalltop_json -o -p "$ours" -n 2 -d 0.5
expect "-o -p" "$JSON" --argjson want "$spinners" '
  [.tasks[].pid] | sort | if . != $want then "rows \(.), expected the spinners \($want)" else empty end'
run_stalltop_json -o -n 3 -d 0.5
expect "-o" "$JSON" --argjson spinners "$spinners" --argjson sleepers "$sleepers" '
  ((.tasks + .exited)[]
   | select(.total_pct < 0 or (.total_pct == 0
            and ([.delay[] | objects | .count // 0] | add) == 0))
   | "pid \(.pid) (\(.comm)): total_pct \(.total_pct) and no events: it did not stall"),
  ($spinners[] as $p | select([.tasks[].pid] | index($p) | not)
   | "the spinner \($p) is missing"),
  ($sleepers[] as $p | select([.tasks[].pid] | index($p))
   | "the sleeper \($p) is there")'
note "-o: $(jq -c '[(.tasks | length), (.exited | length)]' "$JSON" | tr '\n' ' ')rows (live, exited)"

# --- --limit ---
run_stalltop_json -p "$ours" --limit 2 -s cpu -n 2 -d 0.5
expect "--limit 2 -s cpu" "$JSON" --argjson want "$spinners" '
  [.tasks[].pid] | sort | if . != $want then "rows \(.), expected the spinners \($want)" else empty end'
run_stalltop_json -p "$ours" --limit 2 -s cpu -r -n 2 -d 0.5
expect "--limit 2 -s cpu -r" "$JSON" --argjson want "$sleepers" '
  [.tasks[].pid] | sort | if . != $want then "rows \(.), expected the sleepers \($want)" else empty end'
run_stalltop_json -n 2 -d 0.5
expect "no --limit (the control)" "$JSON" '
  if (.tasks | length) < 10 then "only \(.tasks | length) rows on the whole machine" else empty end'
run_stalltop_json --limit 3 -s cpu -n 3 -d 0.5
expect "--limit 3 -s cpu" "$JSON" '
  (if (.tasks + .exited | length) != 3
   then "\(.tasks | length) + \(.exited | length) rows, expected 3" else empty end),
  (.tasks, .exited | [.[].delay.cpu.pct]
   | if . != (sort | reverse) then "not sorted by cpu delay: \(.)" else empty end)'

# --- -u ---
for u in "$nobody" 65534; do
	run_stalltop_json -u "$u" -n 2 -d 0.5
	expect "-u $u" "$JSON" --arg nobody "$nobody" --argjson sleeper "$sleep_nobody" \
		--argjson root "$(set_of $spin1 $spin2 $sleep_root)" '
	  ((.tasks + .exited)[] | select(.user != $nobody)
	   | "pid \(.pid) (\(.comm)) of \(.user)"),
	  (select([.tasks[].pid] | index($sleeper) | not) | "the sleeper \($sleeper) is missing"),
	  ($root[] as $p | select([.tasks[].pid] | index($p)) | "root'\''s \($p) is there")'
done
run_stalltop_json -u root -p "$ours" -n 2 -d 0.5
expect "-u root -p" "$JSON" --argjson want "$(set_of $spin1 $spin2 $sleep_root)" '
  [.tasks[].pid] | sort | if . != $want then "rows \(.), expected \($want)" else empty end'
note "-u $nobody, -u 65534, -u root: only their tasks"
exit 0
