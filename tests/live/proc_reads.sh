#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# /proc/stat and /proc/meminfo are read once a refresh, whoever needs them:
# the machine line (a recording keeps it), the gate of process mode's
# queries (procs_blocked), the evidence of a stalled row (the tasks
# runnable and blocked, each CPU's time, memory). strace -y, attached to a
# running stalltop for 5 refreshes, records the reads of each file (an
# openat of it, or a pread from offset 0 of a descriptor kept open) and
# the writes of the samples: between the writes of one sample and the
# next, each file must be read at most once (a refresh's reads come
# before its sample is written; the time before the first sample traced
# and after the last is no whole refresh and is not counted), and
# /proc/stat at least once in one of them, so that the method sees reads
# at all. In process mode, thread mode (-H) and with --cgroups, each
# recording, with two threads pinned to one CPU so that a stalled row's
# evidence is read (its "why" must be in the output; thread rows have
# none).
# Measured: 1 of each between every two samples; before the reads were
# one, 4 or 5 of /proc/stat and 2 or 3 of meminfo in process mode.
. "$top_srcdir/tests/lib/functions.sh"
live_init
need_cmd strace

bg_start pinned "$WL/wl_spin" -t 2 -c 0 -N -20
p=$BG_PID
wait_for has_line "$TMP/pinned.out" ready

# reads NAME FILE: the most reads of FILE between two samples' writes in
# $TMP/NAME.trace ("none" when no two samples were written)
reads() {
	awk -v pat="openat[(][0-9]+</proc>, \"$2\"|\"/proc/$2\"|pread64[(][0-9]+</proc/$2>, .*, 0[)] " '
		/ write\(1</ { if (!w && seen) { gaps++; if (n > max) max = n }
				w = 1; seen = 1; n = 0; next }
		{ w = 0 }
		$0 ~ pat { n++ }
		END { print gaps ? max + 0 : "none" }' "$TMP/$1.trace"
}

TRACE_OPTS=-y
TRACE_CALLS=openat,pread64,write
for mode in process threads cgroups; do
	case $mode in
	process) set -- ;;
	threads) set -- -H ;;
	cgroups) set -- --cgroups ;;
	esac
	trace_stalltop "$mode" 5 "$@" --record "$TMP/$mode.stk"
	stat=$(reads "$mode" stat)
	mem=$(reads "$mode" meminfo)
	note "$mode ($*): at most $stat reads of /proc/stat and $mem of /proc/meminfo a refresh"
	[ "$mode" = threads ] ||
		grep '}$' "$TMP/$mode.out" | jq -e --argjson p "$p" \
		'[.tasks[]? | select(.pid == $p and .why != null)] | length > 0' \
		>/dev/null || fail "$mode: no evidence of the pinned spinner was read"
	[ "$stat" != none ] || fail "$mode: strace saw no two samples written"
	[ "$stat" -ge 1 ] || fail "$mode: strace saw no read of /proc/stat"
	[ "$stat" -le 1 ] ||
		fail "$mode: /proc/stat read $stat times in one refresh: $(grep -E '</proc>, "stat"|/proc/stat' "$TMP/$mode.trace" | head -4)"
	[ "$mem" -le 1 ] ||
		fail "$mode: /proc/meminfo read $mem times in one refresh"
done
exit 0
