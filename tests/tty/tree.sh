#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# F5 shows processes under their parents: a child the helper's parent
# spawned comes right below it with htop's connector (UTF-8, and ASCII
# in the C locale), though the PID order put it above; F5 again gives
# the list back; W saves it (tree=1), and a restart shows the tree.
. "$top_srcdir/tests/tty/tty-lib.sh"

# a parent (the sh that execs into the helper) with two children
bg_start family sh -c "'$HELPER' name sttreekid1 & '$HELPER' name sttreekid2 & exec '$HELPER' name sttreeparent"
parent=$BG_PID

tty_start
tty_filter sttree
# largest pid first: the children (forked later) above their parent
tty_keys N
order_is() {
	[ "$(tty_rows | awk '{ print $NF }' | tr '\n' ' ')" = "$1" ]
}
flat_kids_first() {
	rows=$(tty_rows | awk '{ print $NF }' | tr '\n' ' ')
	case $rows in
	sttreekid*sttreekid*sttreeparent*) return 0 ;;
	esac
	return 1
}
if ! tty_until 5 flat_kids_first; then
	tty_keys r
	tty_until 10 flat_kids_first || tty_fail "the PID order does not put the children first"
fi

tty_keys F5
tty_wait 'processes under their parents' 5 || tty_fail "F5 did not say it shows the tree"
tree_shown() {
	rows=$(tty_rows)
	echo "$rows" | sed -n 1p | grep -Eq "^ *$parent .* sttreeparent *\$" &&
		echo "$rows" | sed -n 2p | grep -Eq ' ├─ sttreekid[12] *$' &&
		echo "$rows" | sed -n 3p | grep -Eq ' └─ sttreekid[12] *$'
}
tty_until 10 tree_shown || tty_fail "the children are not drawn under their parent $parent"
# siblings in the sort order (pid descending here): the larger pid first
kid_pids=$(tty_rows | sed -n '2,3p' | awk '{ print $1 }' | tr '\n' ' ')
set -- $kid_pids
[ "$1" -gt "$2" ] || tty_fail "siblings not in the sort order: $kid_pids"

tty_keys F5
tty_wait 'processes as a list' 5 || tty_fail "F5 again did not leave the tree"
tty_until 10 flat_kids_first || tty_fail "F5 again did not give the list back"
tty_quit_and_check

# ASCII connectors where the terminal is not UTF-8
tty_restart
TTY_ENV="LANG=C LC_ALL=C"
tty_start
tty_filter sttree
tty_keys F5
ascii_tree() {
	tty_rows | grep -Eq ' `- sttreekid[12] *$' &&
		tty_rows | grep -Eq ' \|- sttreekid[12] *$'
}
tty_until 10 ascii_tree || tty_fail "no ASCII connectors in the C locale"

# W saves the tree with the other settings: it is there after a restart
tty_keys W
tty_wait 'settings saved to' 5 || tty_fail "W did not save the settings"
grep -qx 'tree=1' "$TMP/config/stalltop/stalltoprc" ||
	tty_fail "the settings file lacks tree=1: $(cat "$TMP/config/stalltop/stalltoprc")"
tty_quit_and_check
tty_restart
tty_start
tty_filter sttree
tty_until 10 ascii_tree || tty_fail "the tree saved with W is not there after a restart"
tty_quit_and_check
