# SPDX-License-Identifier: GPL-2.0-or-later
# The accuracy tests (tests/live/accuracy_*.sh): stalltop's per-interval
# figures against an independent reading of the kernel's own counters.
#
#   . "$top_srcdir/tests/lib/functions.sh"
#   . "$top_srcdir/tests/lib/accuracy.sh"
#   acc_init                       # live_init, python3
#   ACC_UNTIL="io:50" acc_run st process "$pid" -d 0.5 -n 24
#   acc_compare st                 # one line per task and category
#   acc_require st io 50           # the workload really made io delay
#   acc_report st                  # notes; fails on any FAIL line
#
# How the windows line up. acc_run starts stalltop -b --json writing into
# a FIFO; tests/lib/taskstats_ref.py reads the samples from it and, the
# moment sample N arrives, takes its own taskstats reading of the same
# tasks (TGID queries for process rows, PID queries for thread rows), then
# passes the sample on to $TMP/NAME.out. stalltop takes its reading for
# sample N, builds the rows and prints them; the reference reads a
# fraction of a millisecond later, a few at most (its "lag" after the
# sample's time is in $TMP/NAME.ref.out; both run at nice -20, so that a
# workload keeping the CPUs busy cannot stretch it). So reading N of the
# reference closes the same interval as sample N, a little later. Sample
# 1 covers the interval from stalltop's baseline, which no reading of
# ours can match: the window is samples S+1..N, against the reference's
# readings at lines S and N (S = 1, or with ACC_UNTIL where the window
# that had enough began).
#
# What may differ. Both read the same counters, so over the window they
# differ only by what happened between stalltop's reading and ours, at
# either end: for a rate, at most (2 x lag x tasks-worth of delay + one
# wait that ended in that gap) / window. A kernel wait counts when it
# ends, so a wait ending in the gap moves wholly from one side to the
# other: at most the longest wait per end. With lags below a few
# milliseconds and windows of seconds, that is well under 1 percentage
# point but for a long wait. Measured here, over the windows of every
# accuracy test and total_nested.sh, 8 runs each (quiet, sanitizer
# build, beside two busy loops, both), stalltop minus the reference:
# cpu within 0.13 points, io 0.05, swap 0.004, thrashing 0.09, compact
# 0.01, wpcopy 0.05, cpu_pct 0.13 (at 82 %), total_pct 0.01; within
# 0.6 % of the figure. And reclaim within 0.06, but once 0.91 (at
# 69 %, accuracy_swap): one reclaim pass of 33 ms (two threads throttled
# in a small cgroup) ended in the gap at the window's start.
# The tolerance: 1 percentage point or 3 % of the figure, whichever is
# more (4 times the largest difference measured but that one, 5 times
# the largest share of a figure). A wait long enough to pass it lands in
# the window's first or last interval, so a figure off over the whole
# window is judged again without those two: it fails only when it is off
# over both (a gap each, at two readings, would have to catch a long
# wait). A figure from the wrong base, a lost or doubled interval, the
# wrong interval length or another category's counter is off in both by
# far more, and so is one 5 % off: a percentage x 1.09 or an interval x
# 0.92 is 9 % of the figure, 3 times the tolerance for any figure of 11 %
# or more, which each category a test requires (acc_require) is.
# acc_compare also checks the window itself: stalltop's intervals must
# add up to the reference's time between its readings within 30 % of one
# interval (the reader's own lag on a loaded machine, measured up to
# 75 ms; an interval lost or counted twice is a whole one off, one 8 %
# short in a 3.5 s window 0.28 s).

ACC_REF="$top_srcdir/tests/lib/taskstats_ref.py"
ACC_CATS="cpu io swap reclaim thrashing compact wpcopy irq"
# nice -20 for the shell and what it execs, and its autogroup (a new
# session's, as bg_start makes it: between sessions, the group's nice
# decides)
ACC_URGENT='renice -n -20 -p $$ >/dev/null && { echo -20 >/proc/self/autogroup || true; }'

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
# With ACC_UNTIL="CAT:MIN ..." set, -n is the most samples: the workload
# is driven until the reference saw every task wait at least MIN % of the
# window in each CAT, over at least ACC_MIN_SAMPLES samples (default 8),
# and then stalltop is stopped (SIGTERM: it must end with status 0). A
# workload slow to get going (a loaded machine, a cache to turn over)
# then gets more time instead of a window too weak to judge; one that
# never gets there fails acc_require with what it reached.
acc_run() {
	local _n=$1 _mode=$2 _pids=$3 _h= _ref _st _u _until=
	shift 3
	[ "$_mode" = threads ] && _h=-H
	rm -f "$TMP/$_n.fifo" "$TMP/$_n.out" "$TMP/$_n.ref.out"
	echo "$_mode $_pids" >"$TMP/$_n.what"
	for _u in ${ACC_UNTIL:-}; do
		_until="$_until --until $_u"
	done
	mkfifo "$TMP/$_n.fifo" || hard_error "cannot make a FIFO in $TMP"
	# both at nice -20, as the workloads are: neither may wait for a CPU
	# between a sample and its reading while a workload keeps both busy
	# shellcheck disable=SC2046,SC2086 # the pid list, one argument each
	bg_start "$_n.ref" sh -c "$ACC_URGENT"'; exec "$@"' sh python3 "$ACC_REF" follow \
		$([ "$_mode" = threads ] && echo --threads) $_until \
		--min-lines "${ACC_MIN_SAMPLES:-8}" \
		--input "$TMP/$_n.fifo" --tee "$TMP/$_n.out" $(echo "$_pids" | tr , ' ')
	_ref=$BG_PID
	bg_start "$_n.st" sh -c "$ACC_URGENT"'; f=$1; shift; exec "$@" >"$f"' sh "$TMP/$_n.fifo" \
		"$STALLTOP" -b --json $_h -p "$_pids" "$@"
	_st=$BG_PID
	if [ -n "$_until" ]; then
		# bounded by stalltop's -n: it ends by itself at the latest
		wait_for -t 120 _acc_enough "$TMP/$_n.ref.out" "$_st"
		if running "$_st"; then
			bg_stop "$_st" ||
				fail "stalltop $_h -p $_pids $* exited $? on SIGTERM: $(cat "$TMP/$_n.st.err")"
		else
			bg_wait "$_st" || fail "stalltop $_h -p $_pids $* exited $?: $(cat "$TMP/$_n.st.err")"
		fi
	else
		bg_wait "$_st" || fail "stalltop $_h -p $_pids $* exited $?: $(cat "$TMP/$_n.st.err")"
	fi
	bg_wait "$_ref" || fail "the reference reader exited $?: $(cat "$TMP/$_n.ref.err")"
	[ -s "$TMP/$_n.out" ] || fail "stalltop wrote no samples: $(cat "$TMP/$_n.st.err")"
	check_json "$TMP/$_n.out"
	note "$_n: $(lines "$TMP/$_n.out") samples${_until:+ (until ${ACC_UNTIL})}"
}

# the reference saw enough, or stalltop ended
_acc_enough() { has_line "$1" '"enough": true' || not_running "$2"; }

# acc_compare NAME: the window (samples 2..last; with ACC_UNTIL, the
# samples after the reading the reference's "enough" counts from) of every
# task the reference read at both of its ends, category by category, and
# its cpu_pct (against the kernel's cpu_run_virtual_total, the scheduler's
# run time that stalltop shows), into $TMP/NAME.cmp, one line each:
#   ok ID CAT stalltop X reference Y diff D tolerance T interval_max E
#   skip ID CAT: why
#   FAIL ...
# (X, Y in % of the window; E = the largest per-sample difference, for
# information: a single interval's ends can each move a wait across).
# Every process given to acc_run must have been read at both ends (with
# threads: some thread of it), or the comparison proves nothing.
# The tolerance: 1 point or 3 % of the figure (see the top of this file
# for the figures it comes from).
acc_compare() {
	local _mode _pids
	read -r _mode _pids <"$TMP/$1.what" || hard_error "acc_compare $1 before acc_run $1"
	jq -n -r --slurpfile st "$TMP/$1.out" --slurpfile ref "$TMP/$1.ref.out" \
		--argjson lacking "$ACC_LACKING" --arg cats "$ACC_CATS" \
		--arg mode "$_mode" --arg pids "$_pids" '
def r3: . * 1000 | round / 1000;
def tol($r): [1, 0.03 * ($r | fabs)] | max;
($st | length) as $n
| ($ref | map({key: (.line | tostring), value: .}) | from_entries) as $R
# the window: from reading $s0 to reading $n (samples $s0 + 1 .. $n)
| ([$ref[] | select(.enough) | .from] | first // 1) as $s0
| if $n < $s0 + 2 then "FAIL only \($n) samples: no window to compare"
  elif $R["\($s0)"] == null or $R["\($n)"] == null
  then "FAIL the reference has no reading after sample \($s0) or \($n)"
  else
  $R["\($s0)"] as $r0 | $R["\($n)"] as $r1
  | $st[$s0:] as $win                     # samples s0+1..n
  | ($r1.mono - $r0.mono) as $wall
  | ($win | map(.interval) | add) as $span
  # one figure: stalltop (per sample of the window: $p) against the
  # reference, whose counter get(reading) gives. fig($a; $b): both over
  # the part of the window between readings $a and $b.
  | def judge($id; $c; $p; get):
      def fig($a; $b):
        [range($a - $s0; $b - $s0)] as $j
        | ($R["\($a)"].tasks["\($id)"] | get) as $ca
        | ($R["\($b)"].tasks["\($id)"] | get) as $cb
        | {got: (100 * ([$j[] | $p[.] * $win[.].interval / 100] | add)
                 / ([$j[] | $win[.].interval] | add)),
           want: (if $ca == null or $cb == null then null
                  else 100 * ($cb - $ca) / 1e9 / ($R["\($b)"].mono - $R["\($a)"].mono) end)}
        | . + {off: (.want != null and ((.got - .want) | fabs) > tol(.want))};
      fig($s0; $n) as $w
      | (if $n - $s0 >= 5 then fig($s0 + 1; $n - 1) else null end) as $in
      | ([range(0; $p | length)
          | ($R["\(. + $s0)"].tasks["\($id)"] | get) as $a
          | ($R["\(. + $s0 + 1)"].tasks["\($id)"] | get) as $b
          | ($R["\(. + $s0 + 1)"].mono - $R["\(. + $s0)"].mono) as $dt
          | select($a != null and $b != null)
          | (100 * ($b - $a) / 1e9 / $dt - $p[.]) | fabs] | max // 0) as $emax
      | (if $w.off and ($in == null or $in.off) then "FAIL" else "ok" end)
        + " \($id) \($c) stalltop \($w.got | r3) reference \($w.want | r3) diff \($w.got - $w.want | r3) tolerance \(tol($w.want) | r3) interval_max \($emax | r3)"
        + (if $w.off and $in != null
           then "; without the first and last interval: stalltop \($in.got | r3) reference \($in.want | r3) diff \($in.got - $in.want | r3) tolerance \(tol($in.want) | r3)"
           else "" end);
  [$r0.tasks | keys[] | select($r1.tasks[.] != null)] as $both
  | (if ($span - $wall | fabs) > 0.3 * $span / ($win | length)
     then "FAIL window: stalltop'"'"'s intervals add up to \($span) s, the reference read \($wall) s apart"
     else empty end),
    (if ($both | length) == 0
     then "FAIL no task was read at both ends of the window (first reading: \($r0.tasks | keys), last: \($r1.tasks | keys))"
     elif $mode == "process"
     then ($pids | split(",")[] | select(. as $p | $both | index([$p]) | not)
           | "FAIL \(.): the reference did not read it at both ends of the window")
     else empty end),
    ("window samples \($s0 + 1)..\($n), \($span | r3) s; reference \($wall | r3) s; lag max \([$ref[].lag // 0] | max * 1000 | r3) ms"),
    ($both[] as $k
    | ($k | tonumber) as $id
    | [$win[] | [(.tasks + .exited)[] | select(.pid == $id)][0]] as $rows
    | if any($rows[]; . == null)
      then "FAIL \($id): missing from sample(s) \([range(0; $rows | length) | select($rows[.] == null) + $s0 + 1])"
      else
      (($cats | split(" ")[]) as $c
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
          "FAIL \($id) \($c): stalltop has no figure in sample(s) \([range(0; $p | length) | select($p[.] == null) + $s0 + 1]) (dropped: \([$rows[] | .dropped // [] | .[]] | unique))"
        else
          judge($id; $c; $p; .delay[$c])
        end),
      ([$rows[] | .cpu_pct] as $p
      | if any($p[]; . == null)
        then "FAIL \($id) cpu_pct: stalltop has no figure in sample(s) \([range(0; $p | length) | select($p[.] == null) + $s0 + 1])"
        else
          judge($id; "cpu_pct"; $p; .run_virtual)
        end)
      end)
  end' >"$TMP/$1.cmp" 2>"$TMP/$1.cmp.err" ||
		fail "the comparison of $1 (jq) failed: $(cat "$TMP/$1.cmp.err")"
	grep -q '^\(ok\|FAIL\) ' "$TMP/$1.cmp" ||
		fail "$1: nothing was compared: $(cat "$TMP/$1.cmp")"
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
		"$TMP/$1.cmp") || fail "acc_require: awk failed on $TMP/$1.cmp"
	[ -z "$_bad" ] ||
		fail "the workload made too little to check ($(grep '^window' "$TMP/$1.cmp")): $_bad"
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
	_v1=$(v1_mount memory)
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
	_v1=$(v1_mount memory)
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
