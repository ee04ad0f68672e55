#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# SIGTERM ends stalltop within half a second even while it is stuck in a
# write: batch JSON into a pipe whose reader never reads fills the pipe
# (64 KiB) at the first samples, and the write then blocks in the kernel
# (wchan pipe_write), where the event loop never sees the signal. The
# quit guard lets the signal take its default action after its grace
# (0.3 s): the process is gone, killed by SIGTERM (status 143 to a
# shell), not left writing until the reader goes.
#
# The time is measured from the kill to the process gone, looked at every
# 20 ms, so it reads up to about 30 ms late; measured here: 292-380 ms
# (the grace, and the guard's tenth of a second). Before the guard was
# armed for live runs it stayed in the write as long as the reader lived
# (3.2 s and more).
. "$top_srcdir/tests/lib/functions.sh"
live_lock
need_cmd mkfifo setsid

BOUND_MS=500
mkfifo "$TMP/pipe" || hard_error "cannot make a FIFO"
# the reader: holds the FIFO open for 60 s and reads nothing
bg_start reader sh -c 'exec sleep 60 <"$1"' sh "$TMP/pipe"
reader=$BG_PID
setsid "$STALLTOP" -b --json -c -d 0.05 >"$TMP/pipe" 2>"$TMP/st.err" </dev/null &
st=$!
_pgids="$_pgids $st"   # its own group: functions.sh's trap kills it
in_write() { case $(cat "/proc/$st/wchan" 2>/dev/null) in *pipe_write*) return 0 ;; esac; return 1; }
wait_for -t 20 in_write
t0=$(now_ms)
kill -s TERM "$st"
while running "$st" && [ $(($(now_ms) - t0)) -le $((BOUND_MS + 3000)) ]; do
	sleep 0.02
done
ms=$(($(now_ms) - t0))
wait "$st"
status=$?
note "SIGTERM in a blocked write: gone after $ms ms, status $status"
[ "$ms" -le "$BOUND_MS" ] ||
	fail "SIGTERM in a blocked write ended stalltop after $ms ms, more than $BOUND_MS"
[ "$status" -eq 143 ] ||
	fail "stalltop ended with status $status, not killed by SIGTERM (143): $(cat "$TMP/st.err")"
bg_kill "$reader"
exit 0
