#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A committed recording on the screen, deterministically: the header says
# REPLAY, the sample's own time and where it is; the rows are the recorded
# ones in the order of the sort key; t and T step through the samples and
# j jumps to a time; Space pauses; Enter shows the recorded threads, or
# says that there are none. No root needed: nothing is measured.
. "$top_srcdir/tests/tty/tty-lib.sh"
need_cmd jq date

FIX=$REC_DEMO
[ "$(rec_jq "$FIX" 5 .time)" != null ] || hard_error "$FIX: fewer than 5 samples"
TTY_ENV="TZ=UTC"

# The pids of sample K sorted by a jq expression (descending, then pid).
expected() {
	rec_jq "$FIX" "$1" ".tasks | sort_by(-($2), .pid) | .[].pid" |
		tr '\n' ' '
}

at_sample() {
	tty_wait "^ stalltop $(rec_clock "$FIX" "$1") .*REPLAY $1/5 " 10 ||
		tty_fail "not at sample $1 of 5 ($(rec_clock "$FIX" "$1"))"
}

rows_are() {
	[ "$(tty_pids)" = "$1" ]
}

# the interval stays long: only t, T and j move
tty_start -d 600 --replay "$FIX"
at_sample 1
tty_wait "^ stalltop [0-9:]+  TRIGGER $(rec_jq "$FIX" 1 .trigger)  REPLAY" 5 ||
	tty_fail "the triggered sample is not flagged"

# sorted by TOTAL, as recorded
want=$(expected 1 .total_pct)
tty_until 5 rows_are "$want" ||
	tty_fail "sample 1 by TOTAL: wanted $want, got $(tty_pids)"
# the figures are the recorded ones
first=${want%% *}
total=$(rec_jq "$FIX" 1 ".tasks[] | select(.pid == $first) | .total_pct")
# (TOTAL's place from the header: IRQ is there only where it was filled)
shown=$(tty_screen | awk '
	!c && /^ +PID USER/ { for (i = 1; i <= NF; i++) if ($i == "TOTAL") c = i; next }
	c && /^ *[0-9]+ / { print $c; exit }')
shows_figure "$shown" "$total" ||
	tty_fail "TOTAL of $first is '$shown', not the recorded $total"

# by the cpu column
tty_keys C
tty_wait 'sort CPU[^%.]' 5 || tty_fail "C did not sort by CPU"
want=$(expected 1 .delay.cpu.pct)
tty_until 5 rows_are "$want" ||
	tty_fail "sample 1 by CPU: wanted $want, got $(tty_pids)"

# t: the next sample, its rows in their order; the trigger flag goes
tty_keys t
at_sample 2
want2=$(expected 2 .delay.cpu.pct)
[ "$want2" != "$want" ] || hard_error "samples 1 and 2 of $FIX sort alike"
tty_until 5 rows_are "$want2" ||
	tty_fail "sample 2 by CPU: wanted $want2, got $(tty_pids)"
tty_screen | grep -q TRIGGER && tty_fail "sample 2 is flagged as triggered"
# T: back again
tty_keys T
at_sample 1
tty_until 5 rows_are "$want" || tty_fail "T did not bring back sample 1's rows"
# T at the first sample stays there
tty_keys T
at_sample 1

# j: to seconds since the epoch, then to a clock time
tty_keys j
tty_wait 'Jump to' 5 || tty_fail "j did not ask for a time"
tty_keys C-u
tty_keys -l "$(rec_jq "$FIX" 4 .time)"
tty_keys Enter
at_sample 4
tty_until 5 rows_are "$(expected 4 .delay.cpu.pct)" ||
	tty_fail "j did not show sample 4's rows"
clock=$(rec_clock "$FIX" 3)
# the clock names its whole second, as the header shows it: the last
# sample at or before its end (sample 3 itself, or a later one of the
# same second)
whole=$(date -u -d "@$(rec_jq "$FIX" 3 .time)" +%s)
k=$(jq -s --argjson t "$whole" \
	'[.[] | select(has("time")) | select(.time < $t + 1)] | length' "$FIX")
[ "$k" -ge 3 ] || hard_error "sample 3 of $FIX is not before the end of its second"
tty_keys j C-u
tty_keys -l "$clock"
tty_keys Enter
at_sample "$k"
# nonsense is refused and said so
tty_keys j C-u
tty_keys -l "25:61"
tty_keys Enter
tty_wait "invalid time '25:61'" 5 || tty_fail "a bad time was not refused"
at_sample "$k"

# Space pauses playback (it does not freeze)
tty_keys Space
tty_wait 'REPLAY [0-9]/5  [0-9-]+  \[paused\]' 5 || tty_fail "Space did not pause"
tty_screen | grep -q FROZEN && tty_fail "Space froze instead of pausing"
tty_keys Space
not_paused() { ! tty_screen | grep -q '\[paused\]'; }
tty_until 5 not_paused || tty_fail "Space did not resume"

# Enter on a process: its recorded threads
pool=$(rec_jq "$FIX" 1 '.tasks[] | select(.comm == "pool") | .pid')
tids=$(rec_jq "$FIX" 1 ".thread_tasks[] | select(.tgid == $pool) | .pid" |
	sort -n | tr '\n' ' ')
[ -n "$tids" ] || hard_error "$FIX holds no threads of pool"
tty_keys / ; tty_keys -l pool ; tty_keys Enter
tty_keys Enter
tty_wait "threads of $pool \\(pool\\)" 5 || tty_fail "Enter did not drill in"
threads_shown() {
	[ "$(tty_rows | awk '{ print $1 }' | sort -n | tr '\n' ' ')" = "$tids" ]
}
tty_until 5 threads_shown ||
	tty_fail "threads: wanted $tids, got $(tty_pids)"
tty_keys Escape
not_drilled() { ! tty_screen | grep -q 'threads of'; }
tty_until 5 not_drilled || tty_fail "Esc did not go back"

# a process without recorded threads: said so
one=$(rec_jq "$FIX" 1 '.tasks[] | select(.comm == "cruncher") | .pid' | head -n 1)
tty_keys p ; tty_keys -l "$one" ; tty_keys Enter
tty_keys Enter
tty_wait "no thread of process $one is recorded" 5 ||
	tty_fail "no word about missing threads of $one"
tty_keys Escape
tty_quit_and_check

# a recording without any thread rows: Enter says so and stays
jq -c 'del(.thread_tasks)' "$FIX" >"$TMP/nothreads.ndjson" ||
	hard_error "cannot write $TMP/nothreads.ndjson"
tty_restart
tty_start -d 600 --replay "$TMP/nothreads.ndjson"
at_sample 1
tty_keys Enter
tty_wait "this recording holds no thread rows" 5 ||
	tty_fail "Enter without recorded threads said nothing"
tty_screen | grep -q 'threads of' && tty_fail "Enter drilled in anyway"
tty_quit_and_check
