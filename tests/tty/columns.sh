#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The columns next to a stall and their setup (F2): hidden by default
# (and IRQ where the kernel collects no IRQ time), chosen with F2, saved
# and there again after a restart; each shows a true value, checked
# against an independent reading of the kernel: NI of a process started
# with nice -n 5, RSS KiB of one that wrote 64 MiB against its VmRSS, and
# WR MiB/s of one writing 4 MiB a second against its /proc/PID/io.
# Sorting by a column read for the rows shown reads it for every row
# first: by RSS the process with the most memory comes first, on the
# screen and in batch output cut to one row. WCHAN of a task in state D
# is the kernel's /proc/PID/wchan, and null for one asleep in S.
. "$top_srcdir/tests/tty/tty-lib.sh"
need_cmd nice awk jq sort
set_io_dir

# nice 5 whatever the niceness the test runs at (root may lower it);
# 1 GiB, more than any other process here holds (the sort below)
bg_start mem nice -n $((5 - $(nice))) "$HELPER" alloc stctxmem 1024
MEM_PID=$BG_PID
mem_ready() { grep -q ready "$TMP/mem.out"; }
wait_for mem_ready
bg_start io "$HELPER" paced stctxio "$IO_DIR/paced.dat" 4096
IO_PID=$BG_PID

TTY_ENV=NO_COLOR=1
tty_start -d 1

header() { tty_screen | grep -E '^ +PID USER'; }
# by default: none of them, and IRQ only where the kernel fills it
h=$(header)
for c in NI 'RSS KiB' 'WR MiB/s'; do
	case $h in *" $c "*) tty_fail "$c is shown by default: $h" ;; esac
done
if [ -e /proc/pressure/irq ]; then
	case $h in *" IRQ "*) ;; *) tty_fail "no IRQ column, yet /proc/pressure/irq exists" ;; esac
else
	case $h in *" IRQ "*) tty_fail "IRQ shown although the kernel collects no IRQ time" ;; esac
	tty_screen | grep -q '^irq ' && tty_fail "the irq PSI row is shown without IRQ time"
fi

# F2: choose NI, RSS KiB and WR MiB/s
tty_keys F2
tty_wait '^ Columns \(F2\)' 5 || tty_fail "F2 did not open the column setup"
tty_screen | grep -Eq '^\[ \] IRQ +\(the kernel collects no IRQ time here\)' ||
	[ -e /proc/pressure/irq ] ||
	tty_fail "the setup does not say why IRQ is hidden"
# choose COLUMN: Home, Down to its line, Space, until it is marked
choose() {
	line=$(tty_screen | awk -v c="$1" 'NR > 1 && substr($0, 5, length(c) + 1) == c " " { print NR - 2; exit }')
	[ -n "$line" ] || tty_fail "no line for $1 in the setup"
	tty_keys Home
	i=0
	while [ "$i" -lt "$line" ]; do
		tty_keys Down
		i=$((i + 1))
	done
	tty_keys Space
	tty_wait "^\\[x\\] $1 " 5 || tty_fail "Space did not mark $1"
}
choose NI
choose 'RSS KiB'
choose 'WR MiB/s'
tty_keys Escape
tty_wait 'settings saved to' 5 || tty_fail "closing the setup did not save"
grep -E '^columns=.*nice.*rss_kib.*write_bps.*,comm$' "$TMP/config/stalltop/stalltoprc" ||
	tty_fail "the settings file lacks the columns: $(cat "$TMP/config/stalltop/stalltoprc")"
tty_filter stctx

# cell PID HEADER: the figure under a right-aligned heading
cell() {
	tty_screen | awk -v pid="$1" -v h="$2" '
		!e && /^ +PID USER/ { i = index($0, " " h); if (i) e = i + length(h); next }
		e && $1 == pid { n = split(substr($0, 1, e), a, " "); print a[n]; exit }'
}

# NI: the nice value the kernel has (/proc/PID/stat, field 19)
want_ni=$(awk '{ print $19 }' "/proc/$MEM_PID/stat")
[ "$want_ni" = 5 ] || hard_error "nice -n 5 gave a nice value of $want_ni"
ni_right() { [ "$(cell "$MEM_PID" NI)" = "$want_ni" ]; }
tty_until 10 ni_right || tty_fail "NI of $MEM_PID is '$(cell "$MEM_PID" NI)', the kernel says $want_ni"

# RSS: against VmRSS read beside it. The process sleeps after writing
# its 1 GiB, so both readings should agree; measured: equal (0 KiB
# apart). Allowed: 256 KiB, what a late page of its stack or libc could
# add.
rss_right() {
	got=$(cell "$MEM_PID" 'RSS KiB')
	ref=$(awk '/^VmRSS:/ { print $2 }' "/proc/$MEM_PID/status")
	case $got in '' | *[!0-9]*) return 1 ;; esac
	[ "$got" -ge $((1024 * 1024)) ] &&
		[ $((got - ref)) -le 256 ] && [ $((ref - got)) -le 256 ]
}
tty_until 10 rss_right ||
	tty_fail "RSS KiB of $MEM_PID is '$got', VmRSS says $ref (1 GiB written)"

# WR MiB/s: against the process's own counter over the test's window
w0=$(awk '/^write_bytes:/ { print $2 }' "/proc/$IO_PID/io")
t0=$(now_ms)
tty_wait_next_sample 3
w1=$(awk '/^write_bytes:/ { print $2 }' "/proc/$IO_PID/io")
t1=$(now_ms)
ref=$(awk -v b=$((w1 - w0)) -v ms=$((t1 - t0)) 'BEGIN { printf "%.2f", b / 1048576 / (ms / 1000) }')
# The writer paces 64 KiB writes at 4 MiB/s; its counter over the test's
# window measured 4.00 MiB/s, and the figure of each interval 3.997 to
# 4.003 MiB/s over 11 intervals at a load average of 1.7 (0.1 % off).
# Allowed: 10 % of the reference, six of the 64 writes a second more or
# less in one interval (a timer late on a busy machine); three intervals
# in a row must hold.
wr_right() {
	got=$(cell "$IO_PID" 'WR MiB/s')
	awk -v g="$got" -v r="$ref" 'BEGIN { exit !(g ~ /^[0-9.]+$/ && g >= r * 0.90 && g <= r * 1.10) }'
}
tty_steady 3 20 wr_right ||
	tty_steady_fail "WR MiB/s of $IO_PID is '$got', its /proc/PID/io says $ref"

# a restart shows the columns chosen, in their order; sorted by RSS,
# the 1 GiB process is first among all
tty_quit_and_check
tty_restart
tty_start -d 1 -s rss
header | grep -Eq ' NI +RSS KiB +WR MiB/s ' ||
	tty_fail "the chosen columns did not come back: $(header)"
biggest=$(for f in /proc/[0-9]*/status; do
	awk '/^Tgid:/ { p = $2 } /^VmRSS:/ { print $2, p }' "$f" 2>/dev/null
done | sort -rn | head -n 1)
[ "${biggest#* }" = "$MEM_PID" ] || hard_error "$MEM_PID does not hold the most memory: $biggest"
first_is_mem() { [ "$(tty_first_row | awk '{ print $1 }')" = "$MEM_PID" ]; }
tty_until 10 first_is_mem ||
	tty_fail "sorted by RSS, $(tty_first_row | awk '{ print $1 }') comes first, not $MEM_PID"
tty_quit_and_check
top=$("$STALLTOP" -b -n 2 -d 0.5 -s rss --limit 1 --json | tail -n 1 | jq '.tasks[0].pid')
[ "$top" = "$MEM_PID" ] ||
	fail "batch output sorted by RSS, cut to one row, shows $top, not $MEM_PID"


# WCHAN: a task in state D (a parent waiting for its vfork child) shows
# the wait channel the kernel gives in /proc/PID/wchan; one asleep in S
# shows none (JSON null)
bg_start vf "$HELPER" vfork stctxvf
VF_PID=$BG_PID
in_d() { [ "$(awk '{ print $3 }' "/proc/$VF_PID/stat" 2>/dev/null)" = D ]; }
wait_for in_d
want_wchan=$(cat "/proc/$VF_PID/wchan")
case $want_wchan in '' | 0) hard_error "no wait channel in /proc/$VF_PID/wchan: '$want_wchan'" ;; esac
"$STALLTOP" -b -n 2 -d 0.5 -p "$VF_PID,$MEM_PID" --json | tail -n 1 >"$TMP/wchan.json" ||
	fail "stalltop -b -p $VF_PID,$MEM_PID failed"
got=$(jq -r --argjson p "$VF_PID" '.tasks[] | select(.pid == $p) | "\(.state) \(.wchan)"' "$TMP/wchan.json")
[ "$got" = "D $want_wchan" ] ||
	fail "pid $VF_PID: state and wchan '$got', the kernel says 'D $want_wchan'"
got=$(jq -r --argjson p "$MEM_PID" '.tasks[] | select(.pid == $p) | "\(.state) \(.wchan)"' "$TMP/wchan.json")
[ "$got" = "S null" ] ||
	fail "pid $MEM_PID (asleep): state and wchan '$got', want 'S null'"
