#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --rescan SECONDS: besides following fork/exit notifications, stalltop
# walks /proc every SECONDS to resynchronise. strace -y, attached to a
# stalltop refreshing every 0.2 s, marks each walk exactly: a walk opens
# the directory /proc itself and lists it (openat of "/proc", then
# getdents64 on that descriptor until it returns 0); nothing else lists
# /proc (the evidence of a stalled process lists its own /proc/PID/task,
# and the descriptor of /proc the evidence reader keeps is never listed).
# So a walk starts at that openat and ends at the getdents64 that
# returns 0, however long strace makes it take.
#  - --rescan 1, over 30 refreshes (6 s): at least 3 walks; each starts
#    at least 1 s after the one before ended (0.9 s allowed: strace
#    stamps a call when it gets to it, 100 ms slack for that), and no
#    sample is read more than 1 s after the last walk ended without a
#    walk before it (the check happens at each refresh: a sample's time
#    is its reading's middle, a little after the check; 0.2 s allowed).
#    A walk at every refresh, a rescan every 2 s or none at all fails.
#  - --rescan 0: no walk, unless notifications were lost meanwhile (each
#    loss is repaired by one walk: then at most one walk per loss).
#  - The first reading walks /proc however long --rescan is and however
#    short a time the machine has been up: with --rescan 1000000000
#    (longer than any uptime) a process running before stalltop started
#    is in its first sample.
. "$top_srcdir/tests/lib/functions.sh"
live_init
need_cmd strace

# trace NAME REFRESHES ARGS...: strace a stalltop started with ARGS over
# REFRESHES refreshes; sets WALKS (the number of walks), LOST (events lost
# meanwhile) and writes "start end" of each walk, one a line, to
# $TMP/NAME.walks (seconds since the epoch, as strace -ttt stamps them).
trace() {
	local _t=$1 _n=$2
	shift 2
	TRACE_OPTS=-y TRACE_CALLS=openat,getdents64 trace_stalltop "$_t" "$_n" "$@"
	awk '
	function stamp(i) {
		for (i = 1; i <= NF; i++)
			if ($i ~ /^[0-9]+\.[0-9]+$/) return $i
		return ""
	}
	# openat(AT_FDCWD</dir>, "/proc", ...) = 12</proc>
	/openat\(/ && /, "\/proc", / && / = [0-9]+<\/proc>$/ {
		fd = $NF; sub(/<.*/, "", fd)
		opened[fd] = stamp()
		next
	}
	# getdents64(12</proc>, ...) = N
	match($0, /getdents64\([0-9]+<\/proc>,/) {
		fd = substr($0, RSTART + 11); sub(/<.*/, "", fd)
		if (fd in opened) { start[fd] = opened[fd]; delete opened[fd] }
		if (!(fd in start)) next
		last[fd] = stamp()
		if ($NF == "0") { print start[fd], last[fd]; delete start[fd] }
	}
	END { for (fd in start) print start[fd], last[fd] }' \
		"$TMP/$_t.trace" | sort -n >"$TMP/$_t.walks" ||
		fail "awk cannot read the trace $TMP/$_t.trace"
	WALKS=$(wc -l <"$TMP/$_t.walks")
	note "$_t ($*): $WALKS walks in $_n refreshes; $LOST events lost; walks (start end): $(tr '\n' ' ' <"$TMP/$_t.walks")"
}

trace every1 30 --rescan 1
[ "$WALKS" -ge 3 ] ||
	fail "--rescan 1: $WALKS walks of /proc in 30 refreshes of 0.2 s, expected at least 3"
awk 'NR > 1 && $1 - end < 0.9 { printf "a walk at %s began %.3f s after the one before ended; ", $1, $1 - end; bad = 1 }
	{ end = $2 } END { exit bad }' "$TMP/every1.walks" >"$TMP/every1.close" ||
	fail "--rescan 1: $(cat "$TMP/every1.close")"
# Each sample read while strace watched, against the last walk that
# ended before it. The trace's last stamp bounds what it watched.
jq -r .time "$TMP/every1.out" >"$TMP/every1.times" || fail "jq cannot read $TMP/every1.out"
traced=$(awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+$/) { t = $i; break } } END { print t }' "$TMP/every1.trace")
[ -n "$traced" ] || fail "no time stamp in the trace $TMP/every1.trace"
awk -v traced="$traced" 'NR == FNR { e[NR] = $2; n = NR; next }
	$1 <= traced {
	  last = 0
	  for (i = 1; i <= n; i++) if (e[i] < $1) last = e[i]
	  if (last && $1 - last > 1.2) { printf "the sample of %s was read %.3f s after the last walk ended; ", $1, $1 - last; bad = 1 } }
	END { exit bad }' "$TMP/every1.walks" "$TMP/every1.times" >"$TMP/every1.late" ||
	fail "--rescan 1, no walk for too long: $(cat "$TMP/every1.late")"

trace never 20 --rescan 0
[ "$WALKS" -le "$LOST" ] ||
	fail "--rescan 0: $WALKS walks of /proc in 20 refreshes with $LOST events lost"

# the first reading walks /proc
bg_start sleeper sleep 1000
sleeper=$BG_PID
wait_for running "$sleeper"
run_stalltop_json --rescan 1000000000 -p "$sleeper" -n 1
expect "the first sample with --rescan 1000000000" "$JSON" --argjson p "$sleeper" '
  if [.tasks[] | select(.pid == $p)] | length == 1 then empty
  else "process \($p), running before stalltop started, is not in the first sample: \([.tasks[].pid])" end'
exit 0
