#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Processes that live about 20 ms, a small fraction of stalltop's 0.5 s
# interval, reading 4 KiB blocks with O_DIRECT (every read goes to the
# device): each must appear in "exited" exactly once with its io delay,
# taken from the kernel's exit record. A fourth one reads for 1.2 s, so
# samples catch it alive at least twice before its exit row.
#
# Every process's rows together (the live ones a sample caught, and the
# exit row with the rest) must add up to its own count of reads: a read
# waits once; one may complete before the reader goes to sleep (measured:
# 0 to 0.7 % of them), loading the program may wait a few times more, and
# a read may wait twice when the device's queue is full (for a tag: up to
# 5 % more waits than reads seen here with other IO on the disk). So the
# io count of all its rows lies between 95 % and 110 % of the reads, plus
# 20: an exit row counted from zero after live rows (twice the count), or
# live rows dropped (a first row missing: 20 % or more), falls outside. The delay cannot exceed the process's life:
# at most its reading time plus 80 ms (start-up, with room for a slow
# machine). A delta against a wrong base would be far off.
. "$top_srcdir/tests/lib/functions.sh"
live_init
set_io_dir
"$WL/wl_io" -t 0 "$IO_DIR/data" >/dev/null || fail "cannot prepare $IO_DIR/data"

start_stalltop st -d 0.5
runs=
for t in 0.02 0.02 0.02 1.2; do
	bg_start short "$WL/wl_io" -r -t "$t" "$IO_DIR/data"
	bg_wait "$BG_PID" || fail "wl_io failed: $(cat "$TMP/short.err")"
	reads=$(sed -n 's/^done //p' "$TMP/short.out")
	runs="$runs $BG_PID:$reads:$t"
done
wait_more_lines "$TMP/st.out" 2
stop_stalltop st "$ST_PID"

dropped=0
for run in $runs; do
	pid=${run%%:*}
	reads=${run#*:}
	t=${reads#*:}
	reads=${reads%:*}
	# the kernel sometimes times a reader's first IO wait from a stamp of
	# 0, one wait as long as the uptime: stalltop drops that figure (see
	# tests/live/impossible.sh), and the reader's count cannot be checked
	if jq -e -s --argjson pid "$pid" 'any(.[] | (.tasks + .exited)[];
	    .pid == $pid and (.dropped | index("io")))' "$TMP/st.out" >/dev/null; then
		note "wl_io $pid: io dropped as impossible in a row (the kernel's stamp-0 wait)"
		dropped=$((dropped + 1))
		continue
	fi
	expect "wl_io $pid ($reads reads in $t s)" "$TMP/st.out" -s \
		--argjson pid "$pid" --argjson reads "$reads" --argjson t "$t" '
	  [.[] | .interval as $dt | .exited[] | select(.pid == $pid) | . + {dt: $dt}] as $rows
	  | [.[] | .interval as $dt | .tasks[] | select(.pid == $pid) | . + {dt: $dt}] as $alive
	  | ($rows + $alive) as $all
	  | ($all | map(.delay.io.count) | add) as $count
	  | ($all | map(.delay.io.pct * .dt * 10) | add) as $ms
	  | if ($rows | length) != 1 then "\($rows | length) rows in exited, expected 1"
	    else
	      (if $rows[0].comm != "wl_io" then "comm is \($rows[0].comm)" else empty end),
	      (if $t > 1 and ($alive | length) < 2
	       then "caught alive \($alive | length) times in \($t) s" else empty end),
	      (if $count < 0.95 * $reads or $count > 1.1 * $reads + 20
	       then "io count \($count) in \($all | length) rows (\($alive | length) alive) for \($reads) reads: \($all | map(.delay.io.count))"
	       else empty end),
	      (if $ms <= 0 then "no io delay: \($all | map(.delay.io))" else empty end),
	      (if $ms > $t * 1000 + 80 then "io delay \($ms) ms in a \($t) s life" else empty end)
	    end'
done
# one reader may meet the kernel's stamp-0 wait; all four cannot be left out
[ "$dropped" -le 2 ] || fail "$dropped of the 4 readers had their io dropped"
note "$(jq -c '(.tasks + .exited)[] | select(.comm == "wl_io") | {pid, state, io: .delay.io}' "$TMP/st.out" | tr '\n' ' ')"
exit 0
