#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A recording of format version 1, made by stalltop 0.1.0
# (tests/fixtures/recordings/README), still replays: --replay FILE -b
# --json --cgroups (0.1.0 wrote the cgroups in every sample; they are
# shown only with --cgroups, as live, and none without it) gives the
# file's five samples whole (every key of the sample
# and of every row, arrays in pid order, cgroups in path order; keys
# written since are null: json_as_then), so every figure shown is the
# one recorded; and the text output shows
# wl_spin's recorded CPU delay of each sample (166.2, 168.0, 168.0,
# 167.2, 166.4 %) and its two threads with -H. Then damaged copies of
# it, each with its exact exit status and message (so that a crash or a
# sanitizer's report cannot pass):
#  - a torn last line (cut in the middle, no newline): the samples before
#    it, status 0, the note on stderr;
#  - a header of format version 999: status 2, nothing replayed, the
#    message naming 999 and the version this stalltop reads (1);
#  - a corrupt middle line (line 3, the second sample): skipped with a
#    note naming the line, the other samples replayed, status 3.
# No privilege is needed; the live-test lock keeps other tests' load off
# the run (the replay itself measures nothing).
. "$top_srcdir/tests/lib/functions.sh"
live_lock
need_cmd jq gzip
export LC_ALL=C   # the English messages

REC=$top_srcdir/tests/fixtures/recordings/v1-0.1.0.ndjson.gz

# whole: the samples of stdin, one line each, keys and arrays in order
whole() {
	jq -S -c 'select(has("time"))
	  | .tasks |= sort_by(.pid) | .exited |= sort_by(.pid)
	  | if has("thread_tasks") then .thread_tasks |= sort_by(.pid) else . end
	  | if has("thread_exited") then .thread_exited |= sort_by(.pid) else . end
	  | if has("cgroups") then .cgroups |= sort_by(.path) else . end'
}

[ "$(gzip -dc "$REC" | head -n 1 | jq .stalltop_recording)" = 1 ] ||
	hard_error "the fixture is not a version 1 recording"

timeout 60 "$STALLTOP" --replay "$REC" -b --json --cgroups >"$TMP/out" 2>"$TMP/err"
st=$?
[ "$st" -eq 0 ] || fail "--replay --json exited $st: $(cat "$TMP/err")"
[ ! -s "$TMP/err" ] || fail "the replay said: $(cat "$TMP/err")"
gzip -dc "$REC" | whole >"$TMP/want" || hard_error "jq cannot read the fixture"
whole <"$TMP/out" >"$TMP/got" || fail "jq cannot read the replay: $(head -c 300 "$TMP/out")"
[ "$(lines "$TMP/got")" -eq 5 ] ||
	fail "$(lines "$TMP/got") samples replayed, the recording has 5"
json_as_then "$TMP/want" "$TMP/got" >"$TMP/diff" ||
	fail "the replayed samples differ from the recorded ones: $(head -n 1 "$TMP/diff")"
timeout 60 "$STALLTOP" --replay "$REC" -b --json >"$TMP/nocg" 2>"$TMP/err" ||
	fail "--replay --json exited $?: $(cat "$TMP/err")"
[ "$(jq -c 'has("cgroups")' "$TMP/nocg" | sort -u)" = false ] ||
	fail "the replay without --cgroups shows cgroups"

# the text output: wl_spin's CPU delay of each sample, as recorded
timeout 60 "$STALLTOP" --replay "$REC" -b >"$TMP/text" 2>"$TMP/err" ||
	fail "--replay (text) exited $?: $(cat "$TMP/err")"
got=$(awk '$NF == "wl_spin" { printf "%s ", $5 }' "$TMP/text")
[ "$got" = "166.2 168.0 168.0 167.2 166.4 " ] ||
	fail "wl_spin's CPU delay in the text replay: '$got', recorded 166.2 168.0 168.0 167.2 166.4"

# -H: the recorded thread rows, both threads of wl_spin near 83 %
timeout 60 "$STALLTOP" --replay "$REC" -b -H --json >"$TMP/threads" 2>"$TMP/err" ||
	fail "--replay -H exited $?: $(cat "$TMP/err")"
n=$(jq -c '[.tasks[] | select(.comm == "wl_spin" and .delay.cpu.pct > 80)] | length' "$TMP/threads" | sort -u | tr '\n' ' ')
[ "$n" = "2 " ] || fail "wl_spin threads above 80 % CPU delay per sample with -H: $n, recorded 2"

# damaged copies: replay NAME FILE, which must say exactly MESSAGE and
# end with STATUS: damaged NAME FILE STATUS MESSAGE
damaged() {
	timeout 60 "$STALLTOP" --replay "$2" -b --json --cgroups >"$TMP/$1.out" 2>"$TMP/$1.err"
	st=$?
	[ "$st" -eq "$3" ] || fail "$1: --replay exited $st, expected $3: $(cat "$TMP/$1.err")"
	printf '%s\n' "$4" >"$TMP/$1.want"
	cmp -s "$TMP/$1.want" "$TMP/$1.err" ||
		fail "$1: it said \"$(cat "$TMP/$1.err")\", expected \"$4\""
}
gzip -dc "$REC" >"$TMP/v1.ndjson" || hard_error "cannot inflate the fixture"
size=$(wc -c <"$TMP/v1.ndjson")
last=$(tail -n 1 "$TMP/v1.ndjson" | wc -c)
head -c $((size - last / 2)) "$TMP/v1.ndjson" >"$TMP/torn.ndjson"
damaged torn "$TMP/torn.ndjson" 0 "stalltop: the last record is torn (incomplete) and was ignored"
head -n 4 "$TMP/want" >"$TMP/torn.want"
whole <"$TMP/torn.out" >"$TMP/torn.got"
json_as_then "$TMP/torn.want" "$TMP/torn.got" >"$TMP/torn.diff" ||
	fail "torn: the samples replayed are not the first 4 recorded: $(head -n 1 "$TMP/torn.diff")"

F=$TMP/future.ndjson
sed '1s/"stalltop_recording":1,/"stalltop_recording":999,/' "$TMP/v1.ndjson" >"$F"
grep -q '"stalltop_recording":999' "$F" || hard_error "cannot make the future header"
damaged future "$F" 2 "stalltop: --replay '$F': $F is a recording of format version 999, but this stalltop reads versions up to 1: use a newer stalltop"
[ -s "$TMP/future.out" ] && fail "future: replayed samples of a format it cannot read"

sed '3s/.*/{"time": 17637, "interval": garbage/' "$TMP/v1.ndjson" >"$TMP/corrupt.ndjson"
damaged corrupt "$TMP/corrupt.ndjson" 3 "stalltop: line 3 was skipped: it ends in the middle of its JSON object (cut short)"
sed 2d "$TMP/want" >"$TMP/corrupt.want"
whole <"$TMP/corrupt.out" >"$TMP/corrupt.got"
json_as_then "$TMP/corrupt.want" "$TMP/corrupt.got" >"$TMP/corrupt.diff" ||
	fail "corrupt: the samples replayed are not samples 1, 3, 4 and 5 as recorded: $(head -n 1 "$TMP/corrupt.diff")"
exit 0
