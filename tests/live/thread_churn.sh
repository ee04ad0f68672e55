#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Threads that end mid-interval while their process lives on: for 3 s, two
# short-lived threads at a time (150..300 ms each) and a long one share
# one CPU, so each has cpu delay when it ends. Two stalltops watch the
# process from before it starts: one by process (-p), one by thread
# (-H -p). Over all samples, the cpu delay each shows (pct x interval)
# must add up to the process's own total, which the workload sums from
# every thread's /proc/thread-self/schedstat just before the thread ends
# (the counters taskstats reports): a thread's delay counted twice, lost,
# or turned negative when the thread leaves the process's sum would show.
#
# Tolerance: 0.5 % + 5 ms of a total of about 6 s. The workload reads each
# thread's counters on a CPU where nothing of ours runs, at nice -20, so
# hardly anything accrues between reading and exit (measured: < 0.1 ms in
# all); rounding in stalltop's output is below 0.1 ms per sample. One
# thread's delay is about 100..200 ms: one too many or too few fails.
# Per sample: no null (a counter that went backwards) and no pct above
# 105 per thread (400 for the process: 4 threads at most). With -H every
# thread is in "exited" exactly once, and the timeslice count adds up
# too (within one per thread: a thread may be scheduled once more after
# reading its counters).
. "$top_srcdir/tests/lib/functions.sh"
live_init

[ "$NCPU" -ge 2 ] || skip "needs 2 CPUs: one busy, one quiet for the threads' own readings"
cpu=$((NCPU - 1))
quiet=0
bg_start wl "$WL/wl_threads" -g -c "$cpu" -q "$quiet" -N -20 -s 3
wl=$BG_PID
wait_for has_line "$TMP/wl.out" '^waiting'
start_stalltop procs -d 0.5 -p "$wl"
procs=$ST_PID
start_stalltop threads -d 0.5 -H -p "$wl"
threads=$ST_PID
kill -s USR1 "$wl"
wait_for has_line "$TMP/wl.out" '^done'
set -- $(grep '^threads' "$TMP/wl.out")
created=$2 delay_ns=$6 slices=$8
wait_more_lines "$TMP/procs.out" 2
wait_more_lines "$TMP/threads.out" 2
stop_stalltop procs "$procs"
stop_stalltop threads "$threads"
note "workload: $created threads, cpu delay $delay_ns ns, $slices slices"

for mode in procs threads; do
	expect "$mode" "$TMP/$mode.out" -s --argjson p "$wl" --argjson delay "$delay_ns" \
		--argjson slices "$slices" --argjson created "$created" \
		--argjson threads "$([ $mode = threads ] && echo true || echo false)" '
	  [.[] | .interval as $dt | (.tasks + .exited)[] | select(.tgid == $p) | . + {dt: $dt}] as $rows
	  | ($rows | map(.delay.cpu.pct * .dt / 100) | add) as $sum
	  | ($delay / 1e9) as $want
	  | (if ($sum - $want | fabs) > 0.005 * $want + 0.005
	     then "cpu delay adds up to \($sum) s, the workload says \($want) s" else empty end),
	    ($rows | map(.delay.cpu.count) | add
	     | select(. < $slices or . > $slices + $created + 1)
	     | "cpu count adds up to \(.), the workload says \($slices)"),
	    ($rows[] | select(.delay.cpu == null or .cpu_pct == null)
	     | "a null figure: \({pid, cpu: .delay.cpu, cpu_pct})"),
	    ($rows[] | select(.delay.cpu.pct < 0 or .delay.cpu.pct > (if $threads then 105 else 400 end))
	     | "cpu delay \(.delay.cpu.pct) % for \(.pid)"),
	    (if $threads then
	       ([.[] | .exited[] | select(.tgid == $p) | .pid] | group_by(.)) as $ex
	       | (if ($ex | length) != $created
	          then "\($ex | length) threads in exited, \($created) ended" else empty end),
	         ($ex[] | select(length > 1) | "thread \(.[0]) in exited \(length) times")
	     else empty end)'
done
note "stalltop: process $(jq -s --argjson p "$wl" '[.[] | .interval as $dt | (.tasks + .exited)[] | select(.tgid == $p) | .delay.cpu.pct * $dt / 100] | add' "$TMP/procs.out") s, threads $(jq -s --argjson p "$wl" '[.[] | .interval as $dt | (.tasks + .exited)[] | select(.tgid == $p) | .delay.cpu.pct * $dt / 100] | add' "$TMP/threads.out") s"
exit 0
