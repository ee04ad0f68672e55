#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# End to end: stalltop --textfile under node_exporter's textfile
# collector, scraped by a real Prometheus, all on 127.0.0.1.
#
# Two spinners share one CPU, so each waits for it about half the time.
# stalltop -d 0.5 rewrites DIR/stalltop.prom (and records the same
# samples' readings), for these two processes. node_exporter serves the
# file: the spinner's cpu delay counter must be in /metrics and grow
# between two scrapes. Prometheus scrapes node_exporter every second;
# after 10 s of it, rate(...[10s]) of the spinner's counter, as a share,
# must be within 10 points of the share its cpu delay counter grew by
# over the recorded readings that window covers (tests/lib/stkdump). (Steps of the counter are 0.5 s of time per 0.5 s, so a
# scrape that lands a step early or late moves a 10 s rate by ~5 points
# at most.) Every wait is bounded; the servers are stopped by the trap.
. "$top_srcdir/tests/lib/functions.sh"
live_init
need_cmd python3
need_cmd taskset
command -v prometheus-node-exporter >/dev/null 2>&1 ||
	skip "prometheus-node-exporter is not installed"
command -v prometheus >/dev/null 2>&1 || skip "prometheus is not installed"

. "$top_srcdir/tests/lib/prometheus.sh"

cpu=$((NCPU - 1))
helper="$top_builddir/tests/tty/stallhelper"
bg_start spin taskset -c "$cpu" "$helper" busy spinner
spin=$BG_PID
bg_start other taskset -c "$cpu" "$helper" busy other
other=$BG_PID

mkdir "$TMP/tf"
ne_port=$(free_port)
bg_start ne prometheus-node-exporter --web.listen-address="127.0.0.1:$ne_port" \
	--collector.disable-defaults --collector.textfile \
	--collector.textfile.directory="$TMP/tf"
ne=$BG_PID
wait_for -t 15 fetch "http://127.0.0.1:$ne_port/metrics" "$TMP/m0"

# -p: on a busy machine other tasks may outrank the spinners in the top 20
bg_start st "$STALLTOP" --textfile "$TMP/tf/stalltop.prom" -d 0.5 --top 20 \
	-p "$spin,$other" --record "$TMP/rec.stk"
st=$BG_PID
wait_for -t 10 test -s "$TMP/tf/stalltop.prom"
[ -s "$TMP/st.out" ] && fail "--textfile wrote to stdout: $(head -3 "$TMP/st.out")"
perm=$(stat -c %a "$TMP/tf/stalltop.prom")
[ "$perm" = 644 ] || fail "the textfile has mode $perm, not 644"

# (node_exporter sorts the labels)
series="stalltop_task_delay_seconds_total{category=\"cpu\",comm=\"spinner\",pid=\"$spin\",start=\"[0-9.]*\"}"
# scrape N: the spinner's counter in /metrics, into $V
scrape() {
	fetch "http://127.0.0.1:$ne_port/metrics" "$TMP/m$1" ||
		fail "cannot fetch /metrics of node_exporter"
	grep -q '^node_textfile_scrape_error 0' "$TMP/m$1" ||
		fail "node_exporter could not read the file: $(grep textfile "$TMP/m$1")"
	V=$(grep "^$series " "$TMP/m$1" | sed 's/.* //')
}
counter_present() { scrape 1; [ -n "$V" ]; }
wait_for -t 10 counter_present
v1=$V
grows() { scrape 2; python3 -c "import sys; sys.exit(not float('$V') > float('$v1'))"; }
wait_for -t 10 grows
note "the spinner's cpu delay: $v1 s, then $V s"

prom_start node "127.0.0.1:$ne_port"

# 12 s of scrapes, then the rate over the last 10 s of them: the window
# is there when a rate over 3 s has a value at each of its 10 seconds (a
# rate needs two scrapes in its range: over 2 s, a scrape late under load
# leaves a step without, the likeliest reason the window did not come
# within 40 s once in a sanitizer run)
query="rate(stalltop_task_delay_seconds_total{pid=\"$spin\",comm=\"spinner\",category=\"cpu\"}[10s])"
have_window() {
	python3 - "$pr_port" "$query" "$TMP/rate" <<'PY'
import json, sys, time, urllib.parse, urllib.request
port, query, out = sys.argv[1:]
now = time.time()
url = "http://127.0.0.1:%s/api/v1/query?%s" % (port, urllib.parse.urlencode(
    {"query": "count_over_time(%s[10s:1s])" % query.replace("[10s])", "[3s])"), "time": now}))
with urllib.request.urlopen(url, timeout=5) as r:
    d = json.load(r)
res = d["data"]["result"]
if not res or float(res[0]["value"][1]) < 10:
    sys.exit(1)
url = "http://127.0.0.1:%s/api/v1/query?%s" % (port, urllib.parse.urlencode(
    {"query": query, "time": now}))
with urllib.request.urlopen(url, timeout=5) as r:
    d = json.load(r)
res = d["data"]["result"]
if len(res) != 1:
    sys.exit(1)
open(out, "w").write("%f %f\n" % (now, float(res[0]["value"][1])))
PY
}
wait_for -t 40 have_window
read -r at rate <"$TMP/rate"

# the recording's readings within the window: the spinner's cpu delay
# counter over the time between the first and the last of them
stk_dump "$TMP/rec.stk" "$TMP/rec.dump"
want=$(jq -r -s --argjson pid "$spin" --argjson at "$at" '
  [.[] | select(.time and .time > $at - 10 and .time <= $at) as $s
   | $s.tasks[] | select(.id == $pid) | [$s.mono, .totals[0]]]
  | if length < 10 then "none" else
    (.[-1][1] - .[0][1]) / 1e9 / (.[-1][0] - .[0][0]) * 100 end' "$TMP/rec.dump")
[ "$want" != none ] || fail "the recording has too few samples in the window"
note "Prometheus rate: $rate, the recording's readings: $want %"
python3 -c "import sys; sys.exit(not abs(float('$rate') * 100 - float('$want')) <= 10)" ||
	fail "rate() says $(python3 -c "print(round(float('$rate') * 100, 1))") %, the recording $want %"

bg_stop "$prom" >/dev/null 2>&1 || true
bg_stop "$st" || fail "stalltop --textfile ended with status $? on SIGTERM: $(cat "$TMP/st.err")"
[ -e "$TMP/tf/stalltop.prom" ] && fail "the textfile stays after SIGTERM"
bg_stop "$ne" >/dev/null 2>&1 || true
exit 0
