#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The evidence is read only for the shown processes that stall, never for
# every task at every refresh. Under strace (the files opened):
#  - stalltop -b -o on this machine while nothing of ours stalls: the
#    refreshes whose rows hold no "why" open no evidence file (cpu.stat,
#    memory.*, io.*, blkio.*, /proc/PID/io, /proc/diskstats);
#  - with one stalled process (a spinner under a CPU quota) and -p on it:
#    the evidence files opened are its own (its /proc/PID and its
#    cgroups), and only in refreshes that show it.
. "$top_srcdir/tests/lib/functions.sh"
live_init
need_cmd strace
V1=/sys/fs/cgroup/cpu
evidence='cpu\.stat|cpu\.max|cpu\.cfs_|memory\.|io\.stat|io\.max|blkio\.|/io"|"io"|diskstats|smaps_rollup'

# Idle or not, the processes whose evidence was read (their /proc/PID
# opened relative to /proc, as only the evidence reader does) are among
# those the output shows with a "why"; and a run whose rows hold no "why"
# opens no evidence file at all.
TRACE_CALLS=openat trace_stalltop idle 10 -o
whys=$(jq -s '[.[] | .tasks[] | select(.why != null)] | length' "$TMP/idle.out")
opened=$(grep -E "$evidence" "$TMP/idle.trace" | grep -vc ENOENT || true)
note "this machine: $whys rows with evidence, $opened evidence files opened"
if [ "$whys" -eq 0 ] && [ "$opened" -gt 0 ]; then
	fail "nothing stalled, yet evidence files were opened: $(grep -E "$evidence" "$TMP/idle.trace" | head -5)"
fi
jq -s '[.[] | .tasks[] | select(.why != null) | .pid] | unique | .[]' \
	"$TMP/idle.out" | sort -u >"$TMP/idle.shown"
sed -n 's/.*openat([0-9]*, "\([0-9][0-9]*\)", O_RDONLY|O_CLOEXEC|O_DIRECTORY.*/\1/p' \
	"$TMP/idle.trace" | sort -u >"$TMP/idle.read"
extra=$(comm -13 "$TMP/idle.shown" "$TMP/idle.read" | head -5)
[ -z "$extra" ] || fail "evidence read for processes not shown stalled: $extra"

[ -e "$V1/cpu.cfs_quota_us" ] ||
	skip "no cgroup v1 cpu controller at $V1 for the stalled part"
Q="$V1/stalltop-shown-$$"
cg_make "$Q"
echo 100000 >"$Q/cpu.cfs_period_us" || hard_error "cannot set the period"
echo 20000 >"$Q/cpu.cfs_quota_us" || hard_error "cannot set the quota"
bg_start_in quota "$Q" "$WL/wl_spin"
q=$BG_PID
wait_for has_line "$TMP/quota.out" ready

TRACE_CALLS=openat trace_stalltop one 5 -p "$q"
jq -e -s --argjson q "$q" '[.[] | .tasks[] | select(.pid == $q and .why != null)] | length > 0' \
	"$TMP/one.out" >/dev/null || fail "the stalled spinner has no why"
# every /proc/PID file opened for evidence is the spinner's
others=$(grep -E '"/proc/[0-9]+"|/proc/[0-9]+/(io|smaps_rollup)"' "$TMP/one.trace" |
	grep -v "/proc/$q[/\"]" | grep -v ENOENT | head -5)
[ -z "$others" ] || fail "evidence of another process was read: $others"
grep -q "\"$Q\"" "$TMP/one.trace" || fail "the spinner's cgroup $Q was not read: $(grep -E "$evidence" "$TMP/one.trace" | head -3)"
# no other cgroup's cpu directory (the spinner's alone)
others=$(grep -E 'openat\(.*"/sys/fs/cgroup/cpu[^"]*"' "$TMP/one.trace" |
	grep -v "\"$Q\"" | grep -v ENOENT | head -5)
[ -z "$others" ] || fail "another cpu cgroup was read: $others"
