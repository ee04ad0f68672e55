#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Privilege hygiene: a copy of the binary given file capabilities, run as
# nobody, keeps exactly CAP_NET_ADMIN in its effective and permitted sets,
# nothing inheritable or ambient, and no_new_privs set, while it runs
# (read from /proc/PID/status between two samples); and taskstats works
# through that capability (taskstats_version is not null, the privileged
# categories have figures).
#
#  1. the documented way: setcap cap_net_admin+ep, started with no
#     inheritable capabilities;
#  2. a careless grant: the file carries more (cap_net_admin,
#     cap_sys_ptrace,cap_dac_override+ep) and the caller passes
#     inheritable capabilities: stalltop must shed all but CAP_NET_ADMIN;
#  3. no file capabilities, CAP_NET_ADMIN handed down as an ambient
#     capability: stalltop keeps it but clears the ambient and
#     inheritable sets, so nothing it could start would inherit it.
#  4. a replay with the documented grant: it parses files and never
#     needs taskstats, so it keeps no capability at all before it opens
#     the recording (a FIFO here, so that it waits in the open).
# For each, the same setpriv line runs a control first (a copy of cat
# with the same file capabilities reading /proc/self/status) that shows
# what the process would hold if stalltop did nothing: for 2 and 3 that is
# more than stalltop may keep, so the test can see a missing drop.
. "$top_srcdir/tests/lib/functions.sh"
live_init
need_cmd setpriv setcap getcap

nobody=65534
NET_ADMIN=0000000000001000   # 1 << 12
# nobody must reach the copies: $TMP is made 0700, and a build tree under
# a private directory (/root) is out of reach: then /var/tmp
chmod 755 "$TMP"
DIR=$TMP
if ! setpriv --reuid=$nobody --regid=$nobody --clear-groups test -x "$DIR"; then
	DIR=$(mktemp -d /var/tmp/stalltop-$TEST_NAME.XXXXXX) ||
		hard_error "cannot make a directory in /var/tmp"
	_extra_dirs="$_extra_dirs $DIR"   # functions.sh's trap removes it
	chmod 755 "$DIR"
	note "nobody cannot reach $TMP: the copies go to $DIR"
fi

# field FILE NAME: the value of NAME: in a /proc/PID/status copy
field() { sed -n "s/^$2:[[:space:]]*//p" "$1"; }

# run_case NAME FILECAPS SETPRIV_OPTS...: the control, then stalltop.
run_case() {
	local _c=$1 _caps=$2 _pid _st
	shift 2
	mkdir "$DIR/$_c" && cp "$STALLTOP" "$DIR/$_c/stalltop" &&
		cp "$(command -v cat)" "$DIR/$_c/cat" ||
		hard_error "cannot copy the binaries to $DIR/$_c"
	chmod 755 "$DIR/$_c" "$DIR/$_c/stalltop" "$DIR/$_c/cat"
	if [ -n "$_caps" ]; then
		setcap "$_caps" "$DIR/$_c/stalltop" && setcap "$_caps" "$DIR/$_c/cat" ||
			hard_error "setcap $_caps fails in $DIR (a filesystem without xattrs?)"
		getcap "$DIR/$_c/stalltop" | grep -q cap_net_admin ||
			hard_error "getcap does not show the capability on $DIR/$_c/stalltop"
	fi

	setpriv --reuid=$nobody --regid=$nobody --clear-groups "$@" \
		"$DIR/$_c/cat" /proc/self/status >"$TMP/$_c.control" ||
		hard_error "$_c: setpriv $* cannot run the control"
	note "$_c: without stalltop's drop: Prm $(field "$TMP/$_c.control" CapPrm)" \
		"Inh $(field "$TMP/$_c.control" CapInh) Amb $(field "$TMP/$_c.control" CapAmb)"
	[ "$(field "$TMP/$_c.control" CapPrm)" != 0000000000000000 ] ||
		hard_error "$_c: the control got no capability: file capabilities ignored here (nosuid mount?)"

	# 8 samples of 0.5 s: 4 s to look at it
	bg_start "$_c" setpriv --reuid=$nobody --regid=$nobody --clear-groups "$@" \
		"$DIR/$_c/stalltop" -b --json -d 0.5 -n 8
	_pid=$BG_PID
	wait_lines "$TMP/$_c.out" 1
	# a copy: the checks must all be on the same reading
	cat "/proc/$_pid/status" >"$TMP/$_c.status" 2>/dev/null ||
		fail "$_c: stalltop ended before its status could be read: $(cat "$TMP/$_c.err")"
	[ "$(field "$TMP/$_c.status" Name)" = stalltop ] ||
		hard_error "$_c: pid $_pid is $(field "$TMP/$_c.status" Name), not stalltop"
	bg_wait "$_pid"
	_st=$?
	[ "$_st" -eq 0 ] || fail "$_c: stalltop exited $_st: $(cat "$TMP/$_c.err")"
	check_json "$TMP/$_c.out"

	for _f in CapEff CapPrm; do
		[ "$(field "$TMP/$_c.status" $_f)" = $NET_ADMIN ] ||
			fail "$_c: $_f is $(field "$TMP/$_c.status" $_f), expected $NET_ADMIN (cap_net_admin only)"
	done
	for _f in CapInh CapAmb; do
		[ "$(field "$TMP/$_c.status" $_f)" = 0000000000000000 ] ||
			fail "$_c: $_f is $(field "$TMP/$_c.status" $_f), expected 0"
	done
	[ "$(field "$TMP/$_c.status" NoNewPrivs)" = 1 ] ||
		fail "$_c: NoNewPrivs is $(field "$TMP/$_c.status" NoNewPrivs), expected 1"
	[ "$(field "$TMP/$_c.status" Uid | awk '{ print $2 }')" = $nobody ] ||
		hard_error "$_c: not running as nobody: $(field "$TMP/$_c.status" Uid)"

	# taskstats worked through the capability
	expect "$_c: taskstats" "$TMP/$_c.out" '
	  (if .taskstats_version == null then "taskstats_version is null" else empty end),
	  (if [.tasks[] | select(.delay.wpcopy == null)] | length > 0
	   then "rows without the privileged figures (wpcopy null)" else empty end)'
	grep -q 'CAP_NET_ADMIN' "$TMP/$_c.err" &&
		fail "$_c: stalltop says it lacks CAP_NET_ADMIN: $(cat "$TMP/$_c.err")"
	note "$_c: ok: $(grep -E '^Cap(Inh|Prm|Eff|Amb)|^NoNewPrivs' "$TMP/$_c.status" | tr '\t\n' '  ')" \
		"taskstats_version $(head -n 1 "$TMP/$_c.out" | jq .taskstats_version)"
}

run_case documented cap_net_admin+ep --inh-caps=-all
run_case careless cap_net_admin,cap_sys_ptrace,cap_dac_override+ep \
	--inh-caps=-all,+net_admin,+sys_ptrace
[ "$(field "$TMP/careless.control" CapPrm)" != $NET_ADMIN ] &&
	[ "$(field "$TMP/careless.control" CapInh)" != 0000000000000000 ] ||
	hard_error "careless: the control holds no more than stalltop may keep"
run_case ambient "" --inh-caps=-all,+net_admin --ambient-caps=-all,+net_admin
[ "$(field "$TMP/ambient.control" CapAmb)" = $NET_ADMIN ] ||
	hard_error "ambient: the control has no ambient capability"

# waiting_for_writer PID: it has opened the FIFO (without waiting in
# open()) and waits in poll for a writer
waiting_for_writer() {
	for _fd in /proc/"$1"/fd/*; do
		[ "$(readlink "$_fd" 2>/dev/null)" = "$DIR/recording" ] || continue
		case $(cat "/proc/$1/wchan" 2>/dev/null) in
		*poll*|*select*) return 0 ;;
		esac
	done
	return 1
}
mkfifo "$DIR/recording" && chmod 666 "$DIR/recording" ||
	hard_error "cannot make a FIFO in $DIR"
bg_start replay setpriv --reuid=$nobody --regid=$nobody --clear-groups --inh-caps=-all \
	"$DIR/documented/stalltop" -b --replay "$DIR/recording"
wait_for waiting_for_writer "$BG_PID"
cat "/proc/$BG_PID/status" >"$TMP/replay.status" ||
	fail "replay: stalltop ended before its status could be read: $(cat "$TMP/replay.err")"
kill -s KILL "$BG_PID"
bg_wait "$BG_PID"
for _f in CapEff CapPrm CapInh CapAmb; do
	[ "$(field "$TMP/replay.status" $_f)" = 0000000000000000 ] ||
		fail "replay: $_f is $(field "$TMP/replay.status" $_f), expected 0"
done
[ "$(field "$TMP/replay.status" NoNewPrivs)" = 1 ] ||
	fail "replay: NoNewPrivs is $(field "$TMP/replay.status" NoNewPrivs), expected 1"
exit 0
