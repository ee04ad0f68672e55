#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# stalltop starts in a terminal, shows the PSI header and every column,
# and q ends it with the terminal restored.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/tty/tty-lib.sh"
tty_need_root

tty_start
if [ -r /proc/pressure/cpu ]; then
	tty_wait '^PSI +some% +avg10 +avg60 +avg300 +full%' ||
		tty_fail "no PSI header"
	for res in cpu memory io; do
		tty_wait "^$res +[0-9.-]+ " || tty_fail "no PSI line for $res"
	done
else
	tty_wait 'PSI not available' || tty_fail "no word on the missing PSI"
fi
header=$(tty_screen | grep -E '^ +PID ')
for col in PID USER S 'CPU%' CPU IO SWAP RECLAIM THRASH COMPACT WPCOPY IRQ \
	   TOTAL COMMAND; do
	echo "$header" | grep -Eq "(^| )$col( |\$)" ||
		tty_fail "no column $col in: $header"
done
tty_wait '^ stalltop [0-9]{2}:[0-9]{2}:[0-9]{2} ' ||
	tty_fail "no clock in the title line"
tty_quit_and_check
