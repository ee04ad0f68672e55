#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# stalltop starts in a terminal, shows the PSI header and every column,
# its help, saves its settings with W and reads them at the next start,
# and q ends it with the terminal restored.
. "$top_srcdir/tests/tty/tty-lib.sh"

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
# IRQ where the kernel collects IRQ time (it then has /proc/pressure/irq
# beside the others); without it the column is hidden by default
irq=
if [ -e /proc/pressure/irq ] || [ ! -e /proc/pressure/cpu ]; then
	irq=IRQ
else
	echo "$header" | grep -Eq ' IRQ ' &&
		tty_fail "IRQ shown without IRQ time accounting: $header"
fi
for col in PID USER S 'CPU%' CPU IO SWAP RECLAIM THRASH COMPACT WPCOPY $irq \
	   TOTAL COMMAND; do
	echo "$header" | grep -Eq "(^| )$col( |\$)" ||
		tty_fail "no column $col in: $header"
done
tty_wait '^ stalltop [0-9]{2}:[0-9]{2}:[0-9]{2} ' ||
	tty_fail "no clock in the title line"

# the help lists the keys and comes back
tty_keys h
tty_wait '^ Help: stalltop' 5 || tty_fail "h did not show the help"
tty_wait '^  I +sort by IO' 5 || tty_fail "the help lacks the sort keys"
tty_keys q
tty_wait '^ +PID USER' 5 || tty_fail "q did not leave the help"

# W saves the settings, and the next start reads them
tty_keys I W
tty_wait 'settings saved to' 5 || tty_fail "W did not save"
rc=$TMP/config/stalltop/stalltoprc
grep -qx 'sort=io' "$rc" || tty_fail "the saved file lacks sort=io"
[ "$(stat -c %a "$rc")" = 600 ] || tty_fail "the settings file is not 0600"
tty_quit_and_check

tty_restart
tty_start
tty_wait 'sort IO' 5 || tty_fail "the saved sort order was not read back"
tty_quit_and_check
