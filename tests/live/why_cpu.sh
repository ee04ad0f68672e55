#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Why a process waits for the CPU, from the evidence next to it.
#
#  - A spinner in a cgroup v1 cpu cgroup with a quota of 20 ms per 100 ms
#    runs a fifth of the time and waits the rest: its row's "why" must
#    name the quota (20000/100000 us) and say "cpu_quota" for its cpu
#    delay, from the second sample on (the first has no interval yet).
#    Its throttled time per second must be within 10 % of what the
#    cgroup's cpu.stat throttled_time says over the run (read before and
#    after it with the clock; a steady spinner is throttled at a steady
#    rate).
#  - The recording of that run replays (--replay -b --json) with the same
#    "why" objects.
#  - Two spinning threads pinned to one CPU (taskset), without a quota:
#    the process may use 1 of the online CPUs, and both its threads,
#    which never sleep, are runnable (state R) whenever they are looked
#    at; the evidence must say so in every sample. Pinning binds where
#    the CPUs it may not use idle (else contention does, rightly): in
#    every sample whose evidence shows the other CPUs idle at least half
#    their time the first cause is "pinned", and at least 3 of the 7 are
#    such (a quiet machine gives 7 of 7), or the machine was too busy.
. "$top_srcdir/tests/lib/functions.sh"
live_init
V1=/sys/fs/cgroup/cpu
[ -e "$V1/cpu.cfs_quota_us" ] ||
	skip "no cgroup v1 cpu controller at $V1 (the quota part needs one)"
[ "$NCPU" -ge 2 ] || skip "one CPU: pinning to one of them changes nothing"

Q="$V1/stalltop-why-$$"
cg_make "$Q"
echo 100000 >"$Q/cpu.cfs_period_us" || hard_error "cannot set the period"
echo 20000 >"$Q/cpu.cfs_quota_us" || hard_error "cannot set the quota"
bg_start_in quota "$Q" "$WL/wl_spin"
q=$BG_PID
wait_for has_line "$TMP/quota.out" ready

throttled() { awk '$1 == "throttled_time" { print $2 }' "$Q/cpu.stat"; }
t0=$(now_ms)
th0=$(throttled)
run_stalltop_json -p "$q" -d 1 -n 5 --record "$TMP/why.ndjson.gz"
th1=$(throttled)
t1=$(now_ms)
# throttled microseconds per second of the whole run, by the cgroup
want=$(((th1 - th0) / (t1 - t0)))
note "cpu.stat: throttled $(((th1 - th0) / 1000)) us in $((t1 - t0)) ms ($want us/s)"

expect "quota" "$JSON" -s --argjson q "$q" --argjson want "$want" '
  [.[1:][] | .tasks[] | select(.pid == $q)] as $rows
  | if ($rows | length) < 3 then "the spinner is missing: \($rows | length) rows" else
    ($rows[] | .why as $w
     | if $w == null then "no why object: \(.delay.cpu)"
       elif $w.causes.cpu.cause != "cpu_quota" then "cause \($w.causes.cpu) for cpu \(.delay.cpu.pct) %: \($w | {cpu_quota_us, cpu_throttled_us, interval_s})"
       elif $w.cpu_quota_us != 20000 or $w.cpu_period_us != 100000 then "quota \($w.cpu_quota_us)/\($w.cpu_period_us)"
       elif $w.cpu_cgroup_version != 1 then "cgroup version \($w.cpu_cgroup_version)"
       elif $w.causes.cpu.text != "cpu quota" then "text \($w.causes.cpu.text)"
       else empty end),
    (([$rows[] | .why.cpu_throttled_us] | add) / ([$rows[] | .why.interval_s] | add)) as $got
    | if ($got - $want) > $want * 0.1 or ($want - $got) > $want * 0.1
      then "throttled \($got) us/s, cpu.stat says \($want) us/s" else empty end
    end'

# the recording replays with the same evidence
timeout 60 "$STALLTOP" --replay "$TMP/why.ndjson.gz" -b --json \
	>"$TMP/replay.json" 2>"$TMP/replay.err" ||
	fail "--replay exited $?: $(cat "$TMP/replay.err")"
jq -c --argjson q "$q" '.tasks[] | select(.pid == $q) | .why' "$JSON" >"$TMP/live.why"
jq -c --argjson q "$q" '.tasks[] | select(.pid == $q) | .why' "$TMP/replay.json" >"$TMP/replay.why"
cmp -s "$TMP/live.why" "$TMP/replay.why" ||
	fail "the replay's why differs: $(diff "$TMP/live.why" "$TMP/replay.why" | head -5)"
grep -q cpu_quota "$TMP/replay.why" || fail "the replay has no cpu_quota"
bg_kill "$q"

# two threads on one CPU, no quota
bg_start pinned taskset -c 0 "$WL/wl_spin" -t 2
p=$BG_PID
wait_for has_line "$TMP/pinned.out" ready
run_stalltop_json -p "$p" -d 1 -n 8
expect "pinned" "$JSON" -s --argjson p "$p" '
  [.[1:][] | .tasks[] | select(.pid == $p)] as $rows
  | [$rows[] | .why | select(. != null and .other_cpus_idle_us != null
        and .other_cpus_time_us > 0
        and .other_cpus_idle_us >= 0.5 * .other_cpus_time_us)] as $judged
  | if ($rows | length) < 6 then "the pinned spinner is in \($rows | length) of 7 samples"
    elif ($judged | length) < 3
    then "only \($judged | length) samples with the other CPUs idle half their time: the machine was too busy"
    else
    ($rows[] | .why as $w
     | if $w == null then "no why object: \(.delay.cpu)"
       elif $w.allowed_cpus != 1 or $w.cpus_online < 2 or $w.runnable_threads != 2
       then "the evidence is not of two runnable threads pinned to one CPU: \($w | {allowed_cpus, cpus_online, runnable_threads, threads})"
       else empty end),
    ($judged[] | select(.causes.cpu.cause != "pinned" or .causes.cpu.text != "pinned"
                        or (.ranked // [])[0].cause != "pinned")
     | "cause \(.causes.cpu), first \((.ranked // [])[0].cause) with the other CPUs idle \(.other_cpus_idle_us) of \(.other_cpus_time_us) us: \({allowed_cpus, cpus_online, runnable_threads, sys_runnable, cpu_quota_us})")
    end'
