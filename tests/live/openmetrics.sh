#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --format openmetrics, live and replayed, passes promtool check metrics
# while a process with a hostile name runs: its comm holds a double
# quote, a backslash, a newline and an invalid UTF-8 byte (set with
# prctl). Each sample is one exposition ending with "# EOF"; each is
# checked on its own. The hostile process, one of two spinners pinned to
# one CPU (so among the most stalled tasks), must be among the series, its
# name escaped, and the replay of a recording of the same run must give
# the same series (the task's start time travels in the recording; the
# recording, JSON, keeps the invalid byte as U+FFFD).
# Then the options' bad input: --top, --textfile in a missing directory,
# --textfile with another format or with --replay.
. "$top_srcdir/tests/lib/functions.sh"
live_init
need_cmd promtool
need_cmd taskset

cpu=$((NCPU - 1))
helper="$top_builddir/tests/tty/stallhelper"
bg_start spin taskset -c "$cpu" "$helper" busy "$(printf 'q"b\\c\nd\377x')"
spin=$BG_PID
bg_start other taskset -c "$cpu" "$helper" busy other
wait_for has_line "/proc/$spin/status" '^Name:.*q'

# check_expositions FILE N: FILE holds N expositions, each valid.
check_expositions() {
	local _n
	_n=$(grep -c '^# EOF$' "$1")
	[ "$_n" -eq "$2" ] || fail "$1: $_n expositions, expected $2"
	[ "$(tail -n 1 "$1")" = "# EOF" ] || fail "$1: text after the last # EOF"
	rm -f "$TMP"/expo.*
	awk -v dir="$TMP" '{ print > (dir "/expo." n) } /^# EOF$/ { close(dir "/expo." n); n++ }' n=0 "$1"
	for _f in "$TMP"/expo.*; do
		promtool check metrics <"$_f" >"$TMP/promtool.out" 2>&1 ||
			fail "$1: promtool: $(head -5 "$TMP/promtool.out")"
	done
}

# The series of the hostile task: pid, start and the escaped name.
# hostile_series FILE BYTE: BYTE is how the name's invalid byte shows
hostile_series() {
	grep "^stalltop_task_delay_seconds_total{pid=\"$spin\",start=\"[0-9.]*\",comm=\"q\\\\\"b\\\\\\\\\\\\\\\\c\\\\\\\\nd$2x\",category=\"cpu\"} " "$1" |
		sed 's/} .*//' | sort -u
}

timeout 60 "$STALLTOP" -b -n 3 -d 0.5 --format openmetrics \
	--record "$TMP/rec.ndjson" >"$TMP/live.om" 2>"$TMP/live.err" ||
	fail "stalltop --format openmetrics exited $?: $(cat "$TMP/live.err")"
check_expositions "$TMP/live.om" 3
live=$(hostile_series "$TMP/live.om" '\\\\xff')
[ -n "$live" ] || fail "no series of the hostile task $spin: $(grep "pid=\"$spin\"" "$TMP/live.om" | head -3)"
[ "$(echo "$live" | wc -l)" -eq 1 ] || fail "the hostile task has several series: $live"
note "live: $live"

timeout 60 "$STALLTOP" --replay "$TMP/rec.ndjson" -b --format openmetrics \
	>"$TMP/replay.om" 2>"$TMP/replay.err" ||
	fail "the replay exited $?: $(cat "$TMP/replay.err")"
check_expositions "$TMP/replay.om" 3
replay=$(hostile_series "$TMP/replay.om" "$(printf '\357\277\275')")
[ "$replay" = "$(echo "$live" | sed "s/\\\\\\\\xff/$(printf '\357\277\275')/")" ] || fail "the replay has other series: $replay, live: $live"

# its cpu delay only grows, sample by sample
grep "^$live} " "$TMP/live.om" | sed 's/.*} //' >"$TMP/values"
sort -n -c "$TMP/values" || fail "the counter went down: $(cat "$TMP/values" | tr '\n' ' ')"
[ "$(sort -u "$TMP/values" | wc -l)" -eq "$(wc -l <"$TMP/values")" ] ||
	fail "the counter did not grow: $(cat "$TMP/values" | tr '\n' ' ')"

# bad input: a clear message and status 2 (1 for a directory that
# cannot take the file), nothing written
bad() {
	local _want=$1 _rc
	shift
	"$STALLTOP" "$@" >"$TMP/bad.out" 2>"$TMP/bad.err"
	_rc=$?
	[ "$_rc" -eq "$_want" ] || fail "stalltop $*: status $_rc, expected $_want"
	[ -s "$TMP/bad.err" ] || fail "stalltop $*: no message"
	[ -s "$TMP/bad.out" ] && fail "stalltop $*: wrote to stdout"
	note "stalltop $*: $(cat "$TMP/bad.err")"
}
bad 2 -b --format openmetrics --top x
bad 2 -b --format openmetrics --top -1
bad 2 --textfile "$TMP/x.prom" --format json
bad 2 --textfile "$TMP/x.prom" --replay "$TMP/rec.ndjson"
bad 2 --textfile ""
bad 1 --textfile "$TMP/missing/x.prom" -n 1
grep -q "$TMP/missing/x.prom" "$TMP/bad.err" || fail "the message does not name the file"
bad 1 --textfile "$TMP" -n 1
exit 0
