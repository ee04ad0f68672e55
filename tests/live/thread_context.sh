#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# What stands next to a thread's stall (-H): its nice value and state
# from its own /proc/TGID/task/TID/stat, its memory (RSS, SWAP: what
# its process has, which its threads share), its wait channel while in
# D. A thread that does not run keeps what was read until
# it runs or the read is 5 s old: a renice of an asleep thread must
# show within that. Batch -H reads a thread's own stat line only for the
# rows that waited off the CPU, or for every row when sorting by state
# (skip_idle.sh holds that): -s state here, so that every row is read.
. "$top_srcdir/tests/lib/functions.sh"
live_init

bg_start wake "$WL/wl_wake" -t 8
WAKE=$BG_PID
wait_for has_line "$TMP/wake.out" ready
states() { cat /proc/"$WAKE"/task/*/stat | awk '{ sub(/.*\) /, ""); print $1 }'; }
all_asleep() { [ "$(states | grep -c '^S$')" -eq 8 ]; }
wait_for all_asleep
# a thread other than the main one, niced before stalltop starts
tid=$(ls /proc/"$WAKE"/task | sort -n | sed -n 3p)
renice -n 7 -p "$tid" >/dev/null || hard_error "renice -n 7 -p $tid failed"
kib() { awk -v k="$1:" '$1 == k { print $2 }' /proc/"$WAKE"/status; }
rss=$(kib VmRSS) swap=$(kib VmSwap)

start_stalltop th -H -p "$WAKE" -d 0.25 -s state
TH=$ST_PID
wait_lines "$TMP/th.out" 3
# the process sleeps: its memory does not move (VmRSS read again now
# equals the one before stalltop started, so any difference is stalltop's)
[ "$(kib VmRSS)" = "$rss" ] || hard_error "wl_wake's VmRSS moved: $rss, then $(kib VmRSS) KiB"
rows() { sed -n "$1p" "$TMP/th.out" | jq -c "[.tasks[] | select(.tgid == $WAKE)]"; }
got=$(rows 3)
echo "$got" | jq -e --argjson rss "$rss" --argjson swap "$swap" '
	length == 8 and all(.rss_kib == $rss and .swap_kib == $swap)' >/dev/null ||
	fail "threads' rss and swap should be the process's ($rss, $swap KiB): $(echo "$got" | jq -c 'map([.pid, .rss_kib, .swap_kib])')"
# each thread's nice value as /proc has it: {"tid": nice, ...}
nices=$(for f in /proc/"$WAKE"/task/*/stat; do
	awk '{ sub(/.*\) /, ""); printf "\"%s\"", FILENAME; print ":" $17 }' "$f"
done | sed 's|"/proc/[0-9]*/task/\([0-9]*\)/stat"|"\1"|' | paste -sd, | sed 's/^/{/; s/$/}/')
echo "$nices" | jq -e --arg t "$tid" '.[$t] == 7' >/dev/null ||
	hard_error "renice did not set thread $tid to 7: $nices"
echo "$got" | jq -e --argjson n "$nices" '
	all(.state == "S" and .wchan == null and .nice == $n[.pid | tostring])' >/dev/null ||
	fail "threads should show their nice values $nices, all S without wchan: $(echo "$got" | jq -c 'map([.pid, .state, .nice, .wchan])')"
note "rss $rss KiB, swap $swap KiB, nice $nices, state S"

# renice the asleep thread: shown once read again, within 5 s (+ a refresh)
renice -n 3 -p "$tid" >/dev/null || hard_error "renice -n 3 -p $tid failed"
at=$(now_ms)
shows_nice() { tail -n 1 "$TMP/th.out" | jq -e --argjson t "$tid" '[.tasks[] | select(.pid == $t)][0].nice == 3' >/dev/null; }
# 5 s at most since the last read, a refresh (0.25 s) and the write of
# the sample: 7 s (measured: 4.5 s)
wait_for -t 7 shows_nice
note "renice of an asleep thread shown after $(($(now_ms) - at)) ms"

# a thread in D (vfork) shows where it waits, as /proc says
kill -s USR2 "$WAKE"
wait_for has_line "$TMP/wake.out" '^vfork'
vt=$(awk '/^vfork/ { print $3 }' "$TMP/wake.out")
in_d() { awk '{ sub(/.*\) /, ""); exit $1 != "D" }' /proc/"$WAKE"/task/"$vt"/stat; }
wait_for in_d
wchan=$(cat /proc/"$WAKE"/task/"$vt"/wchan)
[ -n "$wchan" ] && [ "$wchan" != 0 ] || hard_error "thread $vt in D has no wait channel in /proc: '$wchan'"
n=$(($(lines "$TMP/th.out") + 2))
wait_lines "$TMP/th.out" "$n"
got=$(rows "$n")
echo "$got" | jq -e --argjson t "$vt" --arg w "$wchan" '
	map(select(.pid == $t)) | length == 1 and .[0].state == "D" and .[0].wchan == $w' >/dev/null ||
	fail "thread $vt in D should show wchan $wchan: $(echo "$got" | jq -c 'map([.pid, .state, .wchan])')"
note "thread $vt in D waits in $wchan"
child=$(cat /proc/"$WAKE"/task/"$vt"/children)
[ -n "$child" ] || hard_error "the vfork child of $vt is not to be found"
kill -s KILL $child
wait_for has_line "$TMP/wake.out" released

stop_stalltop th "$TH"
exit 0
