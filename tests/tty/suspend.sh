#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Job control, as in top and htop: started from an interactive shell,
# Ctrl-Z stops stalltop with the terminal given back (the main screen,
# the shell's prompt, its job table saying Stopped), and fg brings the
# screen back whole, keys working. A stop from outside (SIGSTOP) and fg
# bring it back whole too: the lines the shell wrote over it are gone at
# once, not at the next refresh. The refresh is 30 s, so what the screen
# shows within the 5 s waited for is its redraw on continuing, not a
# sample's.
. "$top_srcdir/tests/tty/tty-lib.sh"

mkdir -p "$TMP/config"
# an interactive shell (job control) in the pane, stalltop typed at it
T new-session -d -x 160 -y 50 "env PS1='PROMPT\$ ' ENV= sh -i" ||
	hard_error "tmux cannot start a session"
tty_wait '^PROMPT\$' 5 || tty_fail "no shell prompt"
tty_keys -l "XDG_CONFIG_HOME='$TMP/config' LANG=C.UTF-8 LC_ALL=C.UTF-8 '$STALLTOP' -d 30 2>'$TMP/stderr'"
tty_keys Enter
tty_wait ' PID ' || tty_fail "stalltop did not draw its table"
tty_wait_sample
pid=$(tty_pid) || tty_fail "cannot find stalltop"

# state PID: its process state letter (T: stopped)
state() { ps -o stat= -p "$1" | cut -c1; }
stopped() { [ "$(state "$pid")" = T ]; }
# the screen is stalltop's alone: its header, nothing of the shell
redrawn() {
	tty_screen >"$TMP/screen"
	grep -Eq '^ stalltop [0-9]{2}:[0-9]{2}:[0-9]{2} ' "$TMP/screen" &&
		grep -q ' PID ' "$TMP/screen" &&
		! grep -Eq 'PROMPT|Stopped' "$TMP/screen"
}

tty_keys C-z
tty_until 5 stopped || tty_fail "Ctrl-Z did not stop stalltop (state $(state "$pid"))"
tty_wait 'Stopped' 5 || tty_fail "the shell did not say stalltop stopped"
tty_wait '^PROMPT\$ *$' 5 || tty_fail "no shell prompt after Ctrl-Z"
[ "$(T display -p '#{alternate_on}')" = 0 ] ||
	tty_fail "Ctrl-Z left the terminal on the alternate screen"
tty_keys -l "jobs"
tty_keys Enter
tty_wait 'Stopped.*stalltop' 5 || tty_fail "the job table does not say stalltop stopped"

tty_keys -l "fg"
tty_keys Enter
tty_until 5 redrawn || tty_fail "fg after Ctrl-Z did not bring the screen back whole"
[ "$(state "$pid")" != T ] || tty_fail "stalltop still stopped after fg"
[ "$(T display -p '#{alternate_on}')" = 1 ] ||
	tty_fail "not on the alternate screen after fg"
# keys reach it again: the help opens and closes
tty_keys h
tty_wait 'Esc h close' 5 || tty_fail "no help after fg: keys do not reach stalltop"
tty_keys Escape
tty_until 5 redrawn || tty_fail "the help did not close after fg"

# a stop from outside: the shell writes over the screen; fg redraws it
kill -s STOP "$pid"
tty_until 5 stopped || tty_fail "SIGSTOP did not stop stalltop"
tty_wait 'PROMPT\$ *$' 5 || tty_fail "no shell prompt after SIGSTOP"
# the terminal is in stalltop's modes (a shell such as dash keeps them):
# no echo, and Enter is no end of line there; Ctrl-J is
tty_keys -l "fg"
tty_keys C-j
tty_until 5 redrawn || tty_fail "fg after SIGSTOP did not redraw the screen at once"

tty_keys q
tty_wait '^PROMPT\$' 5 || tty_fail "q did not end stalltop"
[ "$(T display -p '#{alternate_on}')" = 0 ] || tty_fail "still on the alternate screen"
tty_keys -l 'echo "EXIT=$?"'
tty_keys Enter
tty_wait '^EXIT=0' 5 || tty_fail "stalltop did not end with status 0: $(cat "$TMP/stderr")"
