#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A recording of readings (a store file) read through a pipe, a FIFO or
# a device replays as the file itself does: a live run recorded at -d 0.2
# -n 5 (its baseline and 5 samples) is replayed from the file, and then
#  - through a pipe (--replay <(cat FILE), /dev/stdin): the same 5
#    samples, byte for byte, status 0, nothing said;
#  - through a FIFO whose writer comes 0.3 s later: the same;
#  - a FIFO that no writer opens is waited for, and SIGTERM (143) or
#    SIGINT (130) ends the wait within 0.5 s;
#  - a pipe holding neither format (a line of text): status 2, "is not a
#    stalltop recording"; one holding the magic of a recording of
#    readings and then other bytes: status 2, "is not a recording: no
#    record in it holds".
. "$top_srcdir/tests/lib/functions.sh"
live_init
need_cmd jq timeout nice mkfifo
export LC_ALL=C   # the English messages
export TMPDIR="$TMP"  # the replay's temporary copies, removed with $TMP

REC=$TMP/r.stk
timeout 60 "$STALLTOP" -b --json -d 0.2 -n 5 --record "$REC" \
	>"$TMP/live.json" 2>"$TMP/live.err" ||
	fail "the live run exited $?: $(cat "$TMP/live.err")"
[ "$(stk_samples "$REC")" -eq 6 ] ||
	fail "the recording holds $(stk_samples "$REC") samples, expected 6"

# replay NAME ARGS...: stalltop --replay ARGS -b --json (60 s at most): $ST
replay() {
	local _n=$1
	shift
	timeout 60 "$STALLTOP" -b --json --replay "$@" >"$TMP/$_n.out" 2>"$TMP/$_n.err"
	ST=$?
}

# same NAME: the replay ended well, in silence, with the file's samples
same() {
	[ "$ST" -eq 0 ] || fail "$1: status $ST: $(cat "$TMP/$1.err")"
	[ -s "$TMP/$1.err" ] && fail "$1: it said $(cat "$TMP/$1.err")"
	cmp -s "$TMP/file.out" "$TMP/$1.out" ||
		fail "$1: the samples differ from the file's: $(diff "$TMP/file.out" "$TMP/$1.out" | head -c 2000)"
	note "$1: $(lines "$TMP/$1.out") samples, the file's"
}

# said NAME STATUS LINE: it ended with STATUS and said exactly LINE
said() {
	[ "$ST" -eq "$2" ] || fail "$1: status $ST, expected $2: $(cat "$TMP/$1.err")"
	printf 'stalltop: %s\n' "$3" >"$TMP/$1.want"
	cmp -s "$TMP/$1.want" "$TMP/$1.err" ||
		fail "$1: it said \"$(cat "$TMP/$1.err")\", expected \"$3\""
	[ -s "$TMP/$1.out" ] && fail "$1: replayed $(head -c 200 "$TMP/$1.out")"
	note "$1: status $ST: $(cat "$TMP/$1.err")"
}

replay file "$REC"
[ "$ST" -eq 0 ] || fail "the file: status $ST: $(cat "$TMP/file.err")"
[ "$(lines "$TMP/file.out")" -eq 5 ] ||
	fail "the file: $(lines "$TMP/file.out") samples, recorded 5"
jq -e -s 'map(.time) | . == (sort | unique)' "$TMP/file.out" >/dev/null ||
	fail "the file's samples are not in time order"

cat "$REC" | { replay stdin /dev/stdin; echo "$ST" >"$TMP/stdin.st"; }
ST=$(cat "$TMP/stdin.st")
same stdin

# a FIFO whose writer comes late
mkfifo "$TMP/fifo"
bg_start writer sh -c "sleep 0.3; cat '$REC' >'$TMP/fifo'"
replay fifo "$TMP/fifo"
same fifo

# interrupt NAME SIGNAL STATUS: SIGNAL ends the wait of a replay of a
# FIFO without a writer within 0.5 s (faults_replay.sh measures 2 to 30
# ms), with STATUS; a watchdog ends it after 10 s
interrupt() {
	local _t0 _ms _dog _pid
	bg_start "$1" nice -n -20 "$STALLTOP" -b --json --replay "$TMP/fifo"
	_pid=$BG_PID
	fifo_open() { ls -l "/proc/$_pid/fd" 2>/dev/null | grep -q "$TMP/fifo"; }
	wait_for fifo_open
	( sleep 10; kill -s KILL "$_pid" 2>/dev/null ) &
	_dog=$!
	_t0=$(now_ms)
	kill -s "$2" "$_pid"
	wait "$_pid"
	ST=$?
	_ms=$(($(now_ms) - _t0))
	kill "$_dog" 2>/dev/null
	wait "$_dog" 2>/dev/null
	_bg_forget "$_pid"
	[ "$ST" -eq "$3" ] || fail "$1: status $ST after $2, expected $3: $(cat "$TMP/$1.err")"
	[ "$_ms" -le 500 ] || [ -n "${STALLTOP_SANITIZED:-}" ] ||
		fail "$1: $2 took $_ms ms to end the wait (at most 500)"
	note "$1: $2 ended the wait in $_ms ms, status $ST"
}
interrupt nowriter-term TERM 143
interrupt nowriter-int INT 130

# neither format
echo "not a recording" | { replay text /dev/stdin; echo "$ST" >"$TMP/text.st"; }
ST=$(cat "$TMP/text.st")
said text 2 "--replay '/dev/stdin': /dev/stdin is not a stalltop recording (its first line is not a recording header)"
{ head -c 4 "$REC"; head -c 100000 /dev/urandom; } |
	{ replay magic /dev/stdin; echo "$ST" >"$TMP/magic.st"; }
ST=$(cat "$TMP/magic.st")
said magic 2 "--replay '/dev/stdin': /dev/stdin is not a recording: no record in it holds"
exit 0
