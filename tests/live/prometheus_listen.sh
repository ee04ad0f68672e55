#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# End to end: a real Prometheus scrapes stalltop --listen, as
# stalltop-serve.service runs it, all on 127.0.0.1.
#
# The unit (data/stalltop-serve.service) passes systemd-analyze verify
# without a word. Its own command line (a shorter interval, the
# recording into the test's directory, a free port instead of 9847, the
# two spinners' own series with --top and -p) runs
# under the unit's system call filter and capability bounding set, as
# tests/live/faults_service.sh runs the recording service's: one process
# records and serves. Prometheus scrapes it every second; through
# Prometheus's HTTP API (every wait bounded):
#  - up{job="stalltop"} is 1 (Prometheus read the exposition);
#  - every metric name of stalltop's own /metrics has reached Prometheus;
#  - the counter of two spinners sharing one CPU, as Prometheus holds it,
#    grows between two queries;
# and the recording holds the same samples. Everything is stopped by the
# trap.
. "$top_srcdir/tests/lib/functions.sh"
live_init
need_cmd python3 curl taskset prometheus
. "$top_srcdir/tests/lib/prometheus.sh"
. "$top_srcdir/tests/lib/unit.sh"

unit_init "$top_builddir/data/stalltop-serve.service"
mkdir "$TMP/unit"
unit_verify "$TMP/unit"

# two spinners on one CPU: each waits for it about half the time
cpu=$((NCPU - 1))
helper="$top_builddir/tests/tty/stallhelper"
bg_start spin taskset -c "$cpu" "$helper" busy spinner
spin=$BG_PID
bg_start other taskset -c "$cpu" "$helper" busy other
other=$BG_PID

st_port=$(free_port)
args=$(unit_args)
echo "$args" | grep -q -- '--listen 127.0.0.1:9847' ||
	fail "the unit does not listen on 127.0.0.1:9847: $args"
# shellcheck disable=SC2046 # the unit's words
# (and the spinners' own series: --top, -p so that no busier task of the
# machine outranks them)
set -- $(echo "$args" | sed "s|-d [0-9.]*|-d 0.5|; s|/var/log/stalltop/|$TMP/rec/|; s|--listen [^ ]*|--listen 127.0.0.1:$st_port|") \
	--top 20 -p "$spin,$other"
unit_start st "$@"
st=$BG_PID
wait_for -t 15 fetch "http://127.0.0.1:$st_port/metrics" "$TMP/m0"

prom_start stalltop "127.0.0.1:$st_port"

# query PROMQL OUT: the instant query's result, one "LABELS VALUE" a line
query() {
	python3 - "$pr_port" "$1" >"$2" <<'PY'
import json, sys, urllib.parse, urllib.request
port, q = sys.argv[1:]
url = "http://127.0.0.1:%s/api/v1/query?%s" % (port, urllib.parse.urlencode({"query": q}))
with urllib.request.urlopen(url, timeout=5) as r:
    d = json.load(r)
if d["status"] != "success":
    sys.exit(1)
for s in d["data"]["result"]:
    print(json.dumps(s["metric"], sort_keys=True), s["value"][1])
PY
}
is_up() { query 'up{job="stalltop"}' "$TMP/up" && [ "$(sed 's/.* //' "$TMP/up")" = 1 ]; }
wait_for -t 30 is_up

# every name stalltop serves now has reached Prometheus
fetch "http://127.0.0.1:$st_port/metrics" "$TMP/m1" || fail "cannot fetch /metrics of stalltop"
sed -n 's/^\(stalltop_[a-z_]*\)[{ ].*/\1/p' "$TMP/m1" | sort -u >"$TMP/served"
[ "$(wc -l <"$TMP/served")" -ge 3 ] || fail "stalltop serves only: $(cat "$TMP/served")"
arrived() {
	query 'count by (__name__) ({job="stalltop", __name__=~"stalltop_.+"})' "$TMP/names" || return 1
	sed 's/.*"__name__": "\([^"]*\)".*/\1/' "$TMP/names" | sort -u >"$TMP/stored"
	[ -z "$(comm -23 "$TMP/served" "$TMP/stored")" ]
}
wait_for -t 20 arrived
note "$(wc -l <"$TMP/served") metric names served and stored in Prometheus"

# the spinner's cpu delay counter, as Prometheus has it, grows
spinner='sum(stalltop_task_delay_seconds_total{job="stalltop", comm="spinner", category="cpu"})'
value() { query "$spinner" "$TMP/v" && V=$(sed 's/.* //' "$TMP/v") && [ -n "$V" ]; }
wait_for -t 20 value
v1=$V
grows() { value && python3 -c "import sys; sys.exit(not float('$V') > float('$v1'))"; }
wait_for -t 20 grows
note "the spinner's cpu delay in Prometheus: $v1 s, then $V s"

query 'scrape_duration_seconds{job="stalltop"}' "$TMP/dur" || fail "no scrape_duration_seconds"
note "a scrape took $(sed 's/.* //' "$TMP/dur") s"

bg_stop "$prom" >/dev/null 2>&1 || true
bg_stop "$st" || fail "the service's command ended with status $? on SIGTERM: $(cat "$TMP/st.err")"
[ -s "$TMP/st.err" ] && fail "the service's command said: $(head -c 500 "$TMP/st.err")"
[ -s "$TMP/st.out" ] && fail "the service's command wrote on stdout: $(head -c 300 "$TMP/st.out")"
"$STALLTOP" --replay "$TMP/rec" -b --json >"$TMP/replay" 2>"$TMP/replay.err" ||
	fail "the recording made while serving does not replay: $(cat "$TMP/replay.err")"
[ "$(lines "$TMP/replay")" -ge 5 ] || fail "the recording made while serving has $(lines "$TMP/replay") samples"
exit 0
