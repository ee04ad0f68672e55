#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A process doing back-to-back synchronous O_DIRECT writes (fdatasync'ed
# writes where O_DIRECT is refused) to a file on a block device sleeps in
# io_schedule for most of its life: stalltop must show a real io delay for
# it and rank it first of the whole machine with -s io, every row ordered
# by io delay.
#
# Magnitude: the writer does nothing but issue one 4 KiB request and wait
# for it; measured here its io delay is 50..65 % of each interval. We ask
# for at least 10 % (a device round trip through virtio costs more than a
# ninth of the syscall's own CPU time) and, for one thread, that running,
# waiting for a CPU and waiting for IO add up to at most 110 % of the
# interval (cpu_pct moves in 0.8 % ticks). count must be > 0, and
# avg_ms = pct x interval / count within rounding.
. "$top_srcdir/tests/lib/functions.sh"
live_init
set_io_dir
note "writing to $IO_DIR ($(stat -f -c %T "$IO_DIR") on $(findmnt -n -o SOURCE -T "$IO_DIR"))"

bg_start io "$WL/wl_io" "$IO_DIR/data"
io=$BG_PID
wait_for has_line "$TMP/io.out" ready

run_stalltop_json -s io -d 0.5 -n 3
expect "-s io" "$JSON" --argjson io "$io" '
  [.tasks[] | .delay.io.pct // -1] as $v
  | (if $v != ($v | sort | reverse) then "not ordered by io delay: \($v[:8])" else empty end),
    (if .tasks[0].pid != $io
     then "the writer is not first: \(.tasks[:3] | map({pid, comm, io: .delay.io.pct}))"
     else empty end),
    (.interval as $dt | .tasks[] | select(.pid == $io)
     | .delay.io as $d
     | (if $d.pct < 10 then "io delay only \($d.pct) %" else empty end),
       (if $d.pct + .delay.cpu.pct + .cpu_pct > 110
        then "io \($d.pct) % + cpu delay \(.delay.cpu.pct) % + cpu \(.cpu_pct) % > 110 %"
        else empty end),
       (if $d.count <= 0 then "io count \($d.count)"
        elif ($d.pct / 100 * $dt * 1000 / $d.count - $d.avg_ms | fabs)
             > 0.002 + 0.01 * $d.avg_ms
        then "avg_ms \($d.avg_ms) but \($d.pct) % of \($dt) s over \($d.count) waits"
        else empty end))'
note "writer io: $(jqs "$JSON" "[.[].tasks[] | select(.pid == $io) | .delay.io.pct] | tostring")"
exit 0
