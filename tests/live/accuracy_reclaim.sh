#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Accuracy of the reclaim and thrashing figures against the kernel's own
# counters. Two threads of a process at nice -20 in a memory cgroup
# limited to 64 MiB (no swap) read 256 KiB blocks at random offsets of a
# 72 MiB file on a block device, as many bytes per round as the file
# holds, round and round (wl_mem -r -f -T 2): the page cache does not
# fit, so the cgroup's own reclaim makes room (reclaim delay) and pages
# read often, dropped and read again soon, come back as refaults of the
# working set: waiting for them is thrashing delay (inside the io delay
# of the same read). The process's figures add up its two threads.
# stalltop -b --json -d 0.5 samples it by pid; after each sample
# tests/lib/taskstats_ref.py reads its taskstats itself (see
# tests/lib/accuracy.sh for how the windows line up and for the
# tolerance, 1 point or 3 % of the figure). One read waits well under a
# millisecond here, so only the lag between the two readings of each end
# (milliseconds at most) and one wait per end separate them.
# The reference must see >= 10 % of reclaim and >= 20 % of thrashing
# delay, or the comparison proves little (measured 22..30 and 60..68 %
# here, io 81..84 %; one thread reading 64 KiB blocks made 3..12 % of
# reclaim): stalltop samples until it does (8 samples at least, 24 at
# most). A reclaim figure off by half is then 5 points off or more.
# The memory is made ready first: the page cache dropped and memory
# compacted, so that what earlier tests left behind does not decide how
# the cgroup's reclaim goes.
. "$top_srcdir/tests/lib/functions.sh"
. "$top_srcdir/tests/lib/accuracy.sh"
acc_init
set_io_dir
settle_memory
memcg_make 64 0
note "memory cgroup $MEMCG: 64 MiB, no swap; file in $IO_DIR ($(findmnt -n -o SOURCE -T "$IO_DIR"))"

bg_start_in mem "$MEMCG" "$WL/wl_mem" -N -20 -T 2 -r -b 256 -f "$IO_DIR/data" -m 72
mem=$BG_PID
wait_for has_line "$TMP/mem.out" ready

ACC_UNTIL="reclaim:10 thrashing:20" acc_check st process "$mem" -d 0.5 -n 24
acc_require st reclaim 10
acc_require st thrashing 20
exit 0
