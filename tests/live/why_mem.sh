#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Why a process waits for memory, from the evidence next to it. The
# setup of accuracy_reclaim.sh: a process in a memory cgroup limited to
# 64 MiB (no swap) reads 64 KiB blocks at random offsets of a 72 MiB file
# on a block device, round and round (wl_mem -r -f): the page cache does
# not fit, the cgroup's own reclaim makes room (reclaim delay) and pages
# read back soon after they were dropped are thrashing delay.
# stalltop -b --json -p PID -d 1 -n 6 must, in every sample from the
# second on (the first has no interval) where the process's reclaim or
# thrashing delay is at least 1 % of the interval:
#  - give its "why" the cause "mem_limit" ("mem limit") for that
#    category, never "low_memory" (the machine has memory to spare: its
#    MemAvailable is checked to be well above 5 % of MemTotal);
#  - show the limit: mem_max 64 MiB (memory.limit_in_bytes, v1) or
#    memory.max (v2), and a mem_current or mem_failcnt that supports the
#    rule: usage at least 95 % of the limit, or failcnt (max events on
#    v2) risen in the interval.
# At least two such samples must be there (measured: reclaim 7..9 %,
# thrashing 26..30 % in every sample after the first).
# What carries the rule here is the usage: the page cache fills the
# cgroup to its limit (mem_current 99.7..99.8 % of mem_max, measured),
# and the kernel reclaims it before a charge fails, so memory.failcnt
# stays 0 for this workload (measured: 0 before and after every run).
# The failcnt read before and after the run is noted; it is not
# required to rise, since the kernel does not count reclaim that
# succeeded.
. "$top_srcdir/tests/lib/functions.sh"
. "$top_srcdir/tests/lib/accuracy.sh"
live_init
set_io_dir
memcg_make 64 0
note "memory cgroup $MEMCG: 64 MiB, no swap; file in $IO_DIR"

avail=$(awk '$1 == "MemAvailable:" { print $2 }' /proc/meminfo)
total=$(awk '$1 == "MemTotal:" { print $2 }' /proc/meminfo)
[ $((avail * 100 / total)) -ge 20 ] ||
	skip "the machine itself is short of memory ($avail of $total KiB available): low_memory would be true"

bg_start_in mem "$MEMCG" "$WL/wl_mem" -r -f "$IO_DIR/data" -m 72
mem=$BG_PID
wait_for has_line "$TMP/mem.out" ready

failcnt() {
	if [ -e "$MEMCG/memory.failcnt" ]; then
		cat "$MEMCG/memory.failcnt"
	else
		awk '$1 == "max" { print $2 }' "$MEMCG/memory.events"
	fi
}
f0=$(failcnt)
run_stalltop_json -p "$mem" -d 1 -n 6
f1=$(failcnt)
note "failcnt (or max events) over the run: $f0 -> $f1"

limit=$((64 << 20))
expect "mem limit" "$JSON" -s --argjson p "$mem" --argjson limit "$limit" '
  [.[1:][] | .tasks[] | select(.pid == $p)] as $rows
  | [$rows[] | select((.delay.reclaim.pct // 0) >= 1 or (.delay.thrashing.pct // 0) >= 1)] as $st
  | if ($st | length) < 2
    then "\($st | length) samples with reclaim or thrashing >= 1 %: \([$rows[] | {reclaim: .delay.reclaim.pct, thrashing: .delay.thrashing.pct}])"
    else $st[] | .why as $w | .delay as $d
    | if $w == null then "no why object: reclaim \($d.reclaim.pct), thrashing \($d.thrashing.pct)"
      else
        (["reclaim", "thrashing"][] as $c
         | select(($d[$c].pct // 0) >= 1)
         | $w.causes[$c] as $r
         | if $r == null then "\($c) \($d[$c].pct) %: no cause tried"
           elif $r.cause == "low_memory" then "\($c): low_memory with \($w.sys_mem_available) of \($w.sys_mem_total) available"
           elif $r.cause != "mem_limit" then "\($c) \($d[$c].pct) %: cause \($r.cause), evidence \($w | {mem_max, mem_current, mem_failcnt, mem_events_max})"
           elif $r.text != "mem limit" then "\($c): text \($r.text)"
           else empty end),
        (if $w.mem_max != $limit then "mem_max \($w.mem_max), expected \($limit)" else empty end),
        (if ($w.mem_current // 0) < 0.95 * $limit and ($w.mem_failcnt // 0) <= 0 and ($w.mem_events_max // 0) <= 0
         then "no evidence for the limit: \($w | {mem_current, mem_failcnt, mem_events_max})" else empty end)
      end
    end'
note "why: $(jq -c --argjson p "$mem" '.tasks[] | select(.pid == $p) | .why
	| {causes, mem_max, mem_current, mem_failcnt, refaults, mem_some_us}' "$JSON" | tail -n 1)"
exit 0
