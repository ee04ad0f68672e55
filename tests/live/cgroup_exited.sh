#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A cgroup whose work is done by short-lived children: their waits count
# in the cgroup's row, in the interval they were made in, although each
# child has ended by the time the row is shown.
#
# In a cgroup v2 child of our own, a shell starts 40 children one after
# the other, each a shell that counts to 30000, pinned
# to the last CPU, where a spinner outside the cgroup, pinned there at
# nice 0 too, takes half the CPU: each child waits for it about as long
# as it runs. Each child ends by reading its own run-queue wait from
# /proc/PID/schedstat (the kernel's scheduler counter: an independent
# reading of what taskstats calls cpu delay) and writing it to a file;
# the parent shell does the same for itself once the last child is
# reaped. stalltop -b --json --cgroups -d 0.5 runs from before the first
# child until two samples after the parent ended. The cgroup's cpu delay
# summed over the samples (pct x interval) must be within 5 % + 10 ms of
# the sum of those schedstat readings: the whole wait of every child and
# of the parent falls between stalltop's first sample and its last.
# Measured (3 runs, beside other work): 2.95 s to 3.77 s of waits, stalltop
# within 2.0 ms, 7.8 ms and 0.005 ms of schedstat. A cgroup sum that left
# exited tasks out showed 14 % of it (0.40 s of 2.89 s). Each child
# counts some 40 ms of CPU when alone.
. "$top_srcdir/tests/lib/functions.sh"
live_init
need_cmd taskset
[ "$NCPU" -ge 2 ] || skip "needs 2 CPUs (a contended one and one for stalltop)"
cg_root

NAME=stalltop-$TEST_NAME-$$
CG=$V2/$NAME
cg_make "$CG"
cpu=$((NCPU - 1))

bg_start hog taskset -c "$cpu" "$WL/wl_spin"
wait_for has_line "$TMP/hog.out" ready

start_stalltop st --cgroups -d 0.5
wait_more_lines "$TMP/st.out" 1

cat >"$TMP/children.sh" <<'EOF'
# each child: count, then print the run-queue wait of its own life
n=0
while [ $n -lt 40 ]; do
	n=$((n + 1))
	taskset -c "$1" sh -c '
		i=0
		while [ $i -lt 30000 ]; do i=$((i + 1)); done
		read -r run wait slices <"/proc/$$/schedstat"
		echo "$wait"' >>"$2"
done
read -r run wait slices <"/proc/$$/schedstat"
echo "$wait" >>"$2"
echo done
EOF
bg_start_in kids "$CG" sh "$TMP/children.sh" "$cpu" "$TMP/waits"
kids=$BG_PID
wait_for -t 120 has_line "$TMP/kids.out" '^done$'
bg_wait "$kids" || hard_error "the children's shell ended with status $?"
wait_more_lines "$TMP/st.out" 2
stop_stalltop st "$ST_PID"

[ "$(lines "$TMP/waits")" -eq 41 ] ||
	hard_error "$(lines "$TMP/waits") waits written, expected 41 (40 children and their parent)"
want=$(awk '{ s += $1 } END { printf "%.0f", s }' "$TMP/waits")
[ "$want" -ge 200000000 ] ||
	hard_error "the children waited only $want ns for the CPU: the spinner did not contend with them"
got=$(jq -s --arg cg "/$NAME" '[.[] | .interval as $i
	| (.cgroups[] | select(.path == $cg) | .delay.cpu.pct // 0) * $i / 100 * 1e9] | add // 0 | round' \
	"$TMP/st.out")
note "the cgroup's cpu delay over the samples: $got ns; the children's and their parent's schedstat: $want ns"
awk -v g="$got" -v w="$want" 'BEGIN { d = g - w; if (d < 0) d = -d; exit !(d <= w * 0.05 + 10e6) }' ||
	fail "the cgroup's cpu delay summed over the samples is $got ns, its tasks' schedstat says $want ns"
exit 0
