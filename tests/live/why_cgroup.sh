#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The evidence of cgroup rows (--cgroups). Under the v2 hierarchy two
# cgroups of our own: "spin" with a spinner of two threads pinned to one
# CPU (each waits for the CPU about half of the time: the cgroup's cpu
# delay is about 100 %), "idle" with one sleeping process.
# stalltop -b --json --cgroups --cgroup /<ours> -d 1 -n 4 must give
#  - spin a "why" object in every sample: causes.cpu tried (spin stalled
#    on cpu), states_source "proc" with tasks_running >= 1 (the spinner's
#    threads, counted from spin's cgroup.threads and /proc/TID/stat) and
#    tasks_stopped 0; from the second sample on (the first has no
#    interval) interval_s and its cpu pressure cpu_some_us > 0 from its
#    cpu.pressure. Where spin's directory has no cpu.max (a v2 tree
#    without the cpu controller) cpu_quota_us is null, never 0; where it
#    has one, a number or "max". The process's own fields (allowed_cpus,
#    task_read_bytes, forks) are null on a cgroup.
#  - idle, which stalled on nothing, no "why" at all.
# The recording of the run replays (--replay -b --json) with the same
# "why" objects on the cgroups.
. "$top_srcdir/tests/lib/functions.sh"
live_init
[ "$NCPU" -ge 2 ] || skip "one CPU: pinning to one of them changes nothing"
cg_root
[ -e "$V2/cpu.pressure" ] || skip "no per-cgroup PSI here ($V2/cpu.pressure)"

NAME=stalltop-$TEST_NAME-$$
CG=$V2/$NAME
SPIN=/$NAME/spin
IDLE=/$NAME/idle
cg_make "$CG" "$CG/spin" "$CG/idle"

bg_start_in spin "$CG/spin" "$WL/wl_spin" -c $((NCPU - 1)) -t 2
spin=$BG_PID
bg_start_in idle "$CG/idle" sleep 3600
wait_for has_line "$TMP/spin.out" ready
in_cgroups() {
	[ "$(wc -l <"$CG/spin/cgroup.procs")" -eq 1 ] &&
		[ "$(wc -l <"$CG/idle/cgroup.procs")" -eq 1 ]
}
wait_for -t 10 in_cgroups
has_max=false
[ -e "$CG/spin/cpu.max" ] && has_max=true
note "spin ($SPIN): $spin; cpu.max there: $has_max"

run_stalltop_json --cgroups --cgroup "/$NAME" -d 1 -n 4 \
	--record "$TMP/cg.stk"
expect "cgroup why" "$JSON" -s --arg spin "$SPIN" --arg idle "$IDLE" \
	--argjson has_max "$has_max" '
  to_entries[] | .key as $n | .value
  | (.cgroups // []) as $cg
  | ($cg | map(select(.path == $spin))[0]) as $s
  | ($cg | map(select(.path == $idle))[0]) as $i
  | if $s == null or $i == null then "sample \($n): our cgroups are missing: \($cg | map(.path))"
    else
      (if $i.why != null then "sample \($n): idle has a why: \($i.why | {causes, tasks_running})" else empty end),
      (if ($s.delay.cpu.pct // 0) < 50 then "sample \($n): spin cpu delay \($s.delay.cpu.pct), expected about 100" else empty end),
      ($s.why as $w
       | if $w == null then "sample \($n): spin has no why (cpu \($s.delay.cpu.pct))"
         elif $w.causes.cpu == null then "sample \($n): no cpu cause tried: \($w.causes)"
         elif $w.states_source != "proc" then "sample \($n): states_source \($w.states_source)"
         elif ($w.tasks_running // 0) < 1 then "sample \($n): tasks_running \($w.tasks_running)"
         elif $w.tasks_stopped != 0 then "sample \($n): tasks_stopped \($w.tasks_stopped)"
         elif $w.allowed_cpus != null or $w.task_read_bytes != null or $w.forks != null
         then "sample \($n): process fields on a cgroup: \($w | {allowed_cpus, task_read_bytes, forks})"
         elif ($has_max | not) and $w.cpu_quota_us != null then "sample \($n): cpu_quota_us \($w.cpu_quota_us) without cpu.max"
         elif $has_max and $w.cpu_quota_us == null then "sample \($n): cpu_quota_us null with cpu.max"
         elif $n >= 1 and ($w.interval_s == null or $w.interval_s <= 0) then "sample \($n): interval_s \($w.interval_s)"
         elif $n >= 1 and ($w.cpu_some_us // 0) <= 0 then "sample \($n): cpu_some_us \($w.cpu_some_us)"
         else empty end)
    end'
note "spin's why: $(jq -c --arg p "$SPIN" '.cgroups[] | select(.path == $p) | .why
	| {interval_s, causes, cpu_some_us, cpu_quota_us, tasks_running, tasks_sleeping, states_source}' \
	"$JSON" | tail -n 1)"

# the recording replays with the same evidence
timeout 60 "$STALLTOP" --replay "$TMP/cg.stk" -b --json --cgroups \
	>"$TMP/replay.json" 2>"$TMP/replay.err" ||
	fail "--replay exited $?: $(cat "$TMP/replay.err")"
jq -c '[.cgroups[]? | select(.why) | {path, why}]' "$JSON" >"$TMP/live.why"
jq -c '[.cgroups[]? | select(.why) | {path, why}]' "$TMP/replay.json" >"$TMP/replay.why"
cmp -s "$TMP/live.why" "$TMP/replay.why" ||
	fail "the replay's why differs: $(diff "$TMP/live.why" "$TMP/replay.why" | head -5)"
grep -q "$SPIN" "$TMP/replay.why" || fail "the replay has no why of $SPIN"
exit 0
