#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --format openmetrics, live and replayed, is read by Prometheus's own
# OpenMetrics parser (promtool's backfill, each sample given a time
# stamp), every sample named as its family says, and --textfile's
# Prometheus text format passes promtool check metrics, while a process
# with a hostile name runs: its comm holds a double
# quote, a backslash, a newline and an invalid UTF-8 byte (set with
# prctl). Each sample is one exposition ending with "# EOF"; each is
# checked on its own. The hostile process, one of two spinners pinned to
# one CPU (so among the most stalled tasks), must be among the series, its
# name escaped, and the replay of a recording of the same run must give
# the same series (the task's start time travels in the recording; the
# recording, JSON, keeps the invalid byte as U+FFFD). Its cpu delay
# counter is in every exposition and is cumulative: at each sample it is
# the sum of the task's cpu delay over the intervals so far (pct/100 x
# interval of each sample of the JSON replay of the recording), and it
# never exceeds the run-queue wait the kernel counted for the task over
# the whole run (/proc/PID/task/*/schedstat, read before and after).
# Then the options' bad input: --top, --textfile in a missing directory,
# --textfile with another format or with --replay.
. "$top_srcdir/tests/lib/functions.sh"
live_init
need_cmd promtool
need_cmd taskset

cpu=$((NCPU - 1))
helper="$top_builddir/tests/tty/stallhelper"
bg_start spin taskset -c "$cpu" "$helper" busy "$(printf 'q"b\\c\nd\377x')"
spin=$BG_PID
bg_start other taskset -c "$cpu" "$helper" busy other
wait_for has_line "/proc/$spin/status" '^Name:.*q'

# check_expositions FILE N: FILE holds N expositions, each valid.
check_expositions() {
	local _n
	_n=$(grep -c '^# EOF$' "$1")
	[ "$_n" -eq "$2" ] || fail "$1: $_n expositions, expected $2"
	[ "$(tail -n 1 "$1")" = "# EOF" ] || fail "$1: text after the last # EOF"
	rm -f "$TMP"/expo.*
	awk -v dir="$TMP" '{ print > (dir "/expo." n) } /^# EOF$/ { close(dir "/expo." n); n++ }' n=0 "$1"
	for _f in "$TMP"/expo.*; do
		awk '/^#/ { print; next } { print $0 " 1763740000" }' "$_f" >"$_f.ts"
		rm -rf "$TMP/blocks"
		promtool tsdb create-blocks-from openmetrics "$_f.ts" "$TMP/blocks" \
			>"$TMP/promtool.out" 2>&1 ||
			fail "$1: promtool's OpenMetrics parser: $(head -5 "$TMP/promtool.out")"
		# a counter's samples are FAMILY_total, a gauge's FAMILY, an
		# info's FAMILY_info; a UNIT is the family's suffix
		awk '/^# TYPE / { fam = $3; type = $4; next }
			/^# UNIT / { if ($3 != fam || substr(fam, length(fam) - length($4)) != "_" $4) { print "UNIT " $3 " " $4 " of family " fam; exit 1 } next }
			/^#/ { next }
			{ name = $1; sub(/[{ ].*/, "", name)
			  want = type == "counter" ? fam "_total" : type == "info" ? fam "_info" : fam
			  if (name != want) { print "sample " name " in family " fam " (" type ")"; exit 1 } }' \
			"$_f" >"$TMP/names.out" ||
			fail "$1: $(cat "$TMP/names.out")"
	done
}

# The series of the hostile task: pid, start and the escaped name.
# hostile_series FILE BYTE: BYTE is how the name's invalid byte shows
hostile_series() {
	grep "^stalltop_task_delay_seconds_total{pid=\"$spin\",start=\"[0-9.]*\",comm=\"q\\\\\"b\\\\\\\\\\\\\\\\c\\\\\\\\nd$2x\",category=\"cpu\"} " "$1" |
		sed 's/} .*//' | sort -u
}

# run_delay: RUN_DELAY = the run-queue wait of the hostile task's threads
# so far, in ns (the kernel's cpu delay, field 2 of schedstat)
run_delay() {
	RUN_DELAY=$(cat "/proc/$spin/task/"*/schedstat | awk '{ n += $2; k++ } END { if (k) printf "%.0f", n }')
	[ -n "$RUN_DELAY" ] || fail "no schedstat of the hostile task $spin"
}

run_delay
run0=$RUN_DELAY
timeout 60 "$STALLTOP" -b -n 3 -d 0.5 --format openmetrics --top 20 \
	--record "$TMP/rec.stk" >"$TMP/live.om" 2>"$TMP/live.err" ||
	fail "stalltop --format openmetrics exited $?: $(cat "$TMP/live.err")"
run_delay
run1=$RUN_DELAY
check_expositions "$TMP/live.om" 3
live=$(hostile_series "$TMP/live.om" '\\\\xff')
[ -n "$live" ] || fail "no series of the hostile task $spin: $(grep "pid=\"$spin\"" "$TMP/live.om" | head -3)"
[ "$(echo "$live" | wc -l)" -eq 1 ] || fail "the hostile task has several series: $live"
note "live: $live"

timeout 60 "$STALLTOP" --replay "$TMP/rec.stk" -b --format openmetrics --top 20 \
	>"$TMP/replay.om" 2>"$TMP/replay.err" ||
	fail "the replay exited $?: $(cat "$TMP/replay.err")"
check_expositions "$TMP/replay.om" 3
replay=$(hostile_series "$TMP/replay.om" "$(printf '\357\277\275')")
[ "$replay" = "$(echo "$live" | sed "s/\\\\\\\\xff/$(printf '\357\277\275')/")" ] || fail "the replay has other series: $replay, live: $live"

# its cpu delay counter, exposition by exposition (grep -F: the series
# holds \ and ", which are no regular expression)
grep -F "$live} " "$TMP/live.om" | awk '{ print $NF }' >"$TMP/values"
[ "$(wc -l <"$TMP/values")" -eq 3 ] ||
	fail "the hostile task's cpu counter is in $(wc -l <"$TMP/values") of 3 expositions: $(tr '\n' ' ' <"$TMP/values")"
# the same task's cpu delay per sample, replayed as JSON: "pct interval"
timeout 60 "$STALLTOP" --replay "$TMP/rec.stk" -b --json \
	>"$TMP/replay.json" 2>"$TMP/replay-json.err" ||
	fail "the JSON replay exited $?: $(cat "$TMP/replay-json.err")"
jq -r --argjson p "$spin" '[.tasks[] | select(.pid == $p)] as $t
	| if ($t | length) == 1 and ($t[0].delay.cpu.pct | type) == "number"
	  then "\($t[0].delay.cpu.pct) \(.interval)" else "none" end' \
	"$TMP/replay.json" >"$TMP/figures" ||
	fail "jq cannot read the JSON replay"
[ "$(wc -l <"$TMP/figures")" -eq 3 ] && ! grep -q none "$TMP/figures" ||
	fail "the JSON replay lacks the hostile task's cpu delay in a sample: $(tr '\n' ',' <"$TMP/figures")"
# Sample k's counter is the sum of pct/100 x interval up to k. JSON
# rounds the interval to 1 ms and pct to 0.001, so each term may be off
# by 0.5 ms x pct/100 + 0.005 ms x interval: 1 ms a sample allows twice
# that (measured: 0.2 ms after the first sample). A counter reset at
# each sample is off by the sum of the earlier ones, about 0.3 s each.
paste -d ' ' "$TMP/figures" "$TMP/values" | awk '
	{ sum += $1 / 100 * $2; k++
	  d = $3 - sum; if (d < 0) d = -d
	  if (d > 0.001 * k) { printf "sample %d: counter %s, sum of the intervals %.6f; ", k, $3, sum; bad = 1 } }
	END { exit bad }' >"$TMP/sums" ||
	fail "the counter is not the sum of the task's cpu delay: $(cat "$TMP/sums")"
# Never more than the kernel counted over the whole run (the samples'
# intervals lie inside it): the counter adds the intervals' exact
# figures, printed to 1 us, so 1 ms covers rounding.
last=$(tail -n 1 "$TMP/values")
awk -v c="$last" -v r0="$run0" -v r1="$run1" 'BEGIN { exit !(c <= (r1 - r0) / 1e9 + 0.001) }' ||
	fail "the counter reached $last s, but the kernel counted $(((run1 - run0) / 1000)) us of cpu delay over the whole run"
note "cpu counter: $(tr '\n' ' ' <"$TMP/values")(the kernel: $(((run1 - run0) / 1000)) us over the run)"

# --textfile: the Prometheus text format 0.0.4, as node_exporter reads it;
# the file is removed when stalltop ends by itself (SIGTERM, the end of -n)
bg_start tf "$STALLTOP" -d 0.5 --textfile "$TMP/x.prom"
tf=$BG_PID
wait_for -t 10 test -s "$TMP/x.prom"
cp "$TMP/x.prom" "$TMP/x.copy"
bg_stop "$tf" || fail "stalltop --textfile ended with status $? on SIGTERM: $(cat "$TMP/tf.err")"
[ -e "$TMP/x.prom" ] && fail "--textfile: the file stays after SIGTERM"
promtool check metrics <"$TMP/x.copy" >"$TMP/promtool.out" 2>&1 ||
	fail "--textfile: promtool: $(head -5 "$TMP/promtool.out")"
grep -q '^# TYPE stalltop_events_lost_total counter$' "$TMP/x.copy" ||
	fail "--textfile: no TYPE line of stalltop_events_lost_total: $(grep events_lost "$TMP/x.copy")"
grep -q '^# EOF' "$TMP/x.copy" && fail "--textfile: an OpenMetrics # EOF in the Prometheus text format"
timeout 60 "$STALLTOP" -n 2 -d 0.5 --textfile "$TMP/y.prom" 2>"$TMP/tf2.err" ||
	fail "stalltop --textfile -n 2 exited $?: $(cat "$TMP/tf2.err")"
[ -e "$TMP/y.prom" ] && fail "--textfile: the file stays after the end of -n"

# bad input: a clear message and status 2 (1 for a directory that
# cannot take the file), nothing written
bad() {
	local _want=$1 _rc
	shift
	"$STALLTOP" "$@" >"$TMP/bad.out" 2>"$TMP/bad.err"
	_rc=$?
	[ "$_rc" -eq "$_want" ] || fail "stalltop $*: status $_rc, expected $_want"
	[ -s "$TMP/bad.err" ] || fail "stalltop $*: no message"
	[ -s "$TMP/bad.out" ] && fail "stalltop $*: wrote to stdout"
	note "stalltop $*: $(cat "$TMP/bad.err")"
}
bad 2 -b --format openmetrics --top x
bad 2 -b --format openmetrics --top -1
bad 2 --textfile "$TMP/x.prom" --format json
bad 2 --textfile "$TMP/x.prom" --replay "$TMP/rec.stk"
bad 2 --textfile ""
bad 1 --textfile "$TMP/missing/x.prom" -n 1
grep -q "$TMP/missing/x.prom" "$TMP/bad.err" || fail "the message does not name the file"
bad 1 --textfile "$TMP" -n 1
exit 0
