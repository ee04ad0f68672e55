#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The rotating recorder (--record DIR) and the replay of a directory, with
# a test-only "day" of 2 seconds (STALLTOP_ROTATE_SECONDS=2; rotate.h):
#   stalltop -q -d 0.25 --record DIR/ --keep-days 3
# runs until it has started 6 files, then gets SIGTERM. Then:
#  - -q wrote nothing on stdout, the recorder exited 0 on SIGTERM;
#  - rotation: every file is named after its period's start
#    (stalltop-YYYY-MM-DD-HHMMSS.ndjson.gz), 6 or more were made;
#  - retention: the current period's file and those of the 3 before it
#    are left (a file goes once its every sample is 3 periods old);
#  - each file is complete (gzip -t, so SIGTERM finished the last one) and
#    replays on its own in silence, every sample in its file's period (the
#    sample after a boundary went to the new file);
#  - continuity: the directory replays as one timeline equal to the files
#    one after another, times strictly increasing (no sample twice), and
#    each sample's "interval" is the time since the one before (no sample
#    lost at a boundary);
#  - --begin/--end over the directory (@EPOCH, and 'YYYY-MM-DD HH:MM:SS')
#    give exactly the samples of the window, across files;
#  - a finished file cut in half replays the samples before the cut, with
#    the note, status 0; a recorder killed with SIGKILL mid-file leaves a
#    file that replays what it holds, and the directory replay names it;
#  - the service: the unit passes systemd-analyze verify (when installed),
#    and its command line, run with the unit's capability bounding set,
#    records with taskstats and finishes its file on SIGTERM.
. "$top_srcdir/tests/lib/functions.sh"
live_init
need_cmd gzip truncate setpriv
export LC_ALL=C   # the English messages

P=2
D=$TMP/rec
STALLTOP_ROTATE_SECONDS=$P
export STALLTOP_ROTATE_SECONDS

# --- record until 6 files were made ---
bg_start rec "$STALLTOP" -q -d 0.25 --record "$D/" --keep-days 3
rec=$BG_PID
: >"$TMP/seen"
six_files() {
	ls "$D" 2>/dev/null >>"$TMP/seen"
	[ "$(sort -u "$TMP/seen" | wc -l)" -ge 6 ]
}
wait_for -t 40 six_files
bg_stop "$rec" || fail "the recorder exited $? on SIGTERM: $(cat "$TMP/rec.err")"
[ -s "$TMP/rec.out" ] && fail "-q wrote on stdout: $(head -c 300 "$TMP/rec.out")"
[ -s "$TMP/rec.err" ] && fail "the recorder said: $(cat "$TMP/rec.err")"
sort -u "$TMP/seen" >"$TMP/seen.all"
grep -v -E '^stalltop-[0-9]{4}-[0-9]{2}-[0-9]{2}-[0-9]{6}\.ndjson\.gz$' "$TMP/seen.all" &&
	fail "files not named as rotate.h says (above)"
ls "$D" >"$TMP/left"
tail -n 4 "$TMP/seen.all" >"$TMP/left.want"
cmp -s "$TMP/left" "$TMP/left.want" ||
	fail "retention: left $(tr '\n' ' ' <"$TMP/left"), expected the last 4 of $(tr '\n' ' ' <"$TMP/seen.all")"
note "rotation: $(wc -l <"$TMP/seen.all") files made, $(wc -l <"$TMP/left") left: $(tr '\n' ' ' <"$TMP/left")"

# period_start NAME: the epoch of the period a file name stands for
period_start() {
	local _s
	_s=$(echo "$1" | sed -E 's/^stalltop-([0-9-]{10})-([0-9]{2})([0-9]{2})([0-9]{2}).*/\1 \2:\3:\4/')
	date -d "$_s" +%s
}

# --- each file on its own ---
: >"$TMP/concat"
for f in $(cat "$TMP/left"); do
	gzip -t "$D/$f" 2>"$TMP/gzip.err" ||
		fail "$f is not a complete gzip file: $(cat "$TMP/gzip.err")"
	timeout 60 "$STALLTOP" --replay "$D/$f" -b --json >"$TMP/one.out" 2>"$TMP/one.err" ||
		fail "--replay $f exited $?: $(cat "$TMP/one.err")"
	[ -s "$TMP/one.err" ] && fail "--replay $f said: $(cat "$TMP/one.err")"
	check_json "$TMP/one.out"
	start=$(period_start "$f")
	expect "$f: samples in its period" "$TMP/one.out" --argjson a "$start" --argjson p "$P" '
	  select(.time < $a or .time >= $a + $p) | "sample at \(.time) is outside [\($a), \($a + $p))"'
	cat "$TMP/one.out" >>"$TMP/concat"
done
[ "$(lines "$TMP/concat")" -ge 8 ] || fail "only $(lines "$TMP/concat") samples in the files left"

# --- the directory as one timeline ---
timeout 60 "$STALLTOP" --replay "$D" -b --json >"$TMP/dir.out" 2>"$TMP/dir.err" ||
	fail "--replay DIR exited $?: $(cat "$TMP/dir.err")"
[ -s "$TMP/dir.err" ] && fail "--replay DIR said: $(cat "$TMP/dir.err")"
cmp -s "$TMP/concat" "$TMP/dir.out" || fail "the directory replay is not the files one after another"
expect "continuity" "$TMP/dir.out" -s '
  range(1; length) as $i | .[$i - 1] as $a | .[$i] as $b
  | if $b.time <= $a.time then "sample \($i) at \($b.time) does not follow \($a.time)"
    elif ($b.time - $a.time - $b.interval) | fabs > 0.05
    then "a gap: \($b.time - $a.time) s between samples \($i - 1) and \($i), the interval \($b.interval)"
    else empty end'
n=$(lines "$TMP/dir.out")
note "continuity: $n samples across $(wc -l <"$TMP/left") files, none lost or twice"

# --- a window across files ---
# window NAME BEGIN END LO HI: --begin BEGIN --end END gives the samples
# with LO <= time <= HI, and at least 2 of them
window() {
	timeout 60 "$STALLTOP" --replay "$D" -b --json --begin "$2" --end "$3" \
		>"$TMP/$1.out" 2>"$TMP/$1.err" ||
		fail "$1: --begin '$2' --end '$3' exited $?: $(cat "$TMP/$1.err")"
	jq -c --argjson lo "$4" --argjson hi "$5" 'select(.time >= $lo and .time <= $hi)' \
		"$TMP/dir.out" >"$TMP/$1.want"
	[ "$(lines "$TMP/$1.want")" -ge 2 ] || hard_error "$1: the window holds $(lines "$TMP/$1.want") samples"
	jq -c . "$TMP/$1.out" >"$TMP/$1.got"
	cmp -s "$TMP/$1.want" "$TMP/$1.got" ||
		fail "$1: $(lines "$TMP/$1.got") samples, expected the $(lines "$TMP/$1.want") between $4 and $5"
	note "$1: --begin '$2' --end '$3': $(lines "$TMP/$1.got") samples"
}
lo=$(jq -s '.[2].time' "$TMP/dir.out")
hi=$(jq -s '.[-3].time' "$TMP/dir.out")
window epoch "@$(jq -n "$lo - 0.0005")" "@$(jq -n "$hi + 0.0005")" "$lo" "$hi"
# whole seconds, local time: from the second of the first file's end
s0=$(($(period_start "$(sed -n 2p "$TMP/left")") - 1))
window local "$(date -d "@$s0" '+%Y-%m-%d %H:%M:%S')" \
	"$(date -d "@$((s0 + 2))" '+%Y-%m-%d %H:%M:%S')" "$s0" "$((s0 + 2))"

# --- a finished file cut in half ---
f=$(sed -n 2p "$TMP/left")
"$STALLTOP" --replay "$D/$f" -b --json >"$TMP/whole.out" 2>&1
cp "$D/$f" "$TMP/cut.ndjson.gz"
truncate -s $(($(wc -c <"$TMP/cut.ndjson.gz") / 2)) "$TMP/cut.ndjson.gz"
timeout 60 "$STALLTOP" --replay "$TMP/cut.ndjson.gz" -b --json >"$TMP/cut.out" 2>"$TMP/cut.err"
ST=$?
[ "$ST" -eq 0 ] || fail "a cut file: --replay exited $ST: $(cat "$TMP/cut.err")"
grep -q 'was not closed\|damaged\|torn' "$TMP/cut.err" ||
	fail "a cut file: no note of the cut: $(cat "$TMP/cut.err")"
k=$(lines "$TMP/cut.out")
[ "$k" -ge 1 ] || fail "a cut file replays no sample"
head -n "$k" "$TMP/whole.out" | cmp -s - "$TMP/cut.out" ||
	fail "a cut file: the $k samples replayed are not the first of the file"
note "cut in half: $k of $(lines "$TMP/whole.out") samples: $(cat "$TMP/cut.err")"

# --- SIGKILL mid-file ---
K=$TMP/killed
bg_start kill "$STALLTOP" -q -d 0.25 --record "$K/" --keep-days 3
kp=$BG_PID
three_samples() {
	[ "$(gzip -dc "$K"/*.gz 2>/dev/null | grep -c '^{"time"')" -ge 3 ]
}
wait_for -t 20 three_samples
kill -s KILL "$kp"
bg_wait "$kp"
timeout 60 "$STALLTOP" --replay "$K" -b --json >"$TMP/killed.out" 2>"$TMP/killed.err" ||
	fail "after SIGKILL: --replay DIR exited $?: $(cat "$TMP/killed.err")"
[ "$(lines "$TMP/killed.out")" -ge 3 ] ||
	fail "after SIGKILL: $(lines "$TMP/killed.out") samples replayed, 3 or more were written"
last=$(ls "$K" | tail -n 1)
grep -q "$K/$last: .*not closed" "$TMP/killed.err" ||
	fail "after SIGKILL: the note does not name $last: $(cat "$TMP/killed.err")"
note "SIGKILL: $(lines "$TMP/killed.out") samples replayed: $(cat "$TMP/killed.err")"

# --- the service ---
UNIT=$top_builddir/data/stalltop.service
[ -f "$UNIT" ] || hard_error "$UNIT was not built"
unset STALLTOP_ROTATE_SECONDS
if command -v systemd-analyze >/dev/null 2>&1; then
	mkdir "$TMP/unit"
	sed "s|^ExecStart=[^ ]*|ExecStart=$STALLTOP|" "$UNIT" >"$TMP/unit/stalltop.service"
	systemd-analyze verify --man=no "$TMP/unit/stalltop.service" >"$TMP/verify.out" 2>&1 ||
		fail "systemd-analyze verify: $(cat "$TMP/verify.out")"
	note "systemd-analyze verify: the unit is valid"
else
	skip_part "systemd-analyze is not installed: the unit is not verified"
fi
args=$(sed -n 's/^ExecStart=[^ ]* //p' "$UNIT")
caps=$(sed -n 's/^CapabilityBoundingSet=//p' "$UNIT" | tr 'A-Z' 'a-z' |
	sed 's/cap_/+/g; s/ /,/g')
[ -n "$args" ] && [ -n "$caps" ] || fail "the unit has no ExecStart or CapabilityBoundingSet"
S=$TMP/service
# the unit's command line, with a shorter interval and its own directory
set -- $(echo "$args" | sed "s|-d [0-9.]*|-d 0.25|; s|/var/log/stalltop/|$S/|")
bg_start svc setpriv --bounding-set "-all,$caps" --no-new-privs "$STALLTOP" "$@"
svc=$BG_PID
one_sample() { [ "$(gzip -dc "$S"/*.gz 2>/dev/null | grep -c '^{"time"')" -ge 2 ]; }
wait_for -t 20 one_sample
bg_stop "$svc" || fail "the service's command exited $? on SIGTERM: $(cat "$TMP/svc.err")"
[ -s "$TMP/svc.out" ] && fail "the service wrote on stdout: $(head -c 300 "$TMP/svc.out")"
[ -s "$TMP/svc.err" ] && fail "the service said: $(cat "$TMP/svc.err")"
for f in "$S"/*.gz; do
	gzip -t "$f" || fail "$f was not finished on SIGTERM"
done
"$STALLTOP" --replay "$S" -b --json >"$TMP/svc.replay" 2>"$TMP/svc.rerr" ||
	fail "the service's recording does not replay: $(cat "$TMP/svc.rerr")"
expect "the service's samples have taskstats" "$TMP/svc.replay" \
	'select(.taskstats_version == null or .delayacct != true) | "at \(.time): no taskstats"'
# where a cgroup hierarchy is mounted, the service records the cgroups
if grep -Eq ' - cgroup2? ' /proc/self/mountinfo; then
	expect "the service's samples have cgroups" "$TMP/svc.replay" \
		'select((.cgroups // []) | map(select(.path == "/" and .name == "/")) | length != 1)
		 | "at \(.time): no named root cgroup: \(.cgroups // "none" | tostring | .[:200])"'
else
	skip_part "no cgroup hierarchy is mounted: the service records none"
fi
note "service: $(echo "$args" | tr -s ' ') under the bounding set $caps: $(lines "$TMP/svc.replay") samples with taskstats, finished on SIGTERM"
exit 0
