#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# total_pct must not count a nested wait twice. The kernel accounts some
# waits under two categories at once: a thread waiting for a page of its
# working set to come back from disk is in blkio delay and, the page being
# a refault of the working set, in thrashing delay for the same time
# (and a swap-in of such a page is swap and thrashing delay). A thread can
# only wait once at a time, so its total_pct (cpu + irq + the largest of
# the other six) must stay at or below 100 % of an interval.
#
# The workload: one thread, in a memory cgroup of 64 MiB with swap
# (/dev/zram0 when no swap is on; swappiness 100 where the cgroup has its
# own), touches random pages of 16 MiB of anonymous memory (swap-ins)
# and reads random 4 KiB blocks of a 56 MiB file (page cache refaults),
# 256 of each per round (wl_mem -r -o 256). Once the page cache is in a
# steady state, its reads are throttled to 2000 per second (blkio
# read_iops_device, or io.max riops under cgroup v2) so that each one
# waits for the disk: the thread then waits for IO about 90 % of the
# time, most of it for refaults (thrashing 40..90 %), and for swap-ins a
# little (0.01..0.1 %). A plain sum of the categories is 110..185 % here.
# stalltop -b --json -H -d 1 -p PID: in every sample in which the thread
# shows both swap and io delay, total_pct must be <= 100 + 5: a wait
# counts whole in the interval in which it ends, so an interval may hold
# up to one wait that began before it (a throttled 4 KiB read: about
# half a millisecond, a blk-throttle slice at most 100 ms = 10 % of an
# interval; measured well under 1 %), plus cpu delay the thread met
# inside reclaim (nice -20: rare). At least 3 of the 5 samples must
# show both, and a plain sum of the categories must exceed 105 % in one
# of them, or the test proves nothing.
# Skips where the kernel cannot do it: no swap (and no zram), no memory
# cgroup, no IO throttling.
. "$top_srcdir/tests/lib/functions.sh"
. "$top_srcdir/tests/lib/accuracy.sh"
live_init
set_io_dir
swap_on 256
memcg_make 64 256
[ -e "$MEMCG/memory.swappiness" ] && echo 100 >"$MEMCG/memory.swappiness"

# the whole disk under IO_DIR, as MAJ:MIN: throttling is per disk
dev=$(stat -c '%d' "$IO_DIR")
sys=/sys/dev/block/$((dev >> 8 & 0xfff)):$((dev & 0xff | (dev >> 12 & 0xfff00)))
[ -e "$sys" ] || skip "$IO_DIR is not on a block device we can throttle ($sys)"
[ -e "$sys/partition" ] && sys=$sys/..
disk=$(cat "$sys/dev")

# an IO cgroup: v1 blkio, or the memory cgroup itself under v2
v1_blkio=$(awk '{ for (i = 7; i <= NF; i++) if ($i == "-") {
		if ($(i + 1) == "cgroup" && $(i + 3) ~ /(^|,)blkio(,|$)/) print $5; break } }' \
	/proc/self/mountinfo | head -n 1)
if [ -n "$v1_blkio" ] && [ -e "$v1_blkio/blkio.throttle.read_iops_device" ]; then
	IOCG=$v1_blkio/stalltop-$TEST_NAME-$$
	cg_make "$IOCG"
	throttle() { echo "$disk $1" >"$IOCG/blkio.throttle.read_iops_device"; }
	CGS="$MEMCG $IOCG"
elif [ -e "$MEMCG/io.max" ]; then
	throttle() { echo "$disk riops=$1" >"$MEMCG/io.max"; }
	CGS=$MEMCG
else
	skip "no IO throttling (no blkio.throttle.read_iops_device, no io.max) to make reads wait"
fi

bg_start_in_all mem "$CGS" "$WL/wl_mem" -N -20 -r -b 4 -o 256 -a 16 -f "$IO_DIR/data" -m 56
mem=$BG_PID
# steady state: the file's cache has turned over a few times (unthrottled)
wait_for -t 40 has_line "$TMP/mem.out" '^round 256$'
throttle 2000 || hard_error "cannot throttle reads from $disk"
wait_for has_line "$TMP/mem.out" '^round 264$'
note "memory cgroup $MEMCG (64 MiB), reads from $disk throttled to 2000/s"

run_stalltop_json -H -p "$mem" -d 1 -n 5
note "thread rows: $(jq -c '[.tasks[] | {pid, cpu: .delay.cpu.pct, io: .delay.io.pct,
	swap: .delay.swap.pct, thrashing: .delay.thrashing.pct,
	reclaim: .delay.reclaim.pct, total_pct}]' "$JSON" | tr '\n' ' ')"
expect "total_pct of threads waiting for swap and io" "$JSON" -s --argjson pid "$mem" '
  [.[] | .tasks[] | select(.tgid == $pid)] as $rows
  | [$rows[] | select((.delay.swap.pct // 0) > 0 and (.delay.io.pct // 0) > 0)] as $both
  | ($both | map([.delay[] | .pct // 0] | add) | max // 0) as $plain
  | if ($rows | length) == 0 then "no thread rows of \($pid)"
    elif ($both | length) < 3
    then "only \($both | length) samples show both swap and io delay: \($rows | map({swap: .delay.swap.pct, io: .delay.io.pct}))"
    elif $plain <= 105
    then "the waits did not nest: the categories add up to \($plain) % at most"
    else empty end,
    ($both[] | select(.total_pct > 105)
     | "thread \(.pid): total_pct \(.total_pct) > 100 + 5 (cpu \(.delay.cpu.pct), io \(.delay.io.pct), swap \(.delay.swap.pct), thrashing \(.delay.thrashing.pct), reclaim \(.delay.reclaim.pct))")'
exit 0
