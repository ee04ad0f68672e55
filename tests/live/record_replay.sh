#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Record live runs and replay them. Three known workloads run throughout:
#   spin:   one process, two busy threads sharing one CPU at nice -20
#           (each waits about half the time);
#   single: a single-threaded process (sleep);
#   churn:  threads that each live 100 to 200 ms and end, replaced at once
#           (wl_threads at nice 19, so it takes only what is left over).
# Each recording is made by
#   stalltop --record FILE -b --json [-H | -a | --cgroups] -n N -d 0.5
# and --replay FILE -b --json (no filter or sort on either side) must give
# the live run's samples, whole: every key of the sample and of every row
# (each category's pct, count, avg_ms and max_ms, cpu_pct, state, threads,
# cgroup), the exited rows, the cgroups, the recorded thread rows, with
# arrays in pid (cgroups: path) order; the cgroups are recorded without
# --cgroups too, which the live output then does not show. Then:
#  - plain (--cgroups, the whole machine): every sample has ended threads
#    of churn in "thread_exited", marked X with their final figures, and
#    ended for good; --replay -H gives the recorded thread rows and ended
#    threads, whole; -H -p spin gives its two threads (the ids /proc
#    lists), each near 50 % (20..80: they are thread rows of a contended
#    pair, not a process sum); the text output says PID;
#  - gzip (no --cgroups): the same but the cgroups, and the file is
#    really gzip; the recording holds the cgroups all the same (--record
#    records them by default), each sample's with the root named "/";
#  - -H -p spin,single,churn: "threads" true in every sample, the rows are
#    threads (single's too), ended threads of churn among the exited; the
#    replay gives the same with -H and without;
#  - -H -p single: a recording of a single-threaded process alone replays
#    as threads (the text output says TID), which the rows cannot tell;
#  - -a -p spin,churn: "accumulated" true in every sample, the ended
#    threads stay in thread_tasks marked X, the text output says so.
# Then damaged copies and bad use, each with its exact exit status and
# message (so that a crash or a sanitizer's report cannot pass):
#  - a torn last line (cut in the middle, no newline): the samples before
#    it, status 0, the note on stderr;
#  - a header of format version 999: status 2, nothing replayed, the
#    message naming 999 and our own version (the one our recordings carry);
#  - a corrupt middle line: skipped with a note naming the line, the other
#    samples replayed;
#  - a file that is not a recording, and one that does not exist: status 2;
#  - --record with --replay: status 2, and no recording made.
. "$top_srcdir/tests/lib/functions.sh"
live_init
need_cmd gzip od
export LC_ALL=C   # the English messages

cpu=$((NCPU - 1))
bg_start spin "$WL/wl_spin" -t 2 -c "$cpu" -N -20
spin=$BG_PID
bg_start single sleep 600
single=$BG_PID
bg_start churn "$WL/wl_threads" -c 0 -q 0 -N 19 -s 600 -l 100 -k 1
churn=$BG_PID
wait_for has_line "$TMP/spin.out" ready
threads=$(ls "/proc/$spin/task" | sort -n | jq -R -s -c 'split("\n") | map(select(. != "") | tonumber)')
[ "$(echo "$threads" | jq length)" -eq 2 ] || hard_error "the workload has threads $threads, not 2"
# the contender, a churner and the main thread
churn_threads() { [ "$(ls "/proc/$churn/task" | wc -l)" -ge 3 ]; }
wait_for churn_threads
[ "$(ls "/proc/$single/task" | wc -l)" -eq 1 ] || hard_error "sleep is not single-threaded"

# whole FILE: the samples of FILE, one line each, keys and arrays in order
whole() {
	jq -S -c 'select(has("time"))
	  | .tasks |= sort_by(.pid) | .exited |= sort_by(.pid)
	  | if has("thread_tasks") then .thread_tasks |= sort_by(.pid) else . end
	  | if has("thread_exited") then .thread_exited |= sort_by(.pid) else . end
	  | if has("cgroups") then .cgroups |= sort_by(.path) else . end' "$1"
}

# differ WHAT WANT GOT: fail, showing where, unless the files are the same
differ() {
	if ! cmp -s "$2" "$3"; then
		diff "$2" "$3" | head -c 3000 >&2
		echo >&2
		fail "$1"
	fi
}

# same LIVE REPLAY WHAT: the replay has the live run's samples, whole
same() {
	whole "$1" >"$TMP/whole.live" && whole "$2" >"$TMP/whole.replay" ||
		fail "$3: jq cannot read the output"
	# the recording holds the cgroups (--record records them by default),
	# the live output only with --cgroups: the rest is compared
	if ! grep -q '"cgroups":' "$TMP/whole.live"; then
		jq -S -c 'del(.cgroups)' "$TMP/whole.replay" >"$TMP/whole.nocg" &&
			mv "$TMP/whole.nocg" "$TMP/whole.replay" ||
			fail "$3: jq cannot read the replay"
	fi
	[ "$(lines "$TMP/whole.replay")" -eq "$(lines "$TMP/whole.live")" ] ||
		fail "$3: $(lines "$TMP/whole.replay") samples replayed, $(lines "$TMP/whole.live") live"
	differ "$3: the replayed samples differ from the live ones" \
		"$TMP/whole.live" "$TMP/whole.replay"
}

# record NAME FILE N [ARGS...]: a live run of N samples recorded to FILE,
# its output in $TMP/NAME.live
record() {
	local _n=$1 _f=$2 _count=$3
	shift 3
	timeout 60 "$STALLTOP" --record "$_f" -b --json -n "$_count" -d 0.5 "$@" \
		>"$TMP/$_n.live" 2>"$TMP/$_n.rec.err" ||
		fail "$_n: stalltop --record exited $?: $(cat "$TMP/$_n.rec.err")"
	check_json "$TMP/$_n.live"
	[ "$(lines "$TMP/$_n.live")" -eq "$_count" ] ||
		fail "$_n: $(lines "$TMP/$_n.live") live samples, expected $_count"
}

# replay NAME FILE [ARGS...]: --replay FILE -b ARGS into $TMP/NAME.out,
# stderr $TMP/NAME.err; sets ST to the exit status
replay() {
	local _n=$1 _f=$2
	shift 2
	timeout 60 "$STALLTOP" --replay "$_f" -b "$@" >"$TMP/$_n.out" 2>"$TMP/$_n.err"
	ST=$?
}

# replay_ok NAME FILE [ARGS...]: the same, which must succeed in silence
replay_ok() {
	replay "$@"
	[ "$ST" -eq 0 ] || fail "$1: --replay exited $ST: $(cat "$TMP/$1.err")"
	[ -s "$TMP/$1.err" ] && fail "$1: --replay said: $(cat "$TMP/$1.err")"
	return 0
}

# errors NAME STATUS MESSAGE: the replay exited STATUS, printed MESSAGE
# (one line) on stderr and nothing more
errors() {
	[ "$ST" -eq "$2" ] || fail "$1: --replay exited $ST, expected $2: $(cat "$TMP/$1.err")"
	printf '%s\n' "$3" >"$TMP/$1.want"
	differ "$1: the message is not the one expected" "$TMP/$1.want" "$TMP/$1.err"
}

# heading NAME WORD: the text output's table heading starts with WORD
heading() {
	grep -q "^ *$2 USER " "$TMP/$1.out" ||
		fail "$1: no table heading '$2 USER': $(head -c 600 "$TMP/$1.out")"
	grep -q "^ *$3 USER " "$TMP/$1.out" &&
		fail "$1: a table heading says $3: $(head -c 600 "$TMP/$1.out")"
	return 0
}

# ended NAME FILE ARRAY: the threads of churn that ended, in ARRAY of each
# sample of FILE (those marked X, in thread_tasks): at least one in all,
# every one marked X with its final figures, and never seen alive again
ended() {
	expect "$1: ended threads" "$2" -s --argjson churn "$churn" --arg a "$3" '
	  [.[] | select(has("time"))] as $s
	  | ([$s[] | .[$a][] | select(.tgid == $churn and
	      ($a != "thread_tasks" or .state == "X"))]) as $gone
	  | if ($gone | length) == 0 then "no ended thread of \($churn) in \($a)" else empty end,
	    ($gone[] | select(.state != "X" or .pid == .tgid or .cpu_pct == null
	                      or .delay.cpu.count == null or .delay.cpu.pct == null)
	     | "\($a): \(.)"),
	    (range(0; $s | length) as $i
	     | [$s[$i] | .[$a][] | select(.state == "X") | .pid] as $ended
	     | $s[$i:][] | (.tasks + (.thread_tasks // []))[]
	     | select(.state != "X" and (.pid as $p | $ended | index($p)))
	     | "thread \(.pid) ended in sample \($i) but is alive later")'
}

# every NAME FILE FILTER: FILTER holds for every sample of FILE
every() {
	expect "$1" "$2" --argjson spin "$spin" --argjson single "$single" \
		--argjson churn "$churn" "select(has(\"time\"))
		| if ($3) then empty else \"not so in the sample of \\(.time)\" end"
}

# --- plain: the whole machine, with cgroups ---
REC=$TMP/rec.ndjson
record plain "$REC" 3 --cgroups
[ "$(lines "$REC")" -eq 4 ] || fail "the recording has $(lines "$REC") lines, expected a header and 3 samples"
version=$(head -n 1 "$REC" | jq -e .stalltop_recording) ||
	fail "the first line is not a recording header: $(head -c 200 "$REC")"
every "plain: process rows" "$TMP/plain.live" '.threads == false and .accumulated == false
	and (.cgroups | length) > 0 and ([.tasks[] | select(.pid == $spin)] | length) == 1
	and (.thread_exited | type) == "array"'
replay_ok plain "$REC" --json
check_json "$TMP/plain.out"
same "$TMP/plain.live" "$TMP/plain.out" "replay"
ended plain "$REC" thread_exited
# a view of threads: the recorded thread rows and ended threads, whole
replay_ok plain.H "$REC" --json -H
jq -c '{time, tasks: .thread_tasks, exited: .thread_exited}' "$TMP/plain.live" >"$TMP/plain.H.want"
jq -c '{time, tasks, exited}' "$TMP/plain.H.out" >"$TMP/plain.H.got"
same "$TMP/plain.H.want" "$TMP/plain.H.got" "--replay -H"
every "--replay -H: thread rows" "$TMP/plain.H.out" '.threads == true'
replay_ok plain.text "$REC" -n 1
heading plain.text PID TID
grep -q '  interval ' "$TMP/plain.text.out" || fail "plain: the text output does not say interval"

# threads NAME FILE: -H -p gives the workload's two recorded threads
threads() {
	replay_ok "$1.spin" "$2" --json -H -p "$spin"
	[ "$(lines "$TMP/$1.spin.out")" -eq 3 ] || fail "$1: -H: $(lines "$TMP/$1.spin.out") samples, expected 3"
	expect "$1: -H -p $spin" "$TMP/$1.spin.out" --argjson spin "$spin" --argjson th "$threads" '
	  ([.tasks[] | .pid] | sort) as $got
	  | (if $got != $th then "thread rows \($got), expected the threads \($th)" else empty end),
	    (.tasks[] | select(.tgid != $spin) | "row \(.pid) has tgid \(.tgid)"),
	    (.tasks[] | select(.delay.cpu.pct <= 20 or .delay.cpu.pct >= 80)
	     | "thread \(.pid): cpu delay \(.delay.cpu.pct) %, expected about 50")'
}
threads plain "$REC"
note "plain: 3 samples, $(jq -s '[.[].tasks | length]' "$TMP/plain.out" | tr -d ' \n') rows, $(jq -s '[.[].thread_exited | length]' "$TMP/plain.live" | tr -d ' \n') ended threads, the same replayed; threads $threads"

# --- gzip ---
RECGZ=$TMP/rec.ndjson.gz
record gz "$RECGZ" 3
[ "$(od -A n -t x1 -N 2 "$RECGZ" | tr -d ' ')" = 1f8b ] ||
	fail "$RECGZ is not gzip: $(od -A n -t x1 -N 8 "$RECGZ")"
[ "$(gzip -dc "$RECGZ" | wc -l)" -eq 4 ] || fail "$RECGZ does not inflate to 4 lines"
replay_ok gz "$RECGZ" --json
every "gz: cgroups recorded by default" "$TMP/gz.out" \
	'[.cgroups[]? | select(.path == "/" and .name == "/")] | length == 1'
same "$TMP/gz.live" "$TMP/gz.out" "replay .gz"
threads gz "$RECGZ"
note "gzip: the same"

# --- -H: thread rows, a single-threaded process among them ---
RECH=$TMP/threads.ndjson
record H "$RECH" 3 -H -p "$spin,$single,$churn"
every "-H: thread rows" "$TMP/H.live" '.threads == true and .accumulated == false
	and ([.tasks[] | select(.pid == $single and .tgid == $single)] | length) == 1
	and ([.tasks[] | select(.tgid == $spin)] | length) == 2
	and (has("thread_tasks") | not)'
ended H "$RECH" exited
replay_ok H "$RECH" --json
same "$TMP/H.live" "$TMP/H.out" "replay of -H"
replay_ok H.H "$RECH" --json -H
same "$TMP/H.live" "$TMP/H.H.out" "replay of -H with -H"
replay_ok H.text "$RECH" -n 1
heading H.text TID PID
note "-H: $(jq -s '[.[].tasks | length]' "$TMP/H.live" | tr -d ' \n') thread rows, $(jq -s '[.[].exited | length]' "$TMP/H.live" | tr -d ' \n') ended, the same replayed"

# --- -H of a single-threaded process alone ---
RECS=$TMP/single.ndjson
record single "$RECS" 2 -H -p "$single"
every "-H -p single: its one thread row" "$TMP/single.live" '.threads == true
	and ([.tasks[] | .pid] == [$single])'
replay_ok single "$RECS" --json
same "$TMP/single.live" "$TMP/single.out" "replay of -H -p single"
replay_ok single.text "$RECS" -n 1
heading single.text TID PID
note "-H -p single: thread rows replayed as thread rows"

# --- -a: figures since the start ---
RECA=$TMP/accumulated.ndjson
record A "$RECA" 3 -a -p "$spin,$churn"
every "-a: accumulated" "$TMP/A.live" '.accumulated == true and .threads == false
	and (.thread_exited == [])'
ended A "$RECA" thread_tasks
replay_ok A "$RECA" --json
same "$TMP/A.live" "$TMP/A.out" "replay of -a"
replay_ok A.text "$RECA" -n 1
grep -q '  accumulated ' "$TMP/A.text.out" ||
	fail "-a: the text output does not say accumulated: $(head -n 1 "$TMP/A.text.out")"
note "-a: accumulated, the same replayed"

# --- a torn last line ---
size=$(wc -c <"$REC")
last=$(tail -n 1 "$REC" | wc -c)
head -c $((size - last / 2)) "$REC" >"$TMP/torn.ndjson"
replay torn "$TMP/torn.ndjson" --json
errors torn 0 "stalltop: the last record is torn (incomplete) and was ignored"
head -n 2 "$TMP/plain.live" >"$TMP/torn.want"
same "$TMP/torn.want" "$TMP/torn.out" "torn"
note "torn: 2 samples, status 0: $(cat "$TMP/torn.err")"

# --- a future version ---
F=$TMP/future.ndjson
sed "1s/\"stalltop_recording\":$version/\"stalltop_recording\":999/" "$REC" >"$F"
grep -q '"stalltop_recording":999' "$F" || hard_error "cannot make the future header"
replay future "$F" --json
errors future 2 "stalltop: --replay '$F': $F is a recording of format version 999, but this stalltop reads versions up to $version: use a newer stalltop"
[ -s "$TMP/future.out" ] && fail "future: replayed samples of a format it cannot read"
note "future: status $ST: $(cat "$TMP/future.err")"

# --- a corrupt middle line (line 3: the second sample) ---
sed '3s/.*/{"time": 17637, "interval": garbage/' "$REC" >"$TMP/corrupt.ndjson"
replay corrupt "$TMP/corrupt.ndjson" --json
errors corrupt 0 "stalltop: line 3 was skipped: it ends in the middle of its JSON object (cut short)"
sed 2d "$TMP/plain.live" >"$TMP/corrupt.want"
same "$TMP/corrupt.want" "$TMP/corrupt.out" "corrupt"
note "corrupt: samples 1 and 3: $(cat "$TMP/corrupt.err")"

# --- not a recording; no file ---
N=$TMP/plain.live
replay notrec "$N" --json
errors notrec 2 "stalltop: --replay '$N': $N is not a stalltop recording (its first line is not a recording header)"
[ -s "$TMP/notrec.out" ] && fail "not a recording: replayed something"
N=$TMP/nothing.ndjson
replay nofile "$N" --json
errors nofile 2 "stalltop: --replay '$N': cannot open $N: No such file or directory"
note "not a recording, no file: status 2"

# --- both ---
timeout 10 "$STALLTOP" --record "$TMP/both.ndjson" --replay "$REC" -b --json \
	>"$TMP/both.out" 2>"$TMP/both.err"
ST=$?
errors both 2 "stalltop: --record and --replay do not go together"
[ -s "$TMP/both.out" ] && fail "--record with --replay: wrote samples"
[ -e "$TMP/both.ndjson" ] && fail "--record with --replay: created the recording"
note "both: $(cat "$TMP/both.err")"
exit 0
