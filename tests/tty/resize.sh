#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Resizing to 60x15, below the minimum and back keeps a sane screen.
. "$top_srcdir/tests/tty/tty-lib.sh"

tty_start
T resize-window -x 60 -y 15
narrow_ok() {
	s=$(tty_screen)
	[ "$(echo "$s" | wc -l)" -le 15 ] &&
		echo "$s" | grep -Eq '^ +PID USER +S +CPU% .*TOTAL COMMAND' &&
		echo "$s" | grep -q '^ stalltop ' &&
		echo "$s" | grep -Eq '^PSI|PSI not available' &&
		! echo "$s" | awk 'length($0) > 60 { exit 1 }' | grep -q . &&
		[ "$(tty_rows | wc -l)" -ge 3 ]
}
tty_until 10 narrow_ok || tty_fail "no sane screen at 60x15"

T resize-window -x 40 -y 8
tty_wait 'terminal too small' 10 || tty_fail "no message below the minimum"

T resize-window -x 160 -y 50
wide_ok() {
	tty_screen | grep -Eq '^ +PID USER +S +CPU% +CPU +IO +SWAP +RECLAIM +THRASH +COMPACT +WPCOPY +IRQ +TOTAL COMMAND'
}
tty_until 10 wide_ok || tty_fail "not every column is back at 160x50"
tty_keys C-c
tty_wait STALLTOP-EXITED 5 || tty_fail "Ctrl-C did not end stalltop"
tty_check_restored 0
