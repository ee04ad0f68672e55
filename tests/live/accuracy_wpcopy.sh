#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Accuracy of the wpcopy figures against the kernel's own counters: a
# process at nice -20 that forks a sleeping child and then writes every
# page of its 64 MiB private mapping (huge pages off) takes one
# copy-on-write fault per page, round after round (wl_cow -l): most of
# its time goes to copying pages in those faults (wpcopy delay); at
# nice -20 the rest of the machine hardly makes it wait for a CPU
# (measured 45..53 % of wpcopy delay; at nice 0 beside two busy loops
# only 15 %). stalltop -b --json -d 0.5 samples it by pid; after each
# sample tests/lib/taskstats_ref.py reads its taskstats itself (see
# tests/lib/accuracy.sh for how the windows line up and for the
# tolerance, 1 point or 3 % of the figure). A copy-on-write fault lasts
# microseconds, so only the lag between the two readings of each end
# (milliseconds at most) separates them.
# The reference must see >= 20 % of wpcopy delay, or the comparison
# proves little: stalltop samples until it does (8 samples at least, 24
# at most).
. "$top_srcdir/tests/lib/functions.sh"
. "$top_srcdir/tests/lib/accuracy.sh"
acc_init

bg_start cow "$WL/wl_cow" -l -m 64 -N -20
cow=$BG_PID
wait_for has_line "$TMP/cow.out" ready

ACC_UNTIL="wpcopy:20" acc_check st process "$cow" -d 0.5 -n 24
acc_require st wpcopy 20
exit 0
