#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A FIFO where the settings file should be never holds the start: the
# metrics (batch OpenMetrics, which reads the file's group rules after
# SIGTERM is taken through the event loop) come out with one message that
# names the FIFO and says the defaults apply, and SIGTERM then ends
# stalltop within half a second, status 0. So does a SIGTERM sent while
# it is still starting. Nobody ever writes to the FIFO.
#
# The time is measured from the kill to the process gone, looked at every
# 20 ms (ps: a few ms each here), so it reads up to about 30 ms late;
# measured here over four runs on a loaded machine: 14-176 ms after the
# first sample, 36-98 ms during the start.
# The bound is the project's half second, not widened.
. "$top_srcdir/tests/lib/functions.sh"
live_lock
need_cmd setsid mkfifo
export LC_ALL=C   # the English messages

BOUND_MS=500
mkdir -p "$TMP/config/stalltop"
mkfifo "$TMP/config/stalltop/stalltoprc" || hard_error "cannot make a FIFO"

# sigterm_ms PID: SIGTERM, then the milliseconds until PID is gone (or
# more than BOUND_MS + 1000 when it is not by then).
sigterm_ms() {
	_t0=$(now_ms)
	kill -s TERM "$1"
	while running "$1" && [ $(($(now_ms) - _t0)) -le $((BOUND_MS + 1000)) ]; do
		sleep 0.02
	done
	echo $(($(now_ms) - _t0))
}

has_sample() { has_line "$TMP/st.out" '^# EOF'; }

# started: a FIFO that would have blocked it must not; after the first
# sample (or 10 s of waiting for it), SIGTERM
bg_start st env XDG_CONFIG_HOME="$TMP/config" "$STALLTOP" -b \
	--format openmetrics -d 0.5
pid=$BG_PID
deadline=$(($(now_ms) + 10000))
until has_sample || [ "$(now_ms)" -ge "$deadline" ]; do
	sleep 0.02
done
started=yes
has_sample || started=no
ms=$(sigterm_ms "$pid")
if running "$pid"; then
	bg_kill "$pid"
	fail "a FIFO as the settings file: first sample: $started; SIGTERM did not end stalltop within $ms ms"
fi
wait "$pid"
rc=$?
_bg_forget "$pid"
[ "$started" = yes ] ||
	fail "a FIFO as the settings file held the start (no sample in 10 s; SIGTERM ended it after $ms ms)"
[ "$ms" -le "$BOUND_MS" ] ||
	fail "SIGTERM ended stalltop after $ms ms, more than $BOUND_MS"
[ "$rc" = 0 ] || fail "SIGTERM: status $rc, expected 0: $(cat "$TMP/st.err")"
[ "$(grep -c . "$TMP/st.err")" = 1 ] ||
	fail "expected one message, got: $(cat "$TMP/st.err")"
grep -q 'stalltoprc: a FIFO, not a regular file, so it is not read and the defaults apply' \
	"$TMP/st.err" || fail "no message about the FIFO: $(cat "$TMP/st.err")"
note "after the first sample: SIGTERM ended it in $ms ms"

# starting: SIGTERM as soon as the process is there
bg_start st2 env XDG_CONFIG_HOME="$TMP/config" "$STALLTOP" -b \
	--format openmetrics -d 0.5
pid=$BG_PID
ms=$(sigterm_ms "$pid")
if running "$pid"; then
	bg_kill "$pid"
	fail "SIGTERM during the start did not end stalltop within $ms ms"
fi
wait "$pid"
_bg_forget "$pid"
[ "$ms" -le "$BOUND_MS" ] ||
	fail "SIGTERM during the start ended stalltop after $ms ms, more than $BOUND_MS"
note "during the start: SIGTERM ended it in $ms ms"
