#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The machine at a glance above the table: load averages, CPU busy,
# memory and swap used of total (memory used: MemTotal - MemAvailable),
# each against the kernel's own files
# read by the test; on a narrow terminal the pieces that do not fit are
# left out whole from the right; a replay says they are not recorded.
. "$top_srcdir/tests/tty/tty-lib.sh"

# every CPU kept busy: whatever else runs, no CPU is idle
for i in $(seq 1 "$NCPU"); do
	bg_start "hog$i" "$HELPER" busy sthdrhog
done

# bytes (given in KiB) as the meters print them
kib_text() {
	awk -v k="$1" 'BEGIN { split("K M G T P E", u, " "); x = k; i = 1
		while (x >= 1024 && i < 6) { x /= 1024; i++ }
		printf(x < 10 ? "%.1f%s" : "%.0f%s", x, u[i]) }'
}
meminfo() {
	awk -v k="$1:" '$1 == k { print $2 }' /proc/meminfo
}

tty_start
line() {
	tty_screen | grep -E '^load ' | head -n 1
}
busy_shown() {
	line | grep -Eq '^load [0-9]+\.[0-9]{2} [0-9]+\.[0-9]{2} [0-9]+\.[0-9]{2}  CPU [0-9]+\.[0-9]% busy  mem [0-9.]+[KMGTPE]/[0-9.]+[KMGTPE]  (swap [0-9.]+[KMGTPE]/[0-9.]+[KMGTPE]|no swap) *$'
}
tty_until 15 busy_shown || tty_fail "no meters line of the expected form: '$(line)'"

# the totals are the kernel's, to the digit shown
mem_total=$(kib_text "$(meminfo MemTotal)")
line | grep -q "  mem [0-9.]*[KMGTPE]/$mem_total " ||
	tty_fail "memory total is not $mem_total (MemTotal): '$(line)'"
if [ "$(meminfo SwapTotal)" -gt 0 ]; then
	swap_total=$(kib_text "$(meminfo SwapTotal)")
	line | grep -Eq "  swap [0-9.]+[KMGTPE]/$swap_total *\$" ||
		tty_fail "swap total is not $swap_total (SwapTotal): '$(line)'"
else
	line | grep -q '  no swap *$' || tty_fail "no swap, yet: '$(line)'"
fi

# memory used is MemTotal - MemAvailable (not MemFree: what the kernel
# can give without swapping is not used), against /proc/meminfo read
# before and after the capture: within the two, widened by half the last
# digit shown (the rounding). MemFree is hundreds of MiB below
# MemAvailable on a machine with page cache, a digit or more of "1.2G".
kib_of() { # "1.2G" -> KiB; and half its last digit
	awk -v t="$1" 'BEGIN { u = substr(t, length(t)); x = substr(t, 1, length(t) - 1)
		m = 1; n = index("KMGTPE", u); for (i = 1; i < n; i++) m *= 1024
		printf("%.0f %.0f\n", x * m, (index(x, ".") ? 0.05 : 0.5) * m) }'
}
mem_used_matches() {
	before=$(( $(meminfo MemTotal) - $(meminfo MemAvailable) ))
	used=$(line | sed -n 's/.*  mem \([0-9.]*[KMGTPE]\)\/.*/\1/p')
	after=$(( $(meminfo MemTotal) - $(meminfo MemAvailable) ))
	[ -n "$used" ] || return 1
	set -- $(kib_of "$used")
	awk -v s="$1" -v h="$2" -v a="$before" -v b="$after" 'BEGIN {
		lo = a < b ? a : b; hi = a < b ? b : a
		exit !(s >= lo - h && s <= hi + h) }'
}
tty_until 20 mem_used_matches ||
	tty_fail "memory used $used on the screen, MemTotal - MemAvailable $before then $after KiB"

# CPU: with every CPU busy the share is near 100 (others' work is busy
# time too). Measured here with two helpers on 2 CPUs: 100.0 % in each of
# 20 samples in a row; 90 leaves room for ticks lost to the idle task.
cpu_high() {
	cpu=$(line | sed -n 's/.*  CPU \([0-9.]*\)% busy.*/\1/p')
	[ -n "$cpu" ] && awk -v c="$cpu" 'BEGIN { exit !(c >= 90 && c <= 100) }'
}
tty_steady 3 30 cpu_high || tty_steady_fail "CPU busy not near 100 with every CPU busy"

# load: the screen's 1-minute figure against /proc/loadavg read before
# and after the capture (the kernel updates it every 5 s): within the two,
# with 0.02 for the rounding to two decimals.
load_matches() {
	before=$(cut -d' ' -f1 /proc/loadavg)
	shown=$(line | awk '{ print $2 }')
	after=$(cut -d' ' -f1 /proc/loadavg)
	awk -v s="$shown" -v a="$before" -v b="$after" 'BEGIN {
		lo = a < b ? a : b; hi = a < b ? b : a
		exit !(s >= lo - 0.02 && s <= hi + 0.02) }'
}
tty_until 20 load_matches ||
	tty_fail "load $shown on the screen, /proc/loadavg $before then $after"
tty_quit_and_check

# 60 columns: what does not fit is left out whole, never cut
tty_restart
tty_launch
T resize-window -x 60 -y 40
narrow_ok() {
	l=$(line)
	echo "$l" | grep -Eq '^load [0-9.]+ [0-9.]+ [0-9.]+(  CPU ([0-9.]+% busy|-)(  mem [0-9.]+[KMGTPE]/[0-9.]+[KMGTPE](  (swap [0-9.]+[KMGTPE]/[0-9.]+[KMGTPE]|no swap))?)?)? *$' &&
		[ "$(printf '%s' "$l" | sed 's/ *$//' | wc -m)" -le 60 ]
}
tty_until 15 narrow_ok || tty_fail "the meters on 60 columns: '$(line)'"
tty_quit_and_check

# a replay: not recorded, said so
tty_restart
TTY_ENV="TZ=UTC"
tty_start -d 600 --replay "$REC_DEMO"
tty_wait '^load, CPU, memory and swap: not in the recording' 5 ||
	tty_fail "the replay does not say the meters are not recorded"
tty_quit_and_check
