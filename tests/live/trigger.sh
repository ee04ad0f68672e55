#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# PSI-triggered samples in batch mode. A workload in a cgroup v2 child of
# our own makes CPU pressure: one process with twelve busy threads pinned
# to one CPU at nice -20, so eleven of them always wait (cpu delay about
# 1100 % of any interval). stalltop -b --json --cgroups --trigger
# cpu:some:1000/2000 -d 10 -n 2 -s cpu must emit, long before its first
# timer sample (10 s), samples carrying "trigger": "cpu some 1000ms/2s";
# in them the first row by cpu delay is the workload, in our cgroup, which
# has cpu pressure of its own. Under sustained pressure the kernel wakes a
# trigger once per window, so both samples are triggered ones, the second
# about 2 s after the first; a stalltop that ignores the trigger prints
# two untagged samples after 10 s and 20 s and fails.
#
# The system-wide "some" figure weights each CPU by its non-idle time: a
# stalled CPU beside a busy but unstalled one makes 50 %, exactly the
# trigger's 1000 ms in 2 s. So a helper, two busy threads at nice 0 on
# the other CPU, keeps that one stalled too (about 100 % in all).
#
# The first event can come at once: the kernel may count stall time from
# before the trigger was written (measured: 23 ms after the write). Such a
# sample covers a few milliseconds, and the kernel adds a task's run-queue
# wait when the task gets the CPU, all at once: a task our workload kept
# off its CPU for 100 ms that gets it in a 30 ms interval shows 300 %. So
# the ranking is checked in triggered samples of at least 1 s (the second
# always is: one event per 2 s window), and in every one the workload must
# wait > 300 %, and our cgroup's own cpu pressure is held to be there in
# those of 1 s or more only (on a busy machine a triggered sample came
# 9 ms after the one before, and the kernel's total of its cgroup had not
# moved yet). In a sample of 1 s or more its wait is what the workload
# physically makes: the CPU always runs one of the twelve, so eleven wait,
# 1100 % of the interval, plus about 1 % a thread while the rest of the
# machine takes its share of a nice -20 CPU, give or take a slice (~3 ms)
# a thread carried across the interval's ends (measured 1099.6..1101.6).
# We accept 1050..1150: a sum that lost one thread (11 x 91.7 = 1008) or
# counted one twice (1192), or a wrong interval, falls outside.
#
# Why the workload is first: no single-threaded process can wait more than
# 100 % of an interval of 1 s or more, plus the chunk of one late arrival,
# and no other live test runs meanwhile (the lock). The benchmark does not
# take the lock, and its load generator (100 threads a process) was seen
# at 830 % beside this test: hence twelve threads. Run the benchmark and
# this test at the same time and it can still fail.
#
# Bad input: a spec that does not parse ends with status 2 and exactly the
# message naming the spec, what is wrong and the expected form
# RESOURCE:some|full:STALL_MS/WINDOW_MS; a window the kernel refuses
# (500 ms, from a caller without CAP_SYS_RESOURCE: the kernel then takes
# only multiples of 2 s) ends with status 1 and exactly the message that
# explains the 2 s rule (a crash, a sanitizer's abort or a timeout has
# another status). When this shell has CAP_SYS_RESOURCE, that one runs
# as nobody.
. "$top_srcdir/tests/lib/functions.sh"
live_init
need_cmd setpriv
[ -e /proc/pressure/cpu ] || skip "no PSI in this kernel (/proc/pressure/cpu)"
export LC_ALL=C   # the English messages

cg_root
CGPATH=/stalltop-$TEST_NAME-$$
CG=$V2$CGPATH
cg_make "$CG"

# --- bad specs ---
form='expected RESOURCE:some|full:STALL_MS/WINDOW_MS'
for bad in "cpu:sometimes:1/2|the kind must be some or full" \
	"memory:some:x/1000|STALL_MS and WINDOW_MS must be whole numbers of milliseconds"; do
	spec=${bad%%|*}
	want="stalltop: --trigger '$spec': invalid trigger \"$spec\": ${bad#*|}; $form"
	timeout 10 "$STALLTOP" -b --json --trigger "$spec" -n 1 >"$TMP/bad.out" 2>"$TMP/bad.err"
	st=$?
	[ "$st" -eq 2 ] || fail "--trigger $spec: status $st, expected 2 ($(cat "$TMP/bad.err"))"
	[ -s "$TMP/bad.out" ] && fail "--trigger $spec: wrote to stdout"
	[ "$(cat "$TMP/bad.err")" = "$want" ] ||
		fail "--trigger $spec: the message is '$(cat "$TMP/bad.err")', expected '$want'"
	note "--trigger $spec: $(cat "$TMP/bad.err")"
done

# --- a window the kernel refuses ---
as=
grep -q '^CapEff:' /proc/self/status || hard_error "no CapEff in /proc/self/status"
eff=$(sed -n 's/^CapEff:[[:space:]]*//p' /proc/self/status)
if [ $((0x$eff >> 24 & 1)) -eq 1 ]; then   # CAP_SYS_RESOURCE = 24
	as="setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all"
fi
timeout 10 $as "$STALLTOP" -b --json --trigger cpu:some:100/500 -n 1 >"$TMP/win.out" 2>"$TMP/win.err"
st=$?
[ "$st" -eq 1 ] ||
	fail "--trigger cpu:some:100/500${as:+ (as nobody)}: status $st, expected 1: $(cat "$TMP/win.err")"
want="stalltop: cannot arm trigger cpu some 100ms/500ms: without CAP_SYS_RESOURCE the kernel takes only windows that are multiples of 2 s (2000 ms)"
[ "$(cat "$TMP/win.err")" = "$want" ] ||
	fail "--trigger cpu:some:100/500: the message is '$(cat "$TMP/win.err")', expected '$want'"
[ -s "$TMP/win.out" ] && fail "--trigger cpu:some:100/500: wrote a sample"
note "--trigger cpu:some:100/500${as:+ (as nobody)}: status $st: $(cat "$TMP/win.err")"

# --- a trigger that fires ---
cpu=$((NCPU - 1))
[ "$NCPU" -ge 2 ] || skip "needs 2 CPUs (a stalled one and one for the rest)"
bg_start_in hog "$CG" "$WL/wl_spin" -t 12 -c "$cpu" -N -20
hog=$BG_PID
bg_start helper "$WL/wl_spin" -t 2 -c 0
wait_for has_line "$TMP/hog.out" ready
wait_for has_line "$TMP/helper.out" ready
grep -qx "$hog" "$CG/cgroup.procs" || hard_error "the workload is not in $CG"

t0=$(now_ms)
bg_start st "$STALLTOP" -b --json --cgroups --trigger cpu:some:1000/2000 -d 10 -n 2 -s cpu
st=$BG_PID
# both samples before the first timer sample would be due (10 s)
wait_for -t 9 has_lines "$TMP/st.out" 2
t1=$(now_ms)
bg_wait "$st" || fail "stalltop exited $?: $(cat "$TMP/st.err")"
check_json "$TMP/st.out"
note "2 samples after $((t1 - t0)) ms: $(jq -c --argjson hog "$hog" --arg cg "$CGPATH" \
	'{trigger, interval, first: (.tasks[0] | {pid, comm, cgroup, cpu: .delay.cpu.pct}),
	  next: (.tasks[1] | {pid, comm, cpu: .delay.cpu.pct}),
	  cgroup_cpu_some: ([.cgroups[] | select(.path == $cg)][0].psi.cpu.some.pct)}' \
	"$TMP/st.out" | tr '\n' ' ')"
expect "the triggered samples" "$TMP/st.out" -s --argjson hog "$hog" --arg cg "$CGPATH" '
  (if map(select(.interval >= 1)) | length == 0
   then "no triggered sample of 1 s or more" else empty end),
  (to_entries[] | "sample \(.key + 1)" as $n | .value | .interval as $interval
   | (if .trigger != "cpu some 1000ms/2s" then "\($n): trigger \(.trigger)" else empty end),
     (if .interval >= 9.5 then "\($n): interval \(.interval), a timer sample" else empty end),
     ([.tasks[] | select(.pid == $hog)][0]
      | if . == null then "\($n): the workload is not in the sample"
        elif .cgroup != $cg then "\($n): the workload in cgroup \(.cgroup), expected \($cg)"
        elif .delay.cpu.pct < 300 then "\($n): the workload waited only \(.delay.cpu.pct) %"
        elif $interval >= 1 and (.delay.cpu.pct < 1050 or .delay.cpu.pct > 1150)
        then "\($n): the workload waited \(.delay.cpu.pct) % of \($interval) s, expected 1050..1150"
        else empty end),
     (if .interval >= 1 and .tasks[0].pid != $hog
      then "\($n): the first row by cpu delay is \(.tasks[0].pid) (\(.tasks[0].comm), \(.tasks[0].delay.cpu.pct) %), not the workload \($hog)"
      else empty end),
     ([.cgroups[] | select(.path == $cg)][0]
      | if . == null then "\($n): our cgroup is not in the cgroups list"
        elif $interval >= 1 and (.psi.cpu.some.pct // 0) <= 0 then "\($n): our cgroup has no cpu pressure: \(.psi.cpu)"
        elif .nr_tasks != 1 then "\($n): our cgroup has nr_tasks \(.nr_tasks), expected 1"
        else empty end))'
exit 0
