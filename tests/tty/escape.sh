#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A process whose name holds an escape sequence is shown escaped, and the
# sequence does nothing to the terminal.
. "$top_srcdir/tests/tty/tty-lib.sh"

bg_start named "$HELPER" name "$(printf 'st\033[2Jx')"
pid=$BG_PID
tty_start
tty_keys p
tty_keys -l "$pid"
tty_keys Enter
tty_wait "^ *$pid .* st\\\\e\\[2Jx *\$" 10 || tty_fail "the name is not shown escaped"
tty_wait '^ stalltop ' 1 || tty_fail "the screen was cleared"
tty_quit_and_check
