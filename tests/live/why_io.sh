#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Why a synchronous writer waits for IO: its row's "why" must carry its
# own bytes written in the interval (task_write_bytes > 0, from
# /proc/PID/io), and from the second sample on the busiest disks of the
# interval (from /proc/diskstats) must include a device that wrote; a
# "disk_busy" cause must name a disk busy 80 % or more, and "io_limit"
# is never claimed (no limit is set here).
. "$top_srcdir/tests/lib/functions.sh"
live_init
set_io_dir
bg_start io "$WL/wl_io" "$IO_DIR/why-io"
w=$BG_PID
wait_for has_line "$TMP/io.out" ready
run_stalltop_json -p "$w" -d 1 -n 4
expect "io" "$JSON" -s --argjson w "$w" '
  [.[1:][] | .tasks[] | select(.pid == $w)] as $rows
  | if ($rows | length) < 2 then "the writer is missing" else
    ($rows[] | .why as $w
     | if $w == null then "no why object for io \(.delay.io)"
       elif ($w.causes | has("io") | not) then "io not examined: \($w.causes)"
       elif ($w.task_write_bytes // 0) <= 0 then "task_write_bytes \($w.task_write_bytes)"
       elif $w.causes.io.cause == "io_limit" then "an io limit claimed without one: \($w.io_devices)"
       elif $w.interval_s == null then empty
       elif ([$w.disks[] | select(.write_bytes > 0)] | length) == 0 then "no disk wrote: \($w.disks)"
       elif ($w.causes.io.cause == "disk_busy") and
            ([$w.disks[] | select(.util_pct >= 80) | .name // "?"] as $busy
             | $w.causes.io.text as $t | any($busy[]; . as $n | $t | contains($n)) | not)
       then "text \($w.causes.io.text) names no busy disk of \($w.disks)"
       else empty end)
    end'
