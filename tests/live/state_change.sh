#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# stalltop reads a task's state again only when it ran, got an event, or
# was last seen in a state that can end without it running (anything but
# S and I). A change of state must still show at the next refresh:
#  - SIGSTOP and SIGCONT to a process of 8 sleeping threads (wl_wake):
#    every thread T, then none T; the process row as well (stalltop
#    without -H);
#  - one of its threads calls vfork() and waits, in state D, for a child
#    that only sleeps; once the child is killed it is S again.
# "The next refresh": once /proc shows the new state, the second sample
# that stalltop writes after that (the first may have been read before)
# must show it. The thread rows are sorted by state (-s state): batch -H
# reads every thread's state only then (skip_idle.sh).
. "$top_srcdir/tests/lib/functions.sh"
live_init

bg_start wake "$WL/wl_wake" -t 8
WAKE=$BG_PID
wait_for has_line "$TMP/wake.out" ready
# states of WAKE's threads, one letter a line
states() { cat /proc/"$WAKE"/task/*/stat | awk '{ sub(/.*\) /, ""); print $1 }'; }
all_in() { [ "$(states | grep -c "^$1\$")" -eq 8 ]; }
none_in() { ! states | grep -q "^$1\$"; }
wait_for all_in S

start_stalltop th -H -p "$WAKE" -d 0.25 -s state
TH=$ST_PID
start_stalltop pr -p "$WAKE" -d 0.25
PR=$ST_PID
wait_lines "$TMP/th.out" 4

# shows WHAT: the second sample from now of both stalltops passes the jq
# test THREADS (over the thread rows) and PROCESS (over the process row)
shows() {
	local _what=$1 _th=$2 _pr=$3 _n _m
	_n=$(($(lines "$TMP/th.out") + 2))
	_m=$(($(lines "$TMP/pr.out") + 2))
	wait_lines "$TMP/th.out" "$_n"
	wait_lines "$TMP/pr.out" "$_m"
	sed -n "${_n}p" "$TMP/th.out" | jq -e "[.tasks[] | select(.tgid == $WAKE)] | $_th" >/dev/null ||
		fail "$_what: threads show $(sed -n "${_n}p" "$TMP/th.out" | jq -c '[.tasks[] | [.pid, .state]]')"
	[ -z "$_pr" ] ||
		sed -n "${_m}p" "$TMP/pr.out" | jq -e "[.tasks[] | select(.pid == $WAKE)] | $_pr" >/dev/null ||
		fail "$_what: the process shows $(sed -n "${_m}p" "$TMP/pr.out" | jq -c '[.tasks[] | [.pid, .state]]')"
	note "$_what: shown at the next refresh"
}

shows "asleep" 'length == 8 and all(.state == "S")' 'length == 1 and .[0].state == "S"'
kill -s STOP "$WAKE"
wait_for all_in T
shows "stopped" 'length == 8 and all(.state == "T")' '.[0].state == "T"'
kill -s CONT "$WAKE"
wait_for none_in T
shows "continued" 'length == 8 and all(.state != "T")' '.[0].state != "T"'

kill -s USR2 "$WAKE"
wait_for has_line "$TMP/wake.out" '^vfork'
tid=$(awk '/^vfork/ { print $3 }' "$TMP/wake.out")
in_d() { awk '{ sub(/.*\) /, ""); exit $1 != "D" }' /proc/"$WAKE"/task/"$tid"/stat; }
wait_for in_d
shows "thread $tid in vfork" "map(select(.pid == $tid)) | length == 1 and .[0].state == \"D\"" ''
child=$(cat /proc/"$WAKE"/task/"$tid"/children)
[ -n "$child" ] || hard_error "the vfork child of $tid is not to be found"
kill -s KILL $child
wait_for has_line "$TMP/wake.out" released
out_of_d() { ! in_d; }
wait_for out_of_d
shows "thread $tid released" "map(select(.pid == $tid)) | length == 1 and .[0].state != \"D\"" ''

stop_stalltop th "$TH"
stop_stalltop pr "$PR"
exit 0
