#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A recording of readings (a store file) on the screen. A live run with
# a known workload (spin: two busy threads sharing one CPU at nice -20,
# each waiting about half the time) is recorded at -d 1 -n 5, and the
# batch replay of it (--replay FILE -b --json, and with -d 2 and -a) says
# what each sample is. The screen must show the same:
#  - the title: the sample's own clock, REPLAY, [paused] after Space and
#    the recording's interval (1 s); spin's TOTAL the batch replay's;
#  - t and T: the next and the previous sample, their clock and figures;
#    j to a sample's time: that sample; Space pauses and resumes;
#  - d: its key hint says "interval" (not "speed": that is an NDJSON
#    recording's d); it asks for the interval the figures cover; 2 makes each sample
#    shown cover two recorded ones, as the man page says (-d), and the
#    title says "interval 2"; spin's TOTAL is then the one of the batch
#    replay at -d 2 of that sample; 0 brings back the recording's own;
#  - a at the first sample: "[since start]" in the title, and the next
#    samples' figures are those of the batch replay with -a (figures
#    since the recording's start), the interval in the title 2 s, then
#    3 s: the time since the start.
. "$top_srcdir/tests/tty/tty-lib.sh"
need_root
need_cmd jq date
enable_delayacct
TTY_ENV="TZ=UTC NO_COLOR=1"

cpu=$((NCPU - 1))
bg_start spin "$WL/wl_spin" -t 2 -c "$cpu" -N -20
spin=$BG_PID
wait_for has_line "$TMP/spin.out" ready

REC=$TMP/r.stk
timeout 60 "$STALLTOP" -b --json -d 1 -n 5 --record "$REC" \
	>"$TMP/live.json" 2>"$TMP/live.err" ||
	hard_error "the live run exited $?: $(cat "$TMP/live.err")"
# batch NAME ARGS...: the batch replay with ARGS into $TMP/NAME.json
batch() {
	local _n=$1
	shift
	timeout 60 "$STALLTOP" --replay "$REC" -b --json "$@" \
		>"$TMP/$_n.json" 2>"$TMP/$_n.err" ||
		hard_error "the batch replay $* exited $?: $(cat "$TMP/$_n.err")"
}
batch plain
batch d2 -d 2
batch acc -a
FIX=$TMP/plain.json
[ "$(lines "$FIX")" -eq 5 ] || hard_error "the batch replay has $(lines "$FIX") samples, not 5"
[ "$(lines "$TMP/d2.json")" -ge 2 ] ||
	hard_error "the batch replay at -d 2 has $(lines "$TMP/d2.json") samples"
for k in 1 2 3 4; do
	[ "$(rec_clock "$FIX" "$k")" != "$(rec_clock "$FIX" $((k + 1)))" ] ||
		hard_error "samples $k and $((k + 1)) share a clock"
done

# want_total FILE K: spin's TOTAL in sample K of FILE (as the JSON
# prints it: three decimals; shows_figure compares the screen's one)
want_total() {
	rec_jq "$1" "$2" ".tasks[] | select(.pid == $spin) | .total_pct"
}
# shown_total: spin's TOTAL on the screen (its column from the heading)
shown_total() {
	tty_screen | awk -v p="$spin" '
		!c && /^ +PID USER/ { for (i = 1; i <= NF; i++) if ($i == "TOTAL") c = i; next }
		c && $1 == p { print $c; exit }'
}
# at NAME FILE K [N]: the screen shows sample K of FILE: its clock in
# the title and spin's TOTAL as FILE has it; with N, the interval in the
# title is FILE's (the title prints 3 digits, FILE 3 decimals: within
# 0.006 s) and covers N recorded intervals: it is the sum of the plain
# replay's N intervals that end at the same sample (the intervals of the
# recorder waver, from 1.0 to 1.9 s seen on a loaded machine, but their
# sum is the time between two readings: exact but for the JSON's
# rounding, 0.0005 s a figure)
at() {
	local _want _v _shown
	tty_wait "^ stalltop $(rec_clock "$2" "$3")  REPLAY [0-9]+/[0-9]+ " 10 ||
		tty_fail "$1: not at sample $3 ($(rec_clock "$2" "$3"))"
	if [ -n "${4:-}" ]; then
		_v=$(rec_jq "$2" "$3" .interval)
		_sum=$(covered "$(rec_jq "$2" "$3" .time)" "$4")
		awk -v v="$_v" -v s="$_sum" -v n="$4" 'BEGIN {
			d = v - s; t = 0.0005 * (n + 1) + 1e-9
			exit !(s != "" && d <= t && d >= -t) }' ||
			tty_fail "$1: sample $3 of $2 covers $_v s, not the $4 recorded intervals before it (${_sum:-none} s)"
		_shown=$(tty_screen | sed -n '1s/.*interval \([0-9.]*\)s .*/\1/p')
		awk -v a="$_shown" -v b="$_v" \
			'BEGIN { d = a - b; exit !(a != "" && d <= 0.006 && d >= -0.006) }' ||
			tty_fail "$1: the title's interval is '$_shown' s, the batch replay's $_v"
	fi
	_want=$(want_total "$2" "$3")
	total_is() { shows_figure "$(shown_total)" "$_want"; }
	tty_until 5 total_is ||
		tty_fail "$1: spin's TOTAL is '$(shown_total)', the batch replay's $_want"
	note "$1: sample $3 at $(rec_clock "$2" "$3"), spin's TOTAL $_want, interval ${_shown:-not checked}"
}
# covered TIME N: the sum of the N intervals of the plain replay that end
# at its sample of TIME (empty: no such sample, or fewer before it)
covered() {
	jq -s -r --argjson t "$1" --argjson n "$2" '
		[.[] | select(has("time"))] as $s
		| ($s | map(.time) | index($t)) as $i
		| if $i == null or $i + 1 < $n then ""
		  else [$s[$i + 1 - $n:$i + 1][] | .interval] | add end' "$FIX" ||
		hard_error "jq cannot read $FIX"
}
# jump FILE K: j to sample K's time (seconds since the epoch) as the
# JSON prints it, to the millisecond (the recording holds microseconds:
# half of the samples printed so were taken after the time printed)
jump() {
	tty_keys j
	tty_wait 'Jump to' 5 || tty_fail "j did not ask for a time"
	tty_keys C-u
	tty_keys -l "$(rec_jq "$1" "$2" '.time')"
	tty_keys Enter
}

tty_start --replay "$REC"
hint() { tty_screen | grep -q ' d interval'; }
tty_until 5 hint || tty_fail "no 'd interval' key hint"
tty_screen | grep -q ' d speed' && tty_fail "the key hint says 'd speed'"
tty_keys Space
tty_wait 'REPLAY [0-9]+/[0-9]+  [0-9-]+  \[paused\]' 5 || tty_fail "Space did not pause"
jump "$FIX" 1
at title "$FIX" 1 1
tty_screen | grep -q '^ stalltop .*\[paused\]' || tty_fail "the title does not say paused"

# t, T
tty_keys t
at t "$FIX" 2 1
tty_keys t
at t2 "$FIX" 3
tty_keys T
at T "$FIX" 2
jump "$FIX" 4
at j "$FIX" 4

# Space resumes (playing on to the end) and pauses
tty_keys Space
not_paused() { ! tty_screen | grep -q '\[paused\]'; }
tty_until 5 not_paused || tty_fail "Space did not resume"
tty_wait "^ stalltop $(rec_clock "$FIX" 5) .*\[end\]" 10 ||
	tty_fail "the replay did not play to its last sample"
tty_keys Space
tty_wait '\[paused\]' 5 || tty_fail "Space did not pause again"

# d: the interval the figures cover, as its key hint (above) said
tty_keys d
tty_wait "^Interval the figures cover, seconds \\(0: the recording's\\): " 5 ||
	tty_fail "d did not ask for the interval the figures cover"
tty_keys C-u
tty_keys -l 2
tty_keys Enter
tty_wait 'figures over 2 s' 5 || tty_fail "d 2 was not taken"
jump "$TMP/d2.json" 1
at d2 "$TMP/d2.json" 1 2
tty_keys t
at d2-t "$TMP/d2.json" 2 2
tty_keys d C-u
tty_keys -l 0
tty_keys Enter
jump "$FIX" 1
at d0 "$FIX" 1 1

# a: figures since the start
tty_keys a
tty_wait '^ stalltop .*\[since start\]' 5 || tty_fail "a did not say since start"
tty_keys t
at a "$TMP/acc.json" 2 2
tty_keys t
at a2 "$TMP/acc.json" 3 3
tty_quit_and_check
