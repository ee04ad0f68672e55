#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Each evidence figure of a process on a hybrid host comes from its own
# cgroup in the hierarchy that has the controller, and names it; none
# from a hierarchy where it is in the root (whose counters are the
# whole machine's).
# A synchronous writer (wl_io) is put in a v1 memory cgroup with five
# sleepers (six tasks), in a v2 "unit" of the controller-less hierarchy
# with one sleeper (two tasks), and left in the roots of blkio and cpu.
# stalltop -b --json -p WRITER -d 1 -n 3: in every sample where its why
# examines io:
#  - io_cgroup is "blkio:/" (the root) and io_devices is empty: no
#    cgroup IO figure (before, the blkio root's counters, the machine's
#    IO, stood there as its cgroup's);
#  - the task states are of the unit, "cgroup2:/UNIT": running +
#    sleeping + uninterruptible + stopped is the number of the unit's
#    threads, counted from the unit's cgroup.threads and each thread's
#    /proc/TID/stat (before: cgroupstats of the memory cgroup, six tasks
#    and more). Membership is fixed during the run, so the count is
#    exact (tolerance 0); each state is checked against a count made
#    before and after the run only as a total.
. "$top_srcdir/tests/lib/functions.sh"
live_init
cg_root
set_io_dir
mem=$(v1_mount memory)
blkio=$(v1_mount blkio)
[ -n "$mem" ] && [ -n "$blkio" ] ||
	skip "not a hybrid host: no cgroup v1 memory and blkio hierarchies next to the v2 one at $V2"

MEMCG=$mem/stalltop-$TEST_NAME-$$
UNIT=/stalltop-$TEST_NAME-$$.service
cg_make "$MEMCG" "$V2$UNIT"

# five sleepers in the memory cgroup, one in the unit
for i in 1 2 3 4 5; do
	bg_start_in "s$i" "$MEMCG" sleep 1000
done
bg_start_in su "$V2$UNIT" sleep 1000
bg_start io sh -c 'for d in $1; do echo $$ >"$d/cgroup.procs" || exit 1; done
	shift; exec "$@"' sh "$MEMCG $V2$UNIT" "$WL/wl_io" "$IO_DIR/evidence-hybrid"
w=$BG_PID
wait_for has_line "$TMP/io.out" ready
grep -q "^[0-9]*:blkio:/$" "/proc/$w/cgroup" ||
	hard_error "the writer is not in the blkio root: $(grep blkio "/proc/$w/cgroup")"
[ "$(wc -l <"$MEMCG/tasks")" -ge 6 ] ||
	hard_error "the memory cgroup has $(wc -l <"$MEMCG/tasks") tasks, not 6"

# the unit's threads, from its cgroup.threads and /proc
unit_threads() { wc -l <"$V2$UNIT/cgroup.threads"; }
n0=$(unit_threads)
run_stalltop_json -p "$w" -d 1 -n 3
n1=$(unit_threads)
[ "$n0" = "$n1" ] || hard_error "the unit's threads changed during the run: $n0, then $n1"
note "unit $UNIT: $n0 threads; memory cgroup $(wc -l <"$MEMCG/tasks") tasks"

expect "io and task states of its own cgroups" "$JSON" -s --argjson w "$w" \
	--arg unit "cgroup2:$UNIT" --argjson n "$n0" '
  [.[] | .tasks[] | select(.pid == $w and .why != null
                           and (.why.causes | has("io")))] as $rows
  | if ($rows | length) < 2
    then "the writer is examined for io in \($rows | length) samples: \([.[] | .tasks[] | select(.pid == $w) | .delay.io])"
    else $rows[] | .why as $e
    | (if $e.io_cgroup != "blkio:/"
       then "io_cgroup \($e.io_cgroup), not the blkio root" else empty end),
      (if ($e.io_devices // []) != []
       then "cgroup IO figures from the blkio root: \($e.io_devices)"
       else empty end),
      (if $e.states_cgroup != $unit
       then "states_cgroup \($e.states_cgroup), not \($unit)" else empty end),
      (([$e.tasks_running, $e.tasks_sleeping, $e.tasks_uninterruptible,
         $e.tasks_stopped] | map(. // 0) | add) as $t
       | if $t != $n
         then "its cgroup'"'"'s tasks: \($t) (\($e | {tasks_running, tasks_sleeping, tasks_uninterruptible, tasks_stopped, states_source})), the unit has \($n) threads"
         else empty end)
    end'
exit 0
