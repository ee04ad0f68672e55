#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Sorting by state (-s state) sorts on the state of this sample, not on
# the one read for the rows shown the sample before: a task's state is
# read only for the rows shown, so a sort by it reads every row's first
# (FIELD_DETAIL), in batch output as on the screen.
#
# Two processes sleep (S): one in sleep(1), one in the open of a FIFO.
# Once both were shown asleep, the second is let go into a busy loop (R).
# In every sample the rows must come in the order of the states printed
# with them; the sample right after the change is the one a sort on the
# earlier state gets wrong: both S then, the tie goes to the lower pid, so
# the direction (-r or not) is chosen to put the running task away from
# where the tie puts it.
. "$top_srcdir/tests/lib/functions.sh"
live_init

mkfifo "$TMP/go" || hard_error "cannot make a FIFO in $TMP"
bg_start sleeper sleep 1000
SLEEPER=$BG_PID
# shellcheck disable=SC2016 # the loop is the child shell's
bg_start spinner sh -c 'read x <"$1"; while :; do :; done' sh "$TMP/go"
SPINNER=$BG_PID
state_of() { awk '{ sub(/.*\) /, ""); print $1 }' /proc/"$1"/stat 2>/dev/null; }
in_state() { [ "$(state_of "$1")" = "$2" ]; }
wait_for in_state "$SLEEPER" S
wait_for in_state "$SPINNER" S

# ascending, R comes before S: the spinner goes first. On a tie (both S
# when read late) the lower pid goes first: if that is the spinner's, the
# reverse order (S first) tells the two apart instead.
if [ "$SPINNER" -gt "$SLEEPER" ]; then
	dir=
	want='ascending'
else
	dir=-r
	want='descending'
fi
note "spinner $SPINNER, sleeper $SLEEPER: states $want"

start_stalltop st -d 0.25 -s state $dir -p "$SLEEPER,$SPINNER"
ST=$ST_PID
# shown_as PID STATE: the last sample shows PID in STATE
shown_as() {
	grep '}$' "$TMP/st.out" | tail -n 1 |
		jq -e --argjson p "$1" --arg s "$2" \
			'any(.tasks[]; .pid == $p and .state == $s)' >/dev/null
}
wait_for shown_as "$SPINNER" S
wait_for shown_as "$SLEEPER" S
wait_more_lines "$TMP/st.out" 1

echo go >"$TMP/go"
wait_for in_state "$SPINNER" R
wait_for shown_as "$SPINNER" R
wait_more_lines "$TMP/st.out" 2
bg_kill "$SPINNER"
stop_stalltop st "$ST"

# every sample with both: the rows in the order of their printed states
if [ -n "$dir" ]; then
	order='. == (sort | reverse)'
else
	order='. == sort'
fi
expect "rows out of the order of their states ($want)" "$TMP/st.out" "
	[.tasks[] | select(.pid == $SLEEPER or .pid == $SPINNER)] |
	select(length == 2) |
	select([.[].state] | $order | not) |
	\"at \(input_line_number): \([.[] | [.pid, .state]])\""

# the change was seen from one sample to the next (the one that would
# sort on the old state)
seen=$(jq -r --argjson p "$SPINNER" \
	'[.tasks[] | select(.pid == $p) | .state] | .[0] // "-"' "$TMP/st.out" |
	tr -d '\n')
case $seen in
*SR*) note "the spinner went from S to R between two samples ($seen)" ;;
*) fail "the spinner's states, sample by sample, show no S then R: $seen" ;;
esac
exit 0
