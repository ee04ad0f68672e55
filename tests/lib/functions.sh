# SPDX-License-Identifier: GPL-2.0-or-later
# Helpers for the shell tests (tests/live/*.sh, tests/tty/*.sh).
#
#   . "$top_srcdir/tests/lib/functions.sh"
#   live_init                      # root, jq, the live-test lock, delayacct on
#   bg_start NAME CMD...           # background, own process group: $BG_PID
#   wait_for has_line "$TMP/NAME.out" ready
#   start_stalltop st -d 0.5       # background stalltop -b --json: $ST_PID
#   ...
#   stop_stalltop st "$ST_PID"     # SIGTERM must end it with status 0
#   expect "what" "$TMP/st.out" -s 'jq printing one line per problem'
#
# make check exports STALLTOP, top_srcdir and top_builddir. Exit codes are
# automake's: 0 pass, 1 fail, 77 skip, 99 hard error. Sourcing this makes
# a scratch directory $TMP (on the build tree's filesystem, not /tmp,
# which may be tmpfs) and a trap that, on any exit, kills every process
# group started with bg_start, removes the cgroups made with cg_make, runs
# what at_cleanup was given, restores what enable_delayacct and set_sysctl
# changed and removes $TMP (kept when KEEP_TMP is set, to look at).
# POSIX sh plus "local": the tests may run under dash or bash. Helpers'
# variables start with _ and are local where they can be.

set -u
: "${STALLTOP:?run the tests with make check}"
: "${top_srcdir:?run the tests with make check}"
: "${top_builddir:?run the tests with make check}"

TEST_NAME=$(basename "$0" .sh)
WL="$top_builddir/tests/live"   # the workload programs
NCPU=$(getconf _NPROCESSORS_ONLN)

# fail and hard_error end the test, also from inside a command
# substitution, a pipeline or ( ... ): such a subshell's exit alone would
# not, so they also write their status and message to $TMP/.failed; the
# next note or expect, and at the latest the end of the test, turn a test
# that went on into a failure with that message. A helper that extracts
# data can so fail the test from inside $(...): set -u does not catch a
# command substitution that failed or found nothing.
note() { _check_subshells; echo "$TEST_NAME: $*"; }
fail() { _failed 1 "FAIL: $TEST_NAME: $*"; }
skip() { echo "SKIP: $TEST_NAME: $*" >&2; exit 77; }
hard_error() { _failed 99 "ERROR: $TEST_NAME: $*"; }
_failed() {
	echo "$2" >&2
	[ -d "${TMP:-}" ] && [ ! -e "$TMP/.failed" ] && echo "$1 $2" >"$TMP/.failed"
	exit "$1"
}
# _check_subshells: a fail or hard_error in a subshell ends the test now.
_check_subshells() {
	local _st _msg
	[ -s "${TMP:-/nonexistent}/.failed" ] || return 0
	read -r _st _msg <"$TMP/.failed"
	echo "$_msg (in a subshell: the test stops here)" >&2
	exit "$_st"
}

# skip_part WHY: a part of the test cannot run here and is left out. CI
# (CI=true, as .ci/run runs) has everything every test needs, so there it
# is a failure, as a whole test's skip is (.ci/run counts those).
skip_part() {
	[ "${CI:-}" != true ] || fail "in CI nothing may be skipped: $*"
	note "part skipped: $*"
}

# Skip only when the privilege is truly absent.
need_root() {
	[ "$(id -u)" -eq 0 ] ||
		skip "needs root (taskstats and the proc connector need CAP_NET_ADMIN)"
}

# A missing tool is an error, not a skip: ./bootstrap installs them all.
need_cmd() {
	for _c; do
		command -v "$_c" >/dev/null 2>&1 ||
			hard_error "needs '$_c' (./bootstrap installs the test tools)"
	done
}

# --- scratch directory and cleanup ---

_pgids=
_extra_dirs=
_cgdirs=
_hooks=
_old_delayacct=
_sysctls=
TMP=$(mktemp -d "$top_builddir/tests/live/tmp.$TEST_NAME.XXXXXX") ||
	hard_error "cannot make a scratch directory"

_cleanup() {
	_status=$?
	trap - EXIT INT TERM HUP
	# a fail in a subshell the test went on after
	if [ "$_status" -eq 0 ] && [ -s "$TMP/.failed" ]; then
		read -r _status _msg <"$TMP/.failed"
		echo "$_msg (in a subshell, and the test went on)" >&2
	fi
	for _g in $_pgids; do
		kill -s KILL -- "-$_g" 2>/dev/null
	done
	for _g in $_pgids; do
		wait "$_g" 2>/dev/null
	done
	# cgroups last, children first: a killed task leaves its cgroup a
	# moment after it is reaped (bounded: 5 s each)
	for _d in $_cgdirs; do
		_n=0
		until rmdir "$_d" 2>/dev/null || [ ! -d "$_d" ] || [ $_n -ge 50 ]; do
			sleep 0.1
			_n=$((_n + 1))
		done
		[ -d "$_d" ] && echo "$TEST_NAME: could not remove $_d" >&2
	done
	# then what the test asked for (swap off, devices reset ...)
	eval "$_hooks"
	# the newest first: a setting changed twice gets its first value back
	for _s in $_sysctls; do
		echo "${_s#*=}" >"${_s%%=*}" ||
			echo "$TEST_NAME: could not put back ${_s%%=*}" >&2
	done
	if [ -n "$_old_delayacct" ]; then
		echo "$_old_delayacct" >/proc/sys/kernel/task_delayacct 2>/dev/null
	fi
	if [ -n "${KEEP_TMP:-}" ]; then
		echo "$TEST_NAME: kept $TMP $_extra_dirs" >&2
	else
		rm -rf "$TMP" $_extra_dirs
	fi
	exit "$_status"
}
trap _cleanup EXIT
trap 'exit 1' INT TERM HUP

# at_cleanup COMMAND: run the shell command COMMAND in the cleanup, after
# the workloads are gone and their cgroups removed (the last one added
# runs first), also when the test fails.
at_cleanup() {
	_hooks="$1
$_hooks"
}

# Live tests measure the whole machine: run them one at a time even under
# make -j, and across build trees on the same machine (the lock is
# released when the test exits). STALLTOP_LIVE_LOCK names another lock.
live_lock() {
	need_cmd flock
	exec 9>"${STALLTOP_LIVE_LOCK:-/tmp/stalltop-live-tests.lock}"
	flock -w 1200 9 || hard_error "another live test held the lock for 20 minutes"
}

# Turn delay accounting on; the trap puts the old value back.
enable_delayacct() {
	local _f=/proc/sys/kernel/task_delayacct
	[ -e "$_f" ] || skip "this kernel has no delay accounting (no $_f)"
	if [ -z "$_old_delayacct" ]; then
		_old_delayacct=$(cat "$_f")
	fi
	echo 1 >"$_f" || hard_error "cannot turn on delay accounting"
}

# set_sysctl FILE VALUE: write VALUE (no spaces) to FILE below /proc/sys
# for the test; the trap puts the old value back.
set_sysctl() {
	local _old
	_old=$(cat "$1") || hard_error "cannot read $1"
	echo "$2" >"$1" || hard_error "cannot write $2 to $1"
	_sysctls="$1=$_old $_sysctls"
}

# The usual start of a live test.
live_init() {
	need_root
	need_cmd jq setsid
	live_lock
	enable_delayacct
}

# --- processes ---

# bg_start NAME CMD [ARGS...]: run CMD in the background in its own
# session and process group (the trap kills the group), stdout to
# $TMP/NAME.out, stderr to $TMP/NAME.err. Sets BG_PID (= the group id).
# A non-interactive shell does not make background jobs group leaders, so
# setsid execs CMD in place and $! is CMD itself.
bg_start() {
	local _name=$1
	shift
	setsid "$@" >"$TMP/$_name.out" 2>"$TMP/$_name.err" </dev/null 9>&- &
	BG_PID=$!
	_pgids="$_pgids $BG_PID"
}

# bg_stop PID: SIGTERM, then wait (bounded) for it; returns its status.
bg_stop() {
	kill -s TERM "$1" 2>/dev/null
	bg_wait "$1"
}

# bg_kill PID: end the whole process group at once.
bg_kill() {
	kill -s KILL -- "-$1" 2>/dev/null
	wait "$1" 2>/dev/null
	_bg_forget "$1"
	return 0
}

# _bg_forget PID: its group is gone; the number may soon be another's,
# so the cleanup must not kill it.
_bg_forget() {
	local _g _keep=
	for _g in $_pgids; do
		[ "$_g" = "$1" ] || _keep="$_keep $_g"
	done
	_pgids=$_keep
}

# bg_wait PID: wait for a background process to end (bounded, 60 s);
# returns its exit status.
bg_wait() {
	local _rc
	wait_for -t 60 not_running "$1"
	wait "$1"
	_rc=$?
	# the leader is reaped; its group may live on in children
	kill -0 -- "-$1" 2>/dev/null || _bg_forget "$1"
	return $_rc
}

# running PID: it exists and is not a zombie (kill -0 accepts zombies).
running() {
	local _stat
	_stat=$(ps -o stat= -p "$1" 2>/dev/null) || return 1
	case $_stat in
	Z*) return 1 ;;
	esac
	return 0
}
not_running() { ! running "$1"; }

# --- waiting ---

now_ms() { echo $(($(date +%s%N) / 1000000)); }

# wait_for [-t SECONDS] CMD [ARGS...]: run CMD every 20 ms until it
# succeeds; fail after SECONDS (default 20).
wait_for() {
	local _limit=20 _deadline
	if [ "$1" = -t ]; then
		_limit=$2
		shift 2
	fi
	_deadline=$(($(now_ms) + _limit * 1000))
	until "$@"; do
		[ "$(now_ms)" -lt "$_deadline" ] ||
			fail "gave up after ${_limit}s waiting for: $*"
		sleep 0.02
	done
}

# Complete lines in FILE (a line being written does not count).
lines() { if [ -e "$1" ]; then wc -l <"$1"; else echo 0; fi; }
has_lines() { [ "$(lines "$1")" -ge "$2" ]; }
has_line() { grep -q -- "$2" "$1" 2>/dev/null; }

# wait_lines FILE N: until FILE has at least N complete lines.
wait_lines() { wait_for has_lines "$1" "$2"; }

# wait_more_lines FILE N: N more complete lines than FILE has now.
wait_more_lines() { wait_lines "$1" $(($(lines "$1") + $2)); }

# --- stalltop ---

# run_stalltop_json ARGS...: stalltop -b --json ARGS in the foreground
# (give it -n); fails unless it exits 0 and every line is a JSON object.
# The samples are in $JSON. With ST_NICE set, at that nice value (a test
# whose own workloads would otherwise starve it of the CPU).
run_stalltop_json() {
	JSON="$TMP/run.json"
	timeout 120 ${ST_NICE:+nice -n "$ST_NICE"} "$STALLTOP" -b --json "$@" \
		>"$JSON" 2>"$TMP/run.err" ||
		fail "stalltop -b --json $* exited $?: $(cat "$TMP/run.err")"
	check_json "$JSON"
}

# start_stalltop NAME ARGS...: stalltop -b --json ARGS in the background,
# samples to $TMP/NAME.out; sets ST_PID. Returns once the first sample is
# out (the baseline has been taken).
start_stalltop() {
	local _n=$1
	shift
	bg_start "$_n" "$STALLTOP" -b --json "$@"
	ST_PID=$BG_PID
	wait_lines "$TMP/$_n.out" 1
}

# stop_stalltop NAME PID: SIGTERM must end it cleanly (status 0).
stop_stalltop() {
	bg_stop "$2" || fail "stalltop ended with status $? on SIGTERM: $(cat "$TMP/$1.err")"
	check_json "$TMP/$1.out"
}

# trace_stalltop NAME N ARGS...: stalltop -d 0.2 ARGS (batch JSON into
# $TMP/NAME.out) under strace for N refreshes, its /proc directory reads
# (or the calls TRACE_CALLS names, as strace's -e trace= takes them)
# with time stamps into $TMP/NAME.trace; sets LOST to the events lost
# meanwhile (each loss is repaired by one walk of /proc).
trace_stalltop() {
	local _t=$1 _n=$2 _st _strace _lost0 _lost1
	shift 2
	need_cmd strace
	start_stalltop "$_t" -d 0.2 "$@"
	_st=$ST_PID
	# shellcheck disable=SC2086 # TRACE_OPTS: more strace options, split
	bg_start "$_t-strace" strace -f -ttt ${TRACE_OPTS:-} \
		-e trace="${TRACE_CALLS:-getdents64,getdents}" \
		-o "$TMP/$_t.trace" -p "$_st"
	_strace=$BG_PID
	wait_for has_line "$TMP/$_t-strace.err" "Process $_st attached"
	last_count "$TMP/$_t.out" events_lost
	_lost0=$COUNT
	wait_more_lines "$TMP/$_t.out" "$_n"
	bg_stop "$_strace"
	stop_stalltop "$_t" "$_st"
	last_count "$TMP/$_t.out" events_lost
	LOST=$((COUNT - _lost0))
}

# last_count FILE KEY: COUNT = the top-level KEY of the last complete
# sample in FILE, a whole number; fails when it is not one.
last_count() {
	COUNT=$(grep -s '}$' "$1" | tail -n 1 | jq -r ".$2" 2>&1)
	case $COUNT in
	'' | *[!0-9]*) fail "$1: the last sample's $2 is not a count: '$COUNT'" ;;
	esac
}

# Every line of FILE is one JSON object with the contract's top level.
check_json() {
	jq -e 'has("interval") and has("events_lost") and (.tasks|type=="array")
	       and (.exited|type=="array")' "$1" >"$TMP/check_json.out" ||
		fail "$1: not NDJSON samples"
	grep -qv true "$TMP/check_json.out" && fail "$1: a sample lacks a field"
	return 0
}

# stk_dump FILE OUT: what the recording FILE holds (tests/lib/stkdump: a
# line per session record and per sample, one at the end with the damage
# skipped) into OUT; fails unless it reads to the end of FILE.
stk_dump() {
	"$top_builddir/tests/lib/stkdump" "$1" >"$2" 2>"$TMP/stkdump.err" ||
		fail "$1 does not read to its end: $(cat "$TMP/stkdump.err")"
}

# stk_samples FILE: the number of samples the recording FILE holds now
# (0 while it cannot be read).
stk_samples() {
	"$top_builddir/tests/lib/stkdump" "$1" 2>/dev/null | grep -c '^{"time"'
}

# json_flat FILE: one line per value of the samples of FILE: sample time,
# where (the sample, or the array and the row's pid or cgroup path), the
# field = its value; sorted, so that arrays are compared by pid or path
json_flat() {
	jq -r 'select(has("time")) | . as $s | ($s.time | tostring) as $t
	  | def leaves: paths(type != "object" and type != "array");
	    def field($p): $p | map(tostring) | join(".");
	    (del(.tasks, .exited, .thread_tasks, .thread_exited, .cgroups)
	     | . as $o | leaves as $p
	     | "\($t) sample \(field($p)) = \($o | getpath($p) | tojson)"),
	    (("tasks", "exited", "thread_tasks", "thread_exited") as $k
	     | ($s[$k] // [])[] | . as $r | leaves as $p
	     | "\($t) \($k) pid \($r.pid) \(field($p)) = \($r | getpath($p) | tojson)"),
	    (($s.cgroups // [])[] | . as $r | leaves as $p
	     | "\($t) cgroups \($r.path) \(field($p)) = \($r | getpath($p) | tojson)")' "$1" |
		LC_ALL=C sort
}

# jqs FILE FILTER [jq options...]: FILTER over all samples of FILE as one
# array (slurped), raw output. Fails the test (also from inside $(...),
# see fail) when jq fails or the result is nothing: no output, null or
# an empty array.
jqs() {
	local _file=$1 _filter=$2 _out
	shift 2
	_out=$(jq -r -s "$@" "$_filter" "$_file" 2>&1) ||
		fail "jq $_filter on $_file failed: $_out"
	case $_out in
	'' | null | '[]') fail "jq $_filter on $_file found nothing ('$_out')" ;;
	esac
	printf '%s\n' "$_out"
}

# expect WHAT FILE [jq options] FILTER: FILTER (over each sample of FILE,
# or with -s over all) prints one line per problem; fail with them, or
# when jq itself fails (a check that cannot run must not pass).
expect() {
	local _what=$1 _file=$2
	shift 2
	_check_subshells
	jq -r "$@" "$_file" >"$TMP/expect.out" 2>"$TMP/expect.err" ||
		fail "$_what: jq failed ($?): $(cat "$TMP/expect.err")"
	[ -s "$TMP/expect.out" ] && fail "$_what: $(head -20 "$TMP/expect.out")"
	return 0
}

# --- filesystems ---

# set_io_dir: set IO_DIR to a directory where synchronous IO reaches a
# block device: $TMP when its filesystem is on one (it is under the build
# tree), else a scratch directory in /var/tmp (removed by the trap).
# tmpfs and the like never wait for IO. Skips when neither will do.
set_io_dir() {
	try_io_dir ||
		skip "no directory on a block device for IO (tried $TMP, /var/tmp)"
}

# try_io_dir: the same for a test whose IO is only a part of it: false
# (and IO_DIR empty) when there is no such directory; the test then
# skips that part alone and says so.
try_io_dir() {
	IO_DIR=
	if on_block_device "$TMP"; then
		IO_DIR=$TMP
	elif on_block_device /var/tmp; then
		IO_DIR=$(mktemp -d "/var/tmp/stalltop-$TEST_NAME.XXXXXX") ||
			hard_error "cannot make a directory in /var/tmp"
		_extra_dirs="$_extra_dirs $IO_DIR"
	else
		return 1
	fi
}

on_block_device() {
	local _src
	_dev_sys "$1" && [ -e "$DEV_SYS" ] && return 0
	# btrfs and friends show an anonymous device: look at the source
	_src=$(findmnt -n -o SOURCE -T "$1" 2>/dev/null) || return 1
	[ -b "${_src%%\[*}" ]
}

# _dev_sys DIR: DEV_SYS = /sys/dev/block/MAJ:MIN of the device number of
# DIR's filesystem, as in mountinfo (it may not exist)
_dev_sys() {
	local _dev
	_dev=$(stat -c '%d' "$1") || return 1
	DEV_SYS=/sys/dev/block/$((_dev >> 8 & 0xfff)):$((_dev & 0xff | (_dev >> 12 & 0xfff00)))
}

# io_disk DIR: DISK = the whole disk under DIR's filesystem, as MAJ:MIN
# (IO throttling is per disk: a partition's disk); false when DIR is not
# on such a device.
io_disk() {
	_dev_sys "$1" && [ -e "$DEV_SYS" ] || return 1
	[ -e "$DEV_SYS/partition" ] && DEV_SYS=$DEV_SYS/..
	DISK=$(cat "$DEV_SYS/dev")
}

# --- cgroups ---

# cg_root: $V2 = where the cgroup v2 hierarchy is mounted (the first
# mountinfo line whose type after the " - " separator is cgroup2); skips
# where there is none.
cg_root() {
	V2=$(awk '{ for (i = 7; i <= NF; i++) if ($i == "-") { if ($(i + 1) == "cgroup2") print $5; break } }' \
		/proc/self/mountinfo | head -n 1)
	[ -n "$V2" ] || skip "no cgroup v2 hierarchy is mounted (none in /proc/self/mountinfo)"
}

# cg_make DIR...: make these cgroups (absolute paths, parents first); the
# cleanup removes them after the workloads are gone.
cg_make() {
	local _d
	for _d in "$@"; do
		mkdir "$_d" || hard_error "cannot make the cgroup $_d"
		_cgdirs="$_d $_cgdirs"
	done
}

# bg_start_in NAME CGROUP CMD...: bg_start CMD inside the cgroup directory
# CGROUP (the shell moves itself there, then execs: $BG_PID is the
# workload).
bg_start_in() {
	local _n=$1 _c=$2
	shift 2
	bg_start "$_n" sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' \
		sh "$_c" "$@"
}

# json_as_then WANT GOT: GOT's samples (one a line) are WANT's, written by
# an earlier stalltop: line for line every key of WANT with its value,
# and in GOT no other key but those whose value is null (a row has
# every key now, null where not known) and the cgroups the evidence
# names since (cpu_cgroup, mem_cgroup, io_cgroup, states_cgroup). Says
# the first difference and returns 1.
json_as_then() {
	jq -n -r --slurpfile w "$1" --slurpfile g "$2" '
	  ["cpu_cgroup", "mem_cgroup", "io_cgroup", "states_cgroup"] as $new
	  | def diff($a; $b; $at):
	      if ($a | type) == "object" and ($b | type) == "object" then
	        first(($a | keys[]) as $k | diff($a[$k]; $b[$k]; "\($at).\($k)")),
	        first(($b | keys[]) as $k
	              | select(($a | has($k) | not) and $b[$k] != null and
	                       ($new | index($k) | not))
	              | "\($at).\($k): \($b[$k] | tojson | .[:80]), a key not written then")
	      elif ($a | type) == "array" and ($b | type) == "array" then
	        if ($a | length) != ($b | length)
	        then "\($at): \($b | length) elements, then \($a | length)"
	        else first(range($a | length) as $i | diff($a[$i]; $b[$i]; "\($at)[\($i)]")) end
	      elif $a == $b then empty
	      else "\($at): \($b | tojson | .[:80]), then \($a | tojson | .[:80])" end;
	  if ($w | length) != ($g | length)
	  then "\($g | length) samples, then \($w | length)"
	  else first(range($w | length) as $i | diff($w[$i]; $g[$i]; "sample \($i + 1)")) end' |
		grep . && return 1
	return 0
}

# quota_spinner CGROUP: a new v1 cpu cgroup (cg_make) with a quota of
# 20 ms in every 100 ms, and a spinner (wl_spin) in it, started as
# "quota" and ready; its pid in $q
quota_spinner() {
	cg_make "$1"
	echo 100000 >"$1/cpu.cfs_period_us" || hard_error "cannot set the period"
	echo 20000 >"$1/cpu.cfs_quota_us" || hard_error "cannot set the quota"
	bg_start_in quota "$1" "$WL/wl_spin"
	q=$BG_PID
	wait_for has_line "$TMP/quota.out" ready
}

# exe_for NAME: $EXE, a stalltop that user NAME may run: the build's, or
# a copy in a directory of /var/tmp (a build tree under a private
# directory such as /root is out of reach), which the cleanup removes
exe_for() {
	local _d
	EXE=$STALLTOP
	setpriv --reuid="$1" --regid="$1" --clear-groups test -x "$EXE" && return
	_d=$(mktemp -d "/var/tmp/stalltop-$TEST_NAME.XXXXXX") ||
		hard_error "cannot make a directory in /var/tmp"
	_extra_dirs="$_extra_dirs $_d"
	chmod 755 "$_d" && cp "$STALLTOP" "$_d/stalltop" && chmod 755 "$_d/stalltop" ||
		hard_error "cannot copy stalltop to $_d"
	EXE=$_d/stalltop
	setpriv --reuid="$1" --regid="$1" --clear-groups test -x "$EXE" ||
		hard_error "user $1 cannot run $EXE either"
	note "user $1 cannot reach $STALLTOP: running a copy, $EXE"
}

# v1_mount CONTROLLER: where the cgroup v1 hierarchy of CONTROLLER is
# mounted (the first mountinfo line of type cgroup whose super options
# name it); nothing where none is.
v1_mount() {
	awk -v c="$1" '{ for (i = 7; i <= NF; i++) if ($i == "-") {
		if ($(i + 1) == "cgroup" && ("," $(i + 3) ",") ~ ("," c ",")) { print $5; exit }
		break } }' /proc/self/mountinfo
}

# v1_blkio_group FILE: IOCG = a new cgroup (cg_make) of the cgroup v1
# hierarchy with the blkio controller, where one is mounted and has FILE
# (blkio.throttle.read_bps_device, ...); false, and nothing made, where not.
v1_blkio_group() {
	local _root
	_root=$(v1_mount blkio)
	[ -n "$_root" ] && [ -e "$_root/$1" ] || return 1
	IOCG=$_root/stalltop-$TEST_NAME-$$
	cg_make "$IOCG"
}

# --- tasks ---

# all_asleep PID N: N threads of process PID sleep (state S).
all_asleep() {
	[ "$(cat /proc/"$1"/task/*/stat 2>/dev/null | awk '{ sub(/.*\) /, ""); print $1 }' |
		grep -c S)" -eq "$2" ]
}

# --- extracting data ---

# jq_get VAR WHAT FILE [jq options...] FILTER: VAR = FILTER's raw output
# over FILE. Fails the test (saying WHAT) when jq fails, or finds nothing:
# no output, null, an empty array or object. (A fail inside a command
# substitution stops the test only at the next note or expect, see fail;
# this one stops it at once.)
jq_get() {
	local _var=$1 _what=$2 _file=$3 _out
	shift 3
	_out=$(jq -r "$@" "$_file" 2>"$TMP/jq_get.err") ||
		fail "$_what: jq failed ($?) on $_file: $(cat "$TMP/jq_get.err")"
	case $_out in
	"" | null | "[]" | "{}")
		fail "$_what: nothing in $_file (jq gave '$_out')" ;;
	esac
	eval "$_var=\$_out"
}

# --- making the machine ready ---

# settle_memory: memory as a test of memory stalls needs it, whatever
# ran before: dirty pages written back, the page cache and slab dropped
# (what earlier tests read is not this test's to reclaim), memory
# compacted (free memory in large blocks again, not the pieces an earlier
# load left), then a bounded wait (10 s) until no task stalls on memory
# any more (the "some" total of /proc/pressure/memory moves by less than
# 1 % of 200 ms). Not settling in time is noted, not failed: the
# workloads are driven until they made what the test needs.
settle_memory() {
	local _a _b _n=0
	sync
	echo 3 >/proc/sys/vm/drop_caches ||
		hard_error "cannot drop the page cache (/proc/sys/vm/drop_caches)"
	if [ -e /proc/sys/vm/compact_memory ]; then
		echo 1 >/proc/sys/vm/compact_memory ||
			hard_error "cannot compact memory (/proc/sys/vm/compact_memory)"
	fi
	[ -r /proc/pressure/memory ] || return 0
	_b=$(_memory_stall_us)
	while [ $_n -lt 50 ]; do
		_a=$_b
		sleep 0.2
		_b=$(_memory_stall_us)
		[ $((_b - _a)) -lt 2000 ] && break
		_n=$((_n + 1))
	done
	if [ $_n -ge 50 ]; then
		note "memory did not settle in 10 s (tasks still stalled $(((_b - _a) / 2000)) % of the last 200 ms); going on"
	fi
	return 0
}

# the "some" stall total of /proc/pressure/memory, in microseconds
_memory_stall_us() {
	sed -n 's/^some .*total=\([0-9]*\).*/\1/p' /proc/pressure/memory
}

# cpu_steal VAR CPU: VAR = the time the hypervisor has taken from CPU
# (number) so far, in seconds (the steal column of /proc/stat). The task
# running there while it is stolen neither runs (its sum_exec_runtime
# stands still) nor waits for the CPU (its run_delay does not grow): a
# check that a busy task's run time and cpu delay add up to the interval
# must allow for it.
cpu_steal() {
	local _ticks
	_ticks=$(awk -v c="cpu$2" '$1 == c { print $9 }' /proc/stat)
	case $_ticks in
	'' | *[!0-9]*) fail "no steal time for cpu$2 in /proc/stat: $(grep "^cpu$2 " /proc/stat)" ;;
	esac
	eval "$1=\$(awk -v t=\"\$_ticks\" -v hz=\"\$(getconf CLK_TCK)\" 'BEGIN { print t / hz }')"
}
