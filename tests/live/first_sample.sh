#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The first sample is a real interval: its figures cover exactly the time
# it reports, even when the baseline takes long to make. Two busy threads
# share one CPU at nice -20 in a process that also has 2000 sleeping
# threads and 1000 sleeping child processes, so stalltop has thousands of
# tasks to look up before its first interval. A busy thread runs or waits
# all the time, so in every sample, the first included, its cpu_pct + cpu
# delay must be 100 % of the interval (200 % for the process):
#  - by thread (-H -p): 90..110 per busy thread (cpu_pct is sampled at
#    the tick, 0.8 % steps over 0.5 s, and a timeslice shorter than a tick
#    can be misattributed by a few ticks; the rest is the time between
#    reading a task and taking the clock; measured 97..103);
#  - the whole machine by process: 180..215 for the spinner (a thousand
#    rows more to query: its reading and the clock drift apart by up to a
#    few per cent on a loaded machine; measured 190..208).
# Counters read at the baseline with an interval clock started only after
# the names and users of all tasks were looked up show far more (measured:
# 326..342 % for the process).
. "$top_srcdir/tests/lib/functions.sh"
live_init

cpu=$((NCPU - 1))
bg_start spin "$WL/wl_spin" -t 2 -i 2000 -P 1000 -c "$cpu" -N -20
spin=$BG_PID
wait_for has_line "$TMP/spin.out" ready

for mode in threads procs; do
	if [ $mode = threads ]; then
		run_stalltop_json -H -p "$spin" -s cpu -d 0.5 -n 2
	else
		run_stalltop_json -s cpu -d 0.5 -n 2
	fi
	expect "$mode" "$JSON" -s --argjson spin "$spin" --arg mode "$mode" '
	  to_entries[] | .key as $i | .value
	  | (if $mode == "threads" then
	       [.tasks[:2][] | select(.tgid == $spin) | [.pid, .cpu_pct + .delay.cpu.pct, 90, 110]]
	     else
	       [.tasks[] | select(.pid == $spin) | [.pid, .cpu_pct + .delay.cpu.pct, 180, 215]]
	     end) as $busy
	  | if ($busy | length) != (if $mode == "threads" then 2 else 1 end)
	    then "sample \($i + 1): the busy rows are missing: \(.tasks[:3])"
	    else $busy[] | select(.[1] < .[2] or .[1] > .[3])
	    | "sample \($i + 1), \(.[0]): cpu_pct + cpu delay = \(.[1]) % of the interval, expected \(.[2])..\(.[3])"
	    end'
	note "$mode: $(jq -c --argjson spin "$spin" "[.interval, (.tasks[] | select(.tgid == $spin and .delay.cpu.pct > 10) | .cpu_pct + .delay.cpu.pct)]" "$JSON" | tr '\n' ' ')"
done
exit 0
