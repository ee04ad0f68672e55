#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Accuracy of the reclaim and thrashing figures against the kernel's own
# counters. A process in a memory cgroup limited to 64 MiB (no swap)
# reads 64 KiB blocks at random offsets of a 72 MiB file on a block
# device, as many bytes per round as the file holds, round and round
# (wl_mem -r -f): the page cache does not fit, so the cgroup's own
# reclaim makes room (reclaim delay) and pages read often, dropped and
# read again soon, come back as refaults of the working set: waiting for
# them is thrashing delay (inside the io delay of the same read).
# stalltop -b --json -d 0.5 samples it by pid; after each sample
# tests/lib/taskstats_ref.py reads its taskstats itself (see
# tests/lib/accuracy.sh for how the windows line up). Over samples 2..8
# every category's rate must agree with the reference's Δdelay/Δwall
# within 5 percentage points (10 % of the figure above 50 %). One read
# waits well under a millisecond here, so only the lag between the two
# readings of each end (milliseconds at most) and one wait per end
# separate them: under 0.5 points over 3.5 s.
# The reference must see >= 2 % of reclaim and >= 5 % of thrashing delay
# (measured 8..11 and 21..30 % here; io 32..37 %), or the comparison
# proves little.
. "$top_srcdir/tests/lib/functions.sh"
. "$top_srcdir/tests/lib/accuracy.sh"
acc_init
set_io_dir
memcg_make 64 0
note "memory cgroup $MEMCG: 64 MiB, no swap; file in $IO_DIR ($(findmnt -n -o SOURCE -T "$IO_DIR"))"

bg_start_in mem "$MEMCG" "$WL/wl_mem" -r -f "$IO_DIR/data" -m 72
mem=$BG_PID
wait_for has_line "$TMP/mem.out" ready

acc_check st process "$mem" -d 0.5 -n 8
acc_require st reclaim 2
acc_require st thrashing 5
exit 0
