#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Delay accounting switched on while tasks run: a task alive before the
# switch may have been inside a wait the kernel never stamped, so its
# figures but cpu stay unknown (null) for good; a task started after the
# switch has them all, also when it started between the switch and
# stalltop's first sample.
# Two runs, each with IO writers (wl_io: synchronous direct writes, so io
# delay is certain for a task that is measured):
#   1. --enable-delayacct: stalltop switches it on itself; "old" runs
#      since before, "early" starts as soon as the switch is on (before
#      the first sample), "late" after a sample;
#   2. switched on by hand while stalltop runs: "old2" before, "new2"
#      after the switch was seen in a sample.
. "$top_srcdir/tests/lib/functions.sh"
live_init
set_io_dir
"$WL/wl_io" -t 0 "$IO_DIR/data" >/dev/null || fail "cannot prepare $IO_DIR/data"
acct=/proc/sys/kernel/task_delayacct
acct_is() { [ "$(cat "$acct")" = "$1" ]; }
# some sample of FILE says delay accounting is on
some_sample_on() { jq -e -n 'any(inputs; .delayacct == true)' "$1" >/dev/null 2>&1; }

# check WHAT FILE PID measured|unmeasured: that process's rows
check() {
	expect "$1" "$2" -s --argjson pid "$3" --arg want "$4" '
	  [.[] | (.tasks + .exited)[] | select(.pid == $pid)] as $rows
	  | if ($rows | length) < 2 then "only \($rows | length) rows"
	    elif $want == "unmeasured" then
	      ($rows[] | select(.delay.cpu == null) | "cpu is null: \(.delay.cpu)"),
	      ($rows[] | .delay | to_entries[] | select(.key != "cpu" and .value != null)
	       | "\(.key) has a figure for a task alive before the switch: \(.value)")
	    else
	      ($rows[] | select(.delay.io == null) | "io is null: \(.dropped)"),
	      (if [$rows[] | .delay.io.count // 0] | add > 0 then empty
	       else "no io wait counted" end)
	    end'
}

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
wait_more_lines "$TMP/st.out" 3
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
wait_for some_sample_on "$TMP/st2.out"
bg_start new2 "$WL/wl_io" "$IO_DIR/data"
new2=$BG_PID
wait_more_lines "$TMP/st2.out" 3
stop_stalltop st2 "$ST_PID"
bg_kill "$old2"
bg_kill "$new2"
check "alive before the switch by hand" "$TMP/st2.out" "$old2" unmeasured
check "started after the switch by hand" "$TMP/st2.out" "$new2" measured
exit 0
