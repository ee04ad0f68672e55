#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# TOTAL against the kernel's own PSI. For a task alone in a cgroup, the
# cgroup's pressure is that task's own stall as the kernel sees it: cpu
# "some" is the time it was runnable but not running, memory "some" the
# time it was in reclaim, compaction or a refault (running or not), io
# "some" its IO sleeps. Its TOTAL over a window of several seconds must
# lie between the largest of the three and their sum (the kernel counts a
# moment in reclaim while waiting for a CPU as both cpu and memory
# stall), within a tolerance.
# The task is put at once into a cgroup of its own in the v2 hierarchy
# (which has pressure files in every cgroup, controllers or not) and,
# for the memory case, into a v1 memory cgroup for the limit. Cases:
#  - memory: wl_mem -a 200 in 64 MiB with swap (/dev/zram0 when none is
#    on), pinned to CPU 1 beside a spinner on that CPU (outside both
#    cgroups): reclaim and swap-in beside cpu delay;
#  - cpu: wl_spin pinned to CPU 1 beside a spinner there;
#  - io: wl_io, synchronous 4 KiB reads with O_DIRECT, pinned to CPU 1.
# Every task is pinned to one CPU: PSI adds up a cgroup's stall per CPU,
# each CPU's weighted by its non-idle time, so a task that sleeps on IO on
# one CPU and wakes on the other is undercounted (measured unpinned: io
# delay 61.5 %, io some 53.0 %).
# stalltop -b --json -p PID -d 1 -n 7: the window is samples 2..7 (6 s);
# the cgroup's pressure totals are read the moment sample 1 and sample 7
# are out, so both cover the same time within the lag of those reads.
# The window's TOTAL is sum(total_pct x interval) / sum(interval). And
# in every sample TOTAL is at most 100 % (one thread each): the rule of
# cpu + the largest other delay gave 105..108 % for the memory case.
# What may differ: stalltop's readings and ours are milliseconds apart at
# each end (a few tenths of a point over 6 s); PSI counts a task's
# memory stall from psi_memstall_enter, a little wider than reclaim's
# delay, and a swap-in of a page that was not in the working set is a
# delay (swap) but no memory pressure, so the memory case may pass the
# sum by the swap-in time it ran (measured: see TOL below).
. "$top_srcdir/tests/lib/functions.sh"
. "$top_srcdir/tests/lib/accuracy.sh"
live_init
cg_root
[ -e "$V2/cpu.pressure" ] || skip "no pressure files in the v2 hierarchy ($V2): PSI is off"
[ "$NCPU" -ge 2 ] || skip "needs 2 CPUs to pin the tasks apart from the reader (have $NCPU)"

# pressure totals (us) of a cgroup: "cpu mem io"
psi_totals() {
	for r in cpu memory io; do
		awk '$1 == "some" { sub("total=", "", $5); printf "%s ", $5 }' "$1/$r.pressure"
	done
}

# check NAME PID PSIDIR: TOTAL of PID over samples 2..7 against PSIDIR's
# pressure over the same window (stalltop's samples in $TMP/st-NAME.out:
# $TMP/NAME.out is the workload's, which may write while it runs).
check() {
	local _n=$1 _pid=$2 _dir=$3 _p0 _p1 _t0 _t1 _s=st-$1
	start_stalltop "$_s" -p "$_pid" -d 1 -n 7
	_p0=$(psi_totals "$_dir")
	_t0=$(now_ms)
	wait_lines "$TMP/$_s.out" 7
	_p1=$(psi_totals "$_dir")
	_t1=$(now_ms)
	stop_stalltop "$_s" "$ST_PID"
	jq -s -r --argjson pid "$_pid" --arg p0 "$_p0" --arg p1 "$_p1" \
		--argjson t0 "$_t0" --argjson t1 "$_t1" --argjson tol "$TOL" '
	  ($p0 | split(" ") | map(select(. != "") | tonumber)) as $a
	  | ($p1 | split(" ") | map(select(. != "") | tonumber)) as $b
	  | (($t1 - $t0) * 1000) as $win
	  | [range(0; 3) | 100 * ($b[.] - $a[.]) / $win] as $psi
	  | [.[1:][] | (.tasks + .exited)[] | select(.pid == $pid)] as $rows
	  | ([.[1:][] | .interval] | add) as $span
	  | ([.[1:][] | .interval as $i | (.tasks + .exited)[] | select(.pid == $pid)
	      | .total_pct * $i] | add / $span) as $total
	  | "\($total) \($psi | max) \($psi | add) \($psi[0]) \($psi[1]) \($psi[2]) \($rows | length)
	     \([$rows[] | {cpu_pct, cpu: .delay.cpu.pct, io: .delay.io.pct, swap: .delay.swap.pct,
	                   reclaim: .delay.reclaim.pct, total_pct}] | tostring)"' \
		"$TMP/$_s.out" >"$TMP/$_n.cmp" || fail "$_n: jq failed"
	set -- $(head -n 1 "$TMP/$_n.cmp")
	note "$_n: TOTAL $1 over the window; cgroup PSI some cpu $4, memory $5, io $6 (largest $2, sum $3); rows $7"
	note "$_n: $(tail -n 1 "$TMP/$_n.cmp")"
	[ "$7" -ge 5 ] || fail "$_n: the task is in $7 of 6 samples"
	# never above the time it lived: 100 % a thread (each is one)
	expect "$_n: TOTAL at most 100 % of a thread" "$TMP/$_s.out" --argjson pid "$_pid" '
	  (.tasks + .exited)[] | select(.pid == $pid and .total_pct > 100 * (.threads // 1))
	  | "TOTAL \(.total_pct) of \(.threads) thread(s): cpu_pct \(.cpu_pct), cpu \(.delay.cpu.pct), reclaim \(.delay.reclaim.pct), swap \(.delay.swap.pct)"'

	awk -v t="$1" -v lo="$2" -v hi="$3" -v tol="$TOL" 'BEGIN { exit !(t >= lo - tol && t <= hi + tol) }' ||
		fail "$_n: TOTAL $1 is not within [$2, $3] +- $TOL (cgroup PSI some cpu $4, memory $5, io $6)"
}

# Measured over 6 s (two runs): cpu TOTAL 50.10 / 50.13 against cpu some
# 50.05 / 50.06 (0.07 points off); memory 82.5 / 82.7 within
# [58.3, 108.4] / [58.7, 108.8]; io 59.5 within [56.0, 64.3]. The
# tolerance is the issue's 2 points, over 25 times the error measured.
TOL=2

# memory, with a competitor on its CPU
swap_on 512
memcg_make 64 512
[ -e "$MEMCG/memory.swappiness" ] && echo 100 >"$MEMCG/memory.swappiness"
PSIMEM=$V2/stalltop-$TEST_NAME-mem-$$
cg_make "$PSIMEM"
bg_start_in_all mem "$MEMCG $PSIMEM" taskset -c 1 "$WL/wl_mem" -a 200
mem=$BG_PID
bg_start comp taskset -c 1 "$WL/wl_spin"
comp=$BG_PID
wait_for -t 60 has_line "$TMP/mem.out" ready
check mem "$mem" "$PSIMEM"
bg_kill "$mem"

# cpu only
PSICPU=$V2/stalltop-$TEST_NAME-cpu-$$
cg_make "$PSICPU"
bg_start_in_all spin "$PSICPU" taskset -c 1 "$WL/wl_spin"
spin=$BG_PID
wait_for has_line "$TMP/spin.out" ready
check cpu "$spin" "$PSICPU"
bg_kill "$spin"
bg_kill "$comp"

# io only
set_io_dir
PSIIO=$V2/stalltop-$TEST_NAME-io-$$
cg_make "$PSIIO"
bg_start_in_all io "$PSIIO" taskset -c 1 "$WL/wl_io" -r "$IO_DIR/psi-io"
io=$BG_PID
wait_for -t 60 has_line "$TMP/io.out" ready
check io "$io" "$PSIIO"
exit 0
