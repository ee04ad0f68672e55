#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A process doing synchronous direct writes waits for block IO: sorted by
# the io shortcut, it is at the top.
. "$top_srcdir/tests/tty/tty-lib.sh"
live_init
set_io_dir

bg_start io "$HELPER" io sthogio "$IO_DIR/io.dat"
pid=$BG_PID
tty_start
tty_keys I
tty_wait 'sort IO' 5 || tty_fail "I did not sort by IO"

top_is_io() {
	tty_first_row | grep -q "^ *$pid .* sthogio *\$"
}
tty_until 20 top_is_io || tty_fail "the IO workload is not at the top"
tty_quit_and_check
