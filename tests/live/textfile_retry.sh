#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --textfile when its file cannot be written for a while: the directory
# it is in is moved away (each write fails: no such directory), then put
# back. stalltop goes on sampling and recording meanwhile, says so once
# on stderr (not at each of the samples missed), and writes the file
# again at the next sample once it can, saying that too; it then ends on
# SIGTERM with status 0. Every wait is bounded.
. "$top_srcdir/tests/lib/functions.sh"
live_init

mkdir "$TMP/tf"
bg_start st "$STALLTOP" --textfile "$TMP/tf/stalltop.prom" -d 0.2 \
	--record "$TMP/rec.stk"
st=$BG_PID
wait_for -t 10 test -s "$TMP/tf/stalltop.prom"

mv "$TMP/tf" "$TMP/tf.away"
told() { grep -c "cannot create a temporary file beside" "$TMP/st.err"; }
wait_for -t 10 has_line "$TMP/st.err" "cannot create a temporary file beside"
# at least 5 more samples (1 s at -d 0.2) go by without the file: the
# recording grows meanwhile
n0=$(stk_samples "$TMP/rec.stk")
grown() { [ "$(stk_samples "$TMP/rec.stk")" -ge $((n0 + 5)) ]; }
wait_for -t 20 grown
running "$st" || fail "stalltop ended when the textfile could not be written: $(cat "$TMP/st.err")"
[ "$(told)" = 1 ] ||
	fail "the failure was said $(told) times over $((n0 + 5)) samples, not once: $(head -c 600 "$TMP/st.err")"
[ -e "$TMP/tf/stalltop.prom" ] && fail "a textfile appeared in a directory that is not there"

mv "$TMP/tf.away" "$TMP/tf"
rm -f "$TMP/tf/stalltop.prom"
wait_for -t 10 test -s "$TMP/tf/stalltop.prom"
wait_for -t 10 has_line "$TMP/st.err" "written again"
grep -q '^stalltop_' "$TMP/tf/stalltop.prom" ||
	fail "the textfile written again holds no metrics: $(head -c 300 "$TMP/tf/stalltop.prom")"
bg_stop "$st" || fail "stalltop ended with status $? on SIGTERM: $(cat "$TMP/st.err")"
[ "$(wc -l <"$TMP/st.err")" = 2 ] ||
	fail "stalltop said more than the failure and its end: $(head -c 600 "$TMP/st.err")"
exit 0
