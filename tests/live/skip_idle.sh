#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Thread mode asks a process's threads only when the process's own
# reading moved: skipping idle threads must neither lose nor misplace
# what one of them does when it wakes, and must really skip.
#
# wl_wake holds 8 sleeping threads; a spinner shares one CPU with it.
#  - Cost: stalltop -H -p WAKE under strace over 5 refreshes while
#    nothing of WAKE moves opens nothing of /proc/WAKE/task (thread
#    states are read only for threads that ran) and sends no taskstats
#    request by PID (strace shows each request's attribute: 8 bytes,
#    type 1 PID or 2 TGID), only the process's by TGID.
#    The control: the same trace of a spinning process records opens of
#    its task directory (its threads' stat files are read relative to
#    it) and requests by PID at every refresh, so
#    the method would see them.
#  - The wake: after at least 8 idle refreshes, one thread wakes and
#    spins 300 ms next to the spinner, reading its own scheduler counters
#    (run time, run-queue wait) around the burst. In stalltop -b -H
#    --json its row must carry that run time and that cpu delay (within
#    10 % and 15 ms) summed over the samples, every sample that shows any
#    of it must overlap the burst (not earlier, not later, 100 ms of
#    slack for where a sample's window lies), and every other thread
#    shows none at all.
. "$top_srcdir/tests/lib/functions.sh"
live_init
need_cmd strace

cpu=$((NCPU - 1))
bg_start spin "$WL/wl_spin" -c "$cpu"
wait_for has_line "$TMP/spin.out" ready
bg_start wake "$WL/wl_wake" -t 8 -c "$cpu" -b 300
WAKE=$BG_PID
wait_for has_line "$TMP/wake.out" ready
# all 8 threads asleep, so nothing of WAKE moves from now on
asleep() {
	[ "$(cat /proc/"$WAKE"/task/*/stat | awk '{ sub(/.*\) /, ""); print $1 }' |
		grep -c S)" -eq 8 ]
}
wait_for asleep

# --- the cost of an idle process ---
# trace NAME PID: stalltop -H -p PID over 5 refreshes under strace; sets
# OPENS (opens of /proc/PID/task and below) and BYPID (taskstats requests by PID)
trace() {
	TRACE_CALLS=openat,sendto,sendmsg trace_stalltop "$1" 5 -H -p "$2"
	# the task directory (its threads' files are read relative to it),
	# or a file under it
	OPENS=$(grep -c "openat(.*\"/proc/$2/task[/\"]" "$TMP/$1.trace")
	# genl command 1 (GET), version 1, then the attribute: len 8, type 1
	BYPID=$(grep -E 'send(to|msg)\(' "$TMP/$1.trace" |
		grep -o -F '"\x01\x01\x00\x00\x08\x00\x01\x00' | wc -l)
	note "$1: $OPENS opens of /proc/$2/task/*, $BYPID requests by PID in 5 refreshes (lost $LOST)"
}
bg_start busy "$WL/wl_spin" -t 3 -c "$cpu"
BUSY=$BG_PID
wait_for has_line "$TMP/busy.out" ready
trace control "$BUSY"
[ "$OPENS" -ge 5 ] ||
	fail "a spinning process's threads were not read: the test cannot see the reads"
[ "$BYPID" -ge 12 ] ||
	fail "$BYPID requests by PID for a spinning process's 3 threads: the test cannot count them"
bg_kill "$BUSY"
trace idle "$WAKE"
if [ "$LOST" -eq 0 ]; then
	[ "$OPENS" -eq 0 ] ||
		fail "threads that did not run were read: $(grep "/proc/$WAKE/task" "$TMP/idle.trace" | head -3)"
	[ "$BYPID" -eq 0 ] ||
		fail "$BYPID requests by PID in 5 refreshes: idle threads were asked"
else
	note "events were lost while traced: a rescan reads /proc, no count"
fi

# --- one wake after many idle refreshes ---
start_stalltop st -H -p "$WAKE" -d 0.25
wait_lines "$TMP/st.out" 9
kill -s USR1 "$WAKE"
wait_for has_line "$TMP/wake.out" '^wake'
set -- $(grep '^wake' "$TMP/wake.out")
tid=$3 begin=$5 stop=$7 run_ns=$9 delay_ns=${11}
note "thread $tid woke: $begin..$stop, run ${run_ns} ns, cpu delay ${delay_ns} ns"
[ "$delay_ns" -gt 20000000 ] ||
	hard_error "the burst hardly waited for the CPU ($delay_ns ns): no spinner beside it?"
# the sample after the one that holds the burst's end
after_burst() { jq -e -s --argjson stop "$stop" 'any(.[]; .time - .interval > $stop + 0.3)' "$TMP/st.out" >/dev/null; }
wait_for after_burst
stop_stalltop st "$ST_PID"
expect "the wake" "$TMP/st.out" -s --argjson tid "$tid" --argjson begin "$begin" \
	--argjson stop "$stop" --argjson run "$run_ns" --argjson delay "$delay_ns" '
  def mine: [.tasks[], .exited[] | select(.pid == $tid)][0];
  def runs: (mine.cpu_pct // 0) * .interval / 100 * 1e9;
  def waits: (mine.delay.cpu.pct // 0) * .interval / 100 * 1e9;
  def off($want; $got): ($got - $want | fabs) > $want * 0.1 + 15e6;
  ([.[] | runs] | add) as $r | ([.[] | waits] | add) as $w
  | (if off($run; $r) then "run time \($r) ns in the samples, the thread measured \($run)" else empty end),
    (if off($delay; $w) then "cpu delay \($w) ns in the samples, the thread measured \($delay)" else empty end),
    ([.[] | select(.time < $begin)] | length) as $before
  | (if $before < 8 then "only \($before) samples before the wake" else empty end),
    (.[] | select((runs > 1e6 or waits > 1e6) and
		  (.time < $begin - 0.1 or .time - .interval > $stop + 0.1))
     | "a sample \(.time - .interval)..\(.time) outside the burst shows run \(runs) ns, delay \(waits) ns"),
    (.[] | .time as $t | .tasks[] | select(.pid != $tid and
		(.cpu_pct > 0.5 or (.delay.cpu.pct // 0) > 0.5))
     | "idle thread \(.pid) shows cpu \(.cpu_pct) %, delay \(.delay.cpu.pct) % at \($t)")'
note "samples around the wake: $(jq -c --argjson tid "$tid" 'select(.time > '"$begin"' - 0.5) |
	[(.time | . * 1000 | floor / 1000), ([.tasks[] | select(.pid == $tid)][0] | .cpu_pct, .delay.cpu.pct)]' \
	"$TMP/st.out" | head -5 | tr '\n' ' ')"
exit 0
