#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A PSI trigger on the screen: busy processes sharing CPU 0 keep cpu
# pressure up, the trigger fires, the screen takes a sample at once and
# its header flags it (the refresh interval is far longer than the wait).
. "$top_srcdir/tests/tty/tty-lib.sh"
live_init
need_cmd taskset
[ -e /proc/pressure/cpu ] || skip "no PSI (/proc/pressure/cpu)"

for i in 1 2 3; do
	bg_start "hog$i" taskset -c 0 "$HELPER" busy sttrighog
done

# a 2 s window: what the kernel takes without CAP_SYS_RESOURCE too
tty_start -d 60 --trigger cpu:some:100/2000
tty_wait '^ stalltop [0-9:]+  TRIGGER cpu some 100ms/2s ' 20 ||
	tty_fail "no sample flagged by the trigger"
tty_wait 'PSI trigger cpu some 100ms/2s fired at [0-9:]+' 5 ||
	tty_fail "no word of the trigger on the bottom line"
tty_quit_and_check
