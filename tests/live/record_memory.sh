#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The memory of a large process that ended is given back (issue: nothing
# from outside stops the monitor or its recording): a recording stalltop
# (-b --json -d 0.5 --record FILE, which reads every thread) beside a
# process of 10000 sleeping threads (python3, 64 KiB stacks), which then
# ends. Its resident size (VmRSS) is read before the process starts,
# while it runs (3 samples after its threads are up: it must have grown
# by 20 MiB or more, else the test says nothing and is an error) and 6
# samples after it ended.
# Measured: 10.0 MiB before, 69 MiB during, 12.7 MiB after (three runs
# within 0.3 MiB); the code before kept 61 to 72 MiB after. Bound: at
# most 8 MiB over the size before (three times what was measured over
# it, a sixth of what the code before kept).
# Under the sanitizers (.ci/run) the allocator keeps freed memory in a
# quarantine of 256 MiB on purpose and gives pages back only every 5 s:
# this stalltop runs with the quarantine off and pages given back at
# once, so that what is measured is still what stalltop keeps. Measured
# so: 24.6 MiB before, 76 MiB during, 29.3 MiB after (three runs, 4.8 MiB
# over; with the sanitizer's defaults 270 MiB over: its quarantine).
. "$top_srcdir/tests/lib/functions.sh"
live_init
need_cmd python3

rss() { awk '/^VmRSS:/ { print $2 }' "/proc/$1/status"; }

ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=0:allocator_release_to_os_interval_ms=0"
export ASAN_OPTIONS
bg_start st "$STALLTOP" -b --json -d 0.5 --record "$TMP/mem.stk"
st=$BG_PID
wait_lines "$TMP/st.out" 4
before=$(rss "$st")

cat >"$TMP/many.py" <<'EOF'
import os, sys, threading
threading.stack_size(64 * 1024)
done = threading.Event()
for _ in range(10000):
    threading.Thread(target=done.wait, daemon=True).start()
print("up", os.getpid(), flush=True)
sys.stdin.read()
EOF
# it ends when its stdin (a FIFO held open by the test) closes
mkfifo "$TMP/hold"
bg_start many sh -c "exec python3 '$TMP/many.py' <'$TMP/hold'"
many=$BG_PID
exec 8>"$TMP/hold"
wait_for -t 60 has_line "$TMP/many.out" '^up '
wait_more_lines "$TMP/st.out" 3
during=$(rss "$st")
exec 8>&-
bg_wait "$many"
wait_more_lines "$TMP/st.out" 6
after=$(rss "$st")
stop_stalltop st "$st"

note "VmRSS: before $before KiB, during $during KiB, after $after KiB"
[ "$during" -ge $((before + 20 * 1024)) ] ||
	hard_error "10000 threads did not make stalltop grow (before $before KiB, during $during KiB)"
[ "$after" -le $((before + 8 * 1024)) ] ||
	fail "$after KiB resident after the threads ended, $before KiB before (at most 8 MiB more)"
exit 0
