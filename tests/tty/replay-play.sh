#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A replay behaves as atop -r: it starts playing (no key needed to reach
# the end); d asks for the speed, as its key hint says; j with the clock
# the header shows lands on a sample the header shows with that clock
# (the last one at or before the end of that second). No root needed.
. "$top_srcdir/tests/tty/tty-lib.sh"
need_cmd jq date

FIX=$REC_DEMO
[ "$(rec_jq "$FIX" 5 .time)" != null ] || hard_error "$FIX: fewer than 5 samples"
TTY_ENV="TZ=UTC NO_COLOR=1"

# at_sample K CLOCK: the header shows sample K of 5 at CLOCK.
at_sample() {
	tty_wait "^ stalltop $2 .*REPLAY $1/5 " 10 ||
		tty_fail "not at sample $1 of 5 ($2)"
}
# last_of_second K: the last sample at or before the end of the second
# that sample K's clock shows.
last_of_second() {
	_whole=$(date -u -d "@$(rec_jq "$FIX" "$1" .time)" +%s)
	jq -s --argjson t "$_whole" \
		'[.[] | select(has("time")) | select(.time < $t + 1)] | length' "$FIX"
}

# playing from the start: every sample in turn up to the end, unasked
tty_start -d 0.3 --replay "$FIX"
tty_screen | grep -q '\[paused\]' && tty_fail "the replay starts paused"
tty_wait '^ stalltop [0-9:]+ .*REPLAY 5/5 .*\[end\]' 10 ||
	tty_fail "the replay did not play to its end by itself"

# d: the speed, with the label the key hint has
tty_screen | grep -q 'd speed' || tty_fail "no 'd speed' key hint"
tty_keys d
tty_wait '^Speed, seconds from one sample to the next: 0\.3 *$' 5 ||
	tty_fail "d in a replay did not ask for the speed"
tty_keys -l 600
tty_keys Enter
tty_wait 'speed: the next sample every 600 s' 5 ||
	tty_fail "the speed 600 was not taken"

# j with the clock of sample 1 (typed over the clock shown)
clock1=$(rec_clock "$FIX" 1)
k1=$(last_of_second 1)
[ "$(rec_clock "$FIX" "$k1")" = "$clock1" ] ||
	hard_error "sample $k1 is not of $clock1"
tty_keys j
tty_wait "^Jump to .*: $(rec_clock "$FIX" 5) *\$" 5 ||
	tty_fail "j did not offer the clock of the sample shown"
tty_keys -l "$clock1"
tty_keys Enter
at_sample "$k1" "$clock1"

# and forward to the last sample, which is alone in its second
clock5=$(rec_clock "$FIX" 5)
[ "$(last_of_second 5)" = 5 ] || hard_error "sample 5 shares its second"
[ "$(last_of_second 4)" -lt 5 ] ||
	hard_error "samples 4 and 5 of $FIX share a second"
tty_keys j
tty_keys -l "$clock5"
tty_keys Enter
at_sample 5 "$clock5"
tty_quit_and_check
