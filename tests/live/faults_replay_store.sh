#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Replays of damaged and hostile recordings of readings (store files), the
# cases tests/live/faults_replay.sh holds NDJSON recordings to, each with
# its exact status and what it says. A live run recorded at -d 0.2 -n 70
# (71 samples: the baseline first; key frames at samples 0 and 60) is
# replayed whole: its 70 samples, the live run's values (as
# tests/live/replay_identity.sh compares them, without the evidence the
# recording does not hold yet), silently. Then copies of it:
#  - torn: its last 3 bytes cut off: 69 samples, status 0 (what a crash
#    leaves), the end says the last record is torn;
#  - a byte of sample 10's record flipped: samples 1..9 and 61..70 (10 is
#    damaged, 11..59 are deltas without their base, 60's base is 59),
#    1..9 the live run's; of 61..70, counted from the key frame 60, every
#    value is the live run's (a task whose reading at the key frame is
#    carried has its base there: the key frame holds the counters that
#    stand); one note per sample skipped (11..60, 50: the damaged
#    record is no sample at all), and the end counts 1 damaged part and
#    49 samples that did not decode (11..59); status 3;
#  - a byte of each of samples 56..59's records flipped: 1..55 (the
#    live run's) and 61..70, each over the live run's interval; the key
#    frame 60, whose interval would span the samples lost, is skipped
#    with a note saying so; status 3;
#  - sample 10's record twice in a row: the 70 samples, the live run's,
#    status 3, the end says one record repeated the one before it;
#  - --begin/--end on samples 20 and 30: those 11 samples (20's base, 19,
#    is read from before the window), the live run's;
#  - a directory holding it and an NDJSON recording of 0.1.0: one
#    timeline of both, in time order;
#  - -d 1: samples 5, 10, ... 70 (14), each over 1 s;
#  - a file of the magic and 1 MiB of other bytes, and one whose first
#    record claims 4 GiB: status 2, "is not a recording", at once.
. "$top_srcdir/tests/lib/functions.sh"
live_init
need_cmd dd truncate grep od
export LC_ALL=C
export TMPDIR="$TMP"

REC=$TMP/r.stk
timeout 120 "$STALLTOP" -b --json -d 0.2 -n 70 --record "$REC" \
	>"$TMP/live.json" 2>"$TMP/live.err" ||
	fail "the live run exited $?: $(cat "$TMP/live.err")"

# norm FILE: the samples, arrays in pid order, without "why" (neither
# has cgroups: they are recorded, but shown only with --cgroups)
norm() {
	jq -S -c 'del(.. | .why?)
	  | .tasks |= sort_by(.pid) | .exited |= sort_by(.pid)
	  | if has("thread_tasks") then .thread_tasks |= sort_by(.pid) else . end
	  | if has("thread_exited") then .thread_exited |= sort_by(.pid) else . end' "$1"
}
norm "$TMP/live.json" >"$TMP/live.norm"

# replay NAME ARGS...: --replay ARGS -b --json into $TMP/NAME.json; sets RC
replay() {
	local _n=$1
	shift
	RC=0
	timeout 60 "$STALLTOP" --replay "$@" -b --json >"$TMP/$_n.json" \
		2>"$TMP/$_n.err" || RC=$?
}

# live_part NAME: every sample of NAME is the live run's sample of its time
live_part() {
	local _t
	norm "$TMP/$1.json" >"$TMP/$1.norm"
	grep -v -x -F -f "$TMP/live.norm" "$TMP/$1.norm" >"$TMP/$1.odd"
	[ -s "$TMP/$1.odd" ] || return 0
	# where the first such sample differs from the live one of its time
	_t=$(head -n 1 "$TMP/$1.odd" | jq -r '.time | tostring')
	jq -c --arg t "$_t" 'select((.time | tostring) == $t)' "$TMP/live.norm" >"$TMP/$1.live1"
	head -n 1 "$TMP/$1.odd" >"$TMP/$1.odd1"
	flat "$TMP/$1.live1" >"$TMP/$1.live1.flat"
	flat "$TMP/$1.odd1" >"$TMP/$1.odd1.flat"
	diff "$TMP/$1.live1.flat" "$TMP/$1.odd1.flat" | head -n 20 >&2
	fail "$1: a sample the live run did not print (< live, > replay): $(head -c 600 "$TMP/$1.odd")"
}

# flat FILE: one line per value of FILE's samples (time, where, field)
flat() {
	jq -r 'del(.. | .why?) | . as $s | ($s.time | tostring) as $t
	  | def leaves: paths(type != "object" and type != "array");
	    def field($p): $p | map(tostring) | join(".");
	    (del(.tasks, .exited, .thread_tasks, .thread_exited)
	     | . as $o | leaves as $p
	     | "\($t) sample \(field($p)) = \($o | getpath($p) | tojson)"),
	    (("tasks", "exited", "thread_tasks", "thread_exited") as $k
	     | ($s[$k] // [])[] | . as $r | leaves as $p
	     | "\($t) \($k) pid \($r.pid) \(field($p)) = \($r | getpath($p) | tojson)")' "$1" |
		LC_ALL=C sort
}

# live_values NAME FIRST: from sample FIRST of NAME on, every value is
# the live run's (rows may be missing)
live_values() {
	flat "$TMP/live.json" >"$TMP/live.flat"
	sed -n "$2,\$p" "$TMP/$1.json" >"$TMP/$1.tail"
	flat "$TMP/$1.tail" >"$TMP/$1.flat"
	grep -v -x -F -f "$TMP/live.flat" "$TMP/$1.flat" | head -n 5 >"$TMP/$1.odd"
	[ ! -s "$TMP/$1.odd" ] ||
		fail "$1: values the live run did not print: $(cat "$TMP/$1.odd")"
}

# times NAME: the samples' numbers in the recording (1 = the first shown)
times() {
	jq -r .time "$TMP/$1.json" | while read -r t; do
		jq -r .time "$TMP/live.json" | grep -n -x -F "$t" | cut -d: -f1
	done | tr '\n' ' '
}

replay whole "$REC"
[ "$RC" -eq 0 ] || fail "whole: status $RC: $(cat "$TMP/whole.err")"
[ ! -s "$TMP/whole.err" ] || fail "whole: it said: $(cat "$TMP/whole.err")"
[ "$(lines "$TMP/whole.json")" -eq 70 ] ||
	fail "whole: $(lines "$TMP/whole.json") samples, not 70"
live_part whole

# where the records start: the file header, the session, samples 0..70
grep -obUaP '\xf5STK' "$REC" | cut -d: -f1 >"$TMP/offsets"
[ "$(lines "$TMP/offsets")" -eq 73 ] ||
	hard_error "the recording has $(lines "$TMP/offsets") record marks, not 73"

# torn
size=$(stat -c %s "$REC")
cp "$REC" "$TMP/torn.stk"
truncate -s $((size - 3)) "$TMP/torn.stk"
replay torn "$TMP/torn.stk"
[ "$RC" -eq 0 ] || fail "torn: status $RC: $(cat "$TMP/torn.err")"
[ "$(lines "$TMP/torn.json")" -eq 69 ] ||
	fail "torn: $(lines "$TMP/torn.json") samples, not 69"
grep -q "the last record is torn" "$TMP/torn.err" ||
	fail "torn: it did not say the last record is torn: $(cat "$TMP/torn.err")"
live_part torn

# a byte of sample 10's record (record 12: header, session, 0..9 before)
from=$(sed -n 13p "$TMP/offsets")
to=$(sed -n 14p "$TMP/offsets")
at=$(((from + to) / 2))
cp "$REC" "$TMP/flip.stk"
b=$(od -An -tu1 -j "$at" -N1 "$REC" | tr -d ' ')
printf "$(printf '\\%03o' $((b ^ 64)))" |
	dd of="$TMP/flip.stk" bs=1 seek="$at" conv=notrunc status=none
replay flip "$TMP/flip.stk"
[ "$RC" -eq 3 ] || fail "flip: status $RC, not 3: $(cat "$TMP/flip.err")"
got=$(times flip)
want="1 2 3 4 5 6 7 8 9 61 62 63 64 65 66 67 68 69 70 "
[ "$got" = "$want" ] || fail "flip: samples $got, not $want"
head -n 9 "$TMP/flip.json" >"$TMP/flip9.json"
live_part flip9
live_values flip 10
notes=$(grep -c "was skipped: it, or a sample it is made from, did not decode" "$TMP/flip.err")
[ "$notes" -eq 50 ] || fail "flip: $notes notes of samples skipped, not 50: $(head -c 600 "$TMP/flip.err")"
grep -q "1 damaged part ([0-9]* bytes) was skipped; 49 samples did not decode" "$TMP/flip.err" ||
	fail "flip: the end does not count 1 damaged part and 49 samples: $(tail -n 2 "$TMP/flip.err")"

# a byte of each of samples 56..59's records flipped: the key frame 60
# follows the damage, and its interval would span the 4 samples lost (a
# replay showed it over 1.0 s, the live run over 0.2 s): it is the base
# of 61, said; 1..55 are the live run's, and each sample shown has the
# live run's interval (61..70 are counted from the key frame, whose
# rows the model knows only from it: their values are not held here);
# status 3
cp "$REC" "$TMP/lost.stk"
for s in 56 57 58 59; do
	from=$(sed -n $((s + 3))p "$TMP/offsets")
	to=$(sed -n $((s + 4))p "$TMP/offsets")
	at=$(((from + to) / 2))
	b=$(od -An -tu1 -j "$at" -N1 "$REC" | tr -d ' ')
	printf "$(printf '\\%03o' $((b ^ 64)))" |
		dd of="$TMP/lost.stk" bs=1 seek="$at" conv=notrunc status=none
done
replay lost "$TMP/lost.stk"
[ "$RC" -eq 3 ] || fail "lost: status $RC, not 3: $(cat "$TMP/lost.err")"
got=$(times lost)
want="$(seq -s ' ' 1 55) $(seq -s ' ' 61 70) "
[ "$got" = "$want" ] || fail "lost: samples $got, not $want"
head -n 55 "$TMP/lost.json" >"$TMP/lost55.json"
live_part lost55
jq -r '"\(.time) \(.interval)"' "$TMP/live.json" >"$TMP/live.iv"
jq -r '"\(.time) \(.interval)"' "$TMP/lost.json" >"$TMP/lost.iv"
grep -v -x -F -f "$TMP/live.iv" "$TMP/lost.iv" | head -n 3 >"$TMP/lost.odd"
[ ! -s "$TMP/lost.odd" ] ||
	fail "lost: intervals the live run did not have (time, interval): $(cat "$TMP/lost.odd")"
notes=$(grep -c "was skipped: samples within its interval were lost to damage" "$TMP/lost.err")
[ "$notes" -eq 1 ] || fail "lost: $notes notes of the key frame after the damage, not 1: $(head -c 600 "$TMP/lost.err")"
grep -q "^stalltop: 1 damaged part ([0-9]* bytes) was skipped$" "$TMP/lost.err" ||
	fail "lost: the end does not count 1 damaged part: $(tail -n 2 "$TMP/lost.err")"

# sample 10's record twice in a row: the repeat skipped, said, status 3
{ head -c "$to" "$REC"
  tail -c +$((from + 1)) "$REC" | head -c $((to - from))
  tail -c +$((to + 1)) "$REC"; } >"$TMP/dup.stk"
replay dup "$TMP/dup.stk"
[ "$RC" -eq 3 ] || fail "dup: status $RC, not 3: $(cat "$TMP/dup.err")"
[ "$(cat "$TMP/dup.err")" = "stalltop: 1 record repeated the one right before it and was skipped" ] ||
	fail "dup: it said: $(cat "$TMP/dup.err")"
[ "$(lines "$TMP/dup.json")" -eq 70 ] ||
	fail "dup: $(lines "$TMP/dup.json") samples, not 70"
live_part dup

# --begin/--end
# (the times printed are rounded to the millisecond: a half one around)
t20=$(sed -n 20p "$TMP/live.json" | jq '.time - 0.0005')
t30=$(sed -n 30p "$TMP/live.json" | jq '.time + 0.0005')
replay window "$REC" --begin "@$t20" --end "@$t30"
[ "$RC" -eq 0 ] || fail "window: status $RC: $(cat "$TMP/window.err")"
got=$(times window)
want="20 21 22 23 24 25 26 27 28 29 30 "
[ "$got" = "$want" ] || fail "--begin/--end: samples $got, not $want"
live_part window

# a directory of both kinds
mkdir "$TMP/dir"
cp "$REC" "$TMP/dir/new-name-without-suffix"
old=$top_srcdir/tests/fixtures/recordings/v1-0.1.0.ndjson.gz
cp "$old" "$TMP/dir/"
nold=$(timeout 60 "$STALLTOP" --replay "$old" -b --json | wc -l)
replay dir "$TMP/dir"
[ "$RC" -eq 0 ] || fail "dir: status $RC: $(cat "$TMP/dir.err")"
[ "$(lines "$TMP/dir.json")" -eq $((nold + 70)) ] ||
	fail "dir: $(lines "$TMP/dir.json") samples, not $nold + 70"
jq -s -e '[.[].time] as $t | $t == ($t | sort)' "$TMP/dir.json" >/dev/null ||
	fail "dir: the samples are not in time order"

# -d 1 over 0.2 s samples: every fifth (at least 0.9 s apart)
replay coarse "$REC" -d 1
[ "$RC" -eq 0 ] || fail "-d 1: status $RC: $(cat "$TMP/coarse.err")"
got=$(times coarse)
want="5 10 15 20 25 30 35 40 45 50 55 60 65 70 "
[ "$got" = "$want" ] || fail "-d 1: samples $got, not $want"
# each interval: five recorded ones (0.2 s with the recorder's jitter;
# measured 0.998 to 1.003 s)
jq -e '.interval > 0.95 and .interval < 1.05' "$TMP/coarse.json" |
	grep -q false && fail "-d 1: intervals $(jq -c .interval "$TMP/coarse.json" | tr '\n' ' ')"

# hostile: the magic and other bytes; a record claiming 4 GiB
{ printf '\365STK'; head -c 1048576 /dev/urandom; } >"$TMP/junk.stk"
{ printf '\365STK\002\000\000\000\377\377\377\377'; head -c 100000 /dev/zero; } >"$TMP/huge.stk"
for f in junk huge; do
	replay "$f" "$TMP/$f.stk"
	[ "$RC" -eq 2 ] || fail "$f: status $RC, not 2: $(cat "$TMP/$f.err")"
	grep -q "is not a recording" "$TMP/$f.err" ||
		fail "$f: it did not say it is not a recording: $(cat "$TMP/$f.err")"
done
