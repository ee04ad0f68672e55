#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A process's longest wait is its threads': the kernel's process record
# carries one live thread's lifetime maximum, so stalltop never shows it;
# where it reads the threads (a recording keeps them) the process's
# max_ms is the largest of its threads' in the interval, and only when
# every wait of the interval is in a thread whose longest wait is known
# (the threads' counts add up to the process's).
# Workload: wl_threads, a contender and short-lived threads on one CPU:
# every thread waits for it, threads end mid-interval. Recorded with
# --record (thread rows in thread_tasks, ended ones in thread_exited).
. "$top_srcdir/tests/lib/functions.sh"
live_init

# stalltop starts first: in the workload's first interval all its threads
# are new, so each one's longest wait is known (its lifetime maximum rose
# from nothing), and so is the process's; later the contender's lifetime
# maximum mostly stays, and the process's is unknown
cpu=$((NCPU - 1))
start_stalltop st -d 0.5 --record "$TMP/rec.ndjson"
bg_start wl "$WL/wl_threads" -c "$cpu" -q 0 -s 4
wl=$BG_PID
wait_more_lines "$TMP/st.out" 5
stop_stalltop st "$ST_PID"
bg_kill "$wl"

expect "process max from its threads" "$TMP/rec.ndjson" -s --argjson p "$wl" '
  [.[] | select(.tasks) | . as $s
   | ($s.tasks[] | select(.pid == $p)) as $r
   | [($s.thread_tasks // [])[], ($s.thread_exited // [])[] | select(.tgid == $p)] as $t
   | {max: $r.delay.cpu.max_ms, count: $r.delay.cpu.count,
      tmax: ([$t[] | .delay.cpu.max_ms // empty] | max),
      tcount: ([$t[] | .delay.cpu.count // 0] | add),
      unknown: any($t[]; .delay.cpu.count > 0 and .delay.cpu.max_ms == null)}] as $v
  | ($v[] | select(.max != null and (.max != .tmax or .count != .tcount or .unknown))
     | "a process max of \(.max) ms with threads max \(.tmax), counts \(.count)/\(.tcount)"),
    ($v[] | select(.max == null and .count == .tcount and (.unknown | not) and .tmax != null)
     | "no process max although every thread'"'"'s is known: \(.)"),
    (if [$v[] | select(.max != null)] | length == 0
     then "no interval with a known process max: \($v)" else empty end)'
exit 0
