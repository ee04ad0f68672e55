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
#    record in it holds";
#  - the recording and then zeros without end through a FIFO: the
#    temporary copy (its size read from the replay's descriptor every
#    20 ms) never passes the file's size + 16 MiB + 88 bytes (no record starts in
#    them: what follows is no recording), the replay ends by itself with
#    the file's samples, status 3, saying where it stopped reading and
#    why;
#  - the same, from a writer that then holds the FIFO open: SIGTERM ends
#    the replay waiting to copy more within 0.5 s (status 143);
#  - the recording followed by 4 GiB of zeros, a sparse regular file:
#    SIGTERM 0.3 s into its indexing (which takes seconds) ends it
#    within 0.15 s (status 143), before the guard of quit signals would.
. "$top_srcdir/tests/lib/functions.sh"
live_init
need_cmd jq timeout nice mkfifo truncate
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

# /dev/zero after the recording: the copy stops 16 MiB + 88 bytes (the
# longest record there can be, header and CRC included) after the last
# start of a record
SIZE=$(stat -c %s "$REC")
BOUND=$((SIZE + 16777304))
# (zeros 64 KiB at a time, so that the copy is seen as it grows)
bg_start zwriter sh -c "{ cat '$REC'; while head -c 65536 /dev/zero; do :; done; } >'$TMP/fifo'"
ZW=$BG_PID
bg_start zeros nice -n -20 "$STALLTOP" -b --json --replay "$TMP/fifo"
ZP=$BG_PID
MAX=0
# the size of the replay's temporary copy now (nothing: none open)
copy_size() {
	local _f
	for _f in /proc/"$ZP"/fd/*; do
		case $(readlink "$_f" 2>/dev/null) in
		"$TMP"/*) stat -L -c %s "$_f" 2>/dev/null ;;
		esac
	done | sort -n | tail -n 1
}
# copy_ended: the replay ended; MAX the largest copy seen, never the bound
copy_ended() {
	local _s
	_s=$(copy_size)
	[ -n "$_s" ] && [ "$_s" -gt "$MAX" ] && MAX=$_s
	if [ "$MAX" -gt "$BOUND" ]; then
		kill -s KILL "$ZP" "$ZW" 2>/dev/null
		fail "zeros: the temporary copy holds $MAX bytes, more than the bound $BOUND"
	fi
	not_running "$ZP"
}
wait_for -t 30 copy_ended
wait "$ZP"
ST=$?
_bg_forget "$ZP"
bg_kill "$ZW"
[ "$ST" -eq 3 ] || fail "zeros: status $ST, expected 3: $(cat "$TMP/zeros.err")"
[ "$MAX" -gt "$SIZE" ] || fail "zeros: the copy was never seen holding more than the recording ($MAX bytes)"
cmp -s "$TMP/file.out" "$TMP/zeros.out" ||
	fail "zeros: the samples differ from the file's: $(diff "$TMP/file.out" "$TMP/zeros.out" | head -c 2000)"
STOP=$(sed -n 's/.*stopped at byte \([0-9]*\): no record starts in the \([0-9]*\) bytes before it.*/\1 \2/p' "$TMP/zeros.err")
[ -n "$STOP" ] || fail "zeros: it said \"$(cat "$TMP/zeros.err")\", not where it stopped"
[ "${STOP#* }" -eq 16777304 ] && [ "${STOP% *}" -le "$BOUND" ] ||
	fail "zeros: it said \"$(cat "$TMP/zeros.err")\" (the bound is byte $BOUND)"
note "zeros: the copy held at most $MAX bytes (bound $BOUND), status 3: $(cat "$TMP/zeros.err")"

# term NAME MS ARGS...: SIGTERM ends the replay of ARGS within MS ms once
# it is underway (0.3 s after its start; READY, if set, says when) with
# 143; a watchdog ends it after 10 s
term() {
	local _n=$1 _limit=$2 _t0 _ms _dog _pid
	shift 2
	bg_start "$_n" nice -n -20 "$STALLTOP" -b --json --replay "$@"
	_pid=$BG_PID
	if [ -n "${READY:-}" ]; then
		wait_for $READY "$_pid"
	else
		sleep 0.3
	fi
	running "$_pid" || fail "$_n: it ended before the signal: $(cat "$TMP/$_n.err")"
	( sleep 10; kill -s KILL "$_pid" 2>/dev/null ) &
	_dog=$!
	_t0=$(now_ms)
	kill -s TERM "$_pid"
	wait "$_pid"
	ST=$?
	_ms=$(($(now_ms) - _t0))
	kill "$_dog" 2>/dev/null
	wait "$_dog" 2>/dev/null
	_bg_forget "$_pid"
	[ "$ST" -eq 143 ] || fail "$_n: status $ST after SIGTERM, expected 143: $(cat "$TMP/$_n.err")"
	[ "$_ms" -le "$_limit" ] || [ -n "${STALLTOP_SANITIZED:-}" ] ||
		fail "$_n: SIGTERM took $_ms ms to end it (at most $_limit)"
	note "$_n: SIGTERM ended it in $_ms ms"
}

# copying: a writer that holds the FIFO open after a MiB of zeros
bg_start hwriter sh -c "{ cat '$REC'; head -c 1048576 /dev/zero; sleep 30; } >'$TMP/fifo'"
HW=$BG_PID
# the copy has the recording and the zeros
copied() { [ "$(copy_size_of "$1")" -ge $((SIZE + 1048576)) ] 2>/dev/null; }
copy_size_of() { ZP=$1 copy_size; }
# (measured 5 to 10 ms; the limit is the manual's)
READY=copied term copying 500 "$TMP/fifo"
bg_kill "$HW"

# indexing: 4 GiB of zeros after the recording, a sparse file (indexed
# in some 3.5 s). Measured 6 to 40 ms: the index looks for the signal
# while it skips damage. Where it did not, the guard of quit signals
# (quitguard.h: the third of its ticks of 0.1 s that finds the signal
# pending, 200 to 300 ms after it) ended it, measured 269 to 561 ms
# after it, also with status 143: the limit, 150 ms, tells the two
# apart.
cp "$REC" "$TMP/sparse.stk"
truncate -s +4G "$TMP/sparse.stk"
READY= term indexing 150 "$TMP/sparse.stk"
exit 0
