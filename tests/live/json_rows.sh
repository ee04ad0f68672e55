#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# JSON rows: one key set in every row of a run, tasks and exited alike
# (a figure or detail not known is null, never a key left out), and an
# exited row has its start even when the task ended before its details
# were read. Short-lived shells, a few a second, each write down their
# own start as the kernel has it (field 22 of their /proc/PID/stat,
# ticks since boot; with /proc/stat's btime the independent reading of
# the start) and exit. Their exited rows' start must be that within two
# ticks (0.02 s; measured here: 0.000 s for each of 28 shells).
. "$top_srcdir/tests/lib/functions.sh"
live_init
hz=$(getconf CLK_TCK)
btime=$(awk '$1 == "btime" { print $2 }' /proc/stat)
bg_start kids sh -c 'while :; do
	sh -c "echo \$\$ \$(cut -d\" \" -f22 /proc/\$\$/stat)" >>"$1"
	sleep 0.1
done' sh "$TMP/kids"
wait_for has_lines "$TMP/kids" 3
run_stalltop_json -d 0.5 -n 6
bg_kill "$BG_PID"
expect "one key set" "$JSON" -s '
  [.[] | (.tasks + (.exited // []))[] | keys] | unique
  | if length != 1 then "\(length) key sets: \(.)" else empty end'
awk -v hz="$hz" -v bt="$btime" '{ printf "%s %.3f\n", $1, bt + $2 / hz }' \
	"$TMP/kids" >"$TMP/kids.start"
jq -n --rawfile k "$TMP/kids.start" '[$k | split("\n")[] | select(. != "")
  | split(" ") | {(.[0]): (.[1] | tonumber)}] | add' >"$TMP/kids.json"
expect "exited rows' starts" "$JSON" -s --slurpfile kids "$TMP/kids.json" '
  ([.[] | (.exited // [])[] | select($kids[0][.pid | tostring] != null)]) as $rows
  | if ($rows | length) < 3 then "only \($rows | length) of the shells seen as exited rows"
    else $rows[]
      | ($kids[0][.pid | tostring]) as $want
      | if .start == null then "pid \(.pid) (\(.comm)): exited row without a start"
        elif (.start - $want) | fabs > 0.02
        then "pid \(.pid): start \(.start), the kernel says \($want)"
        else empty end
    end'
note "shells seen exited: $(jq -s --slurpfile kids "$TMP/kids.json" \
	'[.[] | (.exited // [])[] | select($kids[0][.pid | tostring] != null) | .start - $kids[0][.pid | tostring]]' "$JSON" | tr -d ' \n')"
exit 0
