#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Recording the whole machine across pid reuse (issue: nothing from
# outside stops the monitor or its recording).
#  - one reuse: stalltop -b --json -d 0.5 -n 12 --record FILE while
#    wl_reuse -x makes process A (8192 copy-on-write faults) end and a
#    new process B take its pid within a few milliseconds, B ending at
#    once (A ended and B begun in one interval: both lives of the pid in
#    one sample, their starts often both unknown then). stalltop must
#    exit 0 with nothing said on stderr, the file must hold all 13
#    samples (the baseline and 12: tests/lib/stkdump, reading to its
#    end, nothing skipped), and its replay must give 12 samples whose
#    rows of that pid (named wl_reuse) are the live run's, sample by
#    sample, with their start times and faults; in them A and B are two
#    tasks: A's rows (those of the start of its first row, read while it
#    ran) in "exited" once, their faults adding up to 8192 to 8192 + 64
#    (its stack and libc's pages too); B's rows of one start of their
#    own, after A's (or unknown, as the live run had it, when B was known
#    only from its exit record), their faults adding up to 64..128.
#  - churn: the service's command line (-b -q -d 0.5 -n 10 --record
#    DIR/) beside a loop that makes a child end and gives its pid to the
#    next child (ns_last_pid) every 0.1 s: status 0, nothing said, all 11
#    samples (the baseline and 10) in the day's file.
# On the code before lives were keys of their own, both parts died after
# the reuse's sample with "cannot write the recording: Invalid argument".
. "$top_srcdir/tests/lib/functions.sh"
live_init
[ -w /proc/sys/kernel/ns_last_pid ] ||
	skip "no writable /proc/sys/kernel/ns_last_pid (CONFIG_CHECKPOINT_RESTORE)"
need_cmd jq

pages_a=8192
pages_b=64
n=12

# --- one reuse ---
bg_start rec "$STALLTOP" -b --json -d 0.5 -n "$n" --record "$TMP/all.stk"
st=$BG_PID
wait_lines "$TMP/rec.out" 2
bg_start wl "$WL/wl_reuse" -a "$pages_a" -b "$pages_b" -x
reuse=$BG_PID
wait_for has_line "$TMP/wl.out" '^a '
a=$(sed -n 's/^a //p' "$TMP/wl.out")
# A seen whole in a sample, then the reuse
seen_a() {
	jq -e -n --argjson p "$a" --argjson pa "$pages_a" \
		'any(inputs; any(.tasks[]; .pid == $p and .delay.wpcopy.count >= $pa))' \
		"$TMP/rec.out" >/dev/null 2>&1
}
wait_for seen_a
kill -s USR1 "$reuse"
wait_for has_line "$TMP/wl.out" '^b '
b=$(sed -n 's/^b //p' "$TMP/wl.out")
[ "$b" = "$a" ] || hard_error "pid $a did not come back ($b)"
bg_wait "$reuse"
bg_wait "$st"
rc=$?
[ "$rc" -eq 0 ] || fail "the recorder exited $rc: $(cat "$TMP/rec.err")"
[ -s "$TMP/rec.err" ] && fail "the recorder said: $(cat "$TMP/rec.err")"
[ "$(lines "$TMP/rec.out")" -eq "$n" ] ||
	fail "$(lines "$TMP/rec.out") samples shown, $n expected"

stk_dump "$TMP/all.stk" "$TMP/all.dump"
k=$(grep -c '^{"time"' "$TMP/all.dump")
[ "$k" -eq $((n + 1)) ] ||
	fail "the recording holds $k samples, $((n + 1)) were taken (the baseline and $n)"

timeout 60 "$STALLTOP" --replay "$TMP/all.stk" -b --json >"$TMP/replay.out" \
	2>"$TMP/replay.err" || fail "replay exited $?: $(cat "$TMP/replay.err")"
check_json "$TMP/replay.out"
[ "$(lines "$TMP/replay.out")" -eq "$n" ] ||
	fail "the replay gives $(lines "$TMP/replay.out") samples, $n expected"

# rows of the pid named wl_reuse: time, list, start, faults; sorted
lives() {
	jq -r --argjson p "$a" '.time as $t
	  | (.tasks[] | select(.pid == $p and .comm == "wl_reuse")
	     | "\($t) T \(.start) \(.delay.wpcopy.count)"),
	    (.exited[] | select(.pid == $p and .comm == "wl_reuse")
	     | "\($t) X \(.start) \(.delay.wpcopy.count)")' "$1" | sort
}
lives "$TMP/rec.out" >"$TMP/live.lives"
lives "$TMP/replay.out" >"$TMP/replay.lives"
note "pid $a, live rows (time, T task or X exited, start, wpcopy): $(tr '\n' ';' <"$TMP/live.lives")"
cmp -s "$TMP/live.lives" "$TMP/replay.lives" ||
	fail "the replay's rows of pid $a are not the live run's: $(diff "$TMP/live.lives" "$TMP/replay.lives" | tr '\n' ';')"
expect "replay" "$TMP/replay.out" -s --argjson p "$a" --argjson pa "$pages_a" \
	--argjson pb "$pages_b" '
  [.[] | .time as $t | (.tasks + .exited)[]
   | select(.pid == $p and .comm == "wl_reuse") | . + {t: $t}] as $rows
  # A was there first (its start read while it ran); the rest are B
  | ($rows | min_by(.t) | .start) as $sa
  | [$rows[] | select(.start == $sa)] as $a
  | [$rows[] | select(.start != $sa)] as $b
  | ([$b[] | .start] | unique) as $sb
  | (if $sa == null then "A has no start time" else empty end),
    (if ($sb | length) != 1 then "B: start times \($sb), one expected"
     elif $sb[0] != null and $sb[0] <= $sa
     then "B started at \($sb[0]), not after A (\($sa))" else empty end),
    ([$a[] | select(has("state") and .state == "X")] | length
     | if . != 1 then "A (start \($sa)) in exited \(.) times" else empty end),
    ([$a[] | .delay.wpcopy.count] | add
     | if . == null or . < $pa or . > $pa + 64
       then "A (start \($sa)): \(.) faults, \($pa)..\($pa + 64) expected"
       else empty end),
    ([$b[] | .delay.wpcopy.count] | add
     | if . == null or . < $pb or . > 2 * $pb
       then "B: \(.) faults, \($pb)..\(2 * $pb) expected" else empty end)'

# --- churn ---
churn() {
	# a child ends; the next child takes its pid (another task may come
	# first on a busy machine: then it is just a new pid)
	sleep 0.01 &
	p=$!
	wait "$p"
	while :; do
		echo $((p - 1)) >/proc/sys/kernel/ns_last_pid || exit 1
		sleep 0.1 &
		p=$!
		wait "$p"
	done
}
mkdir "$TMP/svc"
churn &
churner=$!
at_cleanup "kill $churner 2>/dev/null"
timeout 60 "$STALLTOP" -b -q -d 0.5 -n 10 --record "$TMP/svc/" \
	>"$TMP/svc.out" 2>"$TMP/svc.err"
rc=$?
kill "$churner" 2>/dev/null
wait "$churner" 2>/dev/null
[ "$rc" -eq 0 ] || fail "churn: the recorder exited $rc: $(cat "$TMP/svc.err")"
[ -s "$TMP/svc.err" ] && fail "churn: the recorder said: $(cat "$TMP/svc.err")"
k=0
for f in "$TMP"/svc/*.stk; do
	stk_dump "$f" "$TMP/svc.dump"
	k=$((k + $(grep -c '^{"time"' "$TMP/svc.dump")))
done
[ "$k" -eq 11 ] ||
	fail "churn: the recording holds $k samples, 11 were taken (the baseline and 10)"
note "churn: the baseline and 10 samples recorded"
exit 0
