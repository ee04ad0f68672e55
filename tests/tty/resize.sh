#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Resizing to 60x15, below the minimum and back keeps a sane screen.
#
# At 60 columns the table holds PID, USER, S, CPU%, TOTAL, COMMAND at its
# least (12 cells) and one category: the seven with the smallest figures
# give way and COMMAND's title says "+7", or "+8" when a row has a cause
# and the WHY column gives way too. The filter shows only the two CPU
# hogs (tty_sort_workloads: two busy loops sharing one CPU at nice -20),
# whose only delay is the run queue, about 50 % each whatever else the
# machine runs, so CPU is the category that stays; and each figure is
# under its own title. (With the IO waiter shown too, which category
# stays depends on the machine: a loaded CPU turns the IO waiter's time
# into cpu delay, measured 90.6 % cpu against 0 % io.)
. "$top_srcdir/tests/tty/tty-lib.sh"
live_init
tty_sort_workloads

tty_start
tty_filter sthogcpu
hogs_shown() { [ "$(tty_rows | grep -c ' sthogcpu *$')" -eq 2 ]; }
tty_until 20 hogs_shown || tty_fail "the two CPU hogs are not shown"
T resize-window -x 60 -y 15
narrow_ok() {
	s=$(tty_screen)
	echo "$s" | grep -Eq '^ +PID USER +S +CPU% +CPU +TOTAL COMM[A-Z]* \(\+[78] hidden\) *$' &&
		echo "$s" | grep -q '^ stalltop ' &&
		echo "$s" | grep -Eq '^PSI|PSI not available' &&
		[ "$(tty_rows | wc -l)" -eq 2 ] &&
		# PID USER S CPU% CPU TOTAL COMMAND: each hog's cpu delay under
		# CPU, at least 30 % (measured 40..60), and in its TOTAL
		tty_rows | awk '
			{ ok += ($7 == "sthogcpu" && $5 >= 30 && $6 >= $5) }
			END { exit ok != 2 }'
}
tty_until 10 narrow_ok || tty_fail "no sane screen at 60x15 (PID USER S CPU% CPU TOTAL COMM (+7 or +8 hidden), two hogs)"

T resize-window -x 40 -y 8
tty_wait 'terminal too small' 10 || tty_fail "no message below the minimum"

T resize-window -x 160 -y 50
# every column, and WHY where a row has a cause; IRQ where the kernel
# collects IRQ time (it has /proc/pressure/irq beside the others)
irq=' +IRQ'
[ -e /proc/pressure/irq ] || [ ! -e /proc/pressure/cpu ] || irq=
wide_ok() {
	tty_screen | grep -Eq "^ +PID USER +S +CPU% +CPU +IO +SWAP +RECLAIM +THRASH +COMPACT +WPCOPY$irq +TOTAL( +WHY)? +COMMAND *\$"
}
tty_until 10 wide_ok || tty_fail "not every column is back at 160x50"
tty_keys C-c
tty_wait STALLTOP-EXITED 5 || tty_fail "Ctrl-C did not end stalltop"
tty_check_restored 0
