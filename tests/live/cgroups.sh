#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The cgroup view in batch JSON. Under the v2 hierarchy (found, as
# stalltop finds it, in /proc/self/mountinfo: fstype cgroup2) two cgroups
# of our own: "load" with three busy processes pinned to one CPU at nice
# -20, "idle" with one sleeping process. stalltop -b --json --cgroups must
#  - rank load above idle (default sort: total delay),
#  - give load cpu pressure of its own (psi.cpu.some.pct > 0) and a summed
#    delay total_pct of 180..220: three processes sharing one CPU at nice
#    -20 each wait two thirds of the time, since the CPU always runs one
#    of them and the other two wait: 200 % together, plus about 1 % a
#    hog for the rest of the machine's share of that CPU (measured
#    199.99..200.2). A sum that lost one of them (133), counted one twice
#    (267) or took a per-cgroup average instead of a sum (67) falls
#    outside;
#  - count nr_tasks 3 in load and 1 in idle,
#  - put "cgroup": "/<ours>/load" on each of the three tasks;
# --cgroup /<ours>/load limits the tasks to exactly the three workload
# processes, --cgroup /<ours> (the subtree) to those four; --cgroup
# /does/not/exist and --cgroup ../x end with status 2 and exactly the
# message naming the path, the hierarchy and the reason. Everything is
# checked in every sample (the first one too: its interval runs from the
# baseline).
. "$top_srcdir/tests/lib/functions.sh"
live_init
need_cmd taskset
export LC_ALL=C   # the English messages

# the v2 mount point: field 5 of the mountinfo line whose fstype (after
# the " - " separator) is cgroup2
cg_root
[ -e "$V2/cpu.pressure" ] || skip "no per-cgroup PSI here ($V2/cpu.pressure)"

NAME=stalltop-$TEST_NAME-$$
CG=$V2/$NAME
LOAD=/$NAME/load
IDLE=/$NAME/idle
cg_make "$CG" "$CG/load" "$CG/idle"


cpu=$((NCPU - 1))
hogs=
for i in 1 2 3; do
	bg_start_in "hog$i" "$CG/load" "$WL/wl_spin" -c "$cpu" -N -20
	hogs="$hogs $BG_PID"
done
bg_start_in idle "$CG/idle" sleep 3600
idle=$BG_PID
for i in 1 2 3; do
	wait_for has_line "$TMP/hog$i.out" ready
done
in_cgroups() {
	[ "$(wc -l <"$CG/load/cgroup.procs")" -eq 3 ] &&
		[ "$(wc -l <"$CG/idle/cgroup.procs")" -eq 1 ]
}
wait_for -t 10 in_cgroups
hogs_json=$(echo $hogs | jq -R -c 'split(" ") | map(tonumber) | sort')
note "load ($LOAD): $hogs; idle ($IDLE): $idle"

# --- the cgroup view ---
run_stalltop_json --cgroups -n 3 -d 0.5
expect "--cgroups" "$JSON" --arg load "$LOAD" --arg idle "$IDLE" \
	--argjson hogs "$hogs_json" --argjson idle_pid "$idle" '
  (.cgroups // []) as $cg
  | ($cg | map(.path) | index($load)) as $li
  | ($cg | map(.path) | index($idle)) as $ii
  | if $li == null or $ii == null
    then "our cgroups are not in the list: \($cg | map(.path))"
    else $cg[$li] as $l | $cg[$ii] as $i
    | (if $li > $ii then "load (#\($li + 1), total \($l.total_pct)) ranks below idle (#\($ii + 1), total \($i.total_pct))" else empty end),
      (if ($l.psi.cpu.some.pct // 0) <= 0 then "load has no cpu pressure of its own: \($l.psi.cpu)" else empty end),
      (if ($i.psi.cpu.some.pct // 0) >= $l.psi.cpu.some.pct
       then "idle has as much cpu pressure (\($i.psi.cpu.some.pct)) as load (\($l.psi.cpu.some.pct))" else empty end),
      (if $l.total_pct < 180 or $l.total_pct > 220
       then "load total_pct \($l.total_pct), expected about 200" else empty end),
      (if $l.nr_tasks != 3 then "load nr_tasks \($l.nr_tasks), expected 3" else empty end),
      (if $i.nr_tasks != 1 then "idle nr_tasks \($i.nr_tasks), expected 1" else empty end),
      ([.tasks[] | select(.pid as $p | $hogs | index($p))] as $rows
       | (if ($rows | length) != 3 then "\($rows | length) rows of the hogs" else empty end),
         ($rows[] | select(.cgroup != $load) | "hog \(.pid): cgroup \(.cgroup), expected \($load)")),
      (.tasks[] | select(.pid == $idle_pid and .cgroup != $idle)
       | "idle \(.pid): cgroup \(.cgroup), expected \($idle)")
    end'
note "load: $(jq -c --arg p "$LOAD" '.cgroups | (map(.path) | index($p)) as $i
	| {rank: ($i + 1), total_pct: .[$i].total_pct, cpu_some: .[$i].psi.cpu.some.pct, nr_tasks: .[$i].nr_tasks}' \
	"$JSON" | tr '\n' ' ')"

# --- the filter ---
run_stalltop_json --cgroup "$LOAD" -n 3 -d 0.5
expect "--cgroup $LOAD" "$JSON" --argjson hogs "$hogs_json" '
  [.tasks[].pid] | sort | if . != $hogs then "tasks \(.), expected the hogs \($hogs)" else empty end'
run_stalltop_json --cgroup "/$NAME" -n 2 -d 0.5
expect "--cgroup /$NAME" "$JSON" --argjson want "$(echo $hogs $idle | jq -R -c 'split(" ") | map(tonumber) | sort')" '
  [.tasks[].pid] | sort | if . != $want then "tasks \(.), expected \($want)" else empty end'
note "--cgroup $LOAD and /$NAME: exactly their processes"

# --- bad paths ---
for bad in "/does/not/exist:No such file or directory" "../x:Invalid argument"; do
	path=${bad%%:*}
	want="stalltop: --cgroup '$path': not a cgroup directory below $V2 (${bad#*:})"
	timeout 10 "$STALLTOP" -b --json --cgroup "$path" -n 1 >"$TMP/bad.out" 2>"$TMP/bad.err"
	st=$?
	[ "$st" -eq 2 ] || fail "--cgroup $path: status $st, expected 2 ($(cat "$TMP/bad.err"))"
	[ -s "$TMP/bad.out" ] && fail "--cgroup $path: wrote to stdout"
	[ "$(cat "$TMP/bad.err")" = "$want" ] ||
		fail "--cgroup $path: the message is '$(cat "$TMP/bad.err")', expected '$want'"
	note "--cgroup $path: $(cat "$TMP/bad.err")"
done
exit 0
