#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The screen never shows the kernel's impossible figures: rmdir on Linux
# 6.18 reports one block-IO wait as long as the machine's uptime. Sorted
# by IO, with exited tasks kept (-a), rmdir rows show ! in the IO column
# (not a number, not at the top), the header counts the drops, and no
# rmdir row shows more than 100 % in any column (one thread living a few
# milliseconds). See tests/live/impossible.sh for the batch outputs.
. "$top_srcdir/tests/tty/tty-lib.sh"
live_init

cat >"$TMP/churn.sh" <<CHURN
i=0
while [ \$i -lt 400 ]; do mkdir '$TMP/d'\$i && rmdir '$TMP/d'\$i; i=\$((i + 1)); done
CHURN

tty_start -a -d 0.5
tty_filter rmdir
tty_keys I
tty_wait 'sort IO' 5 || tty_fail "I did not sort by IO"
# a batch stalltop beside it tells when the kernel has produced one (not
# every rmdir meets it): up to 5 rounds of 400
start_stalltop st -d 0.5
rmdir_dropped() {
	jq -e -n 'any(inputs; any((.tasks + .exited)[];
	    .comm == "rmdir" and (.dropped | index("io"))))' "$TMP/st.out" \
		>/dev/null 2>&1
}
round=0
until rmdir_dropped; do
	[ $round -lt 5 ] || break
	sh "$TMP/churn.sh" || tty_fail "mkdir/rmdir failed"
	wait_more_lines "$TMP/st.out" 2
	round=$((round + 1))
done
stop_stalltop st "$ST_PID"
rmdir_dropped ||
	skip "this kernel reported no impossible IO wait in $((round * 400)) rmdirs"

# a dropped figure sorts below every number: look at the end of the list
marked() {
	tty_keys End
	tty_rows | awk '$NF == "rmdir" && $6 == "!" { found = 1 } END { exit !found }'
}
tty_until 20 marked || tty_fail "no rmdir row shows ! in the IO column"
tty_wait 'impossible figures? dropped \(!\)' 5 ||
	tty_fail "the header does not count the dropped figures"
tty_rows | awk '$NF == "rmdir" {
		for (i = 4; i < NF; i++)
			if ($i != "!" && $i != "-" && $i + 0 > 100) { print; bad = 1 }
	}
	END { exit bad }' >"$TMP/bad" || tty_fail "rmdir rows above 100 %: $(cat "$TMP/bad")"
tty_quit_and_check
