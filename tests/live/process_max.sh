#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A process's longest wait is its threads': the kernel's process record
# carries one live thread's lifetime maximum, so stalltop never shows it;
# where it reads the threads (a recording keeps them) the process's
# max_ms is the largest of its threads' in the interval, and only when
# every wait of the interval is in a thread whose longest wait is known
# (the threads' counts add up to the process's).
# Workload: wl_threads, a contender and short-lived threads on one CPU:
# every thread waits for it, threads end mid-interval. Taken with
# --record, which has the threads read: -b --json then gives their rows
# (thread_tasks, ended ones in thread_exited) beside the process rows.
. "$top_srcdir/tests/lib/functions.sh"
live_init

# stalltop starts first: in the workload's first interval all its threads
# are new, so each one's longest wait is known (its lifetime maximum rose
# from nothing), and so is the process's; later the contender's lifetime
# maximum mostly stays, and the process's is unknown. A thread that ends
# while the first interval is read can leave its wait in the process's
# count and not in the threads' (measured once in a few runs: 189 against
# 188), and then no interval's maximum is known: the workload is started
# afresh, at most 5 times, until one is.
cpu=$((NCPU - 1))

# attempt N: the workload's first intervals into $TMP/stN.out (recorded
# into $TMP/recN.stk)
attempt() {
	start_stalltop "st$1" -d 0.5 --record "$TMP/rec$1.stk"
	bg_start "wl$1" "$WL/wl_threads" -c "$cpu" -q 0 -s 4
	wl=$BG_PID
	wait_more_lines "$TMP/st$1.out" 5
	stop_stalltop "st$1" "$ST_PID"
	bg_kill "$wl"
}

# intervals FILE: the process row's and its threads' cpu figures
intervals() {
	jq -s -c --argjson p "$wl" '
	  [.[] | select(.tasks) | . as $s
	   | ($s.tasks[] | select(.pid == $p)) as $r
	   | [($s.thread_tasks // [])[], ($s.thread_exited // [])[] | select(.tgid == $p)] as $t
	   | {max: $r.delay.cpu.max_ms, count: $r.delay.cpu.count,
	      tmax: ([$t[] | .delay.cpu.max_ms // empty] | max),
	      tcount: ([$t[] | .delay.cpu.count // 0] | add),
	      unknown: any($t[]; .delay.cpu.count > 0 and .delay.cpu.max_ms == null)}]' "$1" >"$1.v" ||
		fail "cannot read $1"
	[ -s "$1.v" ] || fail "no interval of process $wl in $1"
}

n=0
known=0
while [ $n -lt 5 ] && [ "$known" -eq 0 ]; do
	n=$((n + 1))
	attempt $n
	intervals "$TMP/st$n.out"
	# every interval of every attempt: a max shown is the threads', and
	# one is shown wherever every thread's is known
	expect "process max from its threads (attempt $n)" "$TMP/st$n.out.v" '
	  (.[] | select(.max != null and (.max != .tmax or .count != .tcount or .unknown))
	   | "a process max of \(.max) ms with threads max \(.tmax), counts \(.count)/\(.tcount)"),
	  (.[] | select(.max == null and .count == .tcount and (.unknown | not) and .tmax != null)
	   | "no process max although every thread'"'"'s is known: \(.)")'
	known=$(jq '[.[] | select(.max != null)] | length' "$TMP/st$n.out.v")
	note "attempt $n: $(cat "$TMP/st$n.out.v")"
done
[ "$known" -gt 0 ] ||
	fail "no interval with a known process max in $n attempts: $(cat "$TMP/st$n.out.v")"
exit 0
