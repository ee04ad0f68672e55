#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Processes that live about 20 ms, a small fraction of stalltop's 0.5 s
# interval, reading 4 KiB blocks with O_DIRECT (every read goes to the
# device): each must appear in "exited" exactly once with its io delay,
# taken from the kernel's exit record.
#
# Magnitude: io count > 0 and io delay > 0; the count at most the reads
# the process made plus 20 (a read waits once; loading the program may
# wait a few times more; measured: count == reads); and the delay cannot
# exceed the process's life: at most 100 ms (20 ms of reads plus start-up,
# with room for a slow machine). A delta against a wrong base would be far
# off.
. "$top_srcdir/tests/lib/functions.sh"
live_init
set_io_dir
"$WL/wl_io" -t 0 "$IO_DIR/data" >/dev/null || fail "cannot prepare $IO_DIR/data"

start_stalltop st -d 0.5
runs=
for i in 1 2 3; do
	bg_start short$i "$WL/wl_io" -r -t 0.02 "$IO_DIR/data"
	bg_wait "$BG_PID" || fail "wl_io failed: $(cat "$TMP/short$i.err")"
	reads=$(sed -n 's/^done //p' "$TMP/short$i.out")
	runs="$runs $BG_PID:$reads"
done
wait_more_lines "$TMP/st.out" 2
stop_stalltop st "$ST_PID"

for run in $runs; do
	pid=${run%:*}
	reads=${run#*:}
	expect "short-lived $pid ($reads reads)" "$TMP/st.out" -s \
		--argjson pid "$pid" --argjson reads "$reads" '
	  [.[] | .interval as $dt | .exited[] | select(.pid == $pid) | . + {dt: $dt}] as $rows
	  | [.[] | .tasks[] | select(.pid == $pid)] as $alive
	  | if ($rows | length) != 1 then "\($rows | length) rows in exited, expected 1"
	    else $rows[0] | .delay.io as $io
	    | ($io.pct * .dt * 10) as $ms
	    | (if .comm != "wl_io" then "comm is \(.comm)" else empty end),
	      # (a sample that caught it alive took its reads so far)
	      (if $io.count + ($alive | map(.delay.io.count) | add // 0) <= 0
	          or $io.pct + ($alive | map(.delay.io.pct) | add // 0) <= 0
	       then "no io delay: \($io) (rows while alive: \($alive | map(.delay.io)))" else empty end),
	      (if $ms > 100 then "io delay \($ms) ms in a 20 ms life" else empty end),
	      (if $io.count > $reads + 20 then "io count \($io.count) for \($reads) reads" else empty end)
	    end'
done
note "$(jq -c '.exited[] | select(.comm == "wl_io") | {pid, io: .delay.io}' "$TMP/st.out" | tr '\n' ' ')"
exit 0
