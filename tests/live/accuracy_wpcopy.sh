#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Accuracy of the wpcopy figures against the kernel's own counters: a
# process that forks a sleeping child and then writes every page of its
# 64 MiB private mapping (huge pages off) takes one copy-on-write fault
# per page, round after round (wl_cow -l): most of its time goes to
# copying pages in those faults (wpcopy delay). stalltop -b --json -d 0.5
# samples it by pid; after each sample tests/lib/taskstats_ref.py reads
# its taskstats itself (see tests/lib/accuracy.sh for how the windows
# line up). Over samples 2..8 every category's rate must agree with the
# reference's Δdelay/Δwall within 5 percentage points (10 % of the
# figure above 50 %). A copy-on-write fault lasts microseconds, so only
# the lag between the two readings of each end (milliseconds at most)
# separates them: under 0.5 points over 3.5 s.
# The reference must see >= 20 % of wpcopy delay (measured 52..62 %
# here), or the comparison proves little.
. "$top_srcdir/tests/lib/functions.sh"
. "$top_srcdir/tests/lib/accuracy.sh"
acc_init

bg_start cow "$WL/wl_cow" -l -m 64
cow=$BG_PID
wait_for has_line "$TMP/cow.out" ready

acc_check st process "$cow" -d 0.5 -n 8
acc_require st wpcopy 20
exit 0
