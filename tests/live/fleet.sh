#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# End to end, as a fleet runs it: stalltop --textfile (no --top: per
# cgroup and per workload group only) under node_exporter's textfile and
# pressure collectors, scraped every second by a real Prometheus that
# loads the shipped alert rules, all on 127.0.0.1.
#
# Two spinners named fleetspin share one CPU inside a cgroup of their own
# (depth 1 of the v2 tree), so each waits for it about half the time; a
# rule of the settings file (group=spinners:comm:^fleetspin$) groups them.
# Then the churn of the issue: 1,000 short-lived tasks with 10 distinct
# names (copies of sleep named churn0..churn9, 100 of each). Checked:
# - the churn adds one set of series per name and none per task: in the
#   textfile each churnN group has no more series than the spinners'
#   group, there is no per-task series, and every new group is one of the
#   ten or a name that ran meanwhile (other users of the machine); in
#   Prometheus, no stalltop_task_* series and at most 10 sets of churn
#   series over the whole run; no group counter was ever reset;
# - each churnN group counted its 100 tasks' ends (stalltop_group_tasks
#   0 and a cpu delay series at the end);
# - the shipped rules load and are healthy; StalltopCgroupStalled's
#   expression (its window made 20 s) finds the spinners' cgroup (about
#   1 s stalled per second, above 0.5); StalltopAbsent and StalltopStale
#   are not active;
# - every query of the shipped dashboard, with its variables set
#   ($instance .*, $depth 1, $__rate_interval 10s; label_values() as a
#   count by its label), returns data from this Prometheus;
# - the throttled seconds of a third spinner's cgroup (a CPU quota of
#   half a CPU on it) grow;
# - stalltop removes its textfile on SIGTERM.
# Every wait is bounded; the servers are stopped by the trap.
. "$top_srcdir/tests/lib/functions.sh"
live_init
need_cmd python3 taskset promtool
command -v prometheus-node-exporter >/dev/null 2>&1 ||
	hard_error "needs prometheus-node-exporter (./bootstrap installs it)"
command -v prometheus >/dev/null 2>&1 ||
	hard_error "needs prometheus (./bootstrap installs it)"
cg_root

. "$top_srcdir/tests/lib/prometheus.sh"
# query EXPR OUT: Prometheus's result vector (JSON) of an instant query
query() {
	python3 - "$pr_port" "$1" "$2" <<'PY'
import json, sys, urllib.parse, urllib.request
port, expr, out = sys.argv[1:]
url = "http://127.0.0.1:%s/api/v1/query?%s" % (port, urllib.parse.urlencode({"query": expr}))
with urllib.request.urlopen(url, timeout=10) as r:
    d = json.load(r)
if d.get("status") != "success":
    sys.exit("query failed: %s" % d)
json.dump(d["data"]["result"], open(out, "w"))
PY
}

# the spinners in a cgroup of their own, sharing one CPU
cpu=$((NCPU - 1))
cg="$V2/stalltop-fleet-$$"
cg_make "$cg"
helper="$top_builddir/tests/tty/stallhelper"
mkdir "$TMP/bin" || hard_error "cannot make $TMP/bin"
cp "$helper" "$TMP/bin/fleetspin" || hard_error "cannot copy the helper"
bg_start_in spin1 "$cg" taskset -c "$cpu" "$TMP/bin/fleetspin" busy fleetspin
spin1=$BG_PID
bg_start_in spin2 "$cg" taskset -c "$cpu" "$TMP/bin/fleetspin" busy fleetspin
spin2=$BG_PID
# A third spinner alone in a cgroup of its own (on another CPU where
# there is one) with a CPU quota of a fifth of a CPU, less than it gets
# even when sharing a CPU with the two, so that cgroup is throttled: in its v2 directory where the v2 tree
# has the cpu controller, else in the cpu hierarchy of v1 at the same
# path (a hybrid host). (Not the two spinners: a quota on them makes
# their run-queue wait and run time add up to more than the interval at
# times, and such figures are dropped as impossible.) The spinners' cgroup
# gets a v1 memory cgroup at its path where there is a v1 memory
# hierarchy (its failcnt is the memory events' max).
cgq="$V2/stalltop-fleetq-$$"
cpuq=$(((cpu + 1) % NCPU))
cg_make "$cgq"
if grep -qw cpu "$cgq/cgroup.controllers" 2>/dev/null; then
	echo "20000 100000" >"$cgq/cpu.max" || hard_error "cannot set $cgq/cpu.max"
	bg_start_in spinq "$cgq" taskset -c "$cpuq" "$TMP/bin/fleetspin" busy fleetspin
else
	v1cpu=$(v1_mount cpu)
	[ -n "$v1cpu" ] || hard_error "no cpu controller in v2 nor v1 (mountinfo)"
	cg_make "$v1cpu/${cgq##*/}"
	echo 20000 >"$v1cpu/${cgq##*/}/cpu.cfs_quota_us" ||
		hard_error "cannot set the v1 cpu quota"
	bg_start_in spinq "$cgq" sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' \
		sh "$v1cpu/${cgq##*/}" taskset -c "$cpuq" "$TMP/bin/fleetspin" busy fleetspin
	v1mem=$(v1_mount memory)
	if [ -n "$v1mem" ]; then
		cg_make "$v1mem/${cg##*/}"
		echo "$spin1" >"$v1mem/${cg##*/}/cgroup.procs" &&
			echo "$spin2" >"$v1mem/${cg##*/}/cgroup.procs" ||
			hard_error "cannot move the spinners into $v1mem/${cg##*/}"
	fi
fi
for i in 0 1 2 3 4 5 6 7 8 9; do
	cp "$(command -v sleep)" "$TMP/bin/churn$i" || hard_error "cannot copy sleep"
done

mkdir -p "$TMP/tf" "$TMP/xdg/stalltop"
echo 'group=spinners:comm:^fleetspin$' >"$TMP/xdg/stalltop/stalltoprc"
ne_port=$(free_port)
bg_start ne prometheus-node-exporter --web.listen-address="127.0.0.1:$ne_port" \
	--collector.disable-defaults --collector.textfile --collector.pressure \
	--collector.textfile.directory="$TMP/tf"
wait_for -t 15 fetch "http://127.0.0.1:$ne_port/metrics" "$TMP/m0"

PROM="$TMP/tf/stalltop.prom"
bg_start st env XDG_CONFIG_HOME="$TMP/xdg" "$STALLTOP" --textfile "$PROM" -d 0.5
st=$BG_PID
# the spinners' group and cgroup are in the file
spinners_in() {
	grep -q '^stalltop_group_stall_seconds_total{group="spinners"} ' "$PROM" 2>/dev/null &&
		grep -q "^stalltop_cgroup_stall_seconds_total{id=\"/${cg##*/}\",name=\"${cg##*/}\",depth=\"1\"} " "$PROM"
}
wait_for -t 15 spinners_in
# the quota throttles them: the kernel's counter, as stalltop exports it
throttled() {
	sed -n "s/^stalltop_cgroup_cpu_throttled_seconds_total{id=\"\/${cgq##*/}\",[^}]*} //p" "$PROM"
}
thr0=$(throttled)
[ -n "$thr0" ] || fail "no throttled seconds of the cgroup: $(grep throttled "$PROM")"
thr_grows() { python3 -c "import sys; sys.exit(not float('$(throttled)') > float('$thr0'))"; }
wait_for -t 10 thr_grows
note "the cgroup's throttled seconds: $thr0, then $(throttled)"

cp "$top_srcdir/contrib/prometheus/stalltop-rules.yml" "$TMP/rules.yml"
prom_start node "127.0.0.1:$ne_port" "$TMP/rules.yml"

# series_of FILE: the sample lines of a textfile, names and labels
series_of() { grep -v '^#' "$1" | sed 's/ [^ ]*$//' | sort; }
# groups_of FILE: the groups in a textfile
groups_of() { sed -n 's/^stalltop_group_tasks{group="\(.*\)"} .*/\1/p' "$1" | sort; }

cp "$PROM" "$TMP/before.prom"
series_of "$TMP/before.prom" >"$TMP/before.series"
groups_of "$TMP/before.prom" >"$TMP/before.groups"

# the churn: 100 rounds of the 10 names, each task 10 ms (waited for by
# their ids: a bare wait would wait for the servers too)
i=0
while [ $i -lt 100 ]; do
	pids=
	for n in 0 1 2 3 4 5 6 7 8 9; do
		"$TMP/bin/churn$n" 0.01 &
		pids="$pids $!"
	done
	# shellcheck disable=SC2086 # one argument per id
	wait $pids
	i=$((i + 1))
done

# a sample after the churn: every churn group there with no task left
churn_done() {
	cp "$PROM" "$TMP/after.prom" 2>/dev/null || return 1
	for n in 0 1 2 3 4 5 6 7 8 9; do
		grep -q "^stalltop_group_tasks{group=\"churn$n\"} 0$" "$TMP/after.prom" || return 1
	done
}
wait_for -t 15 churn_done
series_of "$TMP/after.prom" >"$TMP/after.series"
groups_of "$TMP/after.prom" >"$TMP/after.groups"

grep -q 'pid="' "$TMP/after.prom" && fail "per-task series without --top: $(grep -m 3 'pid="' "$TMP/after.prom")"
set_size=$(grep -c '{group="spinners"' "$TMP/after.series")
[ "$set_size" -ge 4 ] || fail "the spinners' group has only $set_size series: $(grep spinners "$TMP/after.series")"
for n in 0 1 2 3 4 5 6 7 8 9; do
	k=$(grep -c "{group=\"churn$n\"" "$TMP/after.series")
	[ "$k" -ge 1 ] && [ "$k" -le "$set_size" ] ||
		fail "churn$n has $k series, a set is $set_size"
	grep -q "^stalltop_group_delay_seconds_total{group=\"churn$n\",category=\"cpu\"}" "$TMP/after.series" ||
		fail "churn$n has no cpu delay series: $(grep "churn$n" "$TMP/after.series")"
done
# new groups: the ten, and names that ran meanwhile on the machine
new_groups=$(comm -13 "$TMP/before.groups" "$TMP/after.groups" | tr '\n' ' ')
churn_groups=$(comm -13 "$TMP/before.groups" "$TMP/after.groups" | grep -c '^churn[0-9]$')
[ "$churn_groups" -eq 10 ] || fail "$churn_groups new churn groups, not 10: $new_groups"
added=$(comm -13 "$TMP/before.series" "$TMP/after.series" | wc -l)
added_churn=$(comm -13 "$TMP/before.series" "$TMP/after.series" | grep -c 'group="churn[0-9]"')
added_other=$(comm -13 "$TMP/before.series" "$TMP/after.series" | grep -v 'group="churn[0-9]"' |
	grep -c 'group="' || true)
# every added series is a group's (a churn name's or a new name's)
[ "$added" -eq $((added_churn + added_other)) ] ||
	fail "series added by the churn that are no group's: $(comm -13 "$TMP/before.series" "$TMP/after.series" | grep -v 'group="' | head -5)"
# Measured here: 1,000 tasks of 10 names added 10 sets of 15 series (no
# irq category: 7 categories x 2 + stall + tasks = 150), a set per name,
# where the per-task series added 10 per task before; the textfile had
# about 1,200 series (80 groups of an idle machine) before.
note "textfile: $(wc -l <"$TMP/before.series") series before, $(wc -l <"$TMP/after.series") after; added $added: $added_churn of the 10 churn groups (a set is $set_size), $added_other of other new groups ($new_groups)"

# Prometheus: the churn's series over the whole run, no per-task series,
# no group counter reset
series_count() {
	python3 - "$pr_port" "$1" <<'PY'
import json, sys, time, urllib.parse, urllib.request
port, match = sys.argv[1:]
url = "http://127.0.0.1:%s/api/v1/series?%s" % (port, urllib.parse.urlencode(
    {"match[]": match, "start": time.time() - 600, "end": time.time()}))
with urllib.request.urlopen(url, timeout=10) as r:
    print(len(json.load(r)["data"]))
PY
}
# the scrape that follows the churn's end is in
prom_has_churn() {
	query 'stalltop_group_tasks{group="churn9"} == 0' "$TMP/q" && grep -q churn9 "$TMP/q"
}
wait_for -t 15 prom_has_churn
n_churn=$(series_count '{__name__=~"stalltop_group_.+",group=~"churn[0-9]"}') ||
	fail "cannot count the series of Prometheus"
n_task=$(series_count '{__name__=~"stalltop_task_.+"}')
n_all=$(series_count '{__name__=~"stalltop_.+"}')
[ "$n_task" -eq 0 ] || fail "Prometheus has $n_task per-task series"
[ "$n_churn" -le $((10 * set_size)) ] ||
	fail "Prometheus has $n_churn series of the churn groups, more than 10 sets of $set_size"
query 'resets(stalltop_group_delay_seconds_total[10m]) > 0' "$TMP/resets" ||
	fail "cannot query the resets"
[ "$(cat "$TMP/resets")" = "[]" ] || fail "group counters went back: $(cat "$TMP/resets")"
note "Prometheus: $n_all stalltop series over the run, $n_churn of the churn groups, $n_task per task"

# the rules: loaded and healthy
rules_ok() {
	fetch "http://127.0.0.1:$pr_port/api/v1/rules" "$TMP/rules.json" &&
		[ "$(jq '[.data.groups[].rules[] | select(.health == "ok")] | length' "$TMP/rules.json")" -eq 5 ]
}
wait_for -t 15 rules_ok
# The cgroup alert's expression, its 5 minute window made 20 s (a rate
# over 5 minutes of a 40 s old series is 40/300 of its rate; promtool
# test rules covers the 5 minutes and the "for"), finds the spinners'
# cgroup: about 1 s stalled per second, above the rule's 0.5
expr=$(sed -n 's/^ *expr: \(rate(stalltop_cgroup_stall_seconds_total.*\)$/\1/p' "$TMP/rules.yml")
[ -n "$expr" ] || fail "no StalltopCgroupStalled expression in the rules"
expr=$(echo "$expr" | sed 's/\[5m\]/[20s]/')
case $expr in *'[20s]'*) ;; *) fail "the cgroup alert has no 5 minute window: $expr" ;; esac
deadline=$(($(now_ms) + 30000))
until query "$expr" "$TMP/stalled" &&
	jq -e --arg id "/${cg##*/}" '[.[] | select(.metric.id == $id)] | length == 1' "$TMP/stalled" >/dev/null; do
	[ "$(now_ms)" -lt "$deadline" ] || {
		query "rate(stalltop_cgroup_stall_seconds_total{id=\"/${cg##*/}\"}[20s])" "$TMP/rate" || true
		fail "$expr does not find ${cg##*/}: $(cat "$TMP/stalled"); its rate: $(cat "$TMP/rate")"
	}
	sleep 0.2
done
# (the first answer that finds it: measured 0.51, the 20 s window then
# still reaching before the first scrape; the cgroup's counter grew 1.0 s
# per second between two textfiles)
note "$expr: $(jq -c --arg id "/${cg##*/}" '[.[] | select(.metric.id == $id) | .value[1]]' "$TMP/stalled")"
fetch "http://127.0.0.1:$pr_port/api/v1/alerts" "$TMP/alerts.json" ||
	fail "cannot fetch the alerts of Prometheus"
jq -e '[.data.alerts[] | select(.labels.alertname == "StalltopAbsent" or .labels.alertname == "StalltopStale")] | length == 0' \
	"$TMP/alerts.json" >/dev/null ||
	fail "StalltopAbsent or StalltopStale with stalltop running: $(jq -c '.data.alerts' "$TMP/alerts.json")"

# every query of the dashboard returns data
python3 - "$top_srcdir/contrib/grafana/stalltop.json" >"$TMP/queries" <<'PY' ||
import json, re, sys
d = json.load(open(sys.argv[1]))
exprs = [t["expr"] for p in d["panels"] for t in p.get("targets", [])]
for v in d["templating"]["list"]:
    q = v.get("query")
    if isinstance(q, dict):
        q = q.get("query")
    if v.get("type") == "query":
        m = re.fullmatch(r"label_values\((.+), *(\w+)\)", q)
        if not m:
            sys.exit("a variable query this test cannot run: %s" % q)
        exprs.append("count by (%s) (%s)" % (m.group(2), m.group(1)))
for e in exprs:
    e = e.replace("$__rate_interval", "10s").replace("$instance", ".*").replace("$depth", "1")
    if "$" in e:
        sys.exit("a variable this test does not set: %s" % e)
    print(e)
PY
	fail "cannot read the dashboard's queries"
[ "$(wc -l <"$TMP/queries")" -ge 10 ] || fail "the dashboard has only $(wc -l <"$TMP/queries") queries"
# (the rates need two scrapes in their window: 20 s at most)
deadline=$(($(now_ms) + 20000))
while read -r q; do
	until query "$q" "$TMP/r" && [ "$(jq length "$TMP/r")" -gt 0 ]; do
		[ "$(now_ms)" -lt "$deadline" ] ||
			fail "the dashboard's query returns no data: $q ($(cat "$TMP/r" 2>/dev/null))"
		sleep 0.2
	done
done <"$TMP/queries"
note "$(wc -l <"$TMP/queries") dashboard queries return data"

bg_stop "$st" || fail "stalltop --textfile ended with status $? on SIGTERM: $(cat "$TMP/st.err")"
[ -e "$PROM" ] && fail "the textfile stays after SIGTERM"
exit 0
