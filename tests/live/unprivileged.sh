#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Unprivileged mode: stalltop run as nobody, with no capability at all,
# still works: exit status 0, the cpu delay of a CPU-contended workload
# comes from /proc/PID/task/TID/schedstat, the io delay has a figure but
# no count (field 42 of stat has none), every category only taskstats
# gives is null (never a made-up 0), taskstats_version is null, and
# stderr says which capability is missing and how to grant it (setcap).
#
# The workload: three single-threaded busy processes pinned to one CPU at
# nice -20 (started after delay accounting is on), so each runs a third
# of the time and waits for the CPU the other two thirds: cpu delay near
# 66.7 % per interval, run time near 33.3 % (with two, both would be
# 50 % and a fallback reading the run time instead of the wait would
# pass). We accept 55..78 in every sample: a fallback that reads
# nothing, or the run time (33), or divides by the wrong interval (x2,
# x1000) fails; the tolerance covers a loaded machine, where the rest of
# the system still gets about 1 % of a nice -20 CPU (each spinner then
# waits a little more), and a slice (~3 ms) of accounting carried into
# the next 0.5 s interval.
. "$top_srcdir/tests/lib/functions.sh"
live_init
need_cmd setpriv
export LC_ALL=C   # the English notice

nobody=65534
cpu=$((NCPU - 1))
spinners=
for i in 1 2 3; do
	bg_start "spin$i" "$WL/wl_spin" -c "$cpu" -N -20
	spinners="$spinners${spinners:+,}$BG_PID"
done
for i in 1 2 3; do
	wait_for has_line "$TMP/spin$i.out" ready
done

# The same options as the brief: the whole machine, 3 samples. nobody
# cannot write to $TMP (mode 0700): the shell, as root, opens the files.
as_nobody() {
	setpriv --reuid=$nobody --regid=$nobody --clear-groups --inh-caps=-all "$@"
}
# the control: what the command runs with is no capability at all
as_nobody cat /proc/self/status >"$TMP/status" ||
	hard_error "setpriv cannot switch to uid $nobody"
grep -q "^CapEff:[[:space:]]*0*\$" "$TMP/status" &&
	grep -q "^Uid:[[:space:]]*$nobody[[:space:]]" "$TMP/status" ||
	hard_error "setpriv left privileges: $(grep -E '^(Uid|Cap)' "$TMP/status")"

# nobody must be able to run the binary
exe_for $nobody
exe=$EXE

timeout 60 setpriv --reuid=$nobody --regid=$nobody --clear-groups \
	--inh-caps=-all "$exe" -b --json -n 3 -d 0.5 \
	>"$TMP/st.json" 2>"$TMP/st.err"
st=$?
[ "$st" -eq 0 ] || fail "stalltop as nobody exited $st: $(cat "$TMP/st.err")"
check_json "$TMP/st.json"
[ "$(lines "$TMP/st.json")" -eq 3 ] ||
	fail "expected 3 samples, got $(lines "$TMP/st.json")"

# stderr: names the capability and the way to grant it
grep -q 'CAP_NET_ADMIN' "$TMP/st.err" ||
	fail "stderr does not name CAP_NET_ADMIN: $(cat "$TMP/st.err")"
grep -q 'setcap cap_net_admin+ep' "$TMP/st.err" ||
	fail "stderr does not say how to grant it (setcap): $(cat "$TMP/st.err")"

expect "unprivileged samples" "$TMP/st.json" --argjson spin "[$spinners]" '
  (if .taskstats_version != null
   then "taskstats_version is \(.taskstats_version), expected null" else empty end),
  (if (.tasks | length) < 10
   then "only \(.tasks | length) rows: nobody should see the whole machine" else empty end),
  # every row, not only ours: the privileged categories are null
  (.tasks[] as $t
   | (["swap", "reclaim", "thrashing", "compact", "wpcopy", "irq"][]
      | select($t.delay[.] != null)
      | "pid \($t.pid) (\($t.comm)): \(.) is \($t.delay[.]), expected null"),
     (if $t.delay.io.count != null
      then "pid \($t.pid) (\($t.comm)): io count is \($t.delay.io.count), expected null"
      else empty end),
     (if ($t.delay.cpu | type) != "object" or ($t.delay.cpu.pct | type) != "number"
      then "pid \($t.pid) (\($t.comm)): no cpu figure: \($t.delay.cpu)" else empty end),
     # (an io figure the kernel made impossible is dropped and listed:
     # a task born while delay accounting was off, caught in a wait when
     # it came on, as the make running this test once was)
     (if (($t.delay.io | type) != "object" or ($t.delay.io.pct | type) != "number")
         and (($t.dropped // []) | index("io") | not)
      then "pid \($t.pid) (\($t.comm)): no io figure and none dropped: \($t.delay.io)" else empty end)),
  # our three spinners, each near 66.7 %
  ($spin[] as $p
   | [.tasks[] | select(.pid == $p)] as $r
   | if ($r | length) != 1 then "spinner \($p): \($r | length) rows"
     elif $r[0].delay.cpu.pct < 55 or $r[0].delay.cpu.pct > 78
     then "spinner \($p): cpu delay \($r[0].delay.cpu.pct) %, expected about 66.7"
     else empty end)'
note "spinner cpu delays: $(jq -c --argjson spin "[$spinners]" \
	'[.tasks[] | select(.pid as $p | $spin | index($p)) | .delay.cpu.pct]' "$TMP/st.json" | tr '\n' ' ')"
note "stderr: $(cat "$TMP/st.err")"

# Young tasks waiting on IO, a new one every few hundred ms: on Linux
# 6.18 field 42 of a task a few ticks old can read about the machine's
# uptime (seen: IO 253,000 % for dd). No io figure may be more than the
# task's threads lived (its start, from the row, to the sample's time:
# the independent reading), with the trust rules' slack (1 % + 2 ms)
# and a tick (10 ms) for the start's and field 42's resolution; one
# that would be is dropped, as on the taskstats path. And every row is
# named: a task that ends before its details are read keeps the name
# its reading gave, and an owner not read is null, never "".
chmod 0777 "$TMP" 2>/dev/null
bg_start ddloop sh -c 'while :; do dd if=/dev/zero of="$1/dd.out" bs=64k count=200 oflag=direct 2>/dev/null || exit 1; done' sh "$TMP"
timeout 60 setpriv --reuid=$nobody --regid=$nobody --clear-groups \
	--inh-caps=-all "$exe" -b --json -n 20 -d 0.5 \
	>"$TMP/io.json" 2>"$TMP/io.err" ||
	fail "stalltop as nobody exited $?: $(cat "$TMP/io.err")"
check_json "$TMP/io.json"
expect "io figures within the time lived, names" "$TMP/io.json" '
  .time as $now | .interval as $iv
  | .tasks[]
  | (if .comm == "" or .comm == null
     then "pid \(.pid): no name (comm \(.comm | tojson))" else empty end),
    (if .user == "" then "pid \(.pid) (\(.comm)): user \"\", expected a name or null"
     else empty end),
    (select(.delay.io.pct != null and .threads != null and .start != null)
     | (.delay.io.pct / 100 * $iv) as $waited
     | (.threads * (($now - .start + 0.01) * 1.01 + 0.002)) as $lived
     | select($waited > $lived)
     | "pid \(.pid) (\(.comm)), \(.threads) thread(s), started \($now - .start) s before the sample: io \(.delay.io.pct) % of \($iv) s = \($waited) s waited, more than the \($lived) s it lived")'
note "io rows dropped: $(jq -c '[.tasks[] | select((.dropped // []) | index("io")) | .comm]' "$TMP/io.json" | tr -d '\n')"
exit 0
