#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Accuracy of the io figures against the kernel's own counters: a process
# doing back-to-back synchronous 4 KiB writes (O_DIRECT, or fdatasync'ed
# where O_DIRECT is refused) to a file on a block device sleeps in
# io_schedule most of the time (blkio delay). stalltop -b --json -d 0.5
# samples it by pid; after each sample tests/lib/taskstats_ref.py reads
# its taskstats itself (see tests/lib/accuracy.sh for how the windows
# line up). Over samples 2..8 every category's rate must agree with the
# reference's Δdelay/Δwall within 5 percentage points (10 % of the
# figure above 50 %). The two readings of each end are a fraction of a
# millisecond apart, a few at most; what can move across that gap is one
# IO wait per end (a wait counts when it ends): a few milliseconds
# against a 3.5 s window, under 0.5 points.
# The reference must see >= 20 % of io delay (measured 45..58 % here), or
# the comparison proves little.
. "$top_srcdir/tests/lib/functions.sh"
. "$top_srcdir/tests/lib/accuracy.sh"
acc_init
set_io_dir
note "writing to $IO_DIR ($(stat -f -c %T "$IO_DIR") on $(findmnt -n -o SOURCE -T "$IO_DIR"))"

bg_start io "$WL/wl_io" "$IO_DIR/data"
io=$BG_PID
wait_for has_line "$TMP/io.out" ready

acc_check st process "$io" -d 0.5 -n 8
acc_require st io 20
exit 0
