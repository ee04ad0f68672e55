#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The screen as a user without CAP_NET_ADMIN (nobody, no capability):
# the header says first which capability is missing and how to grant it
# (it explains every '-' in the table), and the notices that do not fit
# are counted ("(+N more)"), not lost. Independent reading: what the
# same binary says on stderr in batch mode, notice for notice.
. "$top_srcdir/tests/tty/tty-lib.sh"
need_cmd setpriv

nobody=65534
as_nobody() {
	setpriv --reuid=$nobody --regid=$nobody --clear-groups --inh-caps=-all "$@"
}
exe_for $nobody
exe=$EXE
# the batch run's notices, the reading to hold the screen to
LC_ALL=C.UTF-8 as_nobody "$exe" -b -n 1 -d 0.2 >/dev/null 2>"$TMP/batch.err" ||
	hard_error "stalltop -b as nobody failed: $(cat "$TMP/batch.err")"
n=$(grep -c '^stalltop: ' "$TMP/batch.err")
[ "$n" -ge 3 ] ||
	hard_error "expected at least 3 notices as nobody (capability, events, exit records), got: $(cat "$TMP/batch.err")"

cat >"$TMP/nobody" <<EOF2
#!/bin/sh
exec setpriv --reuid=$nobody --regid=$nobody --clear-groups --inh-caps=-all '$exe' "\$@"
EOF2
chmod 755 "$TMP/nobody"
STALLTOP=$TMP/nobody
# a settings file nobody can read is none of this test's business
TTY_ENV="XDG_CONFIG_HOME=/nonexistent"
tty_start
# 50 lines: two notice lines; the first names the capability and setcap
tty_wait 'no CAP_NET_ADMIN' 5 ||
	tty_fail "the header does not say CAP_NET_ADMIN is missing"
# the first notice: the line right after the machine line (load ...)
line=$(tty_screen | sed -n '/^load /{n;p;q}')
echo "$line" | grep -q '^ no CAP_NET_ADMIN' ||
	tty_fail "the first notice is not the capability's: $line"
echo "$line" | grep -q 'setcap cap_net_admin+ep' ||
	tty_fail "the notice does not say how to grant it: $line"
# the next line counts the notices that do not fit: all but two of
# those the batch run gave
more=$((n - 2))
tty_wait "^ \\(\\+$more more\\) " 5 ||
	tty_fail "no '(+$more more)' before the second notice ($n notices in batch mode)"
tty_quit_and_check
