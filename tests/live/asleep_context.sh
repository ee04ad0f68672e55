#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# What stands next to a process's stall (process mode) while none of its
# threads runs: read again when the last read is 5 s old, but only what
# can change while it sleeps (its memory, from its status; its nice and
# state, from its leader's own stat line, /proc/PID/task/PID/stat), not
# /proc/PID/stat nor /proc/PID/io, for which the kernel walks every
# thread. Its faults and IO did not move (a task's are counted when it
# runs): their rates show 0, not unknown.
#  - wl_wake's 8 threads sleep; stalltop -p WAKE under strace (opens):
#    a renice of the process shows within 5 s (+ a refresh), with its
#    memory as /proc has it and rates of 0, while no "stat" nor "io" of
#    /proc/WAKE is opened, and its leader's stat line and status are.
#  - The control: one of its threads then runs (SIGUSR1, 100 ms): the
#    next read is the whole one, "stat" and "io" opened, so the trace
#    would see them.
. "$top_srcdir/tests/lib/functions.sh"
live_init
need_cmd strace renice

bg_start wake "$WL/wl_wake" -t 8 -b 100
WAKE=$BG_PID
wait_for has_line "$TMP/wake.out" ready
states() { cat /proc/"$WAKE"/task/*/stat | awk '{ sub(/.*\) /, ""); print $1 }'; }
all_asleep() { [ "$(states | grep -c '^S$')" -eq 8 ]; }
wait_for all_asleep
kib() { awk -v k="$1:" '$1 == k { print $2 }' /proc/"$WAKE"/status; }
rss=$(kib VmRSS)

start_stalltop pr -p "$WAKE" -d 0.25
PR=$ST_PID
bg_start pr-strace strace -f -y -e trace=openat -o "$TMP/pr.trace" -p "$PR"
STRACE=$BG_PID
wait_for has_line "$TMP/pr-strace.err" "Process $PR attached"
# the first read (whole) is done: from here on WAKE does not run
wait_more_lines "$TMP/pr.out" 1
row() { tail -n 1 "$TMP/pr.out" | jq -c --argjson p "$WAKE" '[.tasks[] | select(.pid == $p)][0]'; }
renice -n 6 -p "$WAKE" >/dev/null || hard_error "renice -n 6 -p $WAKE failed"
at=$(now_ms)
shows_nice() { row | jq -e '.nice == 6' >/dev/null; }
# 5 s at most since the last read, a refresh (0.25 s) and the write of
# the sample: 7 s (measured: 4.6 s)
wait_for -t 7 shows_nice
note "renice of an asleep process shown after $(($(now_ms) - at)) ms"
wait_more_lines "$TMP/pr.out" 1
[ "$(kib VmRSS)" = "$rss" ] || hard_error "wl_wake's VmRSS moved: $rss, then $(kib VmRSS) KiB"
# the sample of the read again (the first with nice 6), and the one after
rows=$(grep '}$' "$TMP/pr.out" | jq -c --argjson p "$WAKE" '.tasks[] | select(.pid == $p)' |
	awk '/"nice":6[,}]/ { print; if (++n == 2) exit }')
[ "$(echo "$rows" | wc -l)" -eq 2 ] || hard_error "no two samples of $WAKE with nice 6: $rows"
echo "$rows" | jq -se --argjson rss "$rss" 'all(.rss_kib == $rss and .state == "S" and
	.majflt_ps == 0 and .read_bps == 0 and .write_bps == 0)' >/dev/null ||
	fail "asleep, read again: rss $rss KiB, state S and rates of 0 expected: $rows"
# opens relative to /proc/WAKE's descriptor (-y: "5</proc/WAKE>") name
# the file alone; /proc/stat, opened relative to /proc, is another file
# (the machine's counters, read once a round when the round needs them)
opened() { grep -c "openat([0-9]*</proc/$WAKE>, \"$1\"" "$TMP/pr.trace"; }
leader=$(opened "task/$WAKE/stat") status=$(opened status)
whole=$(opened stat) io=$(opened io)
[ "$leader" -ge 1 ] && [ "$status" -ge 1 ] ||
	fail "the read again should open task/$WAKE/stat and status: $leader and $status opens"
[ "$whole" -eq 0 ] && [ "$io" -eq 0 ] ||
	fail "asleep, /proc/$WAKE/stat and io should not be opened: $whole and $io opens"
note "asleep: $leader opens of task/$WAKE/stat, $status of status, none of stat or io"

# the control: it runs, and its context is read whole
kill -s USR1 "$WAKE"
wait_for has_line "$TMP/wake.out" '^wake'
read_whole() { [ "$(opened io)" -ge 1 ] && [ "$(opened stat)" -ge 1 ]; }
wait_for read_whole
bg_stop "$STRACE"
stop_stalltop pr "$PR"
note "after a run: $(opened stat) opens of stat, $(opened io) of io"
exit 0
