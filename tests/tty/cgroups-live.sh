#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Two cgroups of our own under the v2 hierarchy: three busy processes
# sharing CPU 0 in one, a sleeping one in the other. The cgroup view
# (stalltop --cgroups starts in it; g leaves and comes back) ranks the
# loaded cgroup above the idle one, with cpu pressure of its own.
. "$top_srcdir/tests/tty/tty-lib.sh"
live_init
need_cmd findmnt taskset

cg_root
[ -e "$V2/cpu.pressure" ] || skip "no per-cgroup PSI here ($V2/cpu.pressure)"

NAME=stalltop-test-$$
CG=$V2/$NAME
cg_make "$CG" "$CG/stload" "$CG/stidle"


for i in 1 2 3; do
	bg_start_in "hog$i" "$CG/stload" taskset -c 0 "$HELPER" busy stcghog
done
bg_start_in idle "$CG/stidle" "$HELPER" name stcgidle

in_cgroups() {
	[ "$(wc -l <"$CG/stload/cgroup.procs")" -eq 3 ] &&
		[ "$(wc -l <"$CG/stidle/cgroup.procs")" -eq 1 ]
}
wait_for -t 10 in_cgroups

# the tree of names ends the header (and says how many columns did not fit)
TTY_READY=$TTY_CGHEAD
tty_start --cgroups -d 0.5
tty_wait '\[cgroups: [0-9]+\]' 5 || tty_fail "--cgroups did not start in the cgroup view"
tty_keys g
tty_wait ' PID USER' 5 || tty_fail "g did not show the processes"
tty_keys g
tty_wait "$TTY_READY" 5 || tty_fail "g did not show the cgroups"

# The line numbers of our two cgroups and the loaded one's CPU.P% cell.
ranked() {
	tty_screen >"$TMP/screen"
	awk -v me="$NAME" '
		/ NAME( |$)/ { for (i = 1; i <= NF; i++) col[$i] = i; seen = 1; next }
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
