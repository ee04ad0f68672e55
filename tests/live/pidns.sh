#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Inside a pid namespace of its own (with its own /proc), stalltop sees the
# namespace's processes only: the header's thread count must be theirs
# too, not the machine's (which /proc/loadavg gives). A process with 4
# threads and stalltop itself (1 thread) run in the namespace: at least 5
# threads and no more than 8 (a shell), while the machine has far more.
. "$top_srcdir/tests/lib/functions.sh"
live_init
need_cmd unshare

host=$(sed 's|.*/\([0-9]*\) .*|\1|' /proc/loadavg)
[ "$host" -gt 20 ] || hard_error "only $host threads on the machine: nothing to tell apart"
unshare --pid --fork --mount-proc sh -c \
	'"$1" -t 3 & sleep 0.3; "$2" -b -n 2 -d 0.3 --format text' sh \
	"$WL/wl_spin" "$STALLTOP" >"$TMP/ns.out" 2>"$TMP/ns.err" ||
	fail "stalltop in a pid namespace failed: $(cat "$TMP/ns.err")"
line=$(grep '^stalltop - ' "$TMP/ns.out" | tail -n 1)
threads=$(echo "$line" | sed -n 's/.*  \([0-9]*\) threads\{0,1\}  .*/\1/p')
note "host: $host threads; in the namespace: $line"
[ -n "$threads" ] || fail "no thread count in: $line"
[ "$threads" -ge 5 ] && [ "$threads" -le 8 ] ||
	fail "$threads threads in a namespace holding about 5 (the machine has $host)"
exit 0
