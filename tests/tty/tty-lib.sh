# SPDX-License-Identifier: GPL-2.0-or-later
# Helpers for the terminal tests, on top of tests/lib/functions.sh: run
# the real stalltop in a private tmux server, type at it, and wait (with a
# bound) for what the screen shows.
#
#   . "$top_srcdir/tests/tty/tty-lib.sh"

. "$top_srcdir/tests/lib/functions.sh"
# Terminal tests fork and load the CPU like the live tests: one at a time.
live_lock

need_cmd tmux
HELPER=$top_builddir/tests/tty/stallhelper
[ -x "$HELPER" ] || hard_error "no workload helper at $HELPER"
TTY_TIMEOUT=15
# The cgroup view's line of column names (an ERE; awk reads it as
# ENVIRON["TTY_CGHEAD"]): it ends in NAME, and in "(+N hidden)" when a
# column does not fit, as when figures grow wide on a busy machine
TTY_CGHEAD=' NAME( \(\+[0-9]+ hidden\))?$'
export TTY_CGHEAD

TTY_SOCK=stalltop-test-$$
TTY_SOCKS=$TTY_SOCK

# Every tmux server goes with the test, and its socket file (which a
# killed server leaves behind), then functions.sh cleans up.
_tty_cleanup() {
	_tty_status=$?
	for _s in $TTY_SOCKS; do
		tmux -L "$_s" kill-server 2>/dev/null
		rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$_s"
	done
	(exit "$_tty_status")
	_cleanup
}
trap _tty_cleanup EXIT

T() {
	tmux -L "$TTY_SOCK" -f /dev/null "$@"
}

tty_fail() {
	echo "--- screen ---" >&2
	tty_screen >&2 2>/dev/null
	echo "--------------" >&2
	if [ -e "$TMP/exit" ]; then
		echo "stalltop exited with $(cat "$TMP/exit"):" >&2
		cat "$TMP/stderr" >&2
	fi
	fail "$*"
}

# Run stalltop ARGS... in a 160x50 tmux window with its settings file in
# $TMP; $TTY_ENV adds environment. The wrapper records the terminal modes
# before and after, and the exit code; then it says STALLTOP-EXITED.
# Returns once the table ($TTY_READY, default the PID header) and a
# sample are on the screen.
tty_start() {
	tty_launch "$@"
	tty_wait "${TTY_READY:- PID }" || tty_fail "stalltop did not draw its table"
	tty_wait_sample
}

# tty_launch ARGS...: the same, returning at once (for a stalltop that
# is to refuse, or that is signalled before it draws).
tty_launch() {
	mkdir -p "$TMP/config"
	rm -f "$TMP/exit" "$TMP/stty.before" "$TMP/stty.after"
	# (a handler, not SIG_IGN: Ctrl-C must reach stalltop, not end the pane)
	cat >"$TMP/run.sh" <<EOF
trap : INT
stty -g > '$TMP/stty.before'
env XDG_CONFIG_HOME='$TMP/config' LANG=C.UTF-8 LC_ALL=C.UTF-8 ${TTY_ENV:-} \
	'$STALLTOP' $* 2> '$TMP/stderr'
echo \$? > '$TMP/exit'
stty -g > '$TMP/stty.after'
echo STALLTOP-EXITED
exec sleep 600
EOF
	T new-session -d -x 160 -y 50 "sh '$TMP/run.sh'" ||
		hard_error "tmux cannot start a session"
}

# The pid of the stalltop the pane runs (empty when there is none).
tty_pid() {
	pgrep -P "$(T display -p '#{pane_pid}')" -x stalltop
}

# End this tmux server; the next tty_start gets a fresh one.
tty_restart() {
	T kill-server 2>/dev/null
	TTY_SOCK=stalltop-test-$$-$(echo "$TTY_SOCKS" | wc -w)
	TTY_SOCKS="$TTY_SOCKS $TTY_SOCK"
}

# Wait for a sample on screen (the clock replaces --:--:--).
tty_wait_sample() {
	tty_wait '^ stalltop [0-9]{2}:[0-9]{2}:[0-9]{2} ' ||
		tty_fail "no sample on the screen"
}

# tty_wait_next_sample [N]: until N (default 1) more samples have been
# drawn since the call: the header's clock (whole seconds, the sample's
# time) moves on N times, so at least N later samples are on the screen.
# Right after a resize the pane may show what was drawn for the old size
# (the header scrolled off) until stalltop redraws: the clock is waited
# for too.
tty_wait_next_sample() {
	_tty_n=${1:-1}
	while [ "$_tty_n" -gt 0 ]; do
		tty_until "$TTY_TIMEOUT" _tty_clock_read ||
			tty_fail "no sample clock on the screen"
		tty_until "$TTY_TIMEOUT" _tty_clock_moved ||
			tty_fail "no new sample: the clock stays at $_tty_clock"
		_tty_n=$((_tty_n - 1))
	done
}
_tty_clock_read() {
	_tty_clock=$(tty_clock)
	[ -n "$_tty_clock" ]
}
tty_clock() {
	tty_screen | sed -n '1s/^ stalltop \([0-9][0-9]:[0-9][0-9]:[0-9][0-9]\) .*/\1/p'
}
_tty_clock_moved() {
	_tty_now=$(tty_clock)
	[ -n "$_tty_now" ] && [ "$_tty_now" != "$_tty_clock" ]
}

# The screen as text: the pane, or while TTY_SNAP names a file (see
# tty_steady) that one capture of it.
tty_screen() {
	if [ -n "${TTY_SNAP:-}" ]; then
		cat "$TTY_SNAP"
	else
		T capture-pane -p
	fi
}

tty_keys() {
	T send-keys "$@"
}

# tty_wait ERE [SECONDS]: until the screen shows ERE; 1 when it does not.
tty_wait() {
	_deadline=$(($(now_ms) + ${2:-$TTY_TIMEOUT} * 1000))
	until tty_screen | grep -Eq -- "$1"; do
		[ "$(now_ms)" -lt "$_deadline" ] || return 1
		sleep 0.1
	done
}

# tty_until SECONDS CMD [ARGS...]: until CMD succeeds; 1 when it does not.
tty_until() {
	_deadline=$(($(now_ms) + $1 * 1000))
	shift
	until "$@"; do
		[ "$(now_ms)" -lt "$_deadline" ] || return 1
		sleep 0.2
	done
}

# tty_steady N SECONDS CMD [ARGS...]: until CMD holds on N samples in a
# row, each a new one (the header's clock moved since the one before),
# CMD seeing a single capture of the screen per sample (tty_screen and
# what uses it read that capture); a sample where it does not hold starts
# the count again. 1 when that does not happen within SECONDS; TTY_RUN
# is then the longest run seen, "N of M samples".
tty_steady() {
	_tty_want=$1 _tty_in_row=0 _tty_best=0 _tty_seen=0 _tty_last=
	_tty_end=$(($(now_ms) + $2 * 1000))
	shift 2
	while :; do
		T capture-pane -p >"$TMP/tty.snap"
		_tty_c=$(sed -n '1s/^ stalltop \([0-9][0-9]:[0-9][0-9]:[0-9][0-9]\) .*/\1/p' "$TMP/tty.snap")
		if [ -n "$_tty_c" ] && [ "$_tty_c" != "$_tty_last" ]; then
			_tty_last=$_tty_c
			_tty_seen=$((_tty_seen + 1))
			TTY_SNAP="$TMP/tty.snap"
			if "$@"; then
				_tty_in_row=$((_tty_in_row + 1))
			else
				_tty_in_row=0
				cp "$TMP/tty.snap" "$TMP/tty.unlike"
			fi
			TTY_SNAP=
			[ "$_tty_in_row" -le "$_tty_best" ] || _tty_best=$_tty_in_row
			[ "$_tty_in_row" -lt "$_tty_want" ] || return 0
		fi
		if [ "$(now_ms)" -ge "$_tty_end" ]; then
			TTY_RUN="$_tty_best in a row of $_tty_seen samples"
			return 1
		fi
		sleep 0.2
	done
}

# tty_steady_fail WHAT: tty_fail after tty_steady, with the last screen
# where the order did not hold.
tty_steady_fail() {
	if [ -e "$TMP/tty.unlike" ]; then
		echo "--- the last sample that did not show it ---" >&2
		cat "$TMP/tty.unlike" >&2
	fi
	tty_fail "$* (it held on $TTY_RUN)"
}

# The workloads of the sort tests: two busy processes sharing CPU 0 at
# nice -20 (each waits half the time for it, 50 % cpu delay, whatever
# else the machine runs) and one doing synchronous direct writes on the
# last CPU (it waits for block IO about 60 % of the time here and hardly
# ever for a CPU). So the orders differ: by TOTAL the IO waiter is first,
# by CPU it is last, by IO first. Each runs in its own session, hence its
# own autogroup where the kernel has them: the busy ones' group gets
# nice -20 too, or another session's work competes with them as an
# equal. The IO waiter wakes at every write: at any nice value it then
# waits for the task running on its CPU, up to 92 % of the time measured
# here beside a busy "yes" (more than the busy ones wait, which turned
# the orders alike); as a real-time task (SCHED_FIFO) it runs at once
# (0.1 % measured beside the same "yes"). Needs live_init first.
tty_sort_workloads() {
	need_cmd taskset nice chrt
	set_io_dir
	for _i in 1 2; do
		bg_start "hog$_i" nice -n -20 taskset -c 0 "$HELPER" busy sthogcpu
		_tty_group_nice "$BG_PID"
	done
	bg_start io chrt -f 1 taskset -c $((NCPU - 1)) "$HELPER" io sthogio "$IO_DIR/io.dat"
	IO_PID=$BG_PID
}

# _tty_group_nice PID: nice -20 for the autogroup of PID's session, once
# PID leads its session (bg_start's setsid made it). Nothing where the
# kernel has no autogroups (no /proc/PID/autogroup).
_tty_group_nice() {
	[ -e "/proc/$1/autogroup" ] || return 0
	wait_for _tty_leads_session "$1"
	echo -20 >"/proc/$1/autogroup" ||
		hard_error "cannot set the nice value of the autogroup of $1"
	grep -q 'nice -20' "/proc/$1/autogroup" ||
		hard_error "the autogroup of $1 kept its nice value: $(cat "/proc/$1/autogroup")"
}
_tty_leads_session() {
	[ "$(ps -o sid= -p "$1" | tr -d ' ')" = "$1" ]
}

# Show only the rows whose name holds TEXT (the \ filter), so that what
# else the machine runs cannot outrank the test's workloads.
tty_filter() {
	tty_keys '\'
	tty_keys -l "$1"
	tty_keys Enter
	tty_wait "filter \"$1\"" 5 || tty_fail "the filter did not take"
}

# The table rows (the lines below the column headers).
tty_rows() {
	tty_screen | awk 'seen && /^ *[0-9]+ / { print } /^ +PID USER/ { seen = 1 }'
}

tty_first_row() {
	tty_rows | head -n 1
}

# tty_sorted_by COLUMN: the table rows are in the order of COLUMN (its
# header, e.g. CPU or IO), largest first, as the screen prints the
# figures; absent ones (- or !) last. Only for the columns before WHY and
# COMMAND, whose cells may hold spaces. False otherwise, and TTY_WHY says
# what is out of order.
tty_sorted_by() {
	TTY_WHY=$(tty_screen | awk -v col="$1" '
		!seen && /^ +PID USER/ {
			for (i = 1; i <= NF; i++) if ($i == col) c = i
			seen = 1; next
		}
		seen && c && /^ *[0-9]+ / {
			v = $c
			if (v !~ /^[0-9]+(\.[0-9]+)?$/) { absent = 1; next }
			if (absent) { print "pid " $1 ": " col " " v " after an absent figure"; exit }
			if (n++ && v + 0 > last + 0) { print "pid " $1 ": " col " " v " below " last; exit }
			last = v
		}
		END { if (!c) print "no column " col }')
	[ -z "$TTY_WHY" ]
}

# Quit with q and check the terminal came back as it was.
tty_quit_and_check() {
	tty_keys q
	tty_wait STALLTOP-EXITED 5 || tty_fail "q did not end stalltop"
	tty_check_restored 0
}

# The exit code, the terminal modes, the main screen and the cursor.
tty_check_restored() {
	_code=$(cat "$TMP/exit")
	[ "$_code" = "$1" ] ||
		tty_fail "exit code $_code, expected $1: $(cat "$TMP/stderr")"
	cmp -s "$TMP/stty.before" "$TMP/stty.after" ||
		tty_fail "terminal modes not restored"
	[ "$(T display -p '#{alternate_on}')" = 0 ] ||
		tty_fail "still on the alternate screen"
	[ "$(T display -p '#{cursor_flag}')" = 1 ] ||
		tty_fail "cursor left hidden"
}

# --- recordings ---

# The recording the replay tests show (tests/fixtures/recordings/README).
REC_DEMO=$top_srcdir/tests/fixtures/recordings/demo.ndjson

# rec_jq FILE K FILTER: FILTER applied to the K-th sample (from 1) of a
# recording, raw output.
rec_jq() {
	jq -r -s --argjson k "$2" \
		"[.[] | select(has(\"time\"))][\$k - 1] | $3" "$1" ||
		hard_error "jq cannot read $1"
}

# shows_figure SHOWN VALUE: SHOWN is how the screen prints VALUE, a
# figure as the JSON gives it, to one decimal. The JSON rounds to three
# decimals, so the figure itself lies within 0.0005 of VALUE; rounding
# VALUE again to one decimal (printf) can go the other way than the
# screen's one rounding of the figure where VALUE ends in 5 at its second
# decimal (100.15 from 100.1496: the screen's 100.1, printf's 100.2).
# So SHOWN must be a one-decimal number within 0.05 + 0.0005 of VALUE:
# the one rounding, or at that edge either neighbour, never further.
shows_figure() {
	awk -v s="$1" -v v="$2" 'BEGIN {
		if (s !~ /^-?[0-9]+\.[0-9]$/ || v !~ /^-?[0-9]+(\.[0-9]+)?$/)
			exit 1
		d = s - v
		exit !(d <= 0.0505 + 1e-9 && d >= -0.0505 - 1e-9)
	}'
}

# rec_clock FILE K: the K-th sample's time as the header shows it (UTC).
rec_clock() {
	date -u -d "@$(rec_jq "$1" "$2" .time)" +%H:%M:%S
}

# The first column of the table rows (pids), one line.
tty_pids() {
	tty_rows | awk '{ print $1 }' | tr '\n' ' '
}

# tty_click X Y: a press and release of button 1 at a 1-based screen cell
# (xterm mouse reports).
tty_click() {
	_pos=$(printf '%b%b' "\\$(printf '%03o' $((32 + $1)))" \
		"\\$(printf '%03o' $((32 + $2)))")
	tty_keys -l "$(printf '\033[M ')$_pos$(printf '\033[M#')$_pos"
}
