#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The evidence is read only for the shown processes that stall, never for
# every task at every refresh. Under strace (the files opened):
#  - stalltop -b -o on this machine: the processes whose evidence was read
#    are among those the output shows with a "why";
#  - stalltop -p on an idle process of ours (sleep), while a spinner under
#    a CPU quota stalls elsewhere: the idle row is in every sample, never
#    with a "why", and no evidence file is opened at all;
#  - with -p on the stalled spinner: the evidence files opened are its own
#    (its /proc/PID and its cgroups, of every hierarchy);
#  - and its status is read once a refresh, the first (when it newly
#    stalls) too: the evidence takes the allowed CPUs from the status its
#    context read (stalltop -n 4 under strace from its start).
. "$top_srcdir/tests/lib/functions.sh"
live_init
need_cmd strace
V1=/sys/fs/cgroup/cpu
[ -e "$V1/cpu.cfs_quota_us" ] ||
	skip "no cgroup v1 cpu controller at $V1 for the stalled spinner"

# What reading evidence opens (src/live/gather.c, src/kernel/kval.c): a
# file relative to a directory descriptor (openat(N, "cpu.stat"),
# openat(N, "1234") for /proc/1234), a cgroup's directory
# (openat(-1, "/sys/fs/cgroup/...")), the process's /proc/PID/cgroup,
# /proc/self/mountinfo and /proc/diskstats. Not /proc/pressure/*, which
# every refresh reads, nor the /proc walks (openat(AT_FDCWD, ...)).
evidence='openat\([0-9]+, |openat\(-1, "/sys/fs/cgroup|"/proc/[0-9]+/cgroup"|"/proc/self/mountinfo"|"/proc/diskstats"'

# The processes whose evidence was read (their /proc/PID opened relative
# to /proc, as only the evidence reader does) are among those the output
# shows with a "why".
TRACE_CALLS=openat trace_stalltop all 10 -o
whys=$(jq -s '[.[] | .tasks[] | select(.why != null)] | length' "$TMP/all.out") ||
	fail "jq cannot read $TMP/all.out"
note "this machine: $whys rows with evidence, $(grep -Ec "$evidence" "$TMP/all.trace") evidence files opened"
jq -s '[.[] | .tasks[] | select(.why != null) | .pid] | unique | .[]' \
	"$TMP/all.out" | sort -u >"$TMP/all.shown" ||
	fail "jq cannot read $TMP/all.out"
sed -n 's/.*openat([0-9]*, "\([0-9][0-9]*\)", O_RDONLY|O_CLOEXEC|O_DIRECTORY.*/\1/p' \
	"$TMP/all.trace" | sort -u >"$TMP/all.read"
extra=$(comm -13 "$TMP/all.shown" "$TMP/all.read" | head -5)
[ -z "$extra" ] || fail "evidence read for processes not shown stalled: $extra"

Q="$V1/stalltop-shown-$$"
quota_spinner "$Q"

# An idle process shown alone: its rows hold no "why", and no evidence
# file at all is opened (the stalled spinner is not shown), only the IO
# counters every shown row's columns take.
bg_start idle sleep 1000
idle=$BG_PID
TRACE_CALLS=openat trace_stalltop idle 10 -p "$idle"
expect "the idle process" "$TMP/idle.out" -s --argjson p "$idle" '
  [.[1:][] | [.tasks[] | select(.pid == $p)]] as $s
  | if ($s | length) < 10 then "only \($s | length) samples"
    else ($s[] | if length != 1 then "the idle process has \(length) rows"
                 elif .[0].why != null then "the idle process has a why: \(.[0].why.causes)"
                 else empty end) end'
# Every shown row's IO counters are read for its RD and WR MiB/s columns
# (/proc/PID opened by its path, then "io" below it): not evidence. Nor
# is /proc/stat (opened relative to /proc), which the query gate reads
# every round while some task of the machine waits on block IO, as on a
# machine that writes (tests/live/proc_reads.sh holds it to once a round).
grep -E "$evidence" "$TMP/idle.trace" | grep -Ev 'openat\([0-9]+, "(io|stat)",' >"$TMP/idle.evidence"
[ -s "$TMP/idle.evidence" ] &&
	fail "nothing shown stalled, yet evidence files were opened: $(head -5 "$TMP/idle.evidence")"

TRACE_CALLS=openat trace_stalltop one 5 -p "$q"
jq -e -s --argjson q "$q" '[.[] | .tasks[] | select(.pid == $q and .why != null)] | length > 0' \
	"$TMP/one.out" >/dev/null || fail "the stalled spinner has no why"
# the pattern above sees the evidence reads when there are some
grep -Eq "$evidence" "$TMP/one.trace" ||
	fail "the spinner's evidence was read, but no open matches the evidence pattern: $(grep -c . "$TMP/one.trace") calls traced"
# every /proc/PID opened for evidence is the spinner's: relative to the
# /proc descriptor, or a file of it by its path
others=$(sed -n 's/.*openat([0-9]*, "\([0-9][0-9]*\)", .*O_DIRECTORY.*/\1/p' "$TMP/one.trace" |
	grep -vx "$q" | sort -u | head -5)
[ -z "$others" ] || fail "the evidence of other processes was read: $others"
others=$(grep -E '"/proc/[0-9]+(/(io|smaps_rollup|cgroup))?"' "$TMP/one.trace" |
	grep -v "/proc/$q[/\"]" | grep -v ENOENT | head -5)
[ -z "$others" ] || fail "evidence of another process was read: $others"
grep -q "\"$Q\"" "$TMP/one.trace" || fail "the spinner's cgroup $Q was not read: $(grep -E "$evidence" "$TMP/one.trace" | head -3)"
# no other cgroup's directory: each one opened is one of the spinner's
# own cgroups (of each v1 hierarchy and of v2, as /proc/PID/cgroup and
# mountinfo give them; a hierarchy's root where it sits in the root)
awk 'NR == FNR { split($0, f, ":"); n = split(f[2], c, ",")
		 for (i = 1; i <= n; i++) path[c[i]] = f[3]
		 if (f[2] == "") path["cgroup2"] = f[3]; next }
	{ for (i = 7; i <= NF; i++) if ($i == "-") break
	  if ($(i + 1) == "cgroup2" && ("cgroup2" in path)) print $5 path["cgroup2"]
	  if ($(i + 1) != "cgroup") next
	  n = split($(i + 3), o, ",")
	  for (j = 1; j <= n; j++) if (o[j] in path) { print $5 path[o[j]]; break } }' \
	"/proc/$q/cgroup" /proc/self/mountinfo | sed 's|/*$||' >"$TMP/own.cgroups"
grep -q -x "$Q" "$TMP/own.cgroups" ||
	fail "the spinner's cgroups are not found: $(tr '\n' ' ' <"$TMP/own.cgroups")"
sed -n 's|.*openat([^,]*, "\(/sys/fs/cgroup/[^"]*\)", .*O_DIRECTORY.*|\1|p' "$TMP/one.trace" |
	sed 's|/*$||' | sort -u | grep -v -x -F -f "$TMP/own.cgroups" | head -5 >"$TMP/other.cgroups"
[ -s "$TMP/other.cgroups" ] &&
	fail "cgroups other than the spinner's were read: $(tr '\n' ' ' <"$TMP/other.cgroups") (its own: $(tr '\n' ' ' <"$TMP/own.cgroups"))"

# its status (opened relative to its /proc/PID: context and evidence
# alike; libproc2's first read names it by path) once in each of the 4
# refreshes: it runs in each, so its context is read in each; and once
# with the baseline, whose reading of its evidence is the first
# interval's base (it stalls in the short interval before it)
# (LeakSanitizer cannot run under ptrace: the other runs check leaks)
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	timeout 60 strace -f -e trace=openat -o "$TMP/once.trace" \
	"$STALLTOP" -b --json -n 4 -d 0.3 -p "$q" >"$TMP/once.out" 2>"$TMP/once.err" ||
	hard_error "stalltop -n 4 under strace failed: $(tail -n 3 "$TMP/once.err")"
jq -e -s --argjson q "$q" '[.[] | .tasks[] | select(.pid == $q and .why != null)] | length == 4' \
	"$TMP/once.out" >/dev/null || fail "the stalled spinner has no why in each of 4 samples"
n=$(grep -c 'openat([0-9]*, "status",' "$TMP/once.trace")
[ "$n" -eq 5 ] ||
	fail "the spinner's status should be read once in each of 4 refreshes and once with the baseline, not $n times: $(grep 'status' "$TMP/once.trace" | head -8)"
note "status read $n times in 4 refreshes and the baseline"
exit 0
