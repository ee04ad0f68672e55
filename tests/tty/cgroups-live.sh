#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Two cgroups of our own under the v2 hierarchy: three busy processes
# sharing CPU 0 in one, a sleeping one in the other. The cgroup view
# (stalltop --cgroups starts in it; g leaves and comes back) ranks the
# loaded cgroup above the idle one, with cpu pressure of its own.
. "$top_srcdir/tests/tty/tty-lib.sh"
live_init
need_cmd findmnt taskset

# the v2 hierarchy: alone at /sys/fs/cgroup or beside v1 (hybrid)
V2=$(findmnt -n -t cgroup2 -o TARGET | head -n 1)
[ -n "$V2" ] || skip "no cgroup v2 hierarchy is mounted"
[ -e "$V2/cpu.pressure" ] || skip "no per-cgroup PSI here ($V2/cpu.pressure)"

NAME=stalltop-test-$$
CG=$V2/$NAME
mkdir "$CG" "$CG/stload" "$CG/stidle" || hard_error "cannot make cgroups in $V2"

# the workloads go before their cgroups, the tmux server before both
_cg_cleanup() {
	_cg_status=$?
	for _g in $_pgids; do
		kill -s KILL -- "-$_g" 2>/dev/null
	done
	for _g in $_pgids; do
		wait "$_g" 2>/dev/null
	done
	for _d in "$CG/stload" "$CG/stidle" "$CG"; do
		[ -d "$_d" ] || continue
		# a killed task leaves its cgroup a moment later
		_n=0
		until rmdir "$_d" 2>/dev/null || [ $_n -ge 50 ]; do
			sleep 0.1
			_n=$((_n + 1))
		done
		[ -d "$_d" ] && echo "$TEST_NAME: could not remove $_d" >&2
	done
	(exit "$_cg_status")
	_tty_cleanup
}
trap _cg_cleanup EXIT

# bg_start runs the command in place of setsid: $$ is the workload
into() {
	_name=$1
	shift
	bg_start "$_name" sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' \
		sh "$@"
}
for i in 1 2 3; do
	into "hog$i" "$CG/stload" taskset -c 0 "$HELPER" busy stcghog
done
into idle "$CG/stidle" "$HELPER" name stcgidle

in_cgroups() {
	[ "$(wc -l <"$CG/stload/cgroup.procs")" -eq 3 ] &&
		[ "$(wc -l <"$CG/stidle/cgroup.procs")" -eq 1 ]
}
wait_for -t 10 in_cgroups

TTY_READY=' PATH$'
tty_start --cgroups -d 0.5
tty_wait '\[cgroups: [0-9]+\]' 5 || tty_fail "--cgroups did not start in the cgroup view"
tty_keys g
tty_wait ' PID USER' 5 || tty_fail "g did not show the processes"
tty_keys g
tty_wait ' PATH$' 5 || tty_fail "g did not show the cgroups"

# The line numbers of our two cgroups and the loaded one's CPU.P% cell.
ranked() {
	tty_screen >"$TMP/screen"
	awk -v me="$NAME" '
		/ PATH$/ { for (i = 1; i <= NF; i++) col[$i] = i; seen = 1; next }
		!seen { next }
		$NF == me { inme = 1 }
		inme && $NF == "stload" { load = NR; p = $col["CPU.P%"] }
		inme && $NF == "stidle" { idle = NR }
		END {
			if (!load || !idle) exit 1
			if (load >= idle) exit 1
			if (p == "-" || p + 0 <= 0) exit 1
		}' "$TMP/screen"
}
tty_until 20 ranked ||
	tty_fail "stload is not above stidle with cpu pressure ($CG)"
grep -E " $NAME\$" "$TMP/screen" >/dev/null ||
	tty_fail "the parent cgroup $NAME is not in the tree"
tty_quit_and_check
