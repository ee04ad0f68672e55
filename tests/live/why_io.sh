#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Why a synchronous writer waits for IO: its row's "why" must carry its
# own bytes written in the interval (task_write_bytes > 0, from
# /proc/PID/io), the bytes its row's write rate is made of
# (task_write_bytes / interval_s is write_bps but for the printed
# interval's rounding, 0.5 ms of 1 s: 0.05 %; measured within 0.01 %;
# where its why's interval is the sample's, not longer for a round it
# did not stall in),
# and from the second sample on the busiest disks of the interval (from
# /proc/diskstats) must include a device that wrote; a "disk_busy" cause
# must name a disk busy 80 % or more, and "io_limit" is never claimed
# (no limit is set here).
# Its /proc/PID/io is read once a refresh, for its row and its why
# together, and once at the baseline for the first interval's why:
# under strace, 4 samples open "io" 5 times at most (a second read for
# the why opened it 8 times, and 9 with the baseline's).
. "$top_srcdir/tests/lib/functions.sh"
live_init
need_cmd strace
set_io_dir
bg_start io "$WL/wl_io" "$IO_DIR/why-io"
w=$BG_PID
wait_for has_line "$TMP/io.out" ready
run_stalltop_json -p "$w" -d 1 -n 4
expect "io" "$JSON" -s --argjson w "$w" '
  [.[1:][] | .interval as $iv | .tasks[] | select(.pid == $w) | .iv = $iv] as $rows
  | if ($rows | length) < 2 then "the writer is missing" else
    ($rows[] | . as $r | .why as $w
     | if $w == null then "no why object for io \(.delay.io)"
       elif ($w.causes | has("io") | not) then "io not examined: \($w.causes)"
       elif ($w.task_write_bytes // 0) <= 0 then "task_write_bytes \($w.task_write_bytes)"
       elif $w.causes.io.cause == "io_limit" then "an io limit claimed without one: \($w.io_devices)"
       elif $w.interval_s == null then empty
       elif ($w.interval_s - $r.iv | if . < 0 then -. else . end) > 0.001 then empty
       elif ($w.task_write_bytes / $w.interval_s - $r.write_bps
             | if . < 0 then -. else . end) > $r.write_bps * 0.0005
       then "task_write_bytes \($w.task_write_bytes) in \($w.interval_s) s, the row at \($r.write_bps) B/s"
       elif ([$w.disks[] | select(.write_bytes > 0)] | length) == 0 then "no disk wrote: \($w.disks)"
       elif ($w.causes.io.cause == "disk_busy") and
            ([$w.disks[] | select(.util_pct >= 80) | .name // "?"] as $busy
             | $w.causes.io.text as $t | any($busy[]; . as $n | $t | contains($n)) | not)
       then "text \($w.causes.io.text) names no busy disk of \($w.disks)"
       else empty end)
    end'

# (LeakSanitizer cannot run under ptrace: the run above checks leaks)
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	strace -f -e trace=openat -o "$TMP/io.trace" \
	timeout 120 "$STALLTOP" -b --json -p "$w" -d 1 -n 4 \
	>"$TMP/traced.json" 2>"$TMP/traced.err" ||
	fail "stalltop under strace exited $?: $(cat "$TMP/traced.err")"
whys=$(jq -s --argjson w "$w" '[.[] | .tasks[] | select(.pid == $w)
	| select(.why.task_write_bytes != null)] | length' "$TMP/traced.json")
opens=$(grep -c '"io", ' "$TMP/io.trace")
note "4 samples under strace: $whys with the writer's IO in its why, $opens opens of io"
[ "$whys" -ge 2 ] || fail "the writer's why carried its IO in $whys samples of 4"
[ "$opens" -le 5 ] ||
	fail "/proc/$w/io opened $opens times in 4 samples and the baseline: read apart for the why"
