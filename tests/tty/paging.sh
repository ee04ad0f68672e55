#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The paging keys the help lists (PgDn, PgUp, Home, End) move the
# selection by a page: the rows the table shows less one (the row the
# selection leaves stays in view), the view following it.
#
# 40 sleeping processes of the test (stallhelper name stpageNN), the only
# rows (-p), sorted by pid, in a window of 20 lines: more rows than fit.
# H, the rows a page shows, is counted on the screen; the order of the
# rows is their pids ascending. From the first row selected:
#   PgDn  selected row H-1 (0-based), the first shown row 0
#   PgDn  selected 2(H-1), first shown H-1 (the selection at the bottom)
#   PgUp  selected H-1, first shown H-1 (the view stays while the
#         selection is in it)
#   End   selected the last, first shown n-H
#   PgDn  nothing moves (the end)
#   Home  selected the first, first shown the first
#   PgUp  nothing moves (the top)
# Each state is waited for (bounded) and must then hold on a new sample.
. "$top_srcdir/tests/tty/tty-lib.sh"

N=40
pids=
i=0
while [ "$i" -lt "$N" ]; do
	bg_start "page$i" "$HELPER" name "$(printf 'stpage%02d' "$i")"
	pids="$pids,$BG_PID"
	i=$((i + 1))
done
pids=${pids#,}
# every one has its name (the helper named itself) before stalltop starts
named() {
	for _p in $(echo "$pids" | tr ',' ' '); do
		grep -q '^stpage' "/proc/$_p/comm" 2>/dev/null || return 1
	done
}
wait_for named
echo "$pids" | tr ',' '\n' | sort -n >"$TMP/order"

TTY_ENV=NO_COLOR=1
tty_start -p "$pids" -s pid
T resize-window -x 160 -y 20
tty_wait_next_sample

# in monochrome the selection bar is reverse video (SGR 7); tmux's
# capture writes only the changes of the attributes, from cell to cell
# across the lines, so they are followed from the top of the screen
esc=$(printf '\033')
# "PID selected?" of each table row on screen, top down
rows_sel() {
	T capture-pane -p -e | awk -v esc="$esc" '
		{
			line = $0; plain = $0; first = -1
			gsub(esc "\\[[0-9;]*m", "", plain)
			while (line != "") {
				if (match(line, "^" esc "\\[[0-9;]*m")) {
					n = split(substr(line, 3, RLENGTH - 3), a, ";")
					if (n == 0)
						rev = 0
					for (j = 1; j <= n; j++) {
						if (a[j] == 38 || a[j] == 48)
							j += a[j + 1] == 5 ? 2 : 4
						else if (a[j] == "" || a[j] == 0 || a[j] == 27)
							rev = 0
						else if (a[j] == 7)
							rev = 1
					}
					line = substr(line, RLENGTH + 1)
					continue
				}
				if (first < 0)
					first = rev
				k = index(line, esc)
				if (k == 0)
					break
				line = substr(line, k)
			}
			if (first < 0)
				first = rev
		}
		seen && plain ~ /^ *[0-9]+ / { split(plain, f, " "); print f[1], first }
		plain ~ /^ +PID USER/ { seen = 1 }'
}
rows_sel >"$TMP/rows"
H=$(wc -l <"$TMP/rows")
[ "$H" -ge 5 ] && [ "$H" -lt "$N" ] ||
	tty_fail "the table shows $H rows of $N: not a window of pages"
# the rows shown are the first H of the order: pids ascending
head -n "$H" "$TMP/order" >"$TMP/first"
awk '{ print $1 }' "$TMP/rows" | cmp -s - "$TMP/first" ||
	tty_fail "the rows are not the test's pids in order: $(awk '{ print $1 }' "$TMP/rows" | tr '\n' ' ')"
note "a page shows $H rows of $N"

# nth K: the pid of row K (0-based) of the order
nth() {
	sed -n "$(($1 + 1))p" "$TMP/order"
}
# at TOP SEL: the first row shown is TOP's, the one selected SEL's (and
# only that one), H rows shown
at() {
	rows_sel >"$TMP/now"
	[ "$(wc -l <"$TMP/now")" = "$H" ] &&
		[ "$(head -n 1 "$TMP/now" | cut -d' ' -f1)" = "$(nth "$1")" ] &&
		[ "$(awk '$2 == 1' "$TMP/now" | wc -l)" = 1 ] &&
		[ "$(awk '$2 == 1 { print $1 }' "$TMP/now")" = "$(nth "$2")" ]
}
# expect KEY TOP SEL: after KEY, at TOP SEL, and still on a new sample
expect_page() {
	tty_keys "$1"
	tty_until 5 at "$2" "$3" ||
		tty_fail "after $1: first row $(head -n 1 "$TMP/now" | cut -d' ' -f1), selected $(awk '$2 == 1 { print $1 }' "$TMP/now" | tr '\n' ' ')($(wc -l <"$TMP/now") rows); expected first $(nth "$2") (row $2), selected $(nth "$3") (row $3)"
	tty_wait_next_sample
	at "$2" "$3" ||
		tty_fail "after $1, a sample later: first row $(head -n 1 "$TMP/now" | cut -d' ' -f1), selected $(awk '$2 == 1 { print $1 }' "$TMP/now" | tr '\n' ' '); expected $(nth "$2"), $(nth "$3")"
}

P=$((H - 1))
expect_page Home 0 0
expect_page NPage 0 "$P"
expect_page NPage "$P" $((2 * P))
expect_page PPage "$P" "$P"
expect_page End $((N - H)) $((N - 1))
expect_page NPage $((N - H)) $((N - 1))
expect_page Home 0 0
expect_page PPage 0 0
tty_quit_and_check
