#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The first sample's causes are of its interval: stalltop -b --json -n 1
# must give the same why as any later sample, from evidence read at the
# first interval's start (before, the first sample had a lone reading:
# no interval, and causes guessed from current values or none).
#  - a spinner in a v1 cpu cgroup with a quota of 20 ms per 100 ms (as in
#    why_cpu.sh): interval_s set, cause "cpu_quota" for its cpu delay
#    (before: cpu_contention, the residual, for lack of throttling
#    counts of an interval);
#  - dd writing with O_DIRECT in a v1 blkio cgroup whose writes to the
#    disk are throttled to 1 MiB/s: its io cause "io_limit", its cgroup's
#    device with the limit (before: no cause, no bytes of an interval);
#  - two spinning threads pinned to one CPU, no quota (as in why_cpu.sh):
#    interval_s set and the cause by the same measure as later samples,
#    "pinned" where the other CPUs were free (idle, or running niced tasks:
#    it runs at nice -20) at least 55 % of its cpu
#    stall P, "cpu_contention" where at most 45 % (before: "pinned" from
#    its runnable threads alone, then "cpu_contention" from the second
#    sample on when the other CPUs were busy).
. "$top_srcdir/tests/lib/functions.sh"
live_init
need_cmd dd
cpu1=$(v1_mount cpu)
[ -n "$cpu1" ] && [ -e "$cpu1/cpu.cfs_quota_us" ] ||
	skip "no cgroup v1 cpu controller (the quota part needs one)"
[ "$NCPU" -ge 2 ] || skip "one CPU: pinning to one of them changes nothing"
set_io_dir
io_disk "$IO_DIR" || skip "$IO_DIR is not on a block device we can throttle"
v1_blkio_group blkio.throttle.write_bps_device ||
	skip "no cgroup v1 blkio hierarchy with blkio.throttle.write_bps_device"

# first sample of one process: its why
first_why() {
	run_stalltop_json -p "$1" -d 1 -n 1
	jq -c --argjson p "$1" '.tasks[] | select(.pid == $p) | .why' "$JSON"
}

Q=$cpu1/stalltop-$TEST_NAME-$$
quota_spinner "$Q"
first_why "$q" >"$TMP/quota.why"
note "quota spinner: $(jq -c '{interval_s, cause: .causes.cpu.cause, cpu_throttled_periods, cpu_periods}' "$TMP/quota.why")"
expect "quota spinner" "$TMP/quota.why" '
  if . == null then "no why in the first sample"
  elif .interval_s == null then "no interval: \(.causes)"
  elif .causes.cpu.cause != "cpu_quota"
  then "cause \(.causes.cpu.cause), not cpu_quota: \({cpu_quota_us, cpu_throttled_periods, cpu_periods})"
  else empty end'
bg_kill "$q"

echo "$DISK 1048576" >"$IOCG/blkio.throttle.write_bps_device" ||
	hard_error "cannot throttle writes to $DISK"
bg_start_in dd "$IOCG" dd if=/dev/zero of="$IO_DIR/why-first" bs=64k \
	count=100000 oflag=direct
d=$BG_PID
# writing: its cgroup's bytes to the disk grow
wrote() { awk -v d="$DISK" '$1 == d && $2 == "Write" && $3 > 0 { f = 1 } END { exit !f }' \
	"$IOCG/blkio.throttle.io_service_bytes"; }
wait_for -t 10 wrote
first_why "$d" >"$TMP/dd.why"
note "throttled dd: $(jq -c '{interval_s, cause: .causes.io.cause, io_cgroup, io_devices}' "$TMP/dd.why")"
expect "throttled dd" "$TMP/dd.why" --arg dev "$DISK" '
  if . == null then "no why in the first sample"
  elif .interval_s == null then "no interval: \(.causes)"
  elif .causes.io.cause != "io_limit"
  then "io cause \(.causes.io), not io_limit: \(.io_devices)"
  elif ([.io_devices[] | select(.device == $dev and .wbps == 1048576)] | length) != 1
  then "no device \($dev) with the 1 MiB/s limit: \(.io_devices)"
  else empty end'
bg_kill "$d"

bg_start pinned "$WL/wl_spin" -t 2 -c 0 -N -20
p=$BG_PID
wait_for has_line "$TMP/pinned.out" ready
first_why "$p" >"$TMP/pinned.why"
note "pinned spinner: $(jq -c '{interval_s, cause: .causes.cpu.cause, other_cpus_idle_us, allowed_cpus, runnable_threads}' "$TMP/pinned.why")"
jq -c --argjson p "$p" '.tasks[] | select(.pid == $p) | .delay.cpu.pct' "$JSON" >"$TMP/pinned.pct"
jq -c --argjson p "$p" '.tasks[] | select(.pid == $p) | .nice' "$JSON" >"$TMP/pinned.nice"
# free: the time the other CPUs were idle or, for a process of nice 0 or
# below (this one runs at -20), ran niced tasks (what pinning keeps from
# it, as tests/live/why_cpu.sh counts it)
expect "pinned spinner" "$TMP/pinned.why" --slurpfile pct "$TMP/pinned.pct" \
	--slurpfile nice "$TMP/pinned.nice" '
  if . == null then "no why in the first sample"
  elif .interval_s == null then "no interval: \(.causes)"
  else ($pct[0] / 100 * .interval_s * 1e6) as $P
  | (if .other_cpus_idle_us == null then null
     elif $nice[0] != null and $nice[0] <= 0
     then .other_cpus_idle_us + (.other_cpus_nice_us // 0)
     else .other_cpus_idle_us end) as $idle
  | {cause: .causes.cpu.cause, other_cpus_idle_us, other_cpus_nice_us, P: $P} as $say
  | if $idle == null then "no other_cpus_idle_us: \($say)"
    elif $idle >= 0.55 * $P and .causes.cpu.cause != "pinned"
    then "the other CPUs were free, not pinned: \($say)"
    elif $idle <= 0.45 * $P and .causes.cpu.cause != "cpu_contention"
    then "the other CPUs were busy, not cpu_contention: \($say)"
    elif (.causes.cpu.cause | IN("pinned", "cpu_contention") | not)
    then "cause \($say)"
    else empty end
  end'
exit 0
