#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Fork and exit events are taken in batches (src/live/events.c): once a
# drain of the proc connector's socket woke the loop, that socket is not
# watched for 50 ms, so a storm of forks does not wake stalltop for each
# event. stalltop -b -d 0.5 under strace from its start, while wl_storm
# forks 2,000 short-lived children one after the other (about 4,000
# events in a few tenths of a second, seconds under the sanitizers), and
# on for two samples after the storm ended, so that every child's end
# is in its output however slow the machine: each drain of the
# connector's socket ends with a read that finds it empty (EAGAIN), and
# there are at most one per 50 ms of the run plus the two of each
# refresh: the bound follows from the hold, no tolerance (measured: 24
# in 3 s on a quiet machine, 68 of at most 76 while other work forked
# all along; 861 when every wakeup drained). The
# control: every child is in "exited" (the events were there, and none
# was lost to the batching).
. "$top_srcdir/tests/lib/functions.sh"
live_init
need_cmd strace

count=2000
at=$(now_ms)
# (LeakSanitizer cannot run under ptrace: the other tests check leaks)
bg_start st env ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	strace -f -e trace=socket,recvmsg -o "$TMP/st.trace" \
	"$STALLTOP" -b --json -d 0.5 -n 1000
ST=$BG_PID
wait_lines "$TMP/st.out" 1
bg_start storm env ASAN_OPTIONS=detect_leaks=0 "$WL/wl_storm" -n "$count" -j 1 "$TMP/pids"
bg_wait "$BG_PID" || fail "wl_storm failed: $(cat "$TMP/storm.err")"
# two samples after the storm's end hold the last children's ends
wait_more_lines "$TMP/st.out" 2
# SIGTERM ends a live batch run normally (status 0), its output whole
kill -s TERM "$(pgrep -P "$ST" -x stalltop)" 2>/dev/null ||
	hard_error "no stalltop under strace to stop"
bg_wait "$ST" || fail "stalltop under strace failed: $(tail -n 3 "$TMP/st.err")"
ms=$(($(now_ms) - at))
samples=$(lines "$TMP/st.out")
[ "$samples" -ge 3 ] || fail "3 samples or more expected: $samples"

storm=$(sed -n 's/^done \([0-9]*\) .*/\1/p' "$TMP/storm.out")
[ "$storm" = "$count" ] || hard_error "wl_storm did not finish: $(cat "$TMP/storm.out")"
jq -r '.exited[] | select(.comm == "wl_storm") | .pid' "$TMP/st.out" | sort -u >"$TMP/seen"
sort -u "$TMP/pids" >"$TMP/spawned"
missing=$(comm -23 "$TMP/spawned" "$TMP/seen" | wc -l)
[ "$missing" -eq 0 ] || fail "$missing of $count children not in \"exited\""

fd=$(sed -n 's/.*socket(AF_NETLINK, .*NETLINK_CONNECTOR) = \([0-9]*\)$/\1/p' "$TMP/st.trace" | head -n 1)
[ -n "$fd" ] || hard_error "no proc connector socket in the trace: $(grep -c socket "$TMP/st.trace") sockets"
drains=$(grep -c "recvmsg($fd, .*EAGAIN" "$TMP/st.trace")
# one per 50 ms of the run (and the first), two per refresh (the
# samples, and the baseline's)
bound=$((ms / 50 + 1 + 2 * (samples + 1)))
[ "$drains" -le "$bound" ] ||
	fail "the connector's socket was drained $drains times in $ms ms under $count forks: more than $bound (one per 50 ms, the first and two a refresh)"
note "$drains drains of the connector's socket in $ms ms (at most $bound) for $count forks, all of them in \"exited\""
exit 0
