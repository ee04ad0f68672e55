# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced by the tests of the systemd units of data/ (after functions.sh
# and live_init). systemd is not PID 1 everywhere the tests run, so
# systemd-run cannot start a unit: these read its properties from the
# unit file, verify it, and run its command line under its confinement,
# one property at a time.
#
#   unit_init UNIT       the built unit file the others read ($UNIT)
#   unit_prop KEY        the value of KEY= ("" when the unit has none)
#   unit_args            ExecStart='s arguments, the program left out
#   unit_caps            CapabilityBoundingSet= as setpriv's list
#   unit_verify DIR      the unit, running $STALLTOP, copied into DIR:
#                        systemd-analyze verify passes and says nothing
#   unit_start NAME ARGS $STALLTOP ARGS as bg_start NAME starts it, under
#                        the unit's capability bounding set and system
#                        call filter (every other call failing with its
#                        SystemCallErrorNumber=)

UNIT_PY=/usr/bin/python3   # Debian's, where python3-seccomp is
UNIT_FILTER=$top_srcdir/tests/lib/syscall_filter.py

unit_init() {
	UNIT=$1
	[ -f "$UNIT" ] || hard_error "$UNIT was not built"
	need_cmd setpriv systemd-analyze
	"$UNIT_PY" -c 'import seccomp' 2>"$TMP/py.err" ||
		hard_error "no python3-seccomp for $UNIT_PY (./bootstrap installs it): $(cat "$TMP/py.err")"
	# LeakSanitizer (a sanitized build, .ci/run) traces the process,
	# which the filter does not allow (ptrace is @debug): no leak check
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
	export ASAN_OPTIONS
}

unit_prop() {
	sed -n "s/^$1=//p" "$UNIT"
}

unit_args() {
	sed -n 's/^ExecStart=[^ ]* //p' "$UNIT"
}

unit_caps() {
	unit_prop CapabilityBoundingSet | tr 'A-Z' 'a-z' |
		sed 's/cap_/+/g; s/ /,/g'
}

unit_verify() {
	local _u="$1/${UNIT##*/}"
	sed "s|^ExecStart=[^ ]*|ExecStart=$STALLTOP|" "$UNIT" >"$_u" ||
		hard_error "cannot write $_u"
	systemd-analyze verify --man=no "$_u" >"$TMP/verify.out" 2>&1 ||
		fail "systemd-analyze verify: $(cat "$TMP/verify.out")"
	[ -s "$TMP/verify.out" ] &&
		fail "systemd-analyze verify said: $(cat "$TMP/verify.out")"
	return 0
}

unit_start() {
	local _n=$1
	shift
	bg_start "$_n" setpriv --bounding-set "-all,$(unit_caps)" \
		--no-new-privs "$UNIT_PY" "$UNIT_FILTER" run \
		"$(unit_prop SystemCallFilter)" \
		"$(unit_prop SystemCallErrorNumber)" "$STALLTOP" "$@"
}
