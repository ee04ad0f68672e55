#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Record live runs and replay them. Three known workloads run throughout:
#   spin:   one process, two busy threads sharing one CPU at nice -20
#           (each waits about half the time);
#   single: a single-threaded process (sleep);
#   churn:  threads that each live 100 to 200 ms and end, replaced at once
#           (wl_threads at nice 0: at nice 19 its session's autogroup
#           gets 15/1039 of a CPU another session keeps busy, and on a
#           busy machine its threads outlived the three samples).
# Each recording (of readings, a store file) is made by
#   stalltop --record FILE -b --json [-H | -a | --cgroups] -n N -d 0.5
# and holds a session record and N + 1 samples (the baseline first:
# tests/lib/stkdump reads it to its end); --replay FILE -b --json (no
# filter or sort on either side, -H, -a and --cgroups as recorded) must
# give the live run's samples, whole: every key of the sample and of every row
# (each category's pct, count, avg_ms and max_ms, cpu_pct, state,
# threads, cgroup), the exited rows, the cgroups, the thread rows, with
# arrays in pid (cgroups: path) order; the cgroups are recorded without
# --cgroups too, and shown only with --cgroups, live or replayed. The
# exceptions tests/live/replay_identity.sh makes and says why are made
# here too: the evidence ("why") only where the replay has any, the
# cgroups' PSI shares of the first sample only where the replay has
# them (else they must be null). Then:
#  - plain (--cgroups, the whole machine): every sample has ended threads
#    of churn in "thread_exited", marked X with their final figures, and
#    ended for good; --replay -H gives the live run's thread rows and
#    ended threads, whole; -H -p spin gives its two threads (the ids
#    /proc lists), each near 50 % (20..80: they are thread rows of a
#    contended pair, not a process sum); the text output says PID;
#  - nocg (no --cgroups): the same but the cgroups; the recording holds
#    the cgroups all the same (--record records them by default), each
#    sample's after the baseline with the root "/"; the replay shows none
#    (JSON, text), as the live run, but with --cgroups, which names it
#    "/" in each sample (a text block each); a name ending in .gz is
#    refused (status 1, no file made);
#  - -H -p spin,single,churn: "threads" true in every sample, the rows are
#    threads (single's too), ended threads of churn among the exited; the
#    recording's samples say threads; the replay gives the same with -H
#    and without;
#  - -H -p single: a recording of a single-threaded process alone replays
#    as threads (the text output says TID), which the rows cannot tell;
#  - -a -p spin,churn: "accumulated" true in every sample, the ended
#    threads stay in thread_tasks marked X, the text output says so.
# Then bad use, each with its exact exit status and message (so that a
# crash or a sanitizer's report cannot pass):
#  - a file that is not a recording, and one that does not exist: status 2;
#  - --record with --replay: status 2, and no recording made.
# Damaged recordings: of readings, tests/live/faults_replay_store.sh (a
# torn end, a damaged record, the magic and other bytes; a newer format
# version: tests/unit/test_frame); of NDJSON (0.1.0), tests/live/
# replay_v1.sh (a torn last line, a header of version 999, a corrupt
# middle line) and tests/live/faults_replay.sh.
. "$top_srcdir/tests/lib/functions.sh"
live_init
need_cmd jq
export LC_ALL=C   # the English messages

cpu=$((NCPU - 1))
bg_start spin "$WL/wl_spin" -t 2 -c "$cpu" -N -20
spin=$BG_PID
bg_start single sleep 600
single=$BG_PID
bg_start churn "$WL/wl_threads" -c 0 -q 0 -s 600 -l 100 -k 1
churn=$BG_PID
wait_for has_line "$TMP/spin.out" ready
threads=$(ls "/proc/$spin/task" | sort -n | jq -R -s -c 'split("\n") | map(select(. != "") | tonumber)')
[ "$(echo "$threads" | jq length)" -eq 2 ] || hard_error "the workload has threads $threads, not 2"
# the contender, a churner and the main thread
churn_threads() { [ "$(ls "/proc/$churn/task" | wc -l)" -ge 3 ]; }
wait_for churn_threads
[ "$(ls "/proc/$single/task" | wc -l)" -eq 1 ] || hard_error "sleep is not single-threaded"

# differ WHAT WANT GOT: fail, showing where, unless the files are the same
differ() {
	if ! cmp -s "$2" "$3"; then
		diff "$2" "$3" | head -c 3000 >&2
		echo >&2
		fail "$1"
	fi
}

# drop FILE PATTERN: the lines of FILE that match PATTERN (grep -e) left out
drop() {
	grep -v -e "$2" "$1" >"$1.f"
	mv "$1.f" "$1"
}

# same LIVE REPLAY WHAT: the replay has the live run's samples, whole,
# but for the exceptions said at the top
same() {
	local _l=$TMP/same.live _r=$TMP/same.replay _t1 _pct
	[ "$(jq -s 'map(select(has("time"))) | length' "$2")" -eq \
	  "$(jq -s 'map(select(has("time"))) | length' "$1")" ] ||
		fail "$3: $(lines "$2") samples replayed, $(lines "$1") live"
	json_flat "$1" >"$_l" && json_flat "$2" >"$_r" || fail "$3: jq cannot read the output"
	[ -s "$_l" ] || fail "$3: the live run printed nothing"
	# no evidence readings in the recording: "why" is left out
	grep -q ' why\.' "$_r" || drop "$_l" ' why\.'
	# no cgroup pressure before the first sample: its shares unknown
	_t1=$(jq -r 'select(has("time")) | .time | tostring' "$1" | head -n 1)
	_pct="^$_t1 cgroups .* psi\.[a-z]*\.[a-z]*\.pct = "
	if grep -q "${_pct}null" "$_r"; then
		grep "$_pct" "$_r" | grep -v '= null$' | head -3 >"$TMP/same.known"
		[ ! -s "$TMP/same.known" ] ||
			fail "$3: the first sample's cgroup PSI shares are partly known: $(cat "$TMP/same.known")"
		drop "$_l" "$_pct"
		drop "$_r" "$_pct"
	fi
	if ! cmp -s "$_l" "$_r"; then
		diff "$_l" "$_r" | head -40 >&2
		fail "$3: the replayed samples differ from the live ones (< live, > replay)"
	fi
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
	stk_dump "$_f" "$TMP/$_n.stk.json"
	[ "$(grep -c '^{"session"' "$TMP/$_n.stk.json")" -eq 1 ] ||
		fail "$_n: the recording holds $(grep -c '^{"session"' "$TMP/$_n.stk.json") session records, expected 1"
	[ "$(stk_samples "$_f")" -eq $((_count + 1)) ] ||
		fail "$_n: the recording holds $(stk_samples "$_f") samples, expected the baseline and $_count"
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
# sample of FILE (a replay's output; those marked X, in thread_tasks): at
# least one in all,
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
REC=$TMP/rec.stk
record plain "$REC" 3 --cgroups
every "plain: process rows" "$TMP/plain.live" '.threads == false and .accumulated == false
	and (.cgroups | length) > 0 and ([.tasks[] | select(.pid == $spin)] | length) == 1
	and (.thread_exited | type) == "array"'
replay_ok plain "$REC" --json --cgroups
check_json "$TMP/plain.out"
same "$TMP/plain.live" "$TMP/plain.out" "replay"
ended plain "$TMP/plain.out" thread_exited
# a view of threads: the live run's thread rows and ended threads, whole
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
note "plain: 3 samples, $(jq -s '[.[].tasks | length]' "$TMP/plain.out" | tr -d ' \n') rows, $(jq -s '[.[].thread_exited | length]' "$TMP/plain.out" | tr -d ' \n') ended threads, the live run's; threads $threads"

# --- without --cgroups: recorded all the same ---
RECN=$TMP/nocg.stk
record nocg "$RECN" 3
jq -e -s 'map(select(has("time")))[1:] | length == 3
	and all(.[]; [.cgroups[] | select(. == "/")] | length == 1)' \
	"$TMP/nocg.stk.json" >/dev/null ||
	fail "nocg: the recording's samples do not each hold the root cgroup: $(jq -c '.cgroups? // empty' "$TMP/nocg.stk.json" | head -c 300)"
replay_ok nocg "$RECN" --json
every "nocg: no cgroups without --cgroups, as live" "$TMP/nocg.out" \
	'has("cgroups") | not'
same "$TMP/nocg.live" "$TMP/nocg.out" "replay without --cgroups"
replay_ok nocgtext "$RECN"
grep -q '^Cgroups' "$TMP/nocgtext.out" &&
	fail "nocg: the text replay without --cgroups shows cgroups: $(grep '^Cgroups' "$TMP/nocgtext.out" | head -n 1)"
replay_ok nocgon "$RECN" --json --cgroups
every "nocg: cgroups recorded by default, shown with --cgroups" "$TMP/nocgon.out" \
	'[.cgroups[]? | select(.path == "/" and .name == "/")] | length == 1'
replay_ok nocgtexton "$RECN" --cgroups
[ "$(grep -c '^Cgroups' "$TMP/nocgtexton.out")" -eq 3 ] ||
	fail "nocg: the text replay with --cgroups has $(grep -c '^Cgroups' "$TMP/nocgtexton.out") blocks of cgroups, not 3"
threads nocg "$RECN"
timeout 10 "$STALLTOP" --record "$TMP/gz.stk.gz" -b --json -n 1 -d 0.5 \
	>"$TMP/gz.out" 2>"$TMP/gz.err"
ST=$?
errors gz 1 "stalltop: --record '$TMP/gz.stk.gz': $TMP/gz.stk.gz: a recording is compressed record by record; name it without .gz (such as one ending in .stk)"
[ -e "$TMP/gz.stk.gz" ] && fail "--record NAME.gz: created the file"
note "nocg: the same; .gz: $(cat "$TMP/gz.err")"

# --- -H: thread rows, a single-threaded process among them ---
RECH=$TMP/threads.stk
record H "$RECH" 3 -H -p "$spin,$single,$churn"
every "-H: thread rows" "$TMP/H.live" '.threads == true and .accumulated == false
	and ([.tasks[] | select(.pid == $single and .tgid == $single)] | length) == 1
	and ([.tasks[] | select(.tgid == $spin)] | length) == 2
	and (has("thread_tasks") | not)'
jq -e -s 'map(select(has("time"))) | all(.[]; .threads)' "$TMP/H.stk.json" >/dev/null ||
	fail "-H: a sample of the recording does not say threads"
replay_ok H "$RECH" --json -H
ended H "$TMP/H.out" exited
same "$TMP/H.live" "$TMP/H.out" "replay of -H with -H"
replay_ok H.plain "$RECH" --json
same "$TMP/H.live" "$TMP/H.plain.out" "replay of -H"
replay_ok H.text "$RECH" -n 1
heading H.text TID PID
note "-H: $(jq -s '[.[].tasks | length]' "$TMP/H.live" | tr -d ' \n') thread rows, $(jq -s '[.[].exited | length]' "$TMP/H.live" | tr -d ' \n') ended, the same replayed"

# --- -H of a single-threaded process alone ---
RECS=$TMP/single.stk
record single "$RECS" 2 -H -p "$single"
every "-H -p single: its one thread row" "$TMP/single.live" '.threads == true
	and ([.tasks[] | .pid] == [$single])'
replay_ok single "$RECS" --json
same "$TMP/single.live" "$TMP/single.out" "replay of -H -p single"
replay_ok single.text "$RECS" -n 1
heading single.text TID PID
note "-H -p single: thread rows replayed as thread rows"

# --- -a: figures since the start ---
RECA=$TMP/accumulated.stk
record A "$RECA" 3 -a -p "$spin,$churn"
every "-a: accumulated" "$TMP/A.live" '.accumulated == true and .threads == false
	and (.thread_exited == [])'
replay_ok A "$RECA" --json -a
ended A "$TMP/A.out" thread_tasks
same "$TMP/A.live" "$TMP/A.out" "replay of -a"
replay_ok A.text "$RECA" -n 1 -a
grep -q '  accumulated ' "$TMP/A.text.out" ||
	fail "-a: the text output does not say accumulated: $(head -n 1 "$TMP/A.text.out")"
note "-a: accumulated, the same replayed"

# --- not a recording; no file ---
N=$TMP/plain.live
replay notrec "$N" --json
errors notrec 2 "stalltop: --replay '$N': $N is not a stalltop recording (its first line is not a recording header)"
[ -s "$TMP/notrec.out" ] && fail "not a recording: replayed something"
N=$TMP/nothing.stk
replay nofile "$N" --json
errors nofile 2 "stalltop: --replay '$N': cannot open $N: No such file or directory"
note "not a recording, no file: status 2"

# --- both ---
timeout 10 "$STALLTOP" --record "$TMP/both.stk" --replay "$REC" -b --json \
	>"$TMP/both.out" 2>"$TMP/both.err"
ST=$?
errors both 2 "stalltop: --record and --replay do not go together"
[ -s "$TMP/both.out" ] && fail "--record with --replay: wrote samples"
[ -e "$TMP/both.stk" ] && fail "--record with --replay: created the recording"
note "both: $(cat "$TMP/both.err")"
exit 0
