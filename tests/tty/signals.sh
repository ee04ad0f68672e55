#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# SIGTERM (and Ctrl-C) end stalltop cleanly with the terminal restored.
. "$top_srcdir/tests/tty/tty-lib.sh"

tty_start
pane=$(T display -p '#{pane_pid}')
pid=$(pgrep -P "$pane" -x stalltop) || tty_fail "cannot find stalltop"
kill -TERM "$pid"
tty_wait STALLTOP-EXITED 5 || tty_fail "SIGTERM did not end stalltop"
tty_check_restored 0

tty_restart
tty_start
tty_keys C-c
tty_wait STALLTOP-EXITED 5 || tty_fail "Ctrl-C did not end stalltop"
tty_check_restored 0
