#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# In steady state stalltop learns about new and ended tasks from fork/exit
# notifications, so it must not walk /proc (getdents64 on /proc itself)
# between refreshes: strace attached to a running stalltop for 5
# refreshes must record none. (The evidence of a shown, stalled process
# lists its own /proc/PID/task: that is not a walk, and strace -y tells
# the directories apart.) The control: with --no-events, which
# scans /proc at every refresh, the same trace must record some, so the
# method would see a walk if there were one.
# Refreshes are counted on stalltop's output, from the moment strace says
# it is attached.
. "$top_srcdir/tests/lib/functions.sh"
live_init
need_cmd strace

# trace NAME ARGS...: strace a stalltop started with ARGS over 5 refreshes;
# sets CALLS to the number of getdents calls recorded.
trace() {
	local _t=$1
	shift
	trace_stalltop "$_t" 5 "$@"
	[ "$LOST" -eq 0 ] ||
		note "$_t: $LOST events lost while traced (a rescan may follow)"
	CALLS=$(grep -c 'getdents[0-9]*([0-9]*</proc>' "$TMP/$_t.trace")
	note "$_t ($*): $CALLS getdents calls in 5 refreshes"
}

TRACE_OPTS=-y
trace control --no-events
[ "$CALLS" -gt 0 ] ||
	fail "strace saw no getdents even with --no-events: the test cannot see a /proc walk"
trace events
[ "$CALLS" -eq 0 ] ||
	fail "stalltop walked /proc between refreshes: $(grep 'getdents[0-9]*([0-9]*</proc>' "$TMP/events.trace" | head -3)"
exit 0
