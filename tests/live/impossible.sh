#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The kernel's impossible figures never reach a number. On Linux 6.18
# every rmdir (and some mkdir) reports one block-IO wait as long as the
# machine's uptime in a life of a millisecond or two. stalltop must drop
# such a figure in every output (JSON, CSV, text): null or empty or "!",
# the category named in the row's dropped list or column, the drops
# counted in the sample, never summed into TOTAL or sorted to the top.
#
# Bounds: these processes live a few milliseconds (well under one 0.5 s
# interval), with one thread: no figure of theirs can exceed 100 % of an
# interval, TOTAL neither. In any row, an io wait of half the uptime or
# more is the uptime-sized wait let through (a busy machine may well show
# seconds of real io wait in one interval).
# Where the kernel does not produce the artifact (the JSON run sees no
# drop at all and no such row), the test skips and says so.
. "$top_srcdir/tests/lib/functions.sh"
live_init

churn() { # mkdir/rmdir in a loop, in $TMP
	local i=0
	while [ $i -lt 300 ]; do
		mkdir "$TMP/d$i" && rmdir "$TMP/d$i" || return 1
		i=$((i + 1))
	done
}

bg_start csv "$STALLTOP" -b -d 0.5 --format csv
csv=$BG_PID
bg_start text "$STALLTOP" -b -d 0.5 --format text -a
text=$BG_PID
start_stalltop json -d 0.5
json=$ST_PID
wait_lines "$TMP/csv.out" 2
# The artifact does not come with every rmdir: churn until a sample has
# dropped a figure (measured here: in the first or second round, 55 drops
# for 600 directories), at most 20 rounds of 300, then two samples more.
dropped_yet() {
	[ "$(jq -s '[.[] | .figures_dropped] | add // 0' "$TMP/json.out")" -gt 0 ]
}
rounds=0
until [ $rounds -ge 2 ] && dropped_yet || [ $rounds -ge 20 ]; do
	churn || fail "mkdir/rmdir failed"
	rounds=$((rounds + 1))
	wait_more_lines "$TMP/json.out" 1
done
wait_more_lines "$TMP/json.out" 2
note "$rounds rounds of 300 mkdir/rmdir"
stop_stalltop json "$json"
bg_stop "$csv" || fail "stalltop --format csv ended with status $?"
bg_stop "$text" || fail "stalltop --format text ended with status $?"

short='(.comm == "rmdir" or .comm == "mkdir")'
half_uptime=$(awk '{ print $1 / 2 }' /proc/uptime)
seen=$(jq -s "[.[] | (.tasks + .exited)[] | select($short)] | length" "$TMP/json.out")
drops=$(jq -s '[.[] | .figures_dropped] | add' "$TMP/json.out")
note "rmdir/mkdir rows: $seen, figures dropped: $drops"
[ "$seen" -gt 0 ] || fail "no rmdir or mkdir row at all"

# JSON: null + marker, counted, never a number, never in TOTAL
expect "JSON" "$TMP/json.out" -s --argjson half "$half_uptime" "
  (.[] | . as \$s
   | [(.tasks + .exited)[] | .dropped | length] | add // 0
   | select(. != \$s.figures_dropped)
   | \"figures_dropped \(\$s.figures_dropped) but \(.) listed\"),
  (.[] | (.tasks + .exited)[] | . as \$r | .dropped[]
   | select(\$r.delay[.] != null)
   | \"\(\$r.comm) \(\$r.pid): \(.) is listed as dropped but has a figure\"),
  (.[] | (.tasks + .exited)[] | select($short)
   | select(([.delay[] | select(. != null) | .pct] | max // 0) > 100
            or .total_pct > 100)
   | \"\(.comm) \(.pid): an impossible figure shown: \(.delay | map_values(.pct?)) total \(.total_pct)\"),
  (.[] | .interval as \$dt | (.tasks + .exited)[]
   | select((.delay.io.pct // 0) / 100 * \$dt > \$half)
   | \"\(.comm) \(.pid): io \(.delay.io.pct) % of \(\$dt) s: half the uptime or more\")"
# no impossible number anywhere, and none dropped: this kernel is sound
[ "$drops" -gt 0 ] ||
	skip "this kernel reported no impossible figure for rmdir/mkdir"
expect "JSON drops" "$TMP/json.out" -s "
  (if [.[] | (.tasks + .exited)[] | select($short) | .dropped | index(\"io\")]
       | any | not
   then \"no rmdir/mkdir row names io as dropped\" else empty end)"

# CSV: the io fields empty, the dropped column names io
head -n 1 "$TMP/csv.out" | grep -Eq ',total_pct,dropped,exited,command,why(,|$)' ||
	fail "the CSV header has no dropped column: $(head -n 1 "$TMP/csv.out")"
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	$col["command"] ~ /^(rmdir|mkdir)$/ {
		io = $col["delay_io_pct"]; d = $col["dropped"]
		if (d ~ /(^| )io( |$)/) { dropped++; if (io != "") bad = bad " " NR ": io " io " despite dropped" }
		if (io != "" && io + 0 > 100) bad = bad " " NR ": io " io
		if ($col["total_pct"] + 0 > 100) bad = bad " " NR ": total " $col["total_pct"]
	}
	END {
		if (bad != "") { print "CSV:" bad; exit 1 }
		if (!dropped) { print "CSV: no rmdir/mkdir row with io dropped"; exit 1 }
	}' "$TMP/csv.out" || fail "CSV check failed (see above)"

# text (accumulated, so exited tasks stay): "!" in the IO column, counted
grep -q 'impossible figures\{0,1\} dropped (!)' "$TMP/text.out" ||
	fail "the text header does not count dropped figures"
awk '$1 == "PID" { for (i = 1; i <= NF; i++) col[$i] = i; next }
	$NF ~ /^(rmdir|mkdir)$/ && col["IO"] {
		io = $(col["IO"]); total = $(col["TOTAL"])
		if (io == "!") marked++
		else if (io != "-" && io + 0 > 100) bad = bad " io " io
		if (total + 0 > 100) bad = bad " total " total
	}
	END {
		if (bad != "") { print "text:" bad; exit 1 }
		if (!marked) { print "text: no rmdir/mkdir row marks IO with !"; exit 1 }
	}' "$TMP/text.out" || fail "text check failed (see above)"
exit 0
