#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Process mode asks a process only when its CPU clock moved since the
# query of its last reading, or when that reading is not sure to hold (a
# task of the machine waited on block IO when it was taken: one of the
# process's threads may be woken from it without running, and the
# kernel ends that wait when it wakes the thread). Skipping must really
# skip, and must neither lose nor misplace a wait.
#
#  - Cost: stalltop -p WAKE (wl_wake: 8 sleeping threads) under strace
#    over 10 refreshes sends at most 1 + 3 B requests by TGID for it (the
#    first one, before its first reading; B: its reads of /proc/stat
#    that saw a task waiting on block IO, each of which costs at most
#    three requests more, src/live/readings.c); measured: 0 or 1 request
#    (strace attaches after the first refresh), B = 0. The control: a
#    spinning process (wl_spin) traced so is asked at every refresh, so
#    the method sees the requests.
#  - The woken wait: wl_woken, in a cgroup whose reads from the disk
#    under the test's IO directory are throttled to 16 KiB/s (cgroup v1
#    blkio, or v2 io.max), spins 300 ms (so that it moves at the
#    refreshes just before: it is asked then without its clock, and its
#    clock is read again only once it stands) and reads 8 KiB with
#    O_DIRECT (its IO takes 0.5 to 0.8 s); 150 ms in, a SCHED_FIFO hog
#    takes the CPU the reader is woken on, for 900 ms: the kernel ends the
#    reader's block IO wait as it wakes it, but the reader runs again only
#    after the hog. The first reading taken after its clock was read
#    again is taken while it waits on IO (as no other process is watched,
#    nothing was read of /proc/stat since before it waited).
#    stalltop -b -d 0.1 -p PID (pinned to another CPU) must show that IO
#    wait in samples that end before the reader ran again (at least 90 %
#    of it; measured: all of it), and in all within 1 % + 5 ms of the wait
#    the reader measured (its time in the read less its wait for the
#    CPU), and its cpu delay within 1 % + 5 ms of its own schedstat
#    (measured, 3 runs: within 0.6 ms, both). The cpu delay is that of
#    every sample after the fifth, held to its /proc/PID/schedstat read
#    after the fifth (it sleeps until signalled) and after stalltop
#    stopped (it sleeps again): on a machine whose other work delays it
#    before and after the read too, both count those waits (measured
#    beside two nice 19 spinners and a direct-IO writer: 681.4 ms in the
#    samples, 680.6 ms by schedstat; the reader's own figure, over the
#    read only, 518.1 ms). A stalltop that carried the
#    reading taken while the reader waited shows the IO wait only after
#    the reader ran (measured: at the first sample after it). A read the
#    hog did not hold up (a wait for the CPU under 250 ms) proves nothing
#    and is tried again, 5 times at most.
. "$top_srcdir/tests/lib/functions.sh"
live_init
need_cmd strace taskset
[ "$NCPU" -ge 2 ] || skip "one CPU: the reader's CPU cannot be held up while stalltop runs"

# run_delay PID: the time its thread waited for a CPU (schedstat), ns
run_delay() { awk '{ print $2 }' "/proc/$1/schedstat"; }

# trace NAME PID: stalltop -p PID over 10 refreshes under strace; sets
# ASKED (taskstats requests by TGID) and BLOCKED (the gate's reads of
# /proc/stat, kept open and read with pread, that saw a task waiting on
# block IO)
trace() {
	TRACE_CALLS=sendto,sendmsg,pread64 TRACE_OPTS="-s 8192" \
		trace_stalltop "$1" 10 -p "$2"
	# genl command 1 (GET), version 1, then the attribute: len 8, type 2
	ASKED=$(grep -E 'send(to|msg)\(' "$TMP/$1.trace" |
		grep -o -F '"\x01\x01\x00\x00\x08\x00\x02\x00' | wc -l)
	BLOCKED=$(grep 'pread64(' "$TMP/$1.trace" | grep -o 'procs_blocked [0-9]*' |
		grep -c -v ' 0$')
	note "$1: $ASKED requests by TGID in 10 refreshes; $BLOCKED reads of /proc/stat saw a task waiting on IO"
}

# --- the cost of an idle process ---
bg_start spin "$WL/wl_spin" -c $((NCPU - 1))
SPIN=$BG_PID
wait_for has_line "$TMP/spin.out" ready
trace control "$SPIN"
[ "$ASKED" -ge 9 ] ||
	fail "a spinning process was asked $ASKED times in 10 refreshes: the test cannot count the requests"
bg_kill "$SPIN"

bg_start wake "$WL/wl_wake" -t 8
WAKE=$BG_PID
wait_for has_line "$TMP/wake.out" ready
wait_for all_asleep "$WAKE" 8
trace idle "$WAKE"
[ "$ASKED" -le $((1 + 3 * BLOCKED)) ] ||
	fail "an idle process was asked $ASKED times in 10 refreshes ($BLOCKED sights of a task waiting on IO)"
bg_kill "$WAKE"

# --- a wait the kernel ends while the thread cannot run ---
try_io_dir || skip "no directory on a block device: no block IO wait to throttle"
io_disk "$IO_DIR" || skip "$IO_DIR is not on a block device that can be throttled"
disk=$DISK
if v1_blkio_group blkio.throttle.read_bps_device; then
	echo "$disk 16384" >"$IOCG/blkio.throttle.read_bps_device" ||
		hard_error "cannot throttle reads from $disk"
else
	cg_root
	grep -qw io "$V2/cgroup.subtree_control" 2>/dev/null ||
		skip "no IO throttling: no cgroup v1 blkio hierarchy, and io is not enabled in $V2/cgroup.subtree_control"
	IOCG=$V2/stalltop-$TEST_NAME-$$
	cg_make "$IOCG"
	echo "$disk rbps=16384" >"$IOCG/io.max" ||
		hard_error "cannot throttle reads from $disk"
fi
dd if=/dev/urandom of="$IO_DIR/woken" bs=1M count=1 oflag=direct status=none ||
	hard_error "cannot write $IO_DIR/woken"

cpu=$((NCPU - 1))
bg_start_in woken "$IOCG" "$WL/wl_woken" -a 0 -c "$cpu" -b 300 -s 150 -l 900 "$IO_DIR/woken"
WOKEN=$BG_PID
wait_for has_line "$TMP/woken.out" ready
n=0 held=
while [ $n -lt 5 ] && [ -z "$held" ]; do
	n=$((n + 1))
	bg_start st taskset -c 0 "$STALLTOP" -b --json -d 0.1 -p "$WOKEN"
	ST=$BG_PID
	# the process idle long enough for its reading to be carried
	wait_lines "$TMP/st.out" 5
	# asleep until the signal: its waits for the CPU from here on are in
	# the samples after the fifth
	rd0=$(run_delay "$WOKEN")
	kill -s USR1 "$WOKEN"
	wait_for has_lines "$TMP/woken.out" $((n + 1))
	set -- $(sed -n "$((n + 1))p" "$TMP/woken.out")
	begin=$3 end=$5 hog0=$7 hog1=$8 delay_ns=${10}
	after() { jq -e -s --argjson t "$end" 'any(.[]; .time - .interval > $t + 0.2)' "$TMP/st.out" >/dev/null; }
	wait_for after
	stop_stalltop st "$ST"
	rd1=$(run_delay "$WOKEN")
	note "read $n: $begin..$end, the hog $hog0..$hog1, the reader waited $delay_ns ns for the CPU"
	[ "$delay_ns" -ge 250000000 ] && held=1
	[ -n "$held" ] || mv "$TMP/st.out" "$TMP/st.$n.out"
done
[ -n "$held" ] ||
	hard_error "in 5 reads the hog never held the woken reader up 250 ms: the test proves nothing"

expect "the woken wait" "$TMP/st.out" -s --argjson pid "$WOKEN" --argjson begin "$begin" \
	--argjson stop "$end" --argjson delay "$delay_ns" --argjson ran "$((rd1 - rd0))" '
  def mine: [.tasks[] | select(.pid == $pid)][0];
  def io: (mine.delay.io.pct // 0) * .interval / 100 * 1e9;
  def cpu: (mine.delay.cpu.pct // 0) * .interval / 100 * 1e9;
  def off($want; $got): ($got - $want | fabs) > $want * 0.01 + 5e6;
  (($stop - $begin) * 1e9 - $delay) as $wait
  | [.[] | select(.time > $begin)] as $s
  | ([$s[] | io] | add) as $io | ([.[5:][] | cpu] | add) as $c
  | ([$s[] | select(.time < $stop) | io] | add) as $early
  | (if off($wait; $io) then "io delay \($io) ns in the samples, the reader waited \($wait) ns for its IO" else empty end),
    (if off($ran; $c) then "cpu delay \($c) ns in the samples after the fifth, its schedstat says \($ran) ns" else empty end),
    (if $early < 0.9 * $io then "only \($early) ns of the \($io) ns of io delay are in samples that end before the reader ran again at \($stop): the wait was shown late \([$s[] | select(io > 0) | .time])" else empty end)'
note "shown: $(jq -s -r --argjson pid "$WOKEN" --argjson begin "$begin" --argjson stop "$end" --argjson ran "$((rd1 - rd0))" '
  def mine: [.tasks[] | select(.pid == $pid)][0];
  def io: (mine.delay.io.pct // 0) * .interval / 100 * 1e9;
  def cpu: (mine.delay.cpu.pct // 0) * .interval / 100 * 1e9;
  [.[] | select(.time > $begin)] as $s
  | "io \([$s[] | io] | add | round) ns, \([$s[] | select(.time < $stop) | io] | add | round) ns of it before the reader ran; cpu \([.[5:][] | cpu] | add | round) ns after the fifth sample, schedstat \($ran) ns"' "$TMP/st.out")"
exit 0
