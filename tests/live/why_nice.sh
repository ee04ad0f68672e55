#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The evidence's other_cpus_nice_us (the time the CPUs a process may not
# use ran tasks of nice above 0; the "pinned" rule counts it as capacity)
# held to the kernel's own reading: /proc/stat's nice column of those
# CPUs over the same interval.
#
# Two spinning threads pinned to CPU 0 at nice -20 (wl_spin -c 0: they
# stall each other, so the process has evidence in every sample) and a
# spinner at nice 19 pinned to CPU 1, in a v1 cpu cgroup of ten times the
# default cpu.shares, so that the other CPUs run niced tasks most of the time
# whatever else the machine runs. While stalltop
# samples every second, a reader notes every 10 ms the wall clock and
# the nice ticks of every CPU but 0 (/proc/stat); the figure of each
# sample's row must be that count's growth from the sample's time less
# its interval_s to the sample's time (interpolated between readings),
# and so must the sum over all samples.
#
# stalltop itself runs at nice -20: at nice 0 the spinners (nice -20 on
# CPU 0, ten times the weight on CPU 1) starve it, and a round whose
# queries it is kept from for tens of ms is dated at their midpoint
# while /proc/stat is read as they begin (a sanitizer build's sample was
# once 32000 us short so).
#
# Measured (2 CPUs, beside two other nice 19 spinners and a direct-IO dd
# loop; 3 runs of the normal build, 3 of the sanitizer build, stalltop
# at nice -20): a sample's figure differs from /proc/stat's growth by at
# most 9400 us in the normal build and 17800 us in the sanitizer build
# (of about 1000000 us a second: the ticks are of 10 ms, /proc/stat is
# read as the queries begin, before the sample's time); the sums of 8
# samples by at most 7700 and 17900 us. Held within
# 30000 us a sample and summed; a reading of the wrong CPUs or column
# (CPU 0 runs the nice -20 spinner: little niced time) is far outside.
. "$top_srcdir/tests/lib/functions.sh"
live_init
need_cmd python3
[ "$NCPU" -ge 2 ] || skip "one CPU: no other CPUs to run niced tasks"
V1=/sys/fs/cgroup/cpu
[ -e "$V1/cpu.shares" ] ||
	skip "no cgroup v1 cpu controller at $V1 (to keep the niced spinner running)"

# nice 19 within the cgroup, which weighs as ten tasks of nice 0 (the
# builds and tests of a busy machine): most of its CPU's time is niced
# time, and the rest of the machine still runs
N="$V1/stalltop-nice-$$"
cg_make "$N"
echo 10240 >"$N/cpu.shares" || hard_error "cannot set cpu.shares"
bg_start_in niced "$N" "$WL/wl_spin" -c 1 -N 19
wait_for has_line "$TMP/niced.out" ready
bg_start pinned "$WL/wl_spin" -t 2 -c 0 -N -20
p=$BG_PID
wait_for has_line "$TMP/pinned.out" ready

# "seconds nice-ticks": every CPU's but 0's nice column, every 10 ms,
# timed by the clock read before and after (a reading that took more
# than 2 ms, the reader preempted, is left out); at nice -20, to be on
# time beside the spinners
bg_start nicestat nice -n -20 python3 -u -c '
import time
f = open("/proc/stat", "rb", buffering=0)
while True:
    t0 = time.time()
    f.seek(0)
    lines = f.read(65536).decode().splitlines()
    t1 = time.time()
    n = sum(int(l.split()[2]) for l in lines
            if l.startswith("cpu") and l[3:4].isdigit() and l.split()[0] != "cpu0")
    if t1 - t0 < 0.002:
        print("%.6f %d" % ((t0 + t1) / 2, n))
    time.sleep(0.01)
'
wait_lines "$TMP/nicestat.out" 1
ST_NICE=-20 run_stalltop_json -p "$p" -d 1 -n 8
sleep 0.1
bg_kill "$BG_PID"
hz=$(getconf CLK_TCK)

# "end interval_s other_cpus_nice_us" of the pinned process's rows
jq -r --argjson p "$p" '.time as $t | .tasks[] | select(.pid == $p)
  | .why | select(. != null and .interval_s != null)
  | "\($t) \(.interval_s) \(.other_cpus_nice_us)"' "$JSON" \
	>"$TMP/rows" || fail "jq cannot read $JSON"
[ "$(lines "$TMP/rows")" -ge 5 ] ||
	fail "the pinned process has evidence in $(lines "$TMP/rows") samples, not 5: $(head -c 600 "$JSON")"

# each row: the figure and /proc/stat's growth over its interval (us)
awk -v hz="$hz" '
  NR == FNR { t[n] = $1; v[n] = $2; n++; next }
  function at(x,   i) {
	if (x < t[0] || x > t[n - 1]) return "none"
	for (i = 1; i < n && t[i] < x; i++) ;
	if (t[i] == t[i - 1]) return v[i]
	return v[i - 1] + (v[i] - v[i - 1]) * (x - t[i - 1]) / (t[i] - t[i - 1])
  }
  {
	a = at($1 - $2); b = at($1)
	if (a == "none" || b == "none") { print "outside", $0; next }
	printf "%s %.0f\n", $3, (b - a) * 1000000 / hz
  }' "$TMP/nicestat.out" "$TMP/rows" >"$TMP/pairs"
grep -q outside "$TMP/pairs" &&
	fail "a sample's interval lies outside the /proc/stat readings: $(grep outside "$TMP/pairs" | head -3)"
grep -q '^null' "$TMP/pairs" && fail "other_cpus_nice_us unknown: $(cat "$TMP/pairs")"
note "other_cpus_nice_us and /proc/stat's growth (us): $(tr '\n' ',' <"$TMP/pairs")"
awk '{ d = $1 - $2; if (d < 0) d = -d; if (d > m) m = d; s += $1 - $2 }
  END { if (s < 0) s = -s; printf "largest difference %d us, summed %d us\n", m, s }' \
	"$TMP/pairs" | while read -r line; do note "$line"; done
bad=$(awk '{ d = $1 - $2; if (d < 0) d = -d; if (d > 30000) print }' "$TMP/pairs")
[ -z "$bad" ] || fail "other_cpus_nice_us differs from /proc/stat's nice growth by more than 30000 us: $bad"
awk '{ g += $1; w += $2 } END { d = g - w; if (d < 0) d = -d; exit !(d <= 30000) }' \
	"$TMP/pairs" || fail "summed, other_cpus_nice_us differs from /proc/stat's by more than 30000 us: $(cat "$TMP/pairs")"
# the niced spinner runs on the other CPUs: a figure of them is large
awk '{ g += $1 } END { exit !(g >= 100000 * NR) }' "$TMP/pairs" ||
	fail "the other CPUs ran niced tasks less than a tenth of the time: $(cat "$TMP/pairs")"
