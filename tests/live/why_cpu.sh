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
#  - The recording of that run holds, in each sample whose row has a
#    "why", the reading of the spinner's evidence (tests/lib/stkdump),
#    and replays (--replay -b --json) with the same "why" objects.
#  - Two spinning threads pinned to one CPU (wl_spin -c), without a
#    quota: the process may use 1 of the online CPUs and both its
#    threads, which never sleep, are runnable (state R) whenever they are
#    looked at; the evidence must say so in every sample. Pinning then
#    accounts for as much of its cpu stall P (its cpu delay in the
#    interval) as the other CPUs were idle (what unpinning could give),
#    cpu contention for the rest (why.h): the cause must be "pinned" in
#    every sample where the other CPUs were free at least 55 % of P, and
#    "cpu_contention" where they were free at most 45 % of it (between,
#    either: JSON rounds the figures P comes from to 0.1 %). Free is
#    idle, or running only niced tasks (the spinner is at nice -20: a
#    CPU that other work of nice above 0 keeps busy is one it would
#    get), so the test holds beside nice 19 spinners. Whether the
#    other CPUs are free is up to the rest of the machine: stalltop
#    samples until 3 samples of the first kind are in, so a program that
#    never says "pinned" fails; at most 300 s (it took 100 s while other
#    tests loaded this machine), then the test fails saying
#    the machine was too busy (another CPU-bound task on each other CPU
#    all that time). At nice -20 (with its autogroup) the spinner's stall
#    is its two threads' turns, about 1 s a second, whatever else runs on
#    its CPU, so half a second idle a second on the other CPUs suffices.
. "$top_srcdir/tests/lib/functions.sh"
live_init
V1=/sys/fs/cgroup/cpu
[ -e "$V1/cpu.cfs_quota_us" ] ||
	skip "no cgroup v1 cpu controller at $V1 (the quota part needs one)"
[ "$NCPU" -ge 2 ] || skip "one CPU: pinning to one of them changes nothing"

Q="$V1/stalltop-why-$$"
quota_spinner "$Q"

throttled() { awk '$1 == "throttled_time" { print $2 }' "$Q/cpu.stat"; }
t0=$(now_ms)
th0=$(throttled)
run_stalltop_json -p "$q" -d 1 -n 5 --record "$TMP/why.stk"
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

# the recording holds the evidence the rows were given: in every sample
# where the spinner's row has it, a reading of the spinner's evidence
stk_dump "$TMP/why.stk" "$TMP/why.dump"
jq -s -r --argjson q "$q" --slurpfile rec "$TMP/why.dump" '
  .[] | select(any(.tasks[]; .pid == $q and .why != null)) | .time as $t
  | [$rec[] | select(.time and ((.time - $t) | fabs) < 0.0006)] as $s
  | if ($s | length) != 1 then "no recorded sample at \($t)"
    elif ($s[0].evidence | map(select(.id == $q)) | length) != 1
    then "at \($t): the recorded evidence is of \($s[0].evidence | map(.id))"
    else empty end' "$JSON" >"$TMP/why.rec" ||
	fail "jq cannot compare $JSON with the recording"
[ -s "$TMP/why.rec" ] && fail "the recording's evidence: $(head -5 "$TMP/why.rec")"
note "the recording holds the spinner's evidence of $(jq -s --argjson q "$q" '[.[] | select(any(.tasks[]; .pid == $q and .why != null))] | length' "$JSON") samples"

# the recording replays with the same evidence
timeout 60 "$STALLTOP" --replay "$TMP/why.stk" -b --json \
	>"$TMP/replay.json" 2>"$TMP/replay.err" ||
	fail "--replay exited $?: $(cat "$TMP/replay.err")"
jq -c --argjson q "$q" '.tasks[] | select(.pid == $q) | .why' "$JSON" >"$TMP/live.why"
jq -c --argjson q "$q" '.tasks[] | select(.pid == $q) | .why' "$TMP/replay.json" >"$TMP/replay.why"
cmp -s "$TMP/live.why" "$TMP/replay.why" ||
	fail "the replay's why differs: $(diff "$TMP/live.why" "$TMP/replay.why" | head -5)"
grep -q cpu_quota "$TMP/replay.why" || fail "the replay has no cpu_quota"
bg_kill "$q"

# two threads on one CPU, no quota
bg_start pinned "$WL/wl_spin" -t 2 -c 0 -N -20
p=$BG_PID
wait_for has_line "$TMP/pinned.out" ready
# free: of a row, the time the other CPUs were idle or, for a process of
# nice 0 or below, ran niced tasks (what pinning keeps from it, why.h)
FREE='def free: .why as $w | ($w.other_cpus_idle_us // null) as $i
  | if $i == null then null
    elif .nice != null and .nice <= 0 then $i + ($w.other_cpus_nice_us // 0)
    else $i end;'
# regimes: per complete sample after the first (as the check below
# counts them), what the evidence makes the cause: pinned, contention
# or either
regimes() {
	grep '}$' "$TMP/pin.out" | tail -n +2 | jq -r --argjson p "$p" "$FREE"'
	  .tasks[] | select(.pid == $p) | .why as $w
	  | select($w != null and $w.interval_s != null)
	  | (.delay.cpu.pct / 100 * $w.interval_s * 1e6) as $P
	  | free as $idle
	  | if $idle == null then "unknown"
	    elif $idle >= 0.55 * $P then "pinned"
	    elif $idle <= 0.45 * $P then "contention"
	    else "either" end' || fail "jq cannot read $TMP/pin.out"
}
start_stalltop pin -p "$p" -d 0.5
end=$(($(now_ms) + 300000))
until [ "$(regimes | grep -c '^pinned$')" -ge 3 ]; do
	[ "$(now_ms)" -lt "$end" ] ||
		fail "in 300 s the other CPUs were idle for at least 55 % of the pinned spinner's stall in only $(regimes | grep -c '^pinned$') samples of $(regimes | wc -l) (regimes: $(regimes | sort | uniq -c | tr '\n' ' ')): the machine is too busy to tell pinning from contention"
	sleep 0.5
done
stop_stalltop pin "$ST_PID"
note "pinned spinner, samples by what the evidence makes the cause: $(regimes | sort | uniq -c | tr '\n' ' ')"
expect "pinned" "$TMP/pin.out" -s --argjson p "$p" "$FREE"'
  [.[1:][] | .tasks[] | select(.pid == $p)] as $rows
  | if ($rows | length) < 3 then "the pinned spinner is in \($rows | length) samples" else
    ($rows[] | .why as $w
     | if $w == null then "no why object: \(.delay.cpu)"
       elif $w.allowed_cpus != 1 or $w.cpus_online < 2 or $w.runnable_threads != 2
       then "the evidence is not of two runnable threads pinned to one CPU: \($w | {allowed_cpus, cpus_online, runnable_threads, threads})"
       else (.delay.cpu.pct / 100 * $w.interval_s * 1e6) as $P
         | free as $idle
         | ($w | {cause: .causes.cpu.cause, other_cpus_idle_us, other_cpus_nice_us, P: $P, sys_runnable}) as $say
         | if $idle == null then "no other_cpus_idle_us: \($say)"
           elif $idle >= 0.55 * $P and ($w.causes.cpu.cause != "pinned" or $w.causes.cpu.text != "pinned")
           then "the other CPUs were idle, not pinned: \($say)"
           elif $idle <= 0.45 * $P and $w.causes.cpu.cause != "cpu_contention"
           then "the other CPUs were busy, not cpu_contention: \($say)"
           elif ($w.causes.cpu.cause | IN("pinned", "cpu_contention") | not)
           then "cause \($say)"
           else empty end
       end)
    end'
