# SPDX-License-Identifier: GPL-2.0-or-later
# The accuracy tests (tests/live/accuracy_*.sh): stalltop's per-interval
# figures against an independent reading of the kernel's own counters.
#
#   . "$top_srcdir/tests/lib/functions.sh"
#   . "$top_srcdir/tests/lib/accuracy.sh"
#   acc_init                       # live_init, python3
#   acc_run st process "$pid" -d 0.5 -n 8
#   acc_compare st                 # one line per task and category
#   acc_require st cpu 20          # the workload really made cpu delay
#   acc_report st                  # notes; fails on any FAIL line
#
# How the windows line up. acc_run starts stalltop -b --json writing into
# a FIFO; tests/lib/taskstats_ref.py reads the samples from it and, the
# moment sample N arrives, takes its own taskstats reading of the same
# tasks (TGID queries for process rows, PID queries for thread rows), then
# passes the sample on to $TMP/NAME.out. stalltop takes its reading for
# sample N, builds the rows and prints them; the reference reads a
# fraction of a millisecond later, a few at most (its "lag" after the
# sample's time is in $TMP/NAME.ref.out). So reading N of the reference closes the same
# interval as sample N, a little later. Sample 1 covers the interval from
# stalltop's baseline, which no reading of ours can match: the window is
# samples 2..N, against the reference's readings at lines 1 and N.
#
# What may differ. Both read the same counters, so over the window they
# differ only by what happened between stalltop's reading and ours, at
# either end: for a rate, at most (2 x lag x tasks-worth of delay + one
# wait that ended in that gap) / window. A kernel wait counts when it
# ends, so a wait ending in the gap moves wholly from one side to the
# other: at most the longest wait (IO here: milliseconds) per end. With
# lags below a few milliseconds, waits of milliseconds and windows of
# seconds, that is well under 1 percentage point (measured here: within
# 0.1 points in every category, in every run). The tolerance is the
# one the figures are promised to: 5 percentage points, 10 % of the
# figure above 50 % (a process's figure may exceed 100 %). A figure from
# the wrong base, a lost or doubled interval, the wrong interval length
# or another category's counter is off by far more. acc_compare also
# checks the window itself: stalltop's intervals must add up to the
# reference's time between its readings within 30 % of one interval (the
# reader's own lag on a loaded machine, measured up to 75 ms; an interval
# lost or counted twice is a whole one off).

ACC_REF="$top_srcdir/tests/lib/taskstats_ref.py"
ACC_CATS="cpu io swap reclaim thrashing compact wpcopy irq"

acc_init() {
	live_init
	need_cmd python3 mkfifo
	# categories this kernel never measures: {"key": "why"}
	ACC_LACKING='{}'
	if ! irq_time_accounting; then
		ACC_LACKING=$(jq -n -c --arg why "$IRQ_WHY" '{irq: $why}')
	fi
}

# irq_time_accounting: whether the kernel measures time stolen by
# interrupts (CONFIG_IRQ_TIME_ACCOUNTING, which also makes
# /proc/pressure/irq); sets IRQ_WHY when not.
irq_time_accounting() {
	local _cfg=
	if [ -r /proc/config.gz ]; then
		_cfg=$(zcat /proc/config.gz 2>/dev/null | grep '^CONFIG_IRQ_TIME_ACCOUNTING=y')
		[ -n "$_cfg" ] && return 0
		IRQ_WHY="this kernel has no CONFIG_IRQ_TIME_ACCOUNTING (/proc/config.gz): it never measures irq delay"
		return 1
	fi
	if [ -r "/boot/config-$(uname -r)" ]; then
		grep -q '^CONFIG_IRQ_TIME_ACCOUNTING=y' "/boot/config-$(uname -r)" && return 0
		IRQ_WHY="this kernel has no CONFIG_IRQ_TIME_ACCOUNTING (/boot/config-$(uname -r)): it never measures irq delay"
		return 1
	fi
	[ -e /proc/pressure/irq ] && return 0
	if [ -e /proc/pressure/cpu ]; then
		IRQ_WHY="no /proc/pressure/irq: this kernel has no CONFIG_IRQ_TIME_ACCOUNTING"
		return 1
	fi
	return 0 # cannot tell: compare it like the others
}

# acc_run NAME process|threads PID[,PID...] STALLTOP_ARGS...: stalltop
# -b --json -p PIDS (with -H for threads) STALLTOP_ARGS (give it -n), with
# a reference reading after each sample. Samples in $TMP/NAME.out,
# readings in $TMP/NAME.ref.out. Returns when both have ended.
acc_run() {
	local _n=$1 _mode=$2 _pids=$3 _h= _ref _st
	shift 3
	[ "$_mode" = threads ] && _h=-H
	rm -f "$TMP/$_n.fifo" "$TMP/$_n.out" "$TMP/$_n.ref.out"
	mkfifo "$TMP/$_n.fifo" || hard_error "cannot make a FIFO in $TMP"
	# shellcheck disable=SC2046 # the pid list, one argument each
	bg_start "$_n.ref" python3 "$ACC_REF" follow \
		$([ "$_mode" = threads ] && echo --threads) \
		--input "$TMP/$_n.fifo" --tee "$TMP/$_n.out" $(echo "$_pids" | tr , ' ')
	_ref=$BG_PID
	bg_start "$_n.st" sh -c 'f=$1; shift; exec "$@" >"$f"' sh "$TMP/$_n.fifo" \
		"$STALLTOP" -b --json $_h -p "$_pids" "$@"
	_st=$BG_PID
	bg_wait "$_st" || fail "stalltop $_h -p $_pids $* exited $?: $(cat "$TMP/$_n.st.err")"
	bg_wait "$_ref" || fail "the reference reader exited $?: $(cat "$TMP/$_n.ref.err")"
	[ -s "$TMP/$_n.out" ] || fail "stalltop wrote no samples: $(cat "$TMP/$_n.st.err")"
	check_json "$TMP/$_n.out"
}

# acc_compare NAME: the window (samples 2..last) of every task the
# reference read at both of its ends, category by category, into
# $TMP/NAME.cmp, one line each:
#   ok ID CAT stalltop X reference Y diff D tolerance T interval_max E
#   skip ID CAT: why
#   FAIL ...
# (X, Y in % of the window; E = the largest per-sample difference, for
# information: a single interval's ends can each move a wait across).
acc_compare() {
	jq -n -r --slurpfile st "$TMP/$1.out" --slurpfile ref "$TMP/$1.ref.out" \
		--argjson lacking "$ACC_LACKING" --arg cats "$ACC_CATS" '
def r3: . * 1000 | round / 1000;
def tol($r): if $r > 50 then 0.1 * $r else 5 end;
($st | length) as $n
| ($ref | map({key: (.line | tostring), value: .}) | from_entries) as $R
| if $n < 3 then "FAIL only \($n) samples: no window to compare"
  elif $R["1"] == null or $R["\($n)"] == null
  then "FAIL the reference has no reading after sample 1 or \($n)"
  else
  $R["1"] as $r0 | $R["\($n)"] as $r1
  | $st[1:] as $win                       # samples 2..n
  | ($r1.mono - $r0.mono) as $wall
  | ($win | map(.interval) | add) as $span
  | (if ($span - $wall | fabs) > 0.3 * $span / ($win | length)
     then "FAIL window: stalltop'"'"'s intervals add up to \($span) s, the reference read \($wall) s apart"
     else empty end),
    ("window \($win | length) samples, \($span | r3) s; reference \($wall | r3) s; lag max \([$ref[].lag // 0] | max * 1000 | r3) ms"),
    ($r0.tasks | keys[] | select($r1.tasks[.] != null)) as $k
    | ($k | tonumber) as $id
    | [$win[] | [(.tasks + .exited)[] | select(.pid == $id)][0]] as $rows
    | if any($rows[]; . == null)
      then "FAIL \($id): missing from sample(s) \([range(0; $rows | length) | select($rows[.] == null) + 2])"
      else
      ($cats | split(" ")[]) as $c
      | [$rows[] | .delay[$c].pct] as $p
      | $r0.tasks[$k].delay[$c] as $d0 | $r1.tasks[$k].delay[$c] as $d1
      | if $d0 == null or $d1 == null then
          (if all($p[]; . == null)
           then "skip \($id) \($c): taskstats version \($r1.tasks[$k].version) has no such field"
           else "FAIL \($id) \($c): taskstats version \($r1.tasks[$k].version) has no such field, stalltop shows \($p)" end)
        elif $lacking[$c] != null then
          (if all($p[]; . == null) and $d1 == $d0
           then "skip \($id) \($c): \($lacking[$c]) (stalltop shows null)"
           else "FAIL \($id) \($c): \($lacking[$c]), yet stalltop shows \($p) and the kernel moved it by \($d1 - $d0) ns" end)
        elif any($p[]; . == null) then
          "FAIL \($id) \($c): stalltop has no figure in sample(s) \([range(0; $p | length) | select($p[.] == null) + 2]) (dropped: \([$rows[] | .dropped // [] | .[]] | unique))"
        else
          (100 * ($d1 - $d0) / 1e9 / $wall) as $want
          | (100 * ([range(0; $rows | length) | $p[.] * $win[.].interval / 100] | add) / $span) as $got
          | ([range(0; $rows | length)
              | ($R["\(. + 1)"].tasks[$k].delay[$c]) as $a | ($R["\(. + 2)"].tasks[$k].delay[$c]) as $b
              | ($R["\(. + 2)"].mono - $R["\(. + 1)"].mono) as $dt
              | select($a != null and $b != null)
              | (100 * ($b - $a) / 1e9 / $dt - $p[.]) | fabs] | max // 0) as $emax
          | (if ($got - $want | fabs) > tol($want) then "FAIL" else "ok" end)
            + " \($id) \($c) stalltop \($got | r3) reference \($want | r3) diff \($got - $want | r3) tolerance \(tol($want) | r3) interval_max \($emax | r3)"
        end
      end
  end'  >"$TMP/$1.cmp" || fail "the comparison (jq) failed"
}

# acc_require NAME CAT MIN [ID]: the reference saw at least MIN % of CAT
# delay in the window (for every task, or task ID): the workload made
# what the test is about, so the comparison means something.
acc_require() {
	local _bad
	_bad=$(awk -v c="$2" -v min="$3" -v id="${4:-}" '
		$1 == "ok" || $1 == "FAIL" {
			if ($3 == c && (id == "" || $2 == id)) {
				seen = 1
				if ($7 + 0 < min + 0) print "task " $2 ": only " $7 " % of " c " delay (want >= " min ")"
			}
		}
		END { if (!seen) print "no " c " figure of " (id == "" ? "any task" : "task " id) " was compared" }' \
		"$TMP/$1.cmp")
	[ -z "$_bad" ] || fail "the workload made too little to check: $_bad"
}

# acc_report NAME: every line of the comparison as a note; fail on any
# FAIL line.
acc_report() {
	local _l
	while IFS= read -r _l; do
		note "$1: $_l"
	done <"$TMP/$1.cmp"
	if grep -q '^FAIL' "$TMP/$1.cmp"; then
		fail "$1: stalltop and the kernel's counters disagree: $(grep '^FAIL' "$TMP/$1.cmp" | head -5)"
	fi
	return 0
}

# acc_check NAME process|threads PID[,PID...] STALLTOP_ARGS...: acc_run,
# acc_compare and acc_report in one.
acc_check() {
	acc_run "$@"
	acc_compare "$1"
	acc_report "$1"
}

# --- memory cgroups and swap ---

# memcg_make LIMIT_MIB SWAP_MIB: MEMCG = a new memory cgroup holding at
# most LIMIT_MIB MiB of memory and SWAP_MIB MiB in swap besides: under a
# cgroup v1 memory hierarchy memory.limit_in_bytes and, where swap is
# accounted, memory.memsw.limit_in_bytes (memory + swap); under v2
# memory.max and memory.swap.max. Skips when neither has a memory
# controller we may use.
memcg_make() {
	local _v1
	_v1=$(awk '{ for (i = 7; i <= NF; i++) if ($i == "-") {
			if ($(i + 1) == "cgroup" && $(i + 3) ~ /(^|,)memory(,|$)/) print $5; break } }' \
		/proc/self/mountinfo | head -n 1)
	if [ -n "$_v1" ]; then
		MEMCG=$_v1/stalltop-$TEST_NAME-$$
		cg_make "$MEMCG"
		echo $(($1 << 20)) >"$MEMCG/memory.limit_in_bytes" ||
			hard_error "cannot limit $MEMCG to $1 MiB"
		if [ -e "$MEMCG/memory.memsw.limit_in_bytes" ]; then
			echo $((($1 + $2) << 20)) >"$MEMCG/memory.memsw.limit_in_bytes" ||
				hard_error "cannot limit $MEMCG's memory + swap"
		fi
		return 0
	fi
	cg_root
	grep -qw memory "$V2/cgroup.subtree_control" 2>/dev/null ||
		skip "no memory controller: no cgroup v1 memory hierarchy, and memory is not enabled in $V2/cgroup.subtree_control"
	MEMCG=$V2/stalltop-$TEST_NAME-$$
	cg_make "$MEMCG"
	echo $(($1 << 20)) >"$MEMCG/memory.max" || hard_error "cannot limit $MEMCG to $1 MiB"
	if [ -e "$MEMCG/memory.swap.max" ]; then
		echo $(($2 << 20)) >"$MEMCG/memory.swap.max" ||
			hard_error "cannot limit $MEMCG's swap"
	fi
}

# memcg_service LIMIT_MIB: a cgroup named like a systemd service on a
# hybrid host, as systemd makes one there: SERVICE=stalltop-TEST-PID
# .service, SVC_PATH=/$SERVICE, the same path in the v1 memory hierarchy
# (limited to LIMIT_MIB MiB, no swap) and in the controller-less v2 one
# (its pressure), both in SVC_DIRS for bg_start_in_all, the v1 one in
# MEMCG. Skips where the host is not hybrid.
memcg_service() {
	local _v1
	_v1=$(awk '{ for (i = 7; i <= NF; i++) if ($i == "-") {
			if ($(i + 1) == "cgroup" && $(i + 3) ~ /(^|,)memory(,|$)/) print $5; break } }' \
		/proc/self/mountinfo | head -n 1)
	cg_root
	[ -n "$_v1" ] ||
		skip "not a hybrid host: no cgroup v1 memory hierarchy next to the v2 one at $V2"
	SERVICE=stalltop-$TEST_NAME-$$.service
	SVC_PATH=/$SERVICE
	MEMCG=$_v1$SVC_PATH
	cg_make "$MEMCG" "$V2$SVC_PATH"
	echo $(($1 << 20)) >"$MEMCG/memory.limit_in_bytes" ||
		hard_error "cannot limit $MEMCG to $1 MiB"
	if [ -e "$MEMCG/memory.memsw.limit_in_bytes" ]; then
		echo $(($1 << 20)) >"$MEMCG/memory.memsw.limit_in_bytes" ||
			hard_error "cannot limit $MEMCG's memory + swap"
	fi
	SVC_DIRS="$MEMCG $V2$SVC_PATH"
}

# bg_start_in_all NAME "DIR..." CMD...: bg_start CMD inside each of these
# cgroup directories (one per hierarchy).
bg_start_in_all() {
	local _n=$1 _c=$2
	shift 2
	bg_start "$_n" sh -c 'for d in $1; do echo $$ >"$d/cgroup.procs" || exit 1; done
		shift; exec "$@"' sh "$_c" "$@"
}

# swap_on MIB: make sure swap is on. When none is active, swap on
# /dev/zram0 (disksize MIB; the cleanup turns it off and resets the
# device). Skips when there is none and the kernel has no zram.
swap_on() {
	local _z=/sys/block/zram0
	[ -r /proc/swaps ] || skip "this kernel has no swap (no /proc/swaps)"
	if [ "$(tail -n +2 /proc/swaps | wc -l)" -gt 0 ]; then
		note "swap is on already: $(tail -n +2 /proc/swaps | awk '{ printf "%s ", $1 }')"
		return 0
	fi
	need_cmd mkswap swapon swapoff
	if [ ! -e "$_z" ]; then
		modprobe zram 2>/dev/null && at_cleanup 'modprobe -r zram 2>/dev/null'
		[ -e "$_z" ] || skip "no swap is on and this kernel has no zram to swap on"
	fi
	[ "$(cat "$_z/initstate")" = 0 ] ||
		hard_error "/dev/zram0 is set up but is no swap: in use? (echo 1 >$_z/reset frees it)"
	at_cleanup "swapoff /dev/zram0 2>/dev/null; echo 1 >$_z/reset"
	echo "${1}M" >"$_z/disksize" || hard_error "cannot size /dev/zram0"
	mkswap /dev/zram0 >"$TMP/mkswap.out" 2>&1 || hard_error "mkswap /dev/zram0: $(cat "$TMP/mkswap.out")"
	swapon /dev/zram0 || hard_error "swapon /dev/zram0 failed"
	note "swap on /dev/zram0 ($1 MiB, $(cat "$_z/comp_algorithm" | sed 's/.*\[\(.*\)\].*/\1/'))"
}
