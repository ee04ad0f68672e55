#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The recorder under faults (issue: never lose a recording). Each part
# names the fault and what the recorder must do (the files are read with
# tests/lib/stkdump):
#  - clock: six daily files (five days before today, and today's), a
#    recorder with --keep-days 7 whose wall clock (libfaketime, the boot
#    clock left alone) jumps 10 days ahead for a moment and comes back:
#    every file is left, both jumps are noted on stderr, the sample of the
#    jump went into a file of that day and the return into a new file of
#    today; a file of 9 days ago went at the start (retention still works);
#  - removed: the directory of a running recorder is removed (rm -rf): it
#    says so and exits 1 within a few intervals; the same for the file of
#    --record FILE;
#  - signals: SIGHUP ends a batch recorder with status 0 and its file
#    whole (it reads to its end, nothing skipped); so does a closed pipe
#    on stdout (| head); the file size limit (ulimit -f) is an error
#    (status 1, said), not a death;
#  - full disk: on a full file system (a tmpfs of 256 KiB) a start fails
#    with "No space left on device", status 1, and leaves no file, each of
#    three times; a recorder running when the disk fills exits 1 and says
#    so, and its file reads the samples it had written before (2 or
#    more), a torn last record skipped;
#  - permission: as nobody, --record DIR/ into a directory nobody may not
#    enter says "Permission denied" (not "too many recordings");
#  - private: recordings are created 0600 (a set-group-ID directory: 0640,
#    the directory's group); CSV text cells that a spreadsheet would run
#    (a process named =1+2 or -bash) start with a single quote.
. "$top_srcdir/tests/lib/functions.sh"
live_init
need_cmd setpriv faketime mount umount dd stat
export LC_ALL=C   # the English messages

# libfaketime (Debian package libfaketime, pulled in by faketime)
FT_LIB=
for _l in /usr/lib/*/faketime/libfaketime.so.1 /usr/lib/faketime/libfaketime.so.1; do
	[ -e "$_l" ] && FT_LIB=$_l && break
done
[ -n "$FT_LIB" ] || hard_error "no libfaketime.so.1 (./bootstrap installs faketime)"
# a sanitized build (.ci/run) must take libfaketime ahead of its runtime
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
export ASAN_OPTIONS

# local noon now, so that no part meets a midnight: TZ with the offset
# that puts this hour at 12
utc_h=$(date -u +%H)
TZ="XXX$((${utc_h#0} - 12))"
export TZ
day() { date -d "@$(($(date +%s) + $1 * 86400))" +%Y-%m-%d; }

# samples_in FILE...: the samples the recordings hold, all together
samples_in() {
	local _f _n=0
	for _f in "$@"; do
		[ -e "$_f" ] && _n=$((_n + $(stk_samples "$_f")))
	done
	echo "$_n"
}
# whole FILE: it reads to its end with nothing skipped
whole() {
	stk_dump "$1" "$TMP/whole.dump"
	expect "$1: read whole" "$TMP/whole.dump" -s '
	  .[-1] | select(.end != true or .damaged_bytes != 0 or .bad_records != 0)
	  | "damage: \(.)"'
}

# --- clock: a jump of 10 days ahead and back ---
D=$TMP/clock
mkdir "$D"
# past days' files, each recorded with its day's clock
for n in 9 5 4 3 2 1; do
	LD_PRELOAD=$FT_LIB FAKETIME="-${n}d" FAKETIME_DONT_FAKE_MONOTONIC=1 \
		timeout 60 "$STALLTOP" -b -q -n 2 -d 0.1 --record "$D/" --keep-days 0 \
		2>"$TMP/past.err" || fail "recording day -$n exited $?: $(cat "$TMP/past.err")"
done
[ -e "$D/stalltop-$(day -9).stk" ] && [ -e "$D/stalltop-$(day -1).stk" ] ||
	hard_error "libfaketime did not date the files: $(ls "$D")"
echo +0 >"$TMP/faketime"
bg_start clock env LD_PRELOAD="$FT_LIB" FAKETIME_TIMESTAMP_FILE="$TMP/faketime" \
	FAKETIME_NO_CACHE=1 FAKETIME_DONT_FAKE_MONOTONIC=1 \
	"$STALLTOP" -b -q -d 0.25 --record "$D/" --keep-days 7
ck=$BG_PID
today=$D/stalltop-$(day 0).stk
two_today() { [ "$(samples_in "$today")" -ge 2 ]; }
wait_for -t 30 two_today
[ -e "$D/stalltop-$(day -9).stk" ] &&
	fail "retention at start: the file of 9 days ago is still there: $(ls "$D")"
ls "$D" >"$TMP/clock.before"
echo +10d >"$TMP/faketime"
ahead=$D/stalltop-$(day 10).stk
jumped() { [ "$(samples_in "$ahead")" -ge 1 ]; }
wait_for -t 30 jumped
echo +0 >"$TMP/faketime"
back=$D/stalltop-$(day 0).1.stk
came_back() { [ "$(samples_in "$back")" -ge 2 ]; }
wait_for -t 30 came_back
bg_stop "$ck" || fail "the recorder exited $? on SIGTERM after the jumps: $(cat "$TMP/clock.err")"
for f in $(cat "$TMP/clock.before"); do
	[ -e "$D/$f" ] || fail "the clock jump removed $f (left: $(ls "$D" | tr '\n' ' '))"
	whole "$D/$f"
done
[ "$(wc -l <"$TMP/clock.before")" -eq 6 ] ||
	fail "before the jump: $(tr '\n' ' ' <"$TMP/clock.before"), expected the files of 6 days"
grep -q "jumped forward by 10.0 days" "$TMP/clock.err" ||
	fail "the jump forward was not noted: $(cat "$TMP/clock.err")"
grep -q "jumped back by 10.0 days" "$TMP/clock.err" ||
	fail "the jump back was not noted: $(cat "$TMP/clock.err")"
whole "$ahead"
whole "$back"
note "clock: 10 days ahead and back: $(ls "$D" | wc -l) files left: $(ls "$D" | tr '\n' ' ')"
note "clock: $(tr '\n' ' ' <"$TMP/clock.err")"

# --- removed while recording ---
R=$TMP/removed
bg_start rm "$STALLTOP" -b -q -d 0.25 --record "$R/"
rp=$BG_PID
two_in() { [ "$(samples_in "$1"/*.stk)" -ge 2 ]; }
wait_for -t 30 two_in "$R"
t0=$(now_ms)
rm -rf "$R"
# the next sample (0.25 s) finds the file gone: measured 270 ms from the
# rm to the exit; 10 s leaves room for a loaded machine
wait_for -t 10 not_running "$rp"
t1=$(now_ms)
bg_wait "$rp"
st=$?
[ "$st" -eq 1 ] || fail "removed directory: status $st, expected 1: $(cat "$TMP/rm.err")"
grep -q "was removed while it was being written" "$TMP/rm.err" ||
	fail "removed directory: not said: $(cat "$TMP/rm.err")"
note "removed directory: exit 1 after $((t1 - t0)) ms: $(cat "$TMP/rm.err")"
F=$TMP/removed.stk
bg_start rmf "$STALLTOP" -b -q -d 0.25 --record "$F"
rp=$BG_PID
two_samples() { [ "$(samples_in "$F")" -ge 2 ]; }
wait_for -t 30 two_samples
rm -f "$F"
wait_for -t 10 not_running "$rp"
bg_wait "$rp"
st=$?
[ "$st" -eq 1 ] || fail "removed file: status $st, expected 1: $(cat "$TMP/rmf.err")"
grep -q "$F was removed while it was being written" "$TMP/rmf.err" ||
	fail "removed file: not said: $(cat "$TMP/rmf.err")"
note "removed file: $(cat "$TMP/rmf.err")"

# --- signals ---
H=$TMP/hup.stk
bg_start hup "$STALLTOP" -b --json -d 0.25 --record "$H"
hp=$BG_PID
wait_lines "$TMP/hup.out" 2
kill -s HUP "$hp"
bg_wait "$hp"
st=$?
[ "$st" -eq 0 ] || fail "SIGHUP: status $st, expected 0: $(cat "$TMP/hup.err")"
whole "$H"
[ "$(samples_in "$H")" -ge 2 ] || fail "SIGHUP: $(samples_in "$H") samples in the file"
note "SIGHUP: status 0, $(samples_in "$H") samples, the file whole"

P=$TMP/pipe.stk
( timeout 60 "$STALLTOP" -b --json -d 0.1 --record "$P" 2>"$TMP/pipe.err"
  echo $? >"$TMP/pipe.st" ) | head -n 2 >/dev/null
st=$(cat "$TMP/pipe.st")
[ "$st" -eq 0 ] || fail "a closed pipe: status $st, expected 0: $(cat "$TMP/pipe.err")"
whole "$P"
note "closed pipe: status 0, $(samples_in "$P") samples, the file whole"

Z=$TMP/fsize.stk
# 64 blocks of 512 bytes (dash; bash's are 1024): a few samples
( ulimit -f 64; exec timeout 60 "$STALLTOP" -b -q -d 0.05 --record "$Z" ) 2>"$TMP/fsize.err"
st=$?
[ "$st" -eq 1 ] || fail "the file size limit: status $st, expected 1: $(cat "$TMP/fsize.err")"
grep -q "File too large" "$TMP/fsize.err" ||
	fail "the file size limit: not said: $(cat "$TMP/fsize.err")"
note "file size limit: status 1: $(head -n 1 "$TMP/fsize.err")"

# --- full disk ---
M=$TMP/full
mkdir "$M"
mount -t tmpfs -o size=256k,mode=0755 stalltop-faults "$M" ||
	hard_error "cannot mount a tmpfs on $M"
at_cleanup "umount '$M'"
dd if=/dev/zero of="$M/fill" bs=4096 2>/dev/null
[ "$(df -k --output=avail "$M" | tail -n 1)" -eq 0 ] || hard_error "$M is not full: $(df -k "$M")"
for i in 1 2 3; do
	timeout 60 "$STALLTOP" -b -q -n 2 -d 0.1 --record "$M/" >/dev/null 2>"$TMP/full.err"
	st=$?
	[ "$st" -eq 1 ] || fail "start on a full disk ($i): status $st, expected 1: $(cat "$TMP/full.err")"
	grep -q "No space left on device" "$TMP/full.err" ||
		fail "start on a full disk ($i): not said: $(cat "$TMP/full.err")"
done
timeout 60 "$STALLTOP" -b -q -n 2 -d 0.1 --record "$M/one.stk" >/dev/null 2>"$TMP/full1.err" &&
	fail "--record FILE on a full disk exited 0"
ls "$M" >"$TMP/full.ls"
[ "$(cat "$TMP/full.ls")" = fill ] || fail "failed starts left files: $(tr '\n' ' ' <"$TMP/full.ls")"
note "full disk: 3 failed starts of DIR/ and 1 of FILE, no file left: $(cat "$TMP/full.err")"
# filling while recording: room for a few samples, then none
rm -f "$M/fill"
bg_start fill "$STALLTOP" -b -q -d 0.1 --record "$M/rec/"
fp=$BG_PID
wait_for -t 30 two_in "$M/rec"
dd if=/dev/zero of="$M/fill" bs=4096 2>/dev/null
wait_for -t 10 not_running "$fp"
bg_wait "$fp"
st=$?
[ "$st" -eq 1 ] || fail "disk filled while recording: status $st, expected 1: $(cat "$TMP/fill.err")"
grep -q "No space left on device" "$TMP/fill.err" ||
	fail "disk filled while recording: not said: $(cat "$TMP/fill.err")"
rm -f "$M/fill"
: >"$TMP/fill.dump"
for f in "$M"/rec/*.stk; do
	stk_dump "$f" "$TMP/fill.one"
	cat "$TMP/fill.one" >>"$TMP/fill.dump"
done
k=$(grep -c '^{"time"' "$TMP/fill.dump")
[ "$k" -ge 2 ] || fail "disk filled while recording: $k samples read, 2 or more were written"
note "disk filled while recording: status 1, $k samples read ($(grep '"end"' "$TMP/fill.dump" | tr '\n' ' ')): $(cat "$TMP/fill.err")"

# --- permission ---
# a directory nobody may look at but not enter, as /root is: its parent
# is open to all
X=$(mktemp -d /tmp/stalltop-faults.XXXXXX) || hard_error "cannot make a directory in /tmp"
at_cleanup "rm -rf '$X'"
chmod 0711 "$X"
mkdir -m 0700 "$X/private"
t0=$(now_ms)
timeout 60 setpriv --reuid=nobody --regid=nogroup --clear-groups \
	"$STALLTOP" -b -q -n 1 --record "$X/private/" >/dev/null 2>"$TMP/perm.err"
st=$?
[ "$st" -eq 1 ] || fail "as nobody: status $st, expected 1: $(cat "$TMP/perm.err")"
grep -q "Permission denied" "$TMP/perm.err" && ! grep -q "too many" "$TMP/perm.err" ||
	fail "as nobody: $(cat "$TMP/perm.err")"
note "permission: after $(($(now_ms) - t0)) ms: $(cat "$TMP/perm.err")"

# --- private ---
umask 022
mode_of() { stat -c %a "$1"; }
m=$(mode_of "$today")
[ "$m" = 600 ] || fail "$today has mode $m, expected 600"
m=$(mode_of "$H")
[ "$m" = 600 ] || fail "$H (--record FILE) has mode $m, expected 600"
G=$TMP/shared
mkdir "$G"
chgrp nogroup "$G"
chmod 2750 "$G"
timeout 60 "$STALLTOP" -b -q -n 1 --record "$G/" 2>"$TMP/sg.err" ||
	fail "--record into a set-group-ID directory exited $?: $(cat "$TMP/sg.err")"
for f in "$G"/*; do
	[ "$(stat -c '%a %G' "$f")" = "640 nogroup" ] ||
		fail "$f: $(stat -c '%a %G' "$f"), expected mode 640 and the directory's group"
done
note "modes: 600 in a directory, 600 for FILE, 640 and the group in a set-group-ID directory"

# CSV: processes named as formulas
cp /bin/sleep "$TMP/=1+2"
cp /bin/sleep "$TMP/-bash"
bg_start f1 "$TMP/=1+2" 60
p1=$BG_PID
bg_start f2 "$TMP/-bash" 60
p2=$BG_PID
timeout 60 "$STALLTOP" -b --format csv -n 2 -d 0.2 -p "$p1" -p "$p2" >"$TMP/csv" 2>"$TMP/csv.err" ||
	fail "--format csv exited $?: $(cat "$TMP/csv.err")"
grep -q -E ",\"'=1\\+2\"(,|\$)" "$TMP/csv" || fail "CSV: =1+2 not neutralised: $(cat "$TMP/csv")"
grep -q -E ",\"'-bash\"(,|\$)" "$TMP/csv" || fail "CSV: -bash not neutralised: $(cat "$TMP/csv")"
# unquoted cells: numbers only may start with a sign
grep -E '(^|,)([=+@]|-[^0-9])' "$TMP/csv" >"$TMP/csv.bad"
[ -s "$TMP/csv.bad" ] && fail "CSV: a cell a spreadsheet would run: $(cat "$TMP/csv.bad")"
note "CSV: $(grep -o "\"'[^\"]*\"" "$TMP/csv" | sort -u | tr '\n' ' ')"
exit 0
