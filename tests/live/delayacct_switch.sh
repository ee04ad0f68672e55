#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Delay accounting switched on while tasks run.
# - A task started while it was off is never measured by the kernel
#   (Linux 6.18 gives a task its delay record at fork, only while delay
#   accounting is on): its figures but cpu are unknown (null) for good,
#   never a made-up 0. The independent reading: the kernel's own block-IO
#   delay of such a writer (field 42 of /proc/PID/stat) stays 0 while it
#   writes, and that of a writer started while it was on grows.
# - A task started while it was on and alive across a flip (off, then on
#   again) may be inside a wait whose start the kernel never stamped,
#   measured then from the start of an earlier wait: in the interval in
#   which it came on, every category but cpu and irq that moved is
#   dropped (null, listed in the row's dropped, counted in
#   figures_dropped), and from the next interval on its figures are
#   back: a flip never blinds the monitor for the rest of a task's life.
# - A task started after the switch has them all at once.
# IO writers (wl_io: synchronous direct writes, so an io wait ends in
# every interval of a measured task) in three runs:
#   1. --enable-delayacct: stalltop switches it on itself; "old" runs
#      since before, "early" starts as soon as the switch is on (before
#      the first sample), "late" after a sample;
#   2. switched on by hand while stalltop runs: "old2" before, "new2"
#      after the switch was seen in a sample;
#   3. a flip while stalltop runs, as "sysctl kernel.task_delayacct=0;
#      sleep 1; sysctl ...=1" makes it: "flip" runs across it, "dark"
#      starts while it is off; a notice on stderr says what was dropped.
. "$top_srcdir/tests/lib/functions.sh"
live_init
set_io_dir
"$WL/wl_io" -t 0 "$IO_DIR/data" >/dev/null || fail "cannot prepare $IO_DIR/data"
acct=/proc/sys/kernel/task_delayacct
acct_is() { [ "$(cat "$acct")" = "$1" ]; }
# some sample of FILE after the first N says delay accounting is on
on_after() { jq -e -n --argjson n "$2" '[inputs] | .[$n:] | any(.delayacct == true)' "$1" >/dev/null 2>&1; }
# the samples of FILE are at least N
has_samples() { [ "$(lines "$1")" -ge "$2" ]; }

# check WHAT FILE PID measured|unmeasured|resumes [AFTER]: that
# process's rows. measured: io in every row, waits counted. unmeasured:
# cpu in every row, every other category null. resumes: the switch's
# interval is the first sample with delayacct on after the AFTERth (0:
# the first of all); there io is a figure or dropped (never null
# unlisted), the sample counts what it dropped; in every later sample
# io is a figure, waits counted.
check() {
	expect "$1" "$2" -s --argjson pid "$3" --arg want "$4" \
		--argjson after "${5:-0}" '
	  ([range($after; length) as $i | select(.[$i].delayacct == true) | $i]
	   | first) as $k
	  | [to_entries[] | .key as $i | .value as $s
	     | ($s.tasks + $s.exited)[] | select(.pid == $pid)
	     | {i: $i, io: .delay.io, delay: .delay, dropped: (.dropped // []),
	        fd: $s.figures_dropped}] as $rows
	  | if ($rows | length) < 3 then "only \($rows | length) rows"
	    elif $want == "measured" then
	      ($rows[] | select(.io == null) | "sample \(.i): io is null: \(.dropped)"),
	      (if [$rows[] | .io.count // 0] | add > 0 then empty
	       else "no io wait counted" end)
	    elif $want == "unmeasured" then
	      ($rows[] | select(.delay.cpu == null) | "sample \(.i): cpu is null"),
	      ($rows[] | .i as $i | .delay | to_entries[]
	       | select(.key != "cpu" and .value != null)
	       | "sample \($i): \(.key) has a figure for a task the kernel does not measure: \(.value)")
	    elif $k == null then "no sample with delay accounting on"
	    else
	      ($rows[] | select(.i == $k)
	       | if .io == null and (.dropped | index("io") | not)
	         then "sample \(.i) (the switch): io null but not dropped"
	         elif .io == null and .fd < 1
	         then "sample \(.i) (the switch): io dropped, figures_dropped \(.fd)"
	         else empty end),
	      ([$rows[] | select(.i > $k)] as $later
	       | if ($later | length) < 2 then "only \($later | length) rows after the switch"
	         else ($later[] | select(.io == null)
	               | "sample \(.i), after the switch: io is null (dropped \(.dropped)): the task is still blind"),
	              (if [$later[] | .io.count // 0] | add > 0 then empty
	               else "no io wait counted after the switch" end)
	         end)
	    end'
}
# field 42 of /proc/PID/stat: the kernel's block-IO delay, ticks
blkio() { awk '{ print $42 }' "/proc/$1/stat"; }

# --- 1. stalltop switches it on ---
echo 0 >"$acct"
bg_start old "$WL/wl_io" "$IO_DIR/data"
old=$BG_PID
wait_for has_line "$TMP/old.out" ready
start_stalltop st -d 0.5 --enable-delayacct
wait_for acct_is 1
bg_start early "$WL/wl_io" "$IO_DIR/data"
early=$BG_PID
wait_more_lines "$TMP/st.out" 1
bg_start late "$WL/wl_io" "$IO_DIR/data"
late=$BG_PID
wait_more_lines "$TMP/st.out" 4
stop_stalltop st "$ST_PID"
bg_kill "$old"
bg_kill "$early"
bg_kill "$late"
check "alive before --enable-delayacct" "$TMP/st.out" "$old" unmeasured
check "started before the first sample" "$TMP/st.out" "$early" measured
check "started after a sample" "$TMP/st.out" "$late" measured

# --- 2. switched on by hand while stalltop runs ---
echo 0 >"$acct"
bg_start old2 "$WL/wl_io" "$IO_DIR/data"
old2=$BG_PID
wait_for has_line "$TMP/old2.out" ready
start_stalltop st2 -d 0.5
wait_more_lines "$TMP/st2.out" 1
echo 1 >"$acct"
# the switch is seen at the next sample; start after that one
wait_for on_after "$TMP/st2.out" 0
bg_start new2 "$WL/wl_io" "$IO_DIR/data"
new2=$BG_PID
wait_more_lines "$TMP/st2.out" 4
stop_stalltop st2 "$ST_PID"
bg_kill "$old2"
bg_kill "$new2"
check "alive before the switch by hand" "$TMP/st2.out" "$old2" unmeasured
check "started after the switch by hand" "$TMP/st2.out" "$new2" measured

# --- 3. a flip: off, then on again, while stalltop runs ---
echo 1 >"$acct"
bg_start flip "$WL/wl_io" "$IO_DIR/data"
flip=$BG_PID
wait_for has_line "$TMP/flip.out" ready
start_stalltop st3 -d 0.5
wait_more_lines "$TMP/st3.out" 2
echo 0 >"$acct"
# off until a sample saw it off, then on again
off_seen() { jq -e -n 'any(inputs; .delayacct == false)' "$1" >/dev/null 2>&1; }
wait_for off_seen "$TMP/st3.out"
bg_start dark "$WL/wl_io" "$IO_DIR/data"
dark=$BG_PID
wait_for has_line "$TMP/dark.out" ready
n_off=$(lines "$TMP/st3.out")
echo 1 >"$acct"
wait_for on_after "$TMP/st3.out" "$n_off"
f0=$(blkio "$flip") d0=$(blkio "$dark")
wait_more_lines "$TMP/st3.out" 4
f1=$(blkio "$flip") d1=$(blkio "$dark")
stop_stalltop st3 "$ST_PID"
bg_kill "$flip"
bg_kill "$dark"
# the kernel's own reading: it measures the one, not the other
[ "$d0" = 0 ] && [ "$d1" = 0 ] ||
	fail "the kernel measured a task started while delay accounting was off ($d0 -> $d1 ticks): the rule for such tasks is wrong here"
[ "$f1" -ge "$f0" ] || fail "the kernel's io delay of the flip writer went back ($f0 -> $f1)"
check "alive across a flip" "$TMP/st3.out" "$flip" resumes "$n_off"
check "started while it was off" "$TMP/st3.out" "$dark" unmeasured
grep -q 'delay accounting came on while stalltop ran' "$TMP/st3.err" ||
	fail "no notice of the switch on stderr: $(cat "$TMP/st3.err")"
note "the flip's io per sample: $(jq -c --argjson pid "$flip" \
	'[.delayacct, ((.tasks + .exited)[] | select(.pid == $pid) | .delay.io.pct)]' \
	"$TMP/st3.out" | tr '\n' ' ')"
note "kernel block-IO ticks over the last samples: flip $f0 -> $f1, dark $d0 -> $d1"
exit 0
