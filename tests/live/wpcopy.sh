#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A forked child that writes every page of its parent's 64 MiB private
# mapping (huge pages off) takes exactly one copy-on-write fault per page:
# 16384 with 4 KiB pages. stalltop, running before the fork, must count
# them as the child's wpcopy delay and rank the child first by -s wpcopy
# in the interval of the burst.
#
# Magnitude: summed over every sample the child appears in, its wpcopy
# count must be at least the number of pages and at most 64 more (its
# stack, libc data and the like are copied on write too: about 10 here);
# counting from the wrong base, losing an interval or counting one twice
# all fall outside. The pct must be > 0 and, for one thread, at most 100.
. "$top_srcdir/tests/lib/functions.sh"
live_init

start_stalltop st -s wpcopy -d 0.5
bg_start cow "$WL/wl_cow" -m 64 -w
wait_for has_line "$TMP/cow.out" '^done'
child=$(sed -n 's/^child \([0-9]*\) pages [0-9]*$/\1/p' "$TMP/cow.out")
pages=$(sed -n 's/^child [0-9]* pages \([0-9]*\)$/\1/p' "$TMP/cow.out")
[ -n "$child" ] && [ -n "$pages" ] || fail "wl_cow said: $(cat "$TMP/cow.out")"
# two more samples: the interval of the burst has surely been closed
wait_more_lines "$TMP/st.out" 2
stop_stalltop st "$ST_PID"

expect "wpcopy of child $child ($pages pages)" "$TMP/st.out" -s \
	--argjson child "$child" --argjson pages "$pages" '
  [.[] | (.tasks + .exited)[] | select(.pid == $child)] as $rows
  | ($rows | map(.delay.wpcopy.count) | add) as $count
  | if ($rows | length) == 0 then "the child never appears"
    elif $count < $pages or $count > $pages + 64
    then "wpcopy count \($count), expected \($pages)..\($pages + 64)"
    else empty end,
    ($rows[] | .delay.wpcopy | select(.pct < 0 or .pct > 100)
     | "wpcopy pct \(.pct) out of 0..100"),
    (if ($rows | map(.delay.wpcopy.pct) | add) <= 0 then "no wpcopy delay" else empty end),
    # the sample of the burst: the child ranks first
    ([.[] | select(any(.tasks[]; .pid == $child and .delay.wpcopy.count >= $pages / 2))]
     | if length == 0 then "no sample holds the burst"
       else .[0].tasks[0] | select(.pid != $child)
            | "-s wpcopy: \(.pid) (\(.comm), \(.delay.wpcopy.count) faults) ranks above the child"
       end)
'
note "child $child: $(jqs "$TMP/st.out" "[.[] | (.tasks + .exited)[] | select(.pid == $child) | .delay.wpcopy] | tostring")"
exit 0
