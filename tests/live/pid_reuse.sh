#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Pid reuse between two refreshes: process A (8192 copy-on-write faults,
# already seen by stalltop) ends, and within a few milliseconds a new
# process B gets the same pid (ns_last_pid) and takes 64 faults. stalltop
# must keep them apart (a task is its pid and start time): no delta of B
# against A's counters, which would be negative (a null figure) or giant.
# Three runs: B lives on; B ends in the same interval; and B lives on with
# --no-events (periodic scans, no exit records).
#
# Checks, over every row with that pid: every pct in 0..105 (one thread:
# at most the whole interval, plus timing slack), cpu and wpcopy figures
# never null, counts sane; A's and B's wpcopy counts add up to
# 8192 + 64 plus at most 64 (their stacks and libc pages); B has a row of
# its own (64..128 faults) in the interval of the reuse and, when it lives
# on, is still tracked at the end; A is in "exited" exactly once: with
# its exit record, or, scanning only, as the scan that finds B's start
# time retires it, with what it had at its last reading. (Only rows named
# wl_reuse count as A or B: on a busy machine another task may hold the
# pid for a moment in between.) The reuse comes right after a refresh,
# half an interval before the next scan.
. "$top_srcdir/tests/lib/functions.sh"
live_init
[ -w /proc/sys/kernel/ns_last_pid ] ||
	skip "no writable /proc/sys/kernel/ns_last_pid (CONFIG_CHECKPOINT_RESTORE)"

pages_a=8192
pages_b=64

# some_sample FILE EXPR: some sample of FILE so far makes EXPR true
some_sample() { jq -e -n "any(inputs; $2)" "$1" >/dev/null 2>&1; }

# scenario NAME WL_REUSE_ARGS -- STALLTOP_ARGS
scenario() {
	local name=$1 rargs="" sargs="" a b st reuse exit_b=false
	shift
	while [ "$1" != -- ]; do rargs="$rargs $1"; shift; done
	shift
	sargs="$*"
	case $rargs in *-x*) exit_b=true ;; esac

	start_stalltop "$name" -d 0.5 $sargs
	st=$ST_PID
	bg_start "$name-wl" "$WL/wl_reuse" -a "$pages_a" -b "$pages_b" $rargs
	reuse=$BG_PID
	wait_for has_line "$TMP/$name-wl.out" '^a '
	a=$(sed -n 's/^a //p' "$TMP/$name-wl.out")
	# stalltop has seen A's burst; then right after a refresh, the reuse
	wait_for some_sample "$TMP/$name.out" \
		"any(.tasks[]; .pid == $a and .delay.wpcopy.count >= $pages_a)"
	wait_more_lines "$TMP/$name.out" 1
	kill -s USR1 "$reuse"
	wait_for has_line "$TMP/$name-wl.out" '^b '
	b=$(sed -n 's/^b //p' "$TMP/$name-wl.out")
	[ "$b" = "$a" ] || hard_error "$name: pid $a did not come back ($b)"
	wait_more_lines "$TMP/$name.out" 2
	stop_stalltop "$name" "$st"
	bg_kill "$reuse"

	note "$name: pid $a, rows per sample (T: tasks, X: exited; wpcopy count): $(jq -c --argjson p "$a" '[(.tasks[] | select(.pid == $p) | "T\(.delay.wpcopy.count)"), (.exited[] | select(.pid == $p) | "X\(.delay.wpcopy.count) \(.comm)")]' "$TMP/$name.out" | tr -d '\n')"
	expect "$name" "$TMP/$name.out" -s --argjson p "$a" \
		--argjson pa "$pages_a" --argjson pb "$pages_b" \
		--argjson exit_b "$exit_b" '
	  [.[] | (.tasks + .exited)[] | select(.pid == $p)] as $all
	  # on a busy machine another task may take the pid for a moment too
	  | [$all[] | select(.comm == "wl_reuse")] as $rows
	  | ($all[] | [.cpu_pct, (.delay | to_entries[] | .value | select(. != null) | .pct)][]
	     | select(. == null or . < 0 or . > 105) | "a pct of \(.) for pid \($p)"),
	    ($all[] | select(.delay.cpu == null or .delay.wpcopy == null)
	     | "a null figure (counter went backwards?): \(.delay | {cpu, wpcopy})"),
	    ($all[] | select(.delay.cpu.count > 100000 or .delay.wpcopy.count > $pa + 64)
	     | "a giant count: \(.delay | {cpu, wpcopy})"),
	    ($rows | map(.delay.wpcopy.count) | add
	     | select(. < $pa + $pb or . > $pa + $pb + 64)
	     | "wpcopy counts add up to \(.), expected \($pa + $pb)..\($pa + $pb + 64)"),
	    # B has a row of its own
	    (if any($rows[]; .delay.wpcopy.count >= $pb and .delay.wpcopy.count <= 2 * $pb) | not
	     then "no row for the new process (\($pb) faults)" else empty end),
	    ([.[] | .exited[] | select(.pid == $p and .comm == "wl_reuse"
	                               and .delay.wpcopy.count < $pb)] | length
	     | if . != 1 then "the first process is in exited \(.) times, not once"
	       else empty end),
	    (if $exit_b | not then
	       if any(.[-1].tasks[]; .pid == $p) | not
	       then "the new process is not tracked in the last sample" else empty end
	     else empty end)'
}

scenario events --
scenario events_exit -x --
scenario scans -- --no-events
exit 0
