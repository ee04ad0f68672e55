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
# inside reclaim (nice -20: rare). At least 3 samples must show both,
# and a plain sum of the categories must exceed 105 % in one of them, or
# the test proves nothing.
# And the figures must be the kernel's: after each sample
# tests/lib/taskstats_ref.py reads the thread's taskstats itself, and over
# the window every category and cpu_pct must agree within 1 point or 3 %
# (tests/lib/accuracy.sh). total_pct is judged the same way against the
# TOTAL of the man page (src/model/delta.h) worked out here, per interval,
# from the reference's own counters: C + I + io, plus the memory work
# (swap + the larger of wpcopy and reclaim + compact) times the share of
# the thread's awake time it ran (run / (run + C + I), run from
# cpu_run_virtual_total), plus thrashing beyond swap and io, clamped
# between max(C + I + io, memory work, thrashing) and the sum of all of
# them capped at 100; weighted by each interval's length. Measured: within
# 0.013 points of stalltop's (3 runs, quiet machine).
# A plain cpu + irq + the largest of the rest, which leaves the memory
# work outside io out, is 0.8..0.95 points lower here; an interval 8 %
# short makes the thread's ~94 % 102 %, 3 times the tolerance. The
# samples go on until the reference saw >= 50 % of io and >= 20 % of
# thrashing delay over 5 intervals (16 samples at most).
# Skips where the kernel cannot do it: no swap (and no zram), no memory
# cgroup, no IO throttling.
. "$top_srcdir/tests/lib/functions.sh"
. "$top_srcdir/tests/lib/accuracy.sh"
acc_init
set_io_dir
settle_memory
swap_on 256
memcg_make 64 256
[ -e "$MEMCG/memory.swappiness" ] && echo 100 >"$MEMCG/memory.swappiness"

# the whole disk under IO_DIR, as MAJ:MIN: throttling is per disk
io_disk "$IO_DIR" || skip "$IO_DIR is not on a block device we can throttle"
disk=$DISK

# an IO cgroup: v1 blkio, or the memory cgroup itself under v2
if v1_blkio_group blkio.throttle.read_iops_device; then
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

ACC_UNTIL="io:50 thrashing:20" ACC_MIN_SAMPLES=6 acc_run tn threads "$mem" -d 1 -n 16
acc_compare tn
# total_pct against the model's TOTAL worked out from the reference's
# counters, per interval, weighted by its length
jq -n -r --slurpfile st "$TMP/tn.out" --slurpfile ref "$TMP/tn.ref.out" --argjson pid "$mem" '
  def r3: . * 1000 | round / 1000;
  def tol($r): [1, 0.03 * ($r | fabs)] | max;
  def max2($a; $b): if $a > $b then $a else $b end;
  def min2($a; $b): if $a < $b then $a else $b end;
  # TOTAL of per-category percentages $d and run time $run (% of the
  # interval) of a thread that lived through it (src/model/delta.h)
  def total($d; $run):
    ($d.cpu // 0) as $C | ($d.irq // 0) as $I | ($d.io // 0) as $io
    | ($d.swap // 0) as $sw | ($d.reclaim // 0) as $rc | ($d.compact // 0) as $cp
    | ($d.wpcopy // 0) as $wp | ($d.thrashing // 0) as $th
    | ($C + $I + $io) as $held
    | ($sw + max2($wp; $rc + $cp)) as $work
    | min2($held + $sw + $wp + $rc + $cp + $th; 100) as $hi
    | min2(max2($held; max2($work; $th)); $hi) as $lo
    | ($run + $C + $I) as $awake
    | (if $awake > 0 then $run / $awake else 0 end) as $share
    | ($held + $work * $share + max2(0; $th - $sw - $io)) as $est
    | min2(max2($est; $lo); $hi);
  ($st | length) as $n
  | ([$ref[] | select(.enough) | .from] | first // 1) as $s0
  | ($ref | map({key: (.line | tostring), value: .}) | from_entries) as $R
  | "\($pid)" as $k
  | [range($s0; $n)
     | $R["\(.)"].tasks[$k] as $a | $R["\(. + 1)"].tasks[$k] as $b
     | select($a != null and $b != null)
     | ($R["\(. + 1)"].mono - $R["\(.)"].mono) as $dt
     | [$b.delay | keys[] | {key: ., value: (100 * ($b.delay[.] - $a.delay[.]) / 1e9 / $dt)}]
     | from_entries as $d
     | {dt: $dt, total: total($d; 100 * ($b.run_virtual - $a.run_virtual) / 1e9 / $dt)}] as $want
  | [$st[$s0:][] | [.tasks[] | select(.pid == $pid)][0]] as $rows
  | if ($want | length) != $n - $s0 then "FAIL total: the reference read the thread at only \($want | length + 1) of \($n - $s0 + 1) readings"
    elif any($rows[]; . == null or .total_pct == null) then "FAIL total: thread \($pid) has no total_pct in some sample: \($rows | map(.total_pct))"
    else
      # intervals $i..$j of the window (0-based), as acc_compare does:
      # also without the first and last, where one wait that ended
      # between the two readings can land
      def fig($i; $j):
        {got: (100 * ([range($i; $j) | $rows[.].total_pct * $st[. + $s0].interval / 100] | add)
               / ([range($i; $j) | $st[. + $s0].interval] | add)),
         want: ([range($i; $j) | $want[.] | .total * .dt] | add / ([range($i; $j) | $want[.].dt] | add))}
        | . + {off: (((.got - .want) | fabs) > tol(.want))};
      fig(0; $rows | length) as $w
      | fig(1; ($rows | length) - 1) as $in
      | (if $w.off and $in.off then "FAIL" else "ok" end)
        + " \($pid) total_pct stalltop \($w.got | r3) reference \($w.want | r3) diff \($w.got - $w.want | r3) tolerance \(tol($w.want) | r3)"
        + (if $w.off then "; without the first and last interval: stalltop \($in.got | r3) reference \($in.want | r3) diff \($in.got - $in.want | r3)" else "" end)
    end' >>"$TMP/tn.cmp" 2>"$TMP/total.err" || fail "the comparison of total_pct (jq) failed: $(cat "$TMP/total.err")"
grep -q "total_pct stalltop" "$TMP/tn.cmp" || fail "total_pct was not compared: $(tail -3 "$TMP/tn.cmp")"
acc_report tn
acc_require tn io 50
acc_require tn thrashing 20
s0=$(jq -s '[.[] | select(.enough) | .from] | first // 1' "$TMP/tn.ref.out") ||
	fail "cannot read the window from $TMP/tn.ref.out"
jq -s -c ".[$s0:][]" "$TMP/tn.out" >"$TMP/win.json" || fail "cannot cut the window out of $TMP/tn.out"
note "thread rows: $(jq -c '[.tasks[] | {pid, cpu: .delay.cpu.pct, io: .delay.io.pct,
	swap: .delay.swap.pct, thrashing: .delay.thrashing.pct,
	reclaim: .delay.reclaim.pct, total_pct}]' "$TMP/win.json" | tr '\n' ' ')"
expect "total_pct of threads waiting for swap and io" "$TMP/win.json" -s --argjson pid "$mem" '
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
