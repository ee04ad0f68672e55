#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Accuracy of the io figures against the kernel's own counters: a process
# at nice -20 doing back-to-back synchronous 256 KiB reads with O_DIRECT
# (or after dropping the range from the page cache where O_DIRECT is
# refused) from a file on a block device sleeps in io_schedule most of the
# time (blkio delay); at nice -20 the rest of the machine hardly makes it
# wait for a CPU between requests, so how much of its time is io delay
# depends on the device, not on the load (measured 80..83 % here, 4 KiB
# writes at nice 0 made 16..58 %, the least in a sanitizer build on a
# loaded machine). stalltop -b --json -d 0.5 samples it by pid; after each
# sample tests/lib/taskstats_ref.py reads its taskstats itself (see
# tests/lib/accuracy.sh for how the windows line up and for the
# tolerance, 1 point or 3 % of the figure). The two readings of each end
# are a fraction of a millisecond apart, a few at most; what can move
# across that gap is one IO wait per end (a wait counts when it ends): a
# millisecond or two against a 3.5 s window.
# The reference must see >= 50 % of io delay, or the comparison proves
# little: stalltop samples until it does (8 samples at least, 24 at
# most). An io figure off by 9 % is then 4.5 points off, 3 times the
# tolerance.
. "$top_srcdir/tests/lib/functions.sh"
. "$top_srcdir/tests/lib/accuracy.sh"
acc_init
set_io_dir
note "reading from $IO_DIR ($(stat -f -c %T "$IO_DIR") on $(findmnt -n -o SOURCE -T "$IO_DIR"))"

bg_start io "$WL/wl_io" -r -b 256 -N -20 "$IO_DIR/data"
io=$BG_PID
wait_for has_line "$TMP/io.out" ready

ACC_UNTIL="io:50" acc_check st process "$io" -d 0.5 -n 24
acc_require st io 50
exit 0
