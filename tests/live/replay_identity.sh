#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Live and replay give identical figures: a recording holds what the
# kernel said (store samples) and the player runs the same model over it.
# Three workloads stall throughout: spin, two busy threads sharing one
# CPU at nice -20 (CPU delay, each about half the time), churn, threads
# that live 100 to 200 ms and end (exited rows every sample), and quota,
# a spinner in a cgroup v1 cpu cgroup with a quota of 20 ms per 100 ms
# (it waits for the CPU four fifths of the time, and its row has the
# evidence, a "why" object, from the second sample on). Each run is
#   stalltop -b --json --cgroups -d 1 -n 5 [-H | -a] --record FILE
# and then
#   stalltop --replay FILE -b --json --cgroups [-H | -a]
# must print, sample for sample, the same: every key of the sample (time,
# interval, counts, PSI with its shares) and of every row of "tasks",
# "exited", "thread_tasks", "thread_exited" (by pid) and "cgroups" (by
# path): each category's pct, count, avg_ms, max_ms, cpu_pct, total_pct,
# state, threads, the names, the dropped figures, the evidence ("why":
# every figure and cause; the plain run's rows and the -H run's cgroup
# rows must have some, -a has none). Equal means equal as
# printed (no tolerance: both print the same doubles from the same
# readings). A difference is reported as the sample's time, the array,
# the row's pid (or cgroup path) and the field, with both values.
# The first sample's cgroup PSI shares are compared too (the recorder's
# baseline holds the cgroups' pressure before it), and with -H every
# thread row's parent ("ppid", its process's: the recording holds it).
# Then -d: a replay at -d 2 of the plain recording gives samples 2 s
# apart whose interval is 2 s and whose CPU waits of spin's process are
# the sum of the two recorded intervals they cover.
. "$top_srcdir/tests/lib/functions.sh"
live_init
export LC_ALL=C

V1=/sys/fs/cgroup/cpu
[ -e "$V1/cpu.cfs_quota_us" ] ||
	skip "no cgroup v1 cpu controller at $V1 (the quota workload needs one)"

cpu=$((NCPU - 1))
bg_start spin "$WL/wl_spin" -t 2 -c "$cpu" -N -20
spin=$BG_PID
bg_start churn "$WL/wl_threads" -c 0 -q 0 -s 600 -l 100 -k 1
Q="$V1/stalltop-identity-$$"
cg_make "$Q"
echo 100000 >"$Q/cpu.cfs_period_us" || hard_error "cannot set the period"
echo 20000 >"$Q/cpu.cfs_quota_us" || hard_error "cannot set the quota"
bg_start_in quota "$Q" "$WL/wl_spin"
wait_for has_line "$TMP/spin.out" ready
wait_for has_line "$TMP/quota.out" ready

# same NAME LIVE REPLAY: every value of LIVE in REPLAY and no other
same() {
	json_flat "$2" >"$TMP/$1.live.flat"
	json_flat "$3" >"$TMP/$1.replay.flat"
	# the evidence is compared, so there must be some where the live
	# monitor gathers it ($WHY: "tasks", "cgroups", or "none" for -a,
	# whose figures are not of one interval)
	case $WHY in
	none)
		! grep -q ' why\.' "$TMP/$1.live.flat" ||
			fail "$1: the live run has evidence, none was expected" ;;
	*)
		grep -q " $WHY .* why\\." "$TMP/$1.live.flat" ||
			fail "$1: no row of \"$WHY\" in the live run has a \"why\" object" ;;
	esac
	# the first sample's cgroup PSI shares are known, not left out
	local _t1 _pct
	_t1=$(head -n 1 "$2" | jq -r '.time | tostring')
	_pct="^$_t1 cgroups .* psi\.[a-z]*\.[a-z]*\.pct = "
	grep "$_pct" "$TMP/$1.replay.flat" | grep -v "= null\$" >"$TMP/$1.known" || :
	[ -s "$TMP/$1.known" ] ||
		fail "$1: the replay's first sample has no cgroup PSI share"
	[ -s "$TMP/$1.live.flat" ] || fail "$1: the live run printed nothing"
	if ! cmp -s "$TMP/$1.live.flat" "$TMP/$1.replay.flat"; then
		diff "$TMP/$1.live.flat" "$TMP/$1.replay.flat" | head -40 >&2
		fail "$1: the replay differs from the live run (< live, > replay)"
	fi
}

# identity NAME ARGS...: record a live run with ARGS, replay with ARGS
identity() {
	local _n=$1
	shift
	timeout 120 "$STALLTOP" -b --json --cgroups -d 1 -n 5 "$@" \
		--record "$TMP/$_n.rec" >"$TMP/$_n.live" 2>"$TMP/$_n.live.err" ||
		fail "$_n: the live run exited $?: $(cat "$TMP/$_n.live.err")"
	[ "$(lines "$TMP/$_n.live")" -eq 5 ] ||
		fail "$_n: the live run printed $(lines "$TMP/$_n.live") samples, not 5"
	timeout 60 "$STALLTOP" --replay "$TMP/$_n.rec" -b --json --cgroups "$@" \
		>"$TMP/$_n.replay" 2>"$TMP/$_n.replay.err" ||
		fail "$_n: the replay exited $?: $(cat "$TMP/$_n.replay.err")"
	[ ! -s "$TMP/$_n.replay.err" ] ||
		fail "$_n: the replay said: $(cat "$TMP/$_n.replay.err")"
	same "$_n" "$TMP/$_n.live" "$TMP/$_n.replay"
	# the workload stalled: spin's process waited for a CPU
	local _w
	_w=$(jq -s "[.[] | .tasks[] | select(.tgid == $spin)
		| .delay.cpu.count // 0] | add // 0" "$TMP/$_n.replay")
	[ "$_w" -gt 0 ] || fail "$_n: spin's process never waited for a CPU ($_w waits)"
	note "$_n: $(wc -l <"$TMP/$_n.live.flat") values alike, of them evidence: rows $(grep -c ' tasks pid [0-9]* why\.' "$TMP/$_n.live.flat"), cgroups $(grep -c ' cgroups .* why\.' "$TMP/$_n.live.flat")"
}

WHY=tasks identity plain
# thread rows have no evidence of their own: the cgroup rows have
WHY=cgroups identity threads -H
WHY=none identity accumulated -a

# -d 2 over the plain recording: each sample covers two recorded ones
"$STALLTOP" --replay "$TMP/plain.rec" -b --json -d 2 >"$TMP/d2.json" \
	2>"$TMP/d2.err" || fail "--replay -d 2 exited $?: $(cat "$TMP/d2.err")"
[ "$(lines "$TMP/d2.json")" -eq 2 ] ||
	fail "--replay -d 2 of 5 one-second samples gave $(lines "$TMP/d2.json") samples, not 2"
for i in 0 1; do
	got=$(jq -s ".[$i] | [.time, .interval,
		(.tasks[] | select(.pid == $spin) | .delay.cpu.count)]" -c "$TMP/d2.json")
	t=$(echo "$got" | jq '.[0]')
	want=$(jq -s --argjson t "$t" -c '
		(map(.time) | index($t)) as $k
		| [$t, (.[$k].interval + .[$k - 1].interval),
		   ([.[$k - 1, $k] | .tasks[] | select(.pid == '"$spin"')
		     | .delay.cpu.count] | add)]' "$TMP/plain.live")
	# the interval: the sum of the two, printed rounded to 1 ms each
	# (measured: 0 to 1 ms apart)
	jq -n --argjson g "$got" --argjson w "$want" \
		'$g[0] == $w[0] and ($g[1] - $w[1] | fabs) <= 0.002 and $g[2] == $w[2]' |
		grep -q true ||
		fail "--replay -d 2: sample $i is [time, interval, spin's cpu waits] $got, the live samples it covers $want"
done
