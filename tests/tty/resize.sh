#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Resizing to 60x15, below the minimum and back keeps a sane screen.
#
# At 60 columns the table holds PID, USER, S, CPU%, TOTAL, COMMAND at its
# least (12 cells) and one category: the seven with the smallest figures
# give way and COMMAND's title says "+7", or "+8" when a row has a cause
# and the WHY column gives way too (the IO waiter's disk may be busy
# enough for one; the load decides). The load decides which one
# stays: two processes waiting 50 % for a CPU and one waiting about 65 %
# for block IO (tty_sort_workloads), so IO stays, not CPU, the first in
# the table's order; and each figure is under its own title.
. "$top_srcdir/tests/tty/tty-lib.sh"
live_init
tty_sort_workloads

tty_start
tty_filter sthog
# by TOTAL the IO waiter is first once its figures are in (as in cpu-sort.sh)
io_first() { tty_first_row | grep -q "^ *$IO_PID .* sthogio *\$"; }
tty_until 20 io_first || tty_fail "the IO waiter is not first"
T resize-window -x 60 -y 15
narrow_ok() {
	s=$(tty_screen)
	echo "$s" | grep -Eq '^ +PID USER +S +CPU% +IO +TOTAL COMMAND \+[78] *$' &&
		echo "$s" | grep -q '^ stalltop ' &&
		echo "$s" | grep -Eq '^PSI|PSI not available' &&
		[ "$(tty_rows | wc -l)" -eq 3 ] &&
		# PID USER S CPU% IO TOTAL COMMAND: the IO waiter's io under IO,
		# the hogs' cpu delay in their TOTAL and no io under IO
		tty_rows | awk -v io="$IO_PID" '
			$1 == io { ok += ($7 == "sthogio" && $5 >= 30 && $6 >= $5) }
			$1 != io { ok += ($7 == "sthogcpu" && $5 < 5 && $6 >= 30) }
			END { exit ok != 3 }'
}
tty_until 10 narrow_ok || tty_fail "no sane screen at 60x15 (PID USER S CPU% IO TOTAL COMMAND +7 or +8)"

T resize-window -x 40 -y 8
tty_wait 'terminal too small' 10 || tty_fail "no message below the minimum"

T resize-window -x 160 -y 50
# every column, and WHY where a row has a cause
wide_ok() {
	tty_screen | grep -Eq '^ +PID USER +S +CPU% +CPU +IO +SWAP +RECLAIM +THRASH +COMPACT +WPCOPY +IRQ +TOTAL( +WHY)? +COMMAND *$'
}
tty_until 10 wide_ok || tty_fail "not every column is back at 160x50"
tty_keys C-c
tty_wait STALLTOP-EXITED 5 || tty_fail "Ctrl-C did not end stalltop"
tty_check_restored 0
