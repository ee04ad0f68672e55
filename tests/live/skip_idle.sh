#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Thread mode asks a process's threads only when the process's own
# reading moved: skipping idle threads must neither lose nor misplace
# what one of them does when it wakes, and must really skip.
#
# wl_wake holds 8 sleeping threads; a spinner shares one CPU with it.
#  - Cost: stalltop -H -s state -p WAKE under strace over 5 refreshes
#    while nothing of WAKE moves opens nothing of /proc/WAKE/task (thread
#    states are read only for threads that ran) and sends no taskstats
#    request by PID (strace shows each request's attribute: 8 bytes,
#    type 1 PID or 2 TGID), only the process's by TGID.
#    The control: the same trace of a spinning process (3 threads)
#    records opens of its task directory and of its threads' stat files
#    (relative to it) and requests by PID at every refresh, and every
#    row shows a state (-s state reads them all), so the method would
#    see them.
#  - The state where nothing needs it: without -s state, batch -H reads
#    a thread's stat line only for a row that waited on something other
#    than a CPU. The spinning process traced so (its threads only run
#    and wait for the CPU) has its threads asked by PID but none of
#    their stat files opened, and its rows show state null and no nice
#    value or memory (they come from that line); a process writing
#    synchronously (wl_io: its one thread waits on IO) has its thread's
#    stat file read at every refresh, and each row of it that shows an
#    IO wait shows a state.
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
wait_for all_asleep "$WAKE" 8

# --- the cost of an idle process ---
# trace NAME PID [OPTION...]: stalltop -H -p PID over 5 refreshes under
# strace; sets OPENS (opens of /proc/PID/task and below), STATS (opens of
# a thread's stat file relative to that directory, as stalltop reads it)
# and BYPID (taskstats requests by PID)
trace() {
	local _n=$1 _p=$2
	shift 2
	TRACE_CALLS=openat,sendto,sendmsg trace_stalltop "$_n" 5 -H -p "$_p" "$@"
	# the task directory (its threads' files are read relative to it),
	# or a file under it
	OPENS=$(grep -c "openat(.*\"/proc/$_p/task[/\"]" "$TMP/$_n.trace")
	STATS=$(grep -c -E 'openat\([0-9]+, "[0-9]+/stat"' "$TMP/$_n.trace")
	# genl command 1 (GET), version 1, then the attribute: len 8, type 1
	BYPID=$(grep -E 'send(to|msg)\(' "$TMP/$_n.trace" |
		grep -o -F '"\x01\x01\x00\x00\x08\x00\x01\x00' | wc -l)
	note "$_n: $OPENS opens of /proc/$_p/task/*, $STATS of a thread's stat, $BYPID requests by PID in 5 refreshes (lost $LOST)"
}
# rows NAME PID: the thread rows of PID in NAME's samples, one array a line
rows() { jq -c --argjson p "$2" '[.tasks[] | select(.tgid == $p)]' "$TMP/$1.out"; }
bg_start busy "$WL/wl_spin" -t 3 -c "$cpu"
BUSY=$BG_PID
wait_for has_line "$TMP/busy.out" ready
trace control "$BUSY" -s state
[ "$OPENS" -ge 5 ] && [ "$STATS" -ge 12 ] ||
	fail "a spinning process's threads were not read ($OPENS opens of its task directory, $STATS of a thread's stat): the test cannot see the reads"
[ "$BYPID" -ge 12 ] ||
	fail "$BYPID requests by PID for a spinning process's 3 threads: the test cannot count them"
rows control "$BUSY" | jq -e -s 'length >= 5 and all(.[]; length == 3 and all(.state != null))' >/dev/null ||
	fail "-s state: a spinning thread without a state: $(rows control "$BUSY" | tail -n 2)"

# --- no state where nothing needs it ---
trace running "$BUSY"
if [ "$LOST" -eq 0 ]; then
	[ "$OPENS" -eq 0 ] && [ "$STATS" -eq 0 ] ||
		fail "threads that only ran had their stat read ($OPENS opens of the task directory, $STATS of a stat): $(grep -E "/proc/$BUSY/task|[0-9]+/stat\"" "$TMP/running.trace" | head -3)"
else
	note "events were lost while traced: a rescan reads /proc, no count"
fi
[ "$BYPID" -ge 12 ] ||
	fail "$BYPID requests by PID for a spinning process's 3 threads: they were not asked"
rows running "$BUSY" | jq -e -s 'length >= 5 and all(.[]; length == 3 and
	all(.state == null and .nice == null and .rss_kib == null and .swap_kib == null))' >/dev/null ||
	fail "threads that only ran show what their stat line says: $(rows running "$BUSY" | tail -n 1)"
bg_kill "$BUSY"
if try_io_dir; then
	bg_start io "$WL/wl_io" "$IO_DIR/skip-idle-io"
	IO=$BG_PID
	wait_for has_line "$TMP/io.out" ready
	trace io "$IO"
	# one read of its thread's stat a refresh (5 traced, and the one
	# under way when strace stopped: 5..6; measured 5)
	[ "$STATS" -ge 5 ] ||
		fail "a thread waiting on IO had its stat read $STATS times in 5 refreshes"
	waits='.[] | select((.delay.io.pct // 0) > 0)'
	rows io "$IO" | jq -e -s "[.[] | $waits] | length >= 5 and all(.state != null)" >/dev/null ||
		fail "rows waiting on IO should show their state, 5 at least: $(rows io "$IO" | jq -c "[$waits | [.pid, .state, .delay.io.pct]]" | tail -n 6 | tr '\n' ' ')"
	note "the IO thread's states: $(rows io "$IO" | jq -r '[.[] | .state] | join("")' | tr -d '\n')"
	bg_kill "$IO"
else
	skip_part "no directory on a block device: no IO wait to read the state of"
fi

trace idle "$WAKE" -s state
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
