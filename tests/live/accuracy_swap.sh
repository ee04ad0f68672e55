#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Accuracy of the swap (and reclaim) figures against the kernel's own
# counters. Swap is turned on for the test (/dev/zram0, when no swap is on;
# the cleanup turns it off and resets the device, also on failure). A
# process in a memory cgroup limited to 64 MiB (plus up to 256 MiB of
# swap) reads one word of every page of its 128 MiB anonymous working
# set, round and round (wl_mem -a): every round pushes half of it out to
# swap and brings it back, so it waits in swap-in (swap delay) and in the
# cgroup's reclaim, which compresses the pages out (reclaim delay).
# stalltop -b --json -d 0.5 samples it by pid; after each sample
# tests/lib/taskstats_ref.py reads its taskstats itself (see
# tests/lib/accuracy.sh for how the windows line up). Over samples 2..8
# every category's rate must agree with the reference's Δdelay/Δwall
# within 5 percentage points (10 % of the figure above 50 %). A swap-in
# from zram or a reclaim pass lasts micro- to milliseconds, so only the
# lag between the two readings of each end (milliseconds at most) and one
# wait per end separate them: under 0.5 points over 3.5 s.
# The reference must see >= 2 % of swap delay and >= 10 % of reclaim
# delay (measured 13.7..14.6 and 57.9..59.1 % here), or the comparison
# proves little.
. "$top_srcdir/tests/lib/functions.sh"
. "$top_srcdir/tests/lib/accuracy.sh"
acc_init
swap_on 256
memcg_make 64 256
note "memory cgroup $MEMCG: 64 MiB, 256 MiB of swap"

bg_start_in mem "$MEMCG" "$WL/wl_mem" -a 128
mem=$BG_PID
wait_for has_line "$TMP/mem.out" ready

acc_check st process "$mem" -d 0.5 -n 8
acc_require st swap 2
acc_require st reclaim 10
exit 0
