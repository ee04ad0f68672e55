#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Left and Right scroll the command lines: the end of a long one comes
# into view (and its heading says from which cell), Left goes back to
# its start; in the cgroup view the same keys fold and unfold.
. "$top_srcdir/tests/tty/tty-lib.sh"

# a command line of about 700 cells that ends in a word of its own, and
# starts with a short word of its own too (argv[0]), whatever the length
# of the build directory's path
args=$(i=0; while [ $i -lt 100 ]; do printf 'arg%03d ' $i; i=$((i + 1)); done)
bg_start long bash -c 'exec -a sthscroll "$@"' sh "$HELPER" name sthscroll $args sthscrollend
TTY_ENV=NO_COLOR=1
tty_start -d 1 -c
tty_filter sthscroll
shown() { tty_rows | grep -q "$1"; }
tty_until 10 shown "sthscroll name sthscroll arg000" ||
	tty_fail "the start of the command line is not shown"
shown sthscrollend && tty_fail "the end shows before any scrolling"

# the cell the lines are shown from, as the heading says (empty: 1)
from() {
	tty_screen | sed -n 's/^ *PID USER.*COMMAND LINE from cell \([0-9]*\).*/\1/p'
}
moved() { [ "$(from)" != "$1" ]; }
# KEY: press it and wait for the heading to change
scroll() {
	was=$(from)
	tty_keys "$1"
	tty_until 5 moved "$was" || tty_fail "$1 did not scroll (from cell '$was')"
}

# Right until the end is in view (a bound: 700 cells at 16 a key)
n=0
while ! shown sthscrollend; do
	[ "$n" -lt 60 ] || tty_fail "60 times Right did not bring the end into view"
	scroll Right
	n=$((n + 1))
done
tty_screen | grep -Eq '^ +PID USER .*COMMAND LINE from cell [0-9]+' ||
	tty_fail "the heading does not say the lines are scrolled"
shown "sthscroll name sthscroll arg000" && tty_fail "the start is still shown at the end"
# further Right stops where the end is in view
last=$(from)
tty_keys Right Right
tty_keys C-l
tty_wait_next_sample
[ "$(from)" = "$last" ] || tty_fail "Right went on from cell $last to $(from) past the end"
shown sthscrollend || tty_fail "the end went out of view"

# Left all the way back: as many as it took Right, the last one to cell 1
while [ -n "$(from)" ]; do
	[ "$n" -gt 0 ] || tty_fail "as many Left as Right did not come back to the start"
	scroll Left
	n=$((n - 1))
done
tty_screen | grep -Eq '^ +PID USER .* COMMAND LINE *$' ||
	tty_fail "the heading still says the lines are scrolled"
shown "sthscroll name sthscroll arg000" || tty_fail "back at cell 1, the start is not shown"
tty_quit_and_check
