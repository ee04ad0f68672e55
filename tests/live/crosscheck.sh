#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Cross-check stalltop -a (totals since it started) against independent
# readings of the same counters through another kernel interface:
#  - cpu: /proc/PID/schedstat gives sched_info.run_delay (ns) and pcount,
#    the very counters taskstats reports as cpu_delay_total and cpu_count;
#  - io: /proc/PID/stat field 42 is blkio_delay_total in clock ticks.
# Both workloads start after stalltop (so its totals count from zero, like
# the kernel's), stall for a while, then sleep: once they are still, the
# two readings need not be taken at the same instant, they must agree.
#
# Tolerance: cpu delay within 1 ms (stalltop prints pct with 3 decimals and
# the interval in ms: the rounding is below 0.1 ms for a few seconds), the
# timeslice count exactly; io delay within one clock tick (field 42 is
# truncated to 10 ms) plus 1 ms. A total from the wrong base, a lost or
# doubled interval is off by far more: the spinner waits about 0.5 s.
# Where no directory is on a block device (IO to tmpfs never waits) only
# the io part is left out, and the test says so.
. "$top_srcdir/tests/lib/functions.sh"
live_init
need_cmd taskset
io=
if try_io_dir; then
	"$WL/wl_io" -t 0 "$IO_DIR/data" >/dev/null || fail "cannot prepare $IO_DIR/data"
else
	skip_part "no directory on a block device (tried $TMP, /var/tmp): the io check"
fi

cpu=$((NCPU - 1))
start_stalltop st -a -d 0.5
# two spinners share one CPU for 1 s (the second a little longer, so the
# first waits all along); the first then sleeps
bg_start a "$WL/wl_spin" -c "$cpu" -N -20 -s 1 -w
a=$BG_PID
bg_start b "$WL/wl_spin" -c "$cpu" -N -20 -s 1.2
# the writer on another CPU than the spinners, where it only meets the
# rest of the machine (at nice -20, so that a loaded machine does not
# keep it from waiting for IO: 40..45 % of its time)
if [ -n "$IO_DIR" ]; then
	bg_start io taskset -c 0 "$WL/wl_io" -N -20 -t 1.5 -w "$IO_DIR/data"
	io=$BG_PID
fi
wait_for has_line "$TMP/a.out" '^done'
[ -z "$io" ] || wait_for has_line "$TMP/io.out" '^done'
# a sample that was taken after both went still
wait_more_lines "$TMP/st.out" 2
read -r _ delay_ns slices <"/proc/$a/schedstat" || fail "cannot read /proc/$a/schedstat"
case $delay_ns$slices in
'' | *[!0-9]*) fail "/proc/$a/schedstat: no run_delay and pcount: $(cat "/proc/$a/schedstat")" ;;
esac
if [ -n "$io" ]; then
	io_ticks=$(sed 's/^.*) //' "/proc/$io/stat" | cut -d' ' -f40)
	case $io_ticks in
	'' | *[!0-9]*) fail "/proc/$io/stat: no blkio ticks (field 42): $(cat "/proc/$io/stat")" ;;
	esac
fi
hz=$(getconf CLK_TCK)
stop_stalltop st "$ST_PID"

note "schedstat of $a: run_delay $delay_ns ns, $slices slices${io:+; io ticks of $io: $io_ticks (HZ $hz)}"
expect "cpu of $a" "$TMP/st.out" -s --argjson pid "$a" \
	--argjson delay "$delay_ns" --argjson slices "$slices" '
  .[-1] as $s | [$s.tasks[] | select(.pid == $pid)][0] as $r
  | if $r == null then "not in the last sample"
    else ($r.delay.cpu.pct * $s.interval / 100) as $secs
    | (if ($secs - $delay / 1e9 | fabs) > 0.001
       then "cpu delay \($secs) s, schedstat says \($delay / 1e9) s" else empty end),
      (if $r.delay.cpu.count != $slices
       then "cpu count \($r.delay.cpu.count), schedstat says \($slices)" else empty end),
      (if $delay < 0.2e9 then "the spinner waited only \($delay) ns: no real check" else empty end)
    end'
if [ -z "$io" ]; then
	note "stalltop: $(jq -c --argjson a "$a" '[.tasks[] | select(.pid == $a) | {pid, cpu: .delay.cpu}]' "$TMP/st.out" | tail -1)"
	exit 0
fi
expect "io of $io" "$TMP/st.out" -s --argjson pid "$io" \
	--argjson ticks "$io_ticks" --argjson hz "$hz" '
  .[-1] as $s | [$s.tasks[] | select(.pid == $pid)][0] as $r
  | if $r == null then "not in the last sample"
    else ($r.delay.io.pct * $s.interval / 100) as $secs
    | ($ticks / $hz) as $kernel
    | (if $secs < $kernel - 0.001 or $secs > $kernel + 1 / $hz + 0.001
       then "io delay \($secs) s, /proc/PID/stat says \($ticks) ticks" else empty end),
      (if $r.delay.io.count <= 0 then "no io count" else empty end),
      (if $ticks < 5 then "only \($ticks) ticks of io delay: no real check" else empty end)
    end'
note "stalltop: $(jq -c --argjson a "$a" --argjson io "$io" '[.tasks[] | select(.pid == $a or .pid == $io) | {pid, cpu: .delay.cpu, io: .delay.io}]' "$TMP/st.out" | tail -1)"
exit 0
