#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --rescan SECONDS: besides following fork/exit notifications, stalltop
# walks /proc every SECONDS to resynchronise. strace, attached to a
# stalltop refreshing every 0.2 s, records when it reads directories
# (getdents64 on /proc itself: strace -y names the directory, and the
# evidence of a stalled process lists only its own /proc/PID/task); a
# walk is a burst of such calls, those less than 50 ms apart belong to
# one walk.
#  - --rescan 1, over 20 refreshes (4 s): a walk about once a second,
#    checked at a refresh, so every 5th or 6th one: 3..5 walks, each at
#    least 0.9 s after the one before. A rescan at every refresh (about
#    20 walks) or none at all fails.
#  - --rescan 0: no walk, unless notifications were lost meanwhile (each
#    loss is repaired by one walk: then at most one walk per loss).
. "$top_srcdir/tests/lib/functions.sh"
live_init
need_cmd strace

# trace NAME ARGS...: strace a stalltop started with ARGS over 20
# refreshes; sets WALKS (the number of walks), GAP (the shortest time
# between two walks, in s, 99 when fewer than two) and LOST (events lost
# meanwhile).
trace() {
	local _t=$1
	shift
	trace_stalltop "$_t" 20 "$@"
	# the timestamp: the first field like 1763740000.123456
	awk '/getdents[0-9]*\([0-9]*<\/proc>/ {
		for (i = 1; i <= NF; i++)
			if ($i ~ /^[0-9]+\.[0-9]+$/) { t = $i; break }
		if (!n || t - last > 0.05) {
			if (n && t - start < gap) gap = t - start
			n++; start = t
		}
		last = t
	}
	BEGIN { gap = 99 }
	END { printf "%d %.3f\n", n, gap }' "$TMP/$_t.trace" >"$TMP/$_t.walks"
	read -r WALKS GAP <"$TMP/$_t.walks"
	note "$_t ($*): $WALKS walks in 20 refreshes, the closest $GAP s apart; $LOST events lost"
}

TRACE_OPTS=-y
trace every1 --rescan 1
[ "$WALKS" -ge 3 ] && [ "$WALKS" -le 5 ] ||
	fail "--rescan 1: $WALKS walks of /proc in 20 refreshes of 0.2 s, expected 3..5"
awk -v g="$GAP" 'BEGIN { exit !(g >= 0.9) }' ||
	fail "--rescan 1: two walks only $GAP s apart"

trace never --rescan 0
[ "$WALKS" -le "$LOST" ] ||
	fail "--rescan 0: $WALKS walks of /proc in 20 refreshes with $LOST events lost"
exit 0
