#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The cgroup view of a committed recording: --cgroups starts in it; the
# tree puts each cgroup below its parent with the siblings in the order
# of the sort key and the recorded figures; Left and Right fold and
# unfold; Enter shows the processes of one cgroup and Esc goes back; t
# moves to the next sample's figures; clicks sort and select; g switches
# to the processes and back.
. "$top_srcdir/tests/tty/tty-lib.sh"
need_cmd jq date

FIX=$REC_DEMO
ROOT=$(rec_jq "$FIX" 1 '.cgroups | map(.path) | min_by(length)')
TTY_ENV="TZ=UTC"
TTY_READY=$TTY_CGHEAD

# The NAME cells of the tree (below its header), one line, "|" between.
tree() {
	tty_screen | awk '
		$0 ~ ENVIRON["TTY_CGHEAD"] { x = index($0, "NAME"); seen = 1; next }
		seen && length($0) >= x {
			cell = substr($0, x); sub(/ +$/, "", cell)
			if (cell == "") exit
			out = out (out == "" ? "" : "|") cell
		}
		seen && length($0) < x { exit }
		END { print out }'
}

# The tree sample K should show, sorted by jq expression KEY (descending):
# the root unfolded ("- "), below it its children, all leaves, indented
# by two and without a mark.
expected_tree() {
	rec_jq "$FIX" "$1" "
		[.cgroups[] | select(.path != \"$ROOT\")] | sort_by(-($2), .path)
		| \"- $ROOT\" + (map(\"|    \" + (.path | split(\"/\") | last))
				| add)"
}

tree_is() {
	[ "$(tree)" = "$1" ]
}

# The cell of column HEADER ($1) on the line of the cgroup named $2.
cell() {
	tty_screen | awk -v h="$1" -v n="$2" '
		$0 ~ ENVIRON["TTY_CGHEAD"] { for (i = 1; i <= NF; i++) col[$i] = i; next }
		$NF == n { print $col[h]; exit }'
}

tty_start -d 600 --replay "$FIX" --cgroups
tty_wait "REPLAY 1/5 .*\\[cgroups: 4\\]" 5 ||
	tty_fail "--cgroups did not start in the cgroup view"

want=$(expected_tree 1 .total_pct)
tty_until 5 tree_is "$want" || tty_fail "tree: wanted '$want', got '$(tree)'"
load=$(rec_jq "$FIX" 1 \
	".cgroups[] | select(.path == \"$ROOT/load\") | .psi.cpu.some.pct")
shows_figure "$(cell CPU.P% load)" "$load" ||
	tty_fail "cpu pressure of load: wanted $load, got $(cell CPU.P% load)"
nr=$(rec_jq "$FIX" 1 ".cgroups[] | select(.path == \"$ROOT/load\") | .nr_tasks")
[ "$(cell NR load)" = "$nr" ] || tty_fail "NR of load: wanted $nr"

# r reverses the siblings; the root stays on top
tty_keys r
want_r=$(expected_tree 1 '-.total_pct')
tty_until 5 tree_is "$want_r" ||
	tty_fail "reversed: wanted '$want_r', got '$(tree)'"
tty_keys r
tty_until 5 tree_is "$want" || tty_fail "r twice did not restore the order"

# Left folds the root, Right unfolds it
tty_keys Left
tty_until 5 tree_is "+ $ROOT" || tty_fail "Left did not fold: '$(tree)'"
tty_keys Right
tty_until 5 tree_is "$want" || tty_fail "Right did not unfold: '$(tree)'"

# Enter on load: its processes, exactly
pids=$(rec_jq "$FIX" 1 ".tasks[] | select(.cgroup == \"$ROOT/load\") | .pid" |
	sort -n | tr '\n' ' ')
tty_keys / ; tty_keys -l load ; tty_keys Enter
tty_wait "at $ROOT/load" 5 || tty_fail "/ did not find load"
tty_keys Enter
tty_wait "cgroup $ROOT/load" 5 || tty_fail "Enter did not zoom into load"
tty_wait ' PID ' 5 || tty_fail "no process table after Enter"
zoomed() {
	[ "$(tty_rows | awk '{ print $1 }' | sort -n | tr '\n' ' ')" = "$pids" ]
}
tty_until 5 zoomed || tty_fail "processes of load: wanted $pids, got $(tty_pids)"
# Esc: back to the tree, still on load
tty_keys Escape
tty_wait "at $ROOT/load" 5 || tty_fail "Esc did not go back to the cgroups"
tty_until 5 tree_is "$want" || tty_fail "the tree changed after Esc"

# t: the next sample's figures
tty_keys t
tty_wait "REPLAY 2/5 " 5 || tty_fail "t did not step"
load2=$(rec_jq "$FIX" 2 \
	".cgroups[] | select(.path == \"$ROOT/load\") | .total_pct")
load_total() { shows_figure "$(cell TOTAL load)" "$load2"; }
tty_until 5 load_total ||
	tty_fail "TOTAL of load in sample 2: wanted $load2, got $(cell TOTAL load)"

# the mouse: a click on a header sorts by it, a click on a line selects it
y=$(tty_screen | grep -En "$TTY_CGHEAD" | cut -d: -f1)
x=$(tty_screen | sed -n "${y}p" | awk '{ print index($0, "IO.P%") + 1 }')
[ "$x" -gt 1 ] || tty_fail "no IO.P% header"
tty_click "$x" "$y"
tty_wait 'sort IO.P%▼' 5 || tty_fail "a click on IO.P% did not sort by it"
want_io=$(expected_tree 2 .psi.io.some.pct)
tty_until 5 tree_is "$want_io" ||
	tty_fail "by io pressure: wanted '$want_io', got '$(tree)'"
yi=$(tty_screen | grep -n ' idle$' | cut -d: -f1)
tty_click 10 "$yi"
tty_wait "at $ROOT/idle" 5 || tty_fail "a click did not select idle"

# g: the processes, and back to the tree
tty_keys g
tty_wait ' PID USER' 5 || tty_fail "g did not show the processes"
tty_keys g
tty_wait "$TTY_CGHEAD" 5 || tty_fail "g did not come back to the cgroups"
tty_quit_and_check
