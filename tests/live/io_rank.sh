#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A process doing back-to-back synchronous O_DIRECT writes (fdatasync'ed
# writes where O_DIRECT is refused) to a file on a block device sleeps in
# io_schedule for most of its life: stalltop must show a real io delay for
# it and rank it first with -s io, above a distractor that leads by every
# other measure (two threads spinning on one CPU: cpu_pct near 200 %, cpu
# delay and total near 100 %); and the whole machine's rows must be ordered by io
# delay. (The ranking is among our own processes, -p: on a shared machine
# another process, say a fuzzer with many threads, may wait for IO more.)
#
# Magnitude: the writer does nothing but issue one 4 KiB request and wait
# for it; measured here (nice -20) its io delay is 50..58 % of each
# interval and 1.1..1.4 times its cpu_pct. How much of the interval that
# is depends on how long it waits for a CPU on a busy machine, the ratio
# does not: we ask for io delay >= 0.25 x cpu_pct (a device round trip
# through virtio costs more than a quarter of the syscall's own CPU
# time). For one thread, running, waiting for a CPU and waiting for IO
# add up to at most 100 % of the interval, and a reading sees its run
# time up to a tick (4 ms) late and a wait only once it ended (one
# request: 4 ms at most): we accept up to 104 % (measured 97.7..99.0).
# count must be > 0, and avg_ms = pct x interval / count within rounding.
. "$top_srcdir/tests/lib/functions.sh"
live_init
need_cmd taskset
set_io_dir
note "writing to $IO_DIR ($(stat -f -c %T "$IO_DIR") on $(findmnt -n -o SOURCE -T "$IO_DIR"))"

# the writer on CPU 0, the distractor on the last CPU, both at nice -20:
# what else runs on the machine hardly makes either wait for a CPU
bg_start io taskset -c 0 "$WL/wl_io" -N -20 "$IO_DIR/data"
io=$BG_PID
bg_start spin "$WL/wl_spin" -t 2 -c $((NCPU - 1)) -N -20
spin=$BG_PID
wait_for has_line "$TMP/io.out" ready
wait_for has_line "$TMP/spin.out" ready

# ordered: a message unless .tasks falls by io delay (nulls last)
ordered='
  [.tasks[] | .delay.io.pct] as $v
  | (([$v[] | select(. != null)] | sort | reverse) + [$v[] | select(. == null)]) as $want
  | if $v != $want then "not ordered by io delay: \($v[:8])" else empty end'

run_stalltop_json -p "$io,$spin" -s io -d 0.5 -n 3
expect "-s io" "$JSON" --argjson io "$io" --argjson spin "$spin" "$ordered"',
    (if [.tasks[].pid] != [$io, $spin]
     then "expected the writer, then the spinner: \(.tasks | map({pid, comm, io: .delay.io.pct, total_pct}))"
     else empty end),
    (.interval as $dt | .tasks[] | select(.pid == $io)
     | .delay.io as $d
     | (if $d.pct < 0.25 * .cpu_pct or $d.pct <= 0
        then "io delay only \($d.pct) % against cpu \(.cpu_pct) %" else empty end),
       (if $d.pct + .delay.cpu.pct + .cpu_pct > 104
        then "io \($d.pct) % + cpu delay \(.delay.cpu.pct) % + cpu \(.cpu_pct) % > 104 %"
        else empty end),
       (if $d.count <= 0 then "io count \($d.count)"
        elif ($d.pct / 100 * $dt * 1000 / $d.count - $d.avg_ms | fabs)
             > 0.002 + 0.01 * $d.avg_ms
        then "avg_ms \($d.avg_ms) but \($d.pct) % of \($dt) s over \($d.count) waits"
        else empty end)),
    ([.tasks[] | select(.pid == $io)][0] as $w | .tasks[] | select(.pid == $spin)
     | select(.total_pct <= $w.total_pct or .cpu_pct <= $w.cpu_pct
              or .delay.cpu.pct <= $w.delay.cpu.pct)
     | "the distractor does not lead by total, cpu_pct and cpu delay: \({total_pct, cpu_pct, cpu: .delay.cpu.pct}) vs \($w | {total_pct, cpu_pct, cpu: .delay.cpu.pct})")'
note "writer [io, cpu delay, cpu_pct]: $(jqs "$JSON" "[.[].tasks[] | select(.pid == $io) | [.delay.io.pct, .delay.cpu.pct, .cpu_pct]] | tostring")"

run_stalltop_json -s io -d 0.5 -n 1
expect "-s io, whole machine" "$JSON" --argjson io "$io" "$ordered"',
    (if (.tasks | length) < 10 then "only \(.tasks | length) rows" else empty end),
    (if any(.tasks[]; .pid == $io and .delay.io.pct > 0) | not
     then "the writer is missing or has no io delay" else empty end)'
exit 0
