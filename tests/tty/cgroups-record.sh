#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The cgroup view turned on while recording shows what the recording
# replays. stalltop --no-cgroups --record FILE reads no cgroups until g
# asks for them; then its next sample is the first to read them. Their
# pressure shares (CPU.P%) need a reading before: live, the first
# interval's are unknown ("-"), as in the replay, which has no earlier
# reading of them either (before, the live monitor read them between two
# samples and showed a share the replay could not); the next sample's
# are the replay's.
. "$top_srcdir/tests/tty/tty-lib.sh"
need_root
need_cmd jq date
TTY_ENV="TZ=UTC NO_COLOR=1"

REC=$TMP/r.stk
tty_start -d 5 --no-cgroups --record "$REC"
# g a whole second after the sample shown and before the next (-d 5),
# so that the sample g makes has a clock (whole seconds) of its own
shown=$(date +%s)
later() { [ "$(date +%s)" -ge $((shown + 2)) ]; }
wait_for -t 10 later
tty_keys g
root_shown() { [ -n "$(root_p)" ]; }
# root_p: CPU.P% of the root cgroup in the cgroup view
root_p() {
	tty_screen | awk '
		$0 ~ ENVIRON["TTY_CGHEAD"] { for (i = 1; i <= NF; i++) col[$i] = i; next }
		col["CPU.P%"] && $NF == "/" { print $col["CPU.P%"]; exit }'
}
# frame N: the clock and the root's CPU.P% of one capture of the screen
frame() {
	T capture-pane -p >"$TMP/snap.$1"
	TTY_SNAP=$TMP/snap.$1
	eval "clock$1=\$(tty_clock) p$1=\$(root_p)"
	TTY_SNAP=
}
tty_until 10 root_shown || tty_fail "g did not show the cgroups"
frame 1
tty_wait_next_sample
tty_until 10 root_shown || tty_fail "the cgroups went from the screen"
frame 2
tty_quit_and_check

timeout 60 "$STALLTOP" --replay "$REC" -b --json --cgroups >"$TMP/rep.json" \
	2>"$TMP/rep.err" || hard_error "the replay exited $?: $(cat "$TMP/rep.err")"
# replayed K: the root's CPU share in the replayed sample of frame K's
# clock ("null" when unknown, empty when no sample has that clock)
replayed() {
	eval "_c=\$clock$1"
	jq -r --arg c "$_c" 'select(has("time"))
		| select((.time | floor | strftime("%H:%M:%S")) == $c)
		| .cgroups[] | select(.path == "/") | .psi.cpu.some.pct' "$TMP/rep.json"
}
r1=$(replayed 1)
r2=$(replayed 2)
[ "$r1" = null ] ||
	hard_error "the replay's first sample with cgroups ($clock1) has a share: '$r1'"
[ "$p1" = - ] ||
	fail "live, the first interval of the cgroups ($clock1) shows CPU.P% '$p1', the replay none"
[ -n "$r2" ] && [ "$r2" != null ] ||
	hard_error "the replay has no share of the root at $clock2: '$r2'"
shows_figure "$p2" "$r2" ||
	fail "live, the root's CPU.P% at $clock2 is '$p2', the replay's $r2"
note "first interval with cgroups ($clock1): '-' live and in the replay; next ($clock2): $p2 live, $r2 replayed"
exit 0
