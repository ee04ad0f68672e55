#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Accuracy of the swap (and reclaim) figures against the kernel's own
# counters. Swap is turned on for the test (/dev/zram0, when no swap is on;
# the cleanup turns it off and resets the device, also on failure). Two
# threads of a process at nice -20 in a memory cgroup limited to 64 MiB
# (plus up to 256 MiB of swap) read one word of every page of its 128 MiB
# anonymous working set, page after page, round and round, the second
# thread half a round behind the first (wl_mem -a -T 2): every round
# pushes half of it out to swap and brings it back, so each thread waits
# in swap-in (swap delay) and in the cgroup's reclaim, which compresses
# the pages out (reclaim delay). The process's figures add up its two
# threads. stalltop -b --json -d 0.5 samples it by pid; after each sample
# tests/lib/taskstats_ref.py reads its taskstats itself (see
# tests/lib/accuracy.sh for how the windows line up and for the
# tolerance, 1 point or 3 % of the figure). A swap-in from zram or a
# reclaim pass lasts micro- to milliseconds, so only the lag between the
# two readings of each end (milliseconds at most) and one wait per end
# separate them.
# The reference must see >= 10 % of swap delay and >= 30 % of reclaim
# delay, or the comparison proves little (measured 18..20 and 80..83 %
# here; one thread made 11..14 and 57..62 %): stalltop samples until it
# does (8 samples at least, 24 at most). A swap figure off by half is
# then 5 points off or more.
# The memory is made ready first (the page cache dropped, memory
# compacted): what earlier tests left behind must not decide how fast
# the cgroup reclaims.
. "$top_srcdir/tests/lib/functions.sh"
. "$top_srcdir/tests/lib/accuracy.sh"
acc_init
settle_memory
swap_on 256
memcg_make 64 256
note "memory cgroup $MEMCG: 64 MiB, 256 MiB of swap"

bg_start_in mem "$MEMCG" "$WL/wl_mem" -N -20 -T 2 -a 128
mem=$BG_PID
wait_for has_line "$TMP/mem.out" ready

ACC_UNTIL="swap:10 reclaim:30" acc_check st process "$mem" -d 0.5 -n 24
acc_require st swap 10
acc_require st reclaim 30
exit 0
