#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Record a live run and replay it. A known workload (one process, two busy
# threads sharing one CPU at nice -20: each waits about half the time)
# runs while
#   stalltop --record FILE -b --json -n 3 -d 0.5 > live.json
# then --replay FILE -b --json (the same filtering and sorting: no
# options on either side) must give the same rows: as many samples, with
# the same time and interval, and per sample the same set of
# (pid, comm, delay.cpu.pct, total_pct) in "tasks" and in "exited", the
# workload among them. --replay FILE -b --json -H -p WORKLOAD gives its
# two threads (the thread ids /proc lists), each near 50 % (20..80: the
# figures come from the file, so this only checks they are thread rows of
# a contended pair, not a process sum), and the same as the recording's
# own thread_tasks. The same with a .gz recording (it must really be
# gzip). Then damaged copies:
#  - a torn last line (cut in the middle, no newline): the samples before
#    it, status 0, a note on stderr;
#  - a header of format version 999: a non-zero status, a message naming
#    999 and our own version (the one our recordings carry);
#  - a corrupt middle line: skipped with a note naming the line, the
#    other samples replayed;
# and --record with --replay ends with status 2.
. "$top_srcdir/tests/lib/functions.sh"
live_init
need_cmd gzip od

cpu=$((NCPU - 1))
bg_start spin "$WL/wl_spin" -t 2 -c "$cpu" -N -20
spin=$BG_PID
wait_for has_line "$TMP/spin.out" ready
threads=$(ls "/proc/$spin/task" | sort -n | jq -R -s -c 'split("\n") | map(select(. != "") | tonumber)')
[ "$(echo "$threads" | jq length)" -eq 2 ] || hard_error "the workload has threads $threads, not 2"

# rows FILE: per sample, {time, interval, tasks, exited} with the rows as
# sorted [pid, comm, cpu delay, total] tuples (one line per sample)
rows() {
	jq -c 'select(has("time")) | {time, interval,
	  tasks: ([.tasks[] | [.pid, .comm, .delay.cpu.pct, .total_pct]] | sort),
	  exited: ([.exited[] | [.pid, .comm, .delay.cpu.pct, .total_pct]] | sort)}' "$1"
}

# same LIVE REPLAY WHAT: the replay has the live run's rows
same() {
	rows "$1" >"$TMP/rows.live" && rows "$2" >"$TMP/rows.replay" ||
		fail "$3: jq cannot read the output"
	[ "$(lines "$TMP/rows.replay")" -eq "$(lines "$TMP/rows.live")" ] ||
		fail "$3: $(lines "$TMP/rows.replay") samples replayed, $(lines "$TMP/rows.live") live"
	if ! cmp -s "$TMP/rows.live" "$TMP/rows.replay"; then
		diff "$TMP/rows.live" "$TMP/rows.replay" | head -c 2000 >&2
		fail "$3: the replayed rows differ from the live ones"
	fi
}

# record NAME FILE: a live run recorded to FILE, its output in $TMP/NAME.live
record() {
	timeout 60 "$STALLTOP" --record "$2" -b --json -n 3 -d 0.5 \
		>"$TMP/$1.live" 2>"$TMP/$1.rec.err" ||
		fail "$1: stalltop --record exited $?: $(cat "$TMP/$1.rec.err")"
	check_json "$TMP/$1.live"
	[ "$(lines "$TMP/$1.live")" -eq 3 ] || fail "$1: $(lines "$TMP/$1.live") live samples, expected 3"
	expect "$1: the workload in the live run" "$TMP/$1.live" --argjson spin "$spin" '
	  [.tasks[] | select(.pid == $spin)] | if length != 1 then "\(length) rows of the workload" else empty end'
}

# replay NAME FILE [ARGS...]: --replay FILE -b --json ARGS into $TMP/NAME.out,
# stderr $TMP/NAME.err; sets ST to the exit status
replay() {
	local _n=$1 _f=$2
	shift 2
	timeout 60 "$STALLTOP" --replay "$_f" -b --json "$@" >"$TMP/$_n.out" 2>"$TMP/$_n.err"
	ST=$?
}

# threads NAME FILE: -H -p gives the workload's two recorded threads
threads() {
	replay "$1.H" "$2" -H -p "$spin"
	[ "$ST" -eq 0 ] || fail "$1: --replay -H -p exited $ST: $(cat "$TMP/$1.H.err")"
	[ "$(lines "$TMP/$1.H.out")" -eq 3 ] || fail "$1: -H: $(lines "$TMP/$1.H.out") samples, expected 3"
	expect "$1: -H -p $spin" "$TMP/$1.H.out" --argjson spin "$spin" --argjson th "$threads" '
	  ([.tasks[] | .pid] | sort) as $got
	  | (if $got != $th then "thread rows \($got), expected the threads \($th)" else empty end),
	    (.tasks[] | select(.tgid != $spin) | "row \(.pid) has tgid \(.tgid)"),
	    (.tasks[] | select(.delay.cpu.pct <= 20 or .delay.cpu.pct >= 80)
	     | "thread \(.pid): cpu delay \(.delay.cpu.pct) %, expected about 50")'
	# the same figures as the recording's own thread rows
	jq -c --argjson spin "$spin" 'select(has("time")) |
	  [.tasks[] | select(.tgid == $spin) | [.pid, .delay.cpu.pct]] | sort' "$TMP/$1.H.out" >"$TMP/$1.H.rows"
	$3 "$2" | jq -c --argjson spin "$spin" 'select(has("time")) |
	  [.thread_tasks[] | select(.tgid == $spin) | [.pid, .delay.cpu.pct]] | sort' >"$TMP/$1.H.rec"
	cmp -s "$TMP/$1.H.rows" "$TMP/$1.H.rec" ||
		fail "$1: -H rows $(cat "$TMP/$1.H.rows") differ from the recorded thread rows $(cat "$TMP/$1.H.rec")"
}

# --- plain ---
REC=$TMP/rec.ndjson
record plain "$REC"
[ "$(lines "$REC")" -eq 4 ] || fail "the recording has $(lines "$REC") lines, expected a header and 3 samples"
version=$(head -n 1 "$REC" | jq -e .stalltop_recording) ||
	fail "the first line is not a recording header: $(head -c 200 "$REC")"
replay plain "$REC"
[ "$ST" -eq 0 ] || fail "--replay exited $ST: $(cat "$TMP/plain.err")"
check_json "$TMP/plain.out"
same "$TMP/plain.live" "$TMP/plain.out" "replay"
threads plain "$REC" cat
note "plain: 3 samples, $(jq -s '[.[].tasks | length]' "$TMP/plain.out" | tr -d ' \n') rows each, the same replayed; threads $threads"

# --- gzip ---
RECGZ=$TMP/rec.ndjson.gz
record gz "$RECGZ"
[ "$(od -A n -t x1 -N 2 "$RECGZ" | tr -d ' ')" = 1f8b ] ||
	fail "$RECGZ is not gzip: $(od -A n -t x1 -N 8 "$RECGZ")"
[ "$(gzip -dc "$RECGZ" | wc -l)" -eq 4 ] || fail "$RECGZ does not inflate to 4 lines"
replay gz "$RECGZ"
[ "$ST" -eq 0 ] || fail "--replay .gz exited $ST: $(cat "$TMP/gz.err")"
same "$TMP/gz.live" "$TMP/gz.out" "replay .gz"
threads gz "$RECGZ" "gzip -dc"
note "gzip: the same"

# --- a torn last line ---
size=$(wc -c <"$REC")
last=$(tail -n 1 "$REC" | wc -c)
head -c $((size - last / 2)) "$REC" >"$TMP/torn.ndjson"
replay torn "$TMP/torn.ndjson"
[ "$ST" -eq 0 ] || fail "torn: --replay exited $ST: $(cat "$TMP/torn.err")"
head -n 2 "$TMP/plain.live" >"$TMP/torn.want"
same "$TMP/torn.want" "$TMP/torn.out" "torn"
grep -qi 'torn' "$TMP/torn.err" || fail "torn: no note on stderr: '$(cat "$TMP/torn.err")'"
note "torn: 2 samples, status 0: $(cat "$TMP/torn.err")"

# --- a future version ---
sed "1s/\"stalltop_recording\":$version/\"stalltop_recording\":999/" "$REC" >"$TMP/future.ndjson"
grep -q '"stalltop_recording":999' "$TMP/future.ndjson" || hard_error "cannot make the future header"
replay future "$TMP/future.ndjson"
[ "$ST" -ne 0 ] && [ "$ST" -ne 124 ] || fail "future: --replay exited $ST"
[ -s "$TMP/future.out" ] && fail "future: replayed samples of a format it cannot read"
# (the file name aside, the message must hold both numbers as words)
sed "s|$TMP/future.ndjson||g" "$TMP/future.err" >"$TMP/future.msg"
grep -qw 999 "$TMP/future.msg" && grep -qw "$version" "$TMP/future.msg" ||
	fail "future: the message names not both 999 and $version: $(cat "$TMP/future.err")"
note "future: status $ST: $(cat "$TMP/future.err")"

# --- a corrupt middle line (line 3: the second sample) ---
sed '3s/.*/{"time": 17637, "interval": garbage/' "$REC" >"$TMP/corrupt.ndjson"
replay corrupt "$TMP/corrupt.ndjson"
[ "$ST" -eq 0 ] || fail "corrupt: --replay exited $ST: $(cat "$TMP/corrupt.err")"
sed 2d "$TMP/plain.live" >"$TMP/corrupt.want"
same "$TMP/corrupt.want" "$TMP/corrupt.out" "corrupt"
grep -q 'line 3\b' "$TMP/corrupt.err" || fail "corrupt: no note naming line 3: '$(cat "$TMP/corrupt.err")'"
note "corrupt: samples 1 and 3: $(cat "$TMP/corrupt.err")"

# --- both ---
timeout 10 "$STALLTOP" --record "$TMP/both.ndjson" --replay "$REC" -b --json \
	>"$TMP/both.out" 2>"$TMP/both.err"
ST=$?
[ "$ST" -eq 2 ] || fail "--record with --replay: status $ST, expected 2"
[ -s "$TMP/both.err" ] || fail "--record with --replay: no message"
[ -e "$TMP/both.ndjson" ] && fail "--record with --replay: created the recording"
note "both: $(cat "$TMP/both.err")"
exit 0
