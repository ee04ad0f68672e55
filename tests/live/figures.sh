#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Figures that drive no rule, each against the kernel's own file read by
# the test around the same moment (HACKING, Tests: "Which test holds
# which figure").
#
# Part 1, counts under a filter: two processes of known threads (wl_wake
# -t 6: 6 threads; wl_spin -t 2 -i 1: 3), stalltop -b -p A,B. The text
# header must say "2 processes  9 threads" (the threads of what is shown,
# not the machine's, which has far more), and each JSON row's "threads",
# "ppid", "comm" and "user" are /proc/PID/status's and the owner's.
#
# Part 2, the evidence of a v1 memory cgroup and the machine: a service
# cgroup (memcg_service: v1 memory limited to 32 MiB, memory + swap to
# 64, and the same path in the controller-less v2 hierarchy) where a
# shell writes a 64 MiB file again and again with dd: every page cache
# charge above the limit fails first (memory.failcnt rises, measured
# 200..400 a second) before reclaim makes room. The counter is first let
# grow to 1000 so that its whole value is far from any interval's
# growth. Around
# stalltop -b --json --cgroups -d 1 -n 4 the test reads, before the
# baseline and after the last sample (the first sample has no interval
# for a cgroup's evidence: the others, at least 3, are held):
#  - memory.failcnt of the v1 cgroup: the service row's why.mem_failcnt
#    is the growth in each interval, so none is negative, their sum is
#    at most the growth between the test's two readings and at least a
#    third of it for the time the intervals cover (measured: 3 s of
#    intervals in 4.4..4.6 s between the readings, sums of 0.64..0.67 of
#    the growth; the writer's rate varies by half from run to run);
#  - cpuacct.usage of the v1 root (ns): the root row's why.cpu_usage_us
#    sums to at most its growth / 1000 (+ 1 us a sample for the rounding);
#  - "some total=" of the v2 cgroup's memory.pressure: why.mem_some_us of
#    the service row sums to at most its growth.
# And, in every sample, on the service row's why:
#  - sys_mem_total is MemTotal x 1024, sys_swap_total SwapTotal x 1024;
#  - sys_mem_available and sys_mem_free lie within what a reader of
#    /proc/meminfo every 20 ms saw during the run (MemAvailable, MemFree),
#    widened by 16 MiB for memory that went and came back between two
#    readings (measured on a busy machine: MemFree moves by up to 32 MiB,
#    MemAvailable by up to 12 MiB, from one reading to the next); here
#    the two differ by 850..900 MiB, so one taken for the other is seen
#    (the test says so where they are too close to tell apart);
#  - cpus_online is the number of CPUs online (getconf).
# And the machine's pressure, top level: every psi.R.K's avg10, avg60,
# avg300 and total_us lie within what a reader of /proc/pressure/R every
# 20 ms saw from before the baseline to after the last sample (avgs to
# the 0.01 printed); pct is the growth of total_us over the interval.
. "$top_srcdir/tests/lib/functions.sh"
. "$top_srcdir/tests/lib/accuracy.sh"
live_init

# --- part 1: counts under -p ---
bg_start wake "$WL/wl_wake" -t 6
wake=$BG_PID
wait_for has_line "$TMP/wake.out" ready
bg_start spin "$WL/wl_spin" -t 2 -i 1 -N 5
spin=$BG_PID
wait_for has_line "$TMP/spin.out" ready
status_of() { awk -v k="$2:" '$1 == k { print $2 }' "/proc/$1/status"; }
nthr=$(( $(status_of "$wake" Threads) + $(status_of "$spin" Threads) ))
[ "$nthr" -eq 9 ] || hard_error "the workloads have $nthr threads, not 6 + 3"
host=$(ls -d /proc/[0-9]*/task/[0-9]* 2>/dev/null | wc -l)
[ "$host" -gt $((nthr * 2)) ] ||
	hard_error "only $host threads on the machine: nothing to tell apart"

timeout 60 "$STALLTOP" -b -n 2 -d 0.3 -p "$wake,$spin" >"$TMP/text.out" 2>"$TMP/text.err" ||
	fail "stalltop -b -p exited $?: $(cat "$TMP/text.err")"
head1=$(grep '^stalltop - ' "$TMP/text.out" | tail -n 1)
note "machine: $host threads; under -p: $head1"
echo "$head1" | grep -q '  2 processes  9 threads  ' ||
	fail "under -p $wake,$spin (9 threads in all): '$head1'"

run_stalltop_json -n 2 -d 0.3 -p "$wake,$spin"
for p in "$wake" "$spin"; do
	expect "the row of $p against /proc/$p/status" "$JSON" \
		--argjson p "$p" --argjson th "$(status_of "$p" Threads)" \
		--argjson pp "$(status_of "$p" PPid)" \
		--arg comm "$(status_of "$p" Name)" \
		--arg user "$(id -un "$(status_of "$p" Uid)")" '
	  [.tasks[] | select(.pid == $p)] as $r
	  | if ($r | length) != 1 then "\($r | length) rows of \($p)"
	    else $r[0] | select(.threads != $th or .ppid != $pp or
	                        .comm != $comm or .user != $user or .tgid != $p)
	    | "row \({pid, tgid, ppid, comm, user, threads}), /proc says threads \($th), ppid \($pp), comm \($comm), user \($user)"
	    end'
done
expect "only the processes asked for" "$JSON" --argjson a "$wake" --argjson b "$spin" '
  .tasks[] | select(.pid != $a and .pid != $b) | "a row of \(.pid) \(.comm)"'
bg_kill "$spin"
bg_kill "$wake"

# --- part 2: the evidence of a v1 memory cgroup and of the machine ---
set_io_dir
memcg_service 32
# memory + swap above memory alone: where the two limits are equal the
# page cache stops at the memsw one, and memory.failcnt stays 0 (measured)
if [ -e "$MEMCG/memory.memsw.limit_in_bytes" ]; then
	echo $((64 << 20)) >"$MEMCG/memory.memsw.limit_in_bytes" ||
		hard_error "cannot raise $MEMCG's memory + swap limit"
fi
v1cpu=$(v1_mount cpuacct)
[ -n "$v1cpu" ] && [ -r "$v1cpu/cpuacct.usage" ] ||
	skip "no v1 cpuacct hierarchy"
[ -r "$V2$SVC_PATH/memory.pressure" ] || skip "no pressure in $V2$SVC_PATH"
avail=$(awk '$1 == "MemAvailable:" { print $2 }' /proc/meminfo)
total=$(awk '$1 == "MemTotal:" { print $2 }' /proc/meminfo)
[ $((avail * 100 / total)) -ge 20 ] ||
	skip "the machine itself is short of memory ($avail of $total KiB available)"

bg_start_in_all writer "$SVC_DIRS" sh -c \
	'while :; do dd if=/dev/zero of="$1" bs=1M count=64 2>/dev/null; done' \
	sh "$IO_DIR/fill"
failcnt() { cat "$MEMCG/memory.failcnt"; }
failcnt_at_least() { [ "$(failcnt)" -ge "$1" ]; }
wait_for -t 30 failcnt_at_least 1000

# /proc/meminfo every 20 ms while stalltop runs, "MemFree MemAvailable" (KiB)
bg_start meminfo sh -c 'while :; do
	awk '\''$1 == "MemFree:" { f = $2 } $1 == "MemAvailable:" { a = $2 }
		END { print f, a }'\'' /proc/meminfo; sleep 0.02; done'
mi=$BG_PID
# and the machine's pressure, "RESOURCE some|full avg10=.. avg60=.. avg300=.. total=.."
bg_start pressure sh -c 'while :; do
	awk '\''{ n = split(FILENAME, p, "/"); print p[n], $0 }'\'' /proc/pressure/cpu /proc/pressure/memory /proc/pressure/io
	sleep 0.02; done'
pr=$BG_PID
wait_lines "$TMP/meminfo.out" 1
wait_lines "$TMP/pressure.out" 6

some_total() { sed -n 's/^some .*total=\([0-9]*\).*/\1/p' "$V2$SVC_PATH/memory.pressure"; }
t0=$(now_ms)
f0=$(failcnt)
u0=$(cat "$v1cpu/cpuacct.usage")
s0=$(some_total)
run_stalltop_json --cgroups -d 1 -n 4
s1=$(some_total)
u1=$(cat "$v1cpu/cpuacct.usage")
f1=$(failcnt)
t1=$(now_ms)
bg_kill "$mi"
bg_kill "$pr"
bg_kill writer

meminfo_range() { # COLUMN: min max in bytes
	awk -v c="$1" 'NF == 2 { v = $c * 1024; if (n++ == 0 || v < lo) lo = v
		if (v > hi) hi = v } END { printf "%.0f %.0f\n", lo, hi }' "$TMP/meminfo.out"
}
set -- $(meminfo_range 1) $(meminfo_range 2)
free_lo=$1 free_hi=$2 avail_lo=$3 avail_hi=$4
slack=$((16 << 20))
note "failcnt $f0 -> $f1, cpuacct.usage $u0 -> $u1 ns, memory some $s0 -> $s1 us in $((t1 - t0)) ms; MemFree $free_lo..$free_hi, MemAvailable $avail_lo..$avail_hi bytes over $(lines "$TMP/meminfo.out") readings"
if [ "$free_hi" -ge $((avail_lo - 2 * slack)) ]; then
	note "MemFree and MemAvailable are too close here to tell one from the other"
fi

note "service row: $(jq -c --arg p "$SVC_PATH" '[.cgroups[]? | select(.path == $p)][0]
	| {interval: .why.interval_s} + (.why // {} | {mem_failcnt, mem_some_us, sys_mem_free, sys_mem_available})' "$JSON" | tr '\n' ' ')"

expect "the counters of the intervals against the files" "$JSON" -s \
	--arg path "$SVC_PATH" --argjson fd $((f1 - f0)) \
	--argjson ud "$(( (u1 - u0) / 1000 ))" --argjson sd $((s1 - s0)) \
	--argjson dt "$((t1 - t0))" '
  [.[] | {g: ([.cgroups[]? | select(.path == $path)][0].why),
          r: ([.cgroups[]? | select(.path == "/")][0].why),
          dt: .interval}] as $all
  | [$all[] | select(.g.interval_s != null and .r.interval_s != null)] as $s
  | if ($s | length) < 3
    then "\($s | length) samples with an interval on the service row and the root row: \([$all[] | {g: .g.interval_s, r: .r.interval_s}])"
    else
      ([$s[].g.mem_failcnt] as $v
       | if ($v | map(select(. == null or . < 0)) | length) > 0
         then "mem_failcnt \($v): unknown or negative"
         elif ($v | add) > $fd
         then "mem_failcnt \($v) sum \($v | add), more than memory.failcnt grew around them (\($fd))"
         elif ($v | add) < $fd / 3 * ([$s[].dt] | add) / ($dt / 1000)
         then "mem_failcnt \($v) sum \($v | add), under a third of the growth \($fd) in \($dt) ms for \([$s[].dt] | add) s of intervals"
         else empty end),
      ([$s[].r.cpu_usage_us] as $v
       | if ($v | map(select(. == null or . < 0)) | length) > 0
         then "root cpu_usage_us \($v): unknown or negative"
         elif ($v | add) > $ud + ($v | length)
         then "root cpu_usage_us \($v) sum \($v | add), more than cpuacct.usage grew around them (\($ud) us)"
         else empty end),
      ([$s[].g.mem_some_us] as $v
       | if ($v | map(select(. == null or . < 0)) | length) > 0
         then "mem_some_us \($v): unknown or negative"
         elif ($v | add) > $sd
         then "mem_some_us \($v) sum \($v | add), more than memory.pressure grew around them (\($sd) us)"
         else empty end)
    end'

expect "the machine's figures against /proc/meminfo" "$JSON" \
	--arg path "$SVC_PATH" \
	--argjson mt "$(( $(awk '$1 == "MemTotal:" { print $2 }' /proc/meminfo) * 1024 ))" \
	--argjson st "$(( $(awk '$1 == "SwapTotal:" { print $2 }' /proc/meminfo) * 1024 ))" \
	--argjson flo $((free_lo - slack)) --argjson fhi $((free_hi + slack)) \
	--argjson alo $((avail_lo - slack)) --argjson ahi $((avail_hi + slack)) \
	--argjson cpus "$(getconf _NPROCESSORS_ONLN)" '
  [.cgroups[]? | select(.path == $path)][0].why as $w
  | if $w == null then "no why on the service row"
    else
      (if $w.sys_mem_total != $mt then "sys_mem_total \($w.sys_mem_total), MemTotal \($mt)" else empty end),
      (if $w.sys_swap_total != $st then "sys_swap_total \($w.sys_swap_total), SwapTotal \($st)" else empty end),
      (if $w.sys_mem_available == null or $w.sys_mem_available < $alo or $w.sys_mem_available > $ahi
       then "sys_mem_available \($w.sys_mem_available), MemAvailable read \($alo)..\($ahi) (with the slack)" else empty end),
      (if $w.sys_mem_free == null or $w.sys_mem_free < $flo or $w.sys_mem_free > $fhi
       then "sys_mem_free \($w.sys_mem_free), MemFree read \($flo)..\($fhi) (with the slack)" else empty end),
      (if $w.cpus_online != $cpus then "cpus_online \($w.cpus_online), getconf says \($cpus)" else empty end)
    end'
# the machine's pressure: [lo, hi] of each figure the reader saw
awk '$2 == "some" || $2 == "full" { for (i = 3; i <= 6; i++) {
		split($i, kv, "="); k = $1 " " $2 " " kv[1]; v = kv[2] + 0
		if (!(k in lo) || v < lo[k]) lo[k] = v
		if (!(k in hi) || v > hi[k]) hi[k] = v } }
	END { for (k in lo) { split(k, f, " ")
		printf "{\"r\":\"%s\",\"k\":\"%s\",\"f\":\"%s\",\"lo\":%s,\"hi\":%s}\n", f[1], f[2], f[3], lo[k], hi[k] } }' \
	"$TMP/pressure.out" | jq -s -c . >"$TMP/pressure.json"
note "machine pressure read: $(jq -c '[.[] | select(.f == "total") | {r, k, lo, hi}]' "$TMP/pressure.json")"
expect "the machine's pressure against /proc/pressure" "$JSON" -s \
	--slurpfile read "$TMP/pressure.json" '
  $read[0] as $rd
  | ([$rd[] | select(.f == "total")] | length) as $n
  | if $n < 4 then "only \($n) pressure lines read" else
    to_entries[] | .key as $i | .value as $smp | . as $e
    | $rd[] as $x
    | ($smp.psi[$x.r][$x.k]) as $st
    | if $st == null then "sample \($i): no psi.\($x.r).\($x.k), which /proc/pressure has"
      elif $x.f == "total"
      then (if $st.total_us < $x.lo or $st.total_us > $x.hi
            then "sample \($i): psi.\($x.r).\($x.k).total_us \($st.total_us), read \($x.lo)..\($x.hi)" else empty end)
      else (if $st[$x.f] < $x.lo - 0.005 or $st[$x.f] > $x.hi + 0.005
            then "sample \($i): psi.\($x.r).\($x.k).\($x.f) \($st[$x.f]), read \($x.lo)..\($x.hi)" else empty end)
      end
    end'
# pct is the growth of total_us over the interval: measured within 0.02
# points of it (the reading of the file is a few ms from the sample's
# time); allowed 0.3 points and 1 % of the figure.
expect "the machine's pressure shares against its totals" "$JSON" -s '
  [range(1; length) as $i | .[$i - 1] as $a | .[$i] as $b
   | ["cpu", "memory", "io"][] as $r | ["some", "full"][] as $k
   | select($a.psi[$r][$k] != null and $b.psi[$r][$k] != null)
   | (($b.psi[$r][$k].total_us - $a.psi[$r][$k].total_us) / ($b.interval * 1e4)) as $want
   | ([$want, 100] | min) as $want
   | $b.psi[$r][$k].pct as $got
   | if $got == null then "sample \($i): psi.\($r).\($k).pct null"
     elif ($got - $want) | fabs > 0.3 + 0.01 * $want
     then "sample \($i): psi.\($r).\($k).pct \($got), its total grew \($want) % of the interval" else empty end
  ] | .[]'
exit 0
