#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The screen's own faults of issue 20:
#  - TERM=dumb (no cursor addressing) is refused before anything is
#    drawn: status 1, one line saying why and suggesting -b, the terminal
#    as it was;
#  - -n N ends the screen after the Nth sample of the refresh, live and in
#    a replay; keys that show a sample (t) do not count;
#  - a settings file's text in its notes is escaped: a key that holds an
#    OSC sequence does not set the terminal's title.
. "$top_srcdir/tests/tty/tty-lib.sh"
export LC_ALL=C
TTY_ENV="TZ=UTC"

# --- TERM=dumb ---
TTY_ENV="TZ=UTC TERM=dumb"
tty_launch --replay "$REC_DEMO"
tty_wait STALLTOP-EXITED 5 || tty_fail "TERM=dumb: stalltop did not end"
echo "stalltop: the terminal 'dumb' cannot move the cursor, which the screen needs; use -b for batch output" >"$TMP/dumb.want"
cmp -s "$TMP/dumb.want" "$TMP/stderr" ||
	tty_fail "TERM=dumb: it said \"$(cat "$TMP/stderr")\""
# nothing on the screen but the wrapper's word
[ "$(tty_screen | grep -cv '^$')" -eq 1 ] ||
	tty_fail "TERM=dumb: something was drawn"
tty_check_restored 1
note "TERM=dumb: refused, status 1"
TTY_ENV="TZ=UTC"

# --- -n in a replay: samples of the refresh (1 s) count, t does not ---
tty_restart
tty_launch -n 3 -d 1 --replay "$REC_DEMO"
tty_wait "REPLAY 2/5 " 10 || tty_fail "-n 3: the refresh did not show sample 2"
tty_wait STALLTOP-EXITED 10 || tty_fail "-n 3: the screen did not end after 3 samples"
tty_check_restored 0
tty_restart
tty_start -n 2 -d 600 --replay "$REC_DEMO"
tty_keys t
tty_wait "REPLAY 2/5 " 5 || tty_fail "-n 2: t did not step"
tty_keys t
tty_wait "REPLAY 3/5 " 5 || tty_fail "-n 2: a key's sample was counted (ended at 2)"
tty_quit_and_check
note "-n: a replay ends after N refreshes; keys do not count"

# --- -n live ---
tty_restart
tty_launch -n 2 -d 0.3
tty_wait STALLTOP-EXITED 10 || tty_fail "-n 2 live: the screen did not end"
tty_check_restored 0
note "-n: live ends after N samples"

# --- the settings file's text, escaped ---
tty_restart
mkdir -p "$TMP/config/stalltop"
printf 'x\033]0;INJECT\007=1\nsort = \033[2Jcpu\n' >"$TMP/config/stalltop/stalltoprc"
tty_start --replay "$REC_DEMO"
grep -qF "unknown setting 'x\\e]0;INJECT\\x07', skipped" "$TMP/stderr" ||
	tty_fail "the key is not shown escaped: $(cat -v "$TMP/stderr")"
grep -qF "invalid value '\\e[2Jcpu' for sort, skipped" "$TMP/stderr" ||
	tty_fail "the value is not shown escaped: $(cat -v "$TMP/stderr")"
grep -q "$(printf '\033')" "$TMP/stderr" && tty_fail "an escape reached the terminal raw"
title=$(T display -p '#{pane_title}')
[ "$title" != INJECT ] || tty_fail "the settings file set the terminal's title"
tty_quit_and_check
note "settings file: escaped ($(tr '\n' ' ' <"$TMP/stderr"))"
