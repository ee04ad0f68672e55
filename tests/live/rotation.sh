#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The rotating recorder (--record DIR), with a test-only "day" of 2
# seconds (STALLTOP_ROTATE_SECONDS=2; rotate.h):
#   stalltop -b --json -d 0.25 --record DIR/ --keep-days 3
# runs until it has started 6 files, then gets SIGTERM. The files are
# read with tests/lib/stkdump (record/storefile.h). Then:
#  - the recorder said nothing and exited 0 on SIGTERM;
#  - rotation: every file is named after its period's start
#    (stalltop-YYYY-MM-DD-HHMMSS.stk), 6 or more were made;
#  - retention: the current period's file and those of the 3 before it
#    are left (a file goes once its every sample is 3 periods old);
#  - each file reads on its own to its end with nothing skipped (SIGTERM
#    left the last one whole), starts with its session record (the
#    program, threads recorded), and holds only samples of its period
#    (the sample after a boundary went to the new file);
#  - continuity: the files one after another hold exactly the samples
#    the recorder printed in their periods, in order (none lost at a
#    boundary, none twice), and every row printed has its task's reading
#    in the sample recorded with it;
#  - a finished file cut halfway between its second sample and its end
#    reads the samples before the cut, the torn bytes counted; a
#    recorder killed with SIGKILL mid-file leaves a file that reads what
#    it holds, 3 or more samples;
#  - the service: the unit passes systemd-analyze verify (when installed),
#    and its command line, run with the unit's capability bounding set,
#    records with taskstats and the cgroups, and leaves its files whole
#    on SIGTERM.
. "$top_srcdir/tests/lib/functions.sh"
live_init
need_cmd truncate setpriv
export LC_ALL=C   # the English messages

P=2
D=$TMP/rec
STALLTOP_ROTATE_SECONDS=$P
export STALLTOP_ROTATE_SECONDS

# --- record until 6 files were made ---
bg_start rec "$STALLTOP" -b --json -d 0.25 --record "$D/" --keep-days 3
rec=$BG_PID
: >"$TMP/seen"
six_files() {
	ls "$D" 2>/dev/null >>"$TMP/seen"
	[ "$(sort -u "$TMP/seen" | wc -l)" -ge 6 ]
}
wait_for -t 40 six_files
bg_stop "$rec" || fail "the recorder exited $? on SIGTERM: $(cat "$TMP/rec.err")"
[ -s "$TMP/rec.err" ] && fail "the recorder said: $(cat "$TMP/rec.err")"
check_json "$TMP/rec.out"
sort -u "$TMP/seen" >"$TMP/seen.all"
grep -v -E '^stalltop-[0-9]{4}-[0-9]{2}-[0-9]{2}-[0-9]{6}\.stk$' "$TMP/seen.all" &&
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

# whole DUMP NAME: the dump of a file read to its end, nothing skipped
whole() {
	expect "$2: read whole" "$1" -s '
	  .[-1] | select(.end != true or .damaged_bytes != 0 or .bad_records != 0
	                 or .skipped_deltas != 0) | "damage: \(.)"'
}

# --- each file on its own ---
: >"$TMP/concat"
for f in $(cat "$TMP/left"); do
	stk_dump "$D/$f" "$TMP/one.dump"
	whole "$TMP/one.dump" "$f"
	expect "$f: starts with its session" "$TMP/one.dump" -s '
	  .[0] | select((.program // "" | startswith("stalltop ") | not)
	                or .threads != true or .hz <= 0 or .ncpu <= 0)
	  | "first: \(. | tostring | .[:300])"'
	start=$(period_start "$f")
	expect "$f: samples in its period" "$TMP/one.dump" --argjson a "$start" --argjson p "$P" '
	  select(.time) | select(.time < $a or .time >= $a + $p)
	  | "sample at \(.time) is outside [\($a), \($a + $p))"'
	jq -c 'select(.time) | .time' "$TMP/one.dump" >>"$TMP/concat"
done
[ "$(lines "$TMP/concat")" -ge 8 ] || fail "only $(lines "$TMP/concat") samples in the files left"

# --- continuity: the files hold what the recorder printed, in order ---
start=$(period_start "$(head -n 1 "$TMP/left")")
jq -c --argjson a "$start" 'select(.time >= $a) | .time' "$TMP/rec.out" >"$TMP/printed"
# the file's times have 6 decimals, the printed ones 3
jq -n --slurpfile f "$TMP/concat" --slurpfile p "$TMP/printed" -r '
  if ($f | length) != ($p | length)
  then "the files hold \($f | length) samples, the recorder printed \($p | length)"
  else range(0; $f | length) as $i
       | select(($f[$i] - $p[$i]) | fabs > 0.0006)
       | "sample \($i) at \($f[$i]) in the files, \($p[$i]) printed" end' >"$TMP/cont.out"
[ -s "$TMP/cont.out" ] && fail "continuity: $(head -5 "$TMP/cont.out")"
expect "continuity: in order" "$TMP/concat" -s '
  range(1; length) as $i | select(.[$i] <= .[$i - 1])
  | "sample \($i) at \(.[$i]) does not follow \(.[$i - 1])"'
note "continuity: $(lines "$TMP/concat") samples across $(wc -l <"$TMP/left") files, as printed, none lost or twice"
# every row printed has its task's reading in the sample recorded with it
for f in $(cat "$TMP/left"); do
	stk_dump "$D/$f" "$TMP/rows.dump"
	jq -r --argjson a "$start" --slurpfile rec "$TMP/rows.dump" '
	  select(.time >= $a) | .time as $t
	  | [$rec[] | select(.time and ((.time - $t) | fabs) < 0.0006)] as $s
	  | select($s | length == 1)
	  | ([$s[0].tasks[].id]) as $ids
	  | [(.tasks + .exited)[] | .pid | select(. as $p | $ids | index($p) | not)]
	  | select(length > 0) | "at \($t): rows of \(.) not recorded"' \
		"$TMP/rec.out" >"$TMP/rows.out" || fail "jq cannot compare the rows with $f"
	[ -s "$TMP/rows.out" ] && fail "$f: $(head -3 "$TMP/rows.out")"
done
note "every row printed has its task's reading in the recorded sample"

# --- a finished file cut in half ---
# The cut falls halfway between the start of the second sample and the
# end: the first sample, a key frame, may be most of a short file, and a
# cut inside it leaves nothing to read.
f=$(sed -n 2p "$TMP/left")
stk_dump "$D/$f" "$TMP/whole.dump"
cp "$D/$f" "$TMP/cut.stk"
size=$(wc -c <"$TMP/cut.stk")
second=$(grep '^{"time"' "$TMP/whole.dump" | sed -n 2p | jq .offset)
[ -n "$second" ] || fail "$f holds fewer than 2 samples"
truncate -s $((second + (size - second) / 2)) "$TMP/cut.stk"
stk_dump "$TMP/cut.stk" "$TMP/cut.dump"
k=$(grep -c '^{"time"' "$TMP/cut.dump")
n=$(grep -c '^{"time"' "$TMP/whole.dump")
[ "$k" -ge 1 ] && [ "$k" -lt "$n" ] || fail "a file cut after its second sample starts reads $k of its $n samples"
grep '^{"time"' "$TMP/cut.dump" >"$TMP/cut.samples"
grep '^{"time"' "$TMP/whole.dump" | head -n "$k" | cmp -s - "$TMP/cut.samples" ||
	fail "a cut file: the $k samples read are not the first of the file"
expect "a cut file: the torn end counted" "$TMP/cut.dump" -s '
  .[-1] | select(.damaged_bytes <= 0) | "nothing skipped: \(.)"'
note "cut after its second sample starts: $k of $n samples, $(tail -n 1 "$TMP/cut.dump")"

# --- SIGKILL mid-file ---
K=$TMP/killed
bg_start kill "$STALLTOP" -q -d 0.25 --record "$K/" --keep-days 3
kp=$BG_PID
three_samples() {
	local _f
	for _f in "$K"/*.stk; do
		[ "$(stk_samples "$_f")" -ge 3 ] && return 0
	done
	return 1
}
wait_for -t 20 three_samples
kill -s KILL "$kp"
bg_wait "$kp"
last=$(ls "$K" | tail -n 1)
stk_dump "$K/$last" "$TMP/killed.dump"
k=$(grep -c '^{"time"' "$TMP/killed.dump")
[ "$k" -ge 3 ] || fail "after SIGKILL: $last reads $k samples, 3 or more were written"
note "SIGKILL: $last reads $k samples, $(tail -n 1 "$TMP/killed.dump")"

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
two_samples() {
	local _f
	for _f in "$S"/*.stk; do
		[ "$(stk_samples "$_f")" -ge 3 ] && return 0
	done
	return 1
}
wait_for -t 20 two_samples
bg_stop "$svc" || fail "the service's command exited $? on SIGTERM: $(cat "$TMP/svc.err")"
[ -s "$TMP/svc.out" ] && fail "the service wrote on stdout: $(head -c 300 "$TMP/svc.out")"
[ -s "$TMP/svc.err" ] && fail "the service said: $(cat "$TMP/svc.err")"
: >"$TMP/svc.dump"
for f in "$S"/*.stk; do
	stk_dump "$f" "$TMP/svc.one"
	whole "$TMP/svc.one" "$f"
	cat "$TMP/svc.one" >>"$TMP/svc.dump"
done
expect "the service's samples have taskstats" "$TMP/svc.dump" \
	'select(.time) | select(.ts_version == 0 or .delayacct != 1) | "at \(.time): no taskstats"'
# where a cgroup hierarchy is mounted, the service records the cgroups
# (of every sample but a session's first: the readings before the first
# interval, when no cgroup row is made yet)
if grep -Eq ' - cgroup2? ' /proc/self/mountinfo; then
	expect "the service's samples have cgroups" "$TMP/svc.dump" -s '
	  [.[] | select(.time)] | .[1:][] | select(.cgroups | index("/") | not)
	  | "at \(.time): no root cgroup: \(.cgroups | tostring | .[:200])"'
else
	skip_part "no cgroup hierarchy is mounted: the service records none"
fi
note "service: $(echo "$args" | tr -s ' ') under the bounding set $caps: $(grep -c '^{"time"' "$TMP/svc.dump") samples with taskstats, whole on SIGTERM"
exit 0
