#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A service on a hybrid host as systemd makes one there: the same path,
# /stalltop-cgroup_hybrid-PID.service, in the v1 memory hierarchy
# (limited to 64 MiB, no swap) and in the controller-less v2 one, which
# the cgroup view's tree is; the workload of why_mem.sh in both (wl_mem
# -r -f: random 64 KiB reads of a 72 MiB file on a block device, whose
# page cache does not fit: the cgroup's own reclaim, and thrashing).
# stalltop -b --json --cgroups -d 1 -n 6 --record FILE must give:
#  - one cgroup row with the service's path in every sample (not one per
#    hierarchy), named like the service, holding its one process, which
#    is in it (the process row's "cgroup");
#  - its v2 pressure: psi.memory present in every sample;
#  - in every sample from the second on (the first has no interval)
#    where the cgroup's reclaim or thrashing delay is at least 1 %: a why
#    object on the cgroup row with the v1 limit (mem_max 64 MiB,
#    mem_cgroup_version 1), v1 usage that supports the rule (mem_current
#    at least 95 % of the limit, or failcnt risen), the v2 pressure
#    (mem_some_us > 0) and the cause mem_limit, "mem limit", for that
#    category; the process row in the same sample the same cause and the
#    same limit. At least two such samples (measured: reclaim 7..9 % and
#    thrashing 26..30 % in every sample after the first, as in
#    why_mem.sh).
# The recording replays (--replay -b --json --cgroups) with the same
# cgroup rows: paths, names and why objects.
. "$top_srcdir/tests/lib/functions.sh"
. "$top_srcdir/tests/lib/accuracy.sh"
live_init
set_io_dir
memcg_service 64
note "service $SERVICE: v1 $MEMCG (64 MiB, no swap), v2 $V2$SVC_PATH; file in $IO_DIR"

avail=$(awk '$1 == "MemAvailable:" { print $2 }' /proc/meminfo)
total=$(awk '$1 == "MemTotal:" { print $2 }' /proc/meminfo)
[ $((avail * 100 / total)) -ge 20 ] ||
	skip "the machine itself is short of memory ($avail of $total KiB available): low_memory would be true"

bg_start_in_all mem "$SVC_DIRS" "$WL/wl_mem" -r -f "$IO_DIR/data" -m 72
mem=$BG_PID
wait_for has_line "$TMP/mem.out" ready
in_both() {
	grep -qx "$mem" "$MEMCG/cgroup.procs" &&
		grep -qx "$mem" "$V2$SVC_PATH/cgroup.procs"
}
wait_for -t 10 in_both

run_stalltop_json --cgroups -d 1 -n 6 --record "$TMP/rec.stk"

limit=$((64 << 20))
expect "the service's cgroup row" "$JSON" -s --arg path "$SVC_PATH" \
	--arg name "$SERVICE" --argjson p "$mem" '
  to_entries[] | .key as $n | .value
  | [.cgroups[]? | select(.path == $path)] as $rows
  | [.cgroups[]? | select(.name == $name)] as $named
  | [.tasks[] | select(.pid == $p)][0] as $t
  | if ($rows | length) != 1 or ($named | length) != 1
    then "sample \($n): \($rows | length) rows with path \($path), \($named | length) named \($name): \([.cgroups[]? | {path, name}])"
    else $rows[0] as $g
    | (if $g.name != $name then "sample \($n): named \($g.name)" else empty end),
      (if $g.nr_tasks != 1 then "sample \($n): nr_tasks \($g.nr_tasks)" else empty end),
      (if $t == null then "sample \($n): no row of the workload \($p)"
       elif $t.cgroup != $path then "sample \($n): the workload is in \($t.cgroup)" else empty end),
      (if $g.psi.memory.some == null then "sample \($n): no v2 memory pressure: \($g.psi)" else empty end)
    end'

expect "mem limit on both rows" "$JSON" -s --arg path "$SVC_PATH" \
	--argjson p "$mem" --argjson limit "$limit" '
  [.[1:][] | {g: ([.cgroups[]? | select(.path == $path)][0]),
              t: ([.tasks[] | select(.pid == $p)][0])}
   | select(.g != null and ((.g.delay.reclaim.pct // 0) >= 1 or (.g.delay.thrashing.pct // 0) >= 1))] as $st
  | if ($st | length) < 2
    then "\($st | length) samples with the cgroup stalled on reclaim or thrashing >= 1 %: \([.[1:][] | .cgroups[]? | select(.path == $path) | .delay | {reclaim: .reclaim.pct, thrashing: .thrashing.pct}])"
    else $st[] | .g.why as $w | .t.why as $tw | .g.delay as $d
    | if $w == null then "the cgroup has no why: reclaim \($d.reclaim.pct), thrashing \($d.thrashing.pct)"
      else
        (["reclaim", "thrashing"][] as $c
         | select(($d[$c].pct // 0) >= 1)
         | $w.causes[$c] as $r
         | if $r == null then "cgroup \($c) \($d[$c].pct) %: no cause tried"
           elif $r.cause != "mem_limit" or $r.text != "mem limit"
           then "cgroup \($c) \($d[$c].pct) %: cause \($r.cause) (\($r.text)), evidence \($w | {mem_max, mem_current, mem_failcnt, mem_cgroup_version, mem_some_us})"
           else empty end),
        (if $w.mem_max != $limit then "cgroup mem_max \($w.mem_max), expected \($limit) (v1)" else empty end),
        (if $w.mem_cgroup_version != 1 then "cgroup mem_cgroup_version \($w.mem_cgroup_version), expected 1" else empty end),
        (if ($w.mem_current // 0) < 0.95 * $limit and ($w.mem_failcnt // 0) <= 0
         then "cgroup: no v1 usage for the limit: \($w | {mem_current, mem_failcnt})" else empty end),
        (if ($w.mem_some_us // 0) <= 0 then "cgroup: no v2 memory pressure: mem_some_us \($w.mem_some_us)" else empty end),
        (if $tw == null then "the process has no why"
         else
           (["reclaim", "thrashing"][] as $c
            | select((.t.delay[$c].pct // 0) >= 1)
            | $tw.causes[$c] as $r
            | if $r == null or $r.text != "mem limit"
              then "process \($c) \(.t.delay[$c].pct) %: \($r)" else empty end),
           (if $tw.mem_max != $w.mem_max then "the process says mem_max \($tw.mem_max), its cgroup \($w.mem_max)" else empty end)
         end)
      end
    end'
note "cgroup row: $(jq -c --arg p "$SVC_PATH" '.cgroups[]? | select(.path == $p)
	| {name, nr_tasks, mem_some: .psi.memory.some.pct, reclaim: .delay.reclaim.pct,
	   thrashing: .delay.thrashing.pct, why: (.why // {} | {mem_max, mem_current,
	   mem_cgroup_version, mem_some_us, causes})}' "$JSON" | tail -n 1)"

# the recording replays with the same cgroup rows
timeout 60 "$STALLTOP" --replay "$TMP/rec.stk" -b --json --cgroups \
	>"$TMP/replay.json" 2>"$TMP/replay.err" ||
	fail "--replay exited $?: $(cat "$TMP/replay.err")"
jq -c '[.cgroups[]? | {path, name, why}]' "$JSON" >"$TMP/live.cg"
jq -c '[.cgroups[]? | {path, name, why}]' "$TMP/replay.json" >"$TMP/replay.cg"
cmp -s "$TMP/live.cg" "$TMP/replay.cg" ||
	fail "the replay's cgroups differ: $(diff "$TMP/live.cg" "$TMP/replay.cg" | head -5)"
grep -q "\"name\":\"$SERVICE\"" "$TMP/replay.cg" ||
	fail "the replay has no cgroup named $SERVICE"
exit 0
