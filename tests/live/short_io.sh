#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Processes that live about 20 ms, a small fraction of stalltop's 0.5 s
# interval, reading 4 KiB blocks with O_DIRECT (every read goes to the
# device): each must appear in "exited" exactly once with its io delay,
# taken from the kernel's exit record. A fourth one reads until stalltop
# has taken two samples after it started (so samples catch it alive at
# least twice, however slow stalltop is) and is then stopped (SIGTERM:
# it ends after the read under way).
#
# Every process's rows together (the live ones a sample caught, and the
# exit row with the rest) must add up exactly to what the kernel's own
# exit record for it says, as tests/lib/taskstats_ref.py (which shares no
# code with stalltop) reads it from an exit listener of its own: an exit
# row counted from a wrong base (zero after live rows, or a reading taken
# during its life) or a live row left out shows as a difference. A fast
# device completes some reads before the reader sleeps (the kernel counts
# only real waits), so the kernel's count, not the reads, is the
# reference; some reader must have waited. The delay cannot exceed
# the process's life: at most its reading time plus 80 ms (start-up, with
# room for a slow machine); the long reader's reading time is what the
# test measured from its start to its end.
# The reference's exit listener has room for 32 MiB of records, so the
# exits of a busy machine (a build beside it) do not push ours out; were
# one lost all the same, the test says so.
. "$top_srcdir/tests/lib/functions.sh"
live_init
need_cmd python3
set_io_dir
bg_start ref python3 "$top_srcdir/tests/lib/taskstats_ref.py" exits
REF_PID=$BG_PID
ready_or_gone() { has_line "$TMP/ref.out" '"ready"' || not_running "$REF_PID"; }
wait_for ready_or_gone
running "$REF_PID" || fail "the reference's exit listener ended: $(cat "$TMP/ref.err")"
"$WL/wl_io" -t 0 "$IO_DIR/data" >/dev/null || fail "cannot prepare $IO_DIR/data"

start_stalltop st -d 0.5
runs=
for t in 0.02 0.02 0.02 long; do
	if [ "$t" = long ]; then
		t0=$(now_ms)
		bg_start short "$WL/wl_io" -r "$IO_DIR/data"
		long=$BG_PID
		wait_for has_line "$TMP/short.out" ready
		# two samples whose readings began after it was ready
		wait_more_lines "$TMP/st.out" 3
		kill -s TERM "$BG_PID"
		bg_wait "$BG_PID" || fail "wl_io failed: $(cat "$TMP/short.err")"
		t=$(echo "$t0 $(now_ms)" | awk '{ printf "%.3f", ($2 - $1) / 1000 }')
	else
		bg_start short "$WL/wl_io" -r -t "$t" "$IO_DIR/data"
		bg_wait "$BG_PID" || fail "wl_io failed: $(cat "$TMP/short.err")"
	fi
	reads=$(sed -n 's/^done //p' "$TMP/short.out")
	[ -n "$reads" ] || fail "wl_io $BG_PID said no \"done\": $(cat "$TMP/short.out" "$TMP/short.err")"
	runs="$runs $BG_PID:$reads:$t"
done
wait_more_lines "$TMP/st.out" 2
stop_stalltop st "$ST_PID"
# the reference's record of each reader (they ended before stalltop did)
record_or_lost() { has_line "$TMP/ref.out" "\"id\": $1," || has_line "$TMP/ref.out" '"lost"'; }
for run in $runs; do
	wait_for record_or_lost "${run%%:*}"
	has_line "$TMP/ref.out" "\"id\": ${run%%:*}," ||
		fail "the reference's exit listener lost records (its socket overflowed), among them wl_io ${run%%:*}'s: $(grep -c . "$TMP/ref.out") lines"
done
bg_stop "$REF_PID" || fail "the reference reader failed: $(cat "$TMP/ref.err")"

dropped=0
waited=0
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
	jq_get kernel "the kernel's exit record of wl_io $pid" "$TMP/ref.out" -s -c --argjson pid "$pid" \
		'[.[] | select(.kind == "pid" and .id == $pid)] | first
		 | if . == null or .count.io == null then null
		   else {count: .count.io, ms: (.delay.io / 1e6)} end'
	jq_get count "the io count in $kernel" /dev/null -n --argjson k "$kernel" '$k.count'
	waited=$((waited + count))
	expect "wl_io $pid ($reads reads in $t s)" "$TMP/st.out" -s \
		--argjson pid "$pid" --argjson reads "$reads" --argjson t "$t" \
		--argjson kernel "$kernel" --argjson long "$([ "$pid" = "$long" ] && echo true || echo false)" '
	  [.[] | .interval as $dt | .exited[] | select(.pid == $pid) | . + {dt: $dt}] as $rows
	  | [.[] | .interval as $dt | .tasks[] | select(.pid == $pid) | . + {dt: $dt}] as $alive
	  | ($rows + $alive) as $all
	  | ($all | map(.delay.io.count) | add) as $count
	  | ($all | map(.delay.io.pct * .dt * 10) | add) as $ms
	  | if ($rows | length) != 1 then "\($rows | length) rows in exited, expected 1"
	    else
	      (if $rows[0].comm != "wl_io" then "comm is \($rows[0].comm)" else empty end),
	      (if $long and ($alive | length) < 2
	       then "caught alive \($alive | length) times in \($t) s" else empty end),
	      (if $count != $kernel.count
	       then "io count \($count) in \($all | length) rows (\($alive | length) alive): \($all | map(.delay.io.count)); the kernel\u0027s exit record says \($kernel.count) (\($reads) reads)"
	       else empty end),
	      (if ($ms - $kernel.ms) | fabs > 0.01 * $kernel.ms + 0.05 * ($all | length)
	       then "io delay \($ms) ms in \($all | length) rows; the kernel\u0027s exit record says \($kernel.ms) ms" else empty end),
	      (if $kernel.count > 0 and $ms <= 0 then "no io delay: \($all | map(.delay.io))" else empty end),
	      (if $ms > $t * 1000 + 80 then "io delay \($ms) ms in a \($t) s life" else empty end)
	    end'
done
# one reader may meet the kernel's stamp-0 wait; all four cannot be left out
[ "$dropped" -le 2 ] || fail "$dropped of the 4 readers had their io dropped"
# a device that completes a read before the reader gets to sleep (one
# served from the host's cache) leaves nothing to wait for; the checks
# above then compare zeros, so at least some reads must have waited
[ "$waited" -gt 0 ] || fail "the kernel counted no io wait for any reader: the device never made one wait"
note "$(jq -c '(.tasks + .exited)[] | select(.comm == "wl_io") | {pid, state, io: .delay.io}' "$TMP/st.out" | tr '\n' ' ')"
exit 0
