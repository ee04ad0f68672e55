# SPDX-License-Identifier: GPL-2.0-or-later
# Helpers for the terminal tests: run the real stalltop in a private tmux
# server, type at it, and wait (with a bound) for what the screen shows.
# Sourced by tests/tty/*.sh; exit 77 = skip, 1 = failure.

: "${top_builddir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${STALLTOP:=$top_builddir/src/stalltop}"
HELPER=$top_builddir/tests/tty/stallhelper
TTY_TIMEOUT=${TTY_TIMEOUT:-15}
TTY_NAME=$(basename "$0" .sh)

tty_skip() {
	echo "SKIP: $TTY_NAME: $*"
	exit 77
}

tty_fail() {
	echo "FAIL: $TTY_NAME: $*"
	echo "--- screen ---"
	tty_screen 2>/dev/null
	echo "--------------"
	exit 1
}

tty_need_root() {
	[ "$(id -u)" = 0 ] || tty_skip "needs root (taskstats needs CAP_NET_ADMIN)"
}

command -v tmux >/dev/null 2>&1 || tty_skip "tmux is not installed"
[ -x "$STALLTOP" ] || tty_fail "no stalltop at $STALLTOP"
[ -x "$HELPER" ] || tty_fail "no workload helper at $HELPER"

TTY_SOCK=stalltop-test-$$
TTY_SOCKS=$TTY_SOCK
TTY_TMP=$(mktemp -d "$top_builddir/tests/tty/tmp.$TTY_NAME.XXXXXX") ||
	tty_fail "cannot make a temporary directory"
TTY_PIDS=

T() {
	tmux -L "$TTY_SOCK" -f /dev/null "$@"
}

tty_cleanup() {
	for p in $TTY_PIDS; do
		kill "$p" 2>/dev/null
	done
	for sock in $TTY_SOCKS; do
		tmux -L "$sock" kill-server 2>/dev/null
	done
	for p in $TTY_PIDS; do
		wait "$p" 2>/dev/null
	done
	rm -rf "$TTY_TMP"
}
trap tty_cleanup EXIT
trap 'exit 1' INT TERM HUP

# Start a workload in the background and remember it: tty_spawn CMD...
tty_spawn() {
	"$@" &
	TTY_PIDS="$TTY_PIDS $!"
	TTY_LAST=$!
}

# Delay accounting must be on before a workload starts to get its figures.
tty_delayacct_on() {
	if [ -w /proc/sys/kernel/task_delayacct ]; then
		echo 1 > /proc/sys/kernel/task_delayacct ||
			tty_fail "cannot turn on kernel.task_delayacct"
	else
		tty_skip "no kernel.task_delayacct"
	fi
}

# Run stalltop ARGS... in a 160x50 tmux window. $TTY_ENV adds environment.
# The wrapper records the terminal modes before and after, and the code.
tty_start() {
	mkdir -p "$TTY_TMP/config"
	cat > "$TTY_TMP/run.sh" <<EOF
stty -g > '$TTY_TMP/stty.before'
env XDG_CONFIG_HOME='$TTY_TMP/config' LANG=C.UTF-8 LC_ALL=C.UTF-8 $TTY_ENV \
	'$STALLTOP' $* 2> '$TTY_TMP/stderr'
echo \$? > '$TTY_TMP/exit'
stty -g > '$TTY_TMP/stty.after'
echo STALLTOP-EXITED
exec sleep 600
EOF
	T new-session -d -x 160 -y 50 "sh '$TTY_TMP/run.sh'" ||
		tty_fail "tmux cannot start"
	tty_wait ' PID ' || tty_fail "stalltop did not draw its table"
}

# End this tmux server; the next tty_start gets a fresh one.
tty_restart() {
	T kill-server 2>/dev/null
	TTY_SOCK=stalltop-test-$$-$(echo "$TTY_SOCKS" | wc -w)
	TTY_SOCKS="$TTY_SOCKS $TTY_SOCK"
	rm -f "$TTY_TMP/exit" "$TTY_TMP/stty.before" "$TTY_TMP/stty.after"
}

tty_screen() {
	T capture-pane -p
}

tty_keys() {
	T send-keys "$@"
}

# Wait until the screen shows an extended regular expression.
tty_wait() {
	pattern=$1
	timeout=${2:-$TTY_TIMEOUT}
	end=$(( $(date +%s) + timeout ))
	while :; do
		tty_screen | grep -Eq -- "$pattern" && return 0
		[ "$(date +%s)" -ge "$end" ] && return 1
		sleep 0.1
	done
}

# Wait until a command (a shell function) succeeds.
tty_until() {
	timeout=$1
	shift
	end=$(( $(date +%s) + timeout ))
	while :; do
		"$@" && return 0
		[ "$(date +%s)" -ge "$end" ] && return 1
		sleep 0.2
	done
}

# The table rows (lines below the column headers), one per line.
tty_rows() {
	tty_screen | awk 'seen && NF { print } / PID USER|^ +PID / { seen = 1 }'
}

tty_first_row() {
	tty_rows | head -n 1
}

# The screen with its attributes, for the selection bar.
tty_screen_attrs() {
	T capture-pane -p -e
}

# Quit with q and check the terminal came back as it was.
tty_quit_and_check() {
	tty_keys q
	tty_wait STALLTOP-EXITED || tty_fail "q did not end stalltop"
	tty_check_restored 0
}

tty_check_restored() {
	code=$(cat "$TTY_TMP/exit")
	[ "$code" = "$1" ] || tty_fail "exit code $code, expected $1"
	cmp -s "$TTY_TMP/stty.before" "$TTY_TMP/stty.after" ||
		tty_fail "terminal modes not restored"
	[ "$(T display -p '#{alternate_on}')" = 0 ] ||
		tty_fail "still on the alternate screen"
	[ "$(T display -p '#{cursor_flag}')" = 1 ] ||
		tty_fail "cursor left hidden"
}
