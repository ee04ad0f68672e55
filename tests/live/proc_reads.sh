#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# /proc/stat and /proc/meminfo are read once a refresh, whoever needs them:
# the machine line (a recording keeps it), the gate of process mode's
# queries (procs_blocked), the evidence of a stalled row (the tasks
# runnable and blocked, each CPU's time, memory). strace -y, attached to a
# running stalltop for 5 refreshes, counts the reads of each file: an
# openat of it, or a pread from offset 0 of a descriptor kept open. The
# refresh under way when strace attached can fall into the window too, so
# at most 6 of each; and at least 1 of /proc/stat, so that the method sees
# reads at all. In process mode, thread mode (-H) and with --cgroups, each
# recording, with two threads pinned to one CPU so that a stalled row's
# evidence is read (its "why" must be in the output; thread rows have
# none).
# Measured: 5 or 6 of each in every mode; before the reads were one, 20 of
# /proc/stat and 10 of meminfo in process mode, 10 and 10 with -H.
. "$top_srcdir/tests/lib/functions.sh"
live_init
need_cmd strace

bg_start pinned "$WL/wl_spin" -t 2 -c 0 -N -20
p=$BG_PID
wait_for has_line "$TMP/pinned.out" ready

# reads NAME FILE: the reads of FILE in $TMP/NAME.trace
reads() {
	grep -cE "openat\([0-9]+</proc>, \"$2\"|\"/proc/$2\"|pread64\([0-9]+</proc/$2>, .*, 0\) " \
		"$TMP/$1.trace"
}

TRACE_OPTS=-y
TRACE_CALLS=openat,pread64
for mode in process threads cgroups; do
	case $mode in
	process) set -- ;;
	threads) set -- -H ;;
	cgroups) set -- --cgroups ;;
	esac
	trace_stalltop "$mode" 5 "$@" --record "$TMP/$mode.stk"
	stat=$(reads "$mode" stat)
	mem=$(reads "$mode" meminfo)
	note "$mode ($*): /proc/stat read $stat times, /proc/meminfo $mem, in 5 refreshes"
	[ "$mode" = threads ] ||
		grep '}$' "$TMP/$mode.out" | jq -e --argjson p "$p" \
		'[.tasks[]? | select(.pid == $p and .why != null)] | length > 0' \
		>/dev/null || fail "$mode: no evidence of the pinned spinner was read"
	[ "$stat" -ge 1 ] || fail "$mode: strace saw no read of /proc/stat"
	[ "$stat" -le 6 ] ||
		fail "$mode: /proc/stat read $stat times in 5 refreshes: $(grep -E '"stat"|/proc/stat' "$TMP/$mode.trace" | head -4)"
	[ "$mem" -le 6 ] ||
		fail "$mode: /proc/meminfo read $mem times in 5 refreshes"
done
exit 0
