#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 3: a backlog of exits. stalltop is stopped (SIGSTOP) while tens
# of thousands of short-lived processes come and go, more than the pid
# space (kernel.pid_max is lowered to 32,768 for the test where it is
# larger), so pids are used twice within the backlog; then it resumes.
# Every child must appear in "exited" once per life: per pid, as many rows
# as the pid had lives among the children. Two lives of one pid may not
# merge into one row, nor one life make two. The kernel's exit records
# wait in the socket buffers meanwhile, until they overflow: the children
# run on one CPU, so their records all go to that CPU's socket, in storms
# of 20,000 until the kernel has dropped some (a record takes about
# 1.3 KB of the socket's 64 MiB here: about 52,000 fit, so the third storm
# overflows it). exit_records_lost must be exactly what the kernel dropped
# for stalltop's generic netlink sockets (the Drops column of
# /proc/net/netlink, read here apart from stalltop once the backlog is
# drained), and only that many rows may be missing.
. "$top_srcdir/tests/lib/functions.sh"
live_init
need_cmd sort uniq join awk taskset

chunk=20000
pid_max=32768
[ "$(cat /proc/sys/kernel/pid_max)" -gt "$pid_max" ] &&
	set_sysctl /proc/sys/kernel/pid_max "$pid_max"

# kernel_drops: DROPS = the messages the kernel dropped for stalltop's
# generic netlink sockets (protocol 16), summed: its exit-record
# listeners, and its query socket, whose batches are sized to fit and
# which drops nothing; QUEUED = the bytes waiting in them (Rmem).
kernel_drops() {
	local _f _l
	: >"$TMP/inodes"
	for _f in "/proc/$ST_PID/fd/"*; do
		_l=$(readlink "$_f") || continue
		case $_l in
		"socket:["*"]") _l=${_l#socket:[}; echo "${_l%]}" >>"$TMP/inodes" ;;
		esac
	done
	set -- $(awk 'NR == FNR { want[$1] = 1; next }
		FNR > 1 && $2 == 16 && ($10 in want) { n += $9; q += $5; found++ }
		END { if (found) print n, q }' "$TMP/inodes" /proc/net/netlink)
	DROPS=${1:-} QUEUED=${2:-}
	[ -n "$DROPS" ] ||
		fail "no generic netlink socket of stalltop ($ST_PID) in /proc/net/netlink (its socket inodes: $(tr '\n' ' ' <"$TMP/inodes"))"
}

start_stalltop st -d 0.5
kill -s STOP "$ST_PID"
# storms until the pids went round and the kernel dropped records (bounded)
storms= n=0
while :; do
	n=$((n + 1))
	bg_start "storm$n" taskset -c 0 env ASAN_OPTIONS=detect_leaks=0 \
		"$WL/wl_storm" -n "$chunk" "$TMP/pids.$n"
	storms="$storms${storms:+,}$BG_PID"
	bg_wait "$BG_PID" || {
		kill -s CONT "$ST_PID"
		fail "wl_storm failed: $(cat "$TMP/storm$n.err")"
	}
	kernel_drops
	[ $((n * chunk)) -le "$pid_max" ] || [ "$DROPS" -eq 0 ] || break
	[ "$n" -lt 8 ] || {
		kill -s CONT "$ST_PID"
		fail "after $((n * chunk)) exits the kernel has dropped no message for stalltop"
	}
done
count=$((n * chunk))
note "$count children in $n storms; meanwhile the kernel dropped $DROPS messages for stalltop"
kill -s CONT "$ST_PID"
wait_more_lines "$TMP/st.out" 3
# the kernel's count, then a sample, then the count again: the sample
# between two equal counts took every drop there was (the machine's other
# exits may still overflow a socket now and then: then again, bounded);
# and nothing waits in the sockets any more, so that the backlog is
# behind stalltop before SIGTERM (a sample of tens of thousands of rows
# may hold its loop longer than the quit guard's grace on a busy machine)
tries=0
while :; do
	kernel_drops
	before=$DROPS
	wait_more_lines "$TMP/st.out" 1
	lost=$(tail -n 1 "$TMP/st.out" | jq -e .exit_records_lost) ||
		fail "the last sample has no exit_records_lost: $(tail -n 1 "$TMP/st.out" | cut -c 1-200)"
	kernel_drops
	[ "$before" -ne "$DROPS" ] || [ "$QUEUED" -ne 0 ] || break
	tries=$((tries + 1))
	[ "$tries" -lt 10 ] ||
		fail "the kernel kept dropping messages for stalltop ($before, then $DROPS), or $QUEUED bytes still wait in its sockets"
done
stop_stalltop st "$ST_PID"

# per pid: its lives (children), its rows; "pid lives rows"
cat "$TMP"/pids.* | sort | uniq -c | awk '{ print $2, $1 }' | sort >"$TMP/lives"
# the children of the storms: their parent and their name (an ended
# storm's pid may be any process's later, and that one's children have it
# as their parent too)
jq -r --argjson storms "[$storms]" \
	'.exited[] | select((.ppid | IN($storms[])) and .comm == "wl_storm") | .pid' \
	"$TMP/st.out" | sort | uniq -c | awk '{ print $2, $1 }' | sort >"$TMP/rows"
join -a 1 -a 2 -e 0 -o 0,1.2,2.2 "$TMP/lives" "$TMP/rows" >"$TMP/per_pid"
twice=$(awk '$2 > 1' "$TMP/per_pid" | wc -l)
rows=$(awk '{ n += $3 } END { print n + 0 }' "$TMP/per_pid")
missing=$(awk '$3 < $2 { n += $2 - $3 } END { print n + 0 }' "$TMP/per_pid")
note "$count children, $twice pids used more than once, $rows exited rows, $missing missing, exit_records_lost $lost, the kernel dropped $DROPS"

[ "$twice" -gt 0 ] ||
	hard_error "no pid was used twice (pid_max $(cat /proc/sys/kernel/pid_max)): the test shows nothing"
awk '$2 == 0' "$TMP/per_pid" >"$TMP/strangers"
[ -s "$TMP/strangers" ] &&
	fail "exited rows of the storm with pids it never had: $(head -5 "$TMP/strangers" | tr '\n' ' ')"
awk '$3 > $2 && $2 > 0' "$TMP/per_pid" >"$TMP/more"
[ -s "$TMP/more" ] &&
	fail "more rows than lives (pid lives rows): $(head -5 "$TMP/more" | tr '\n' ',')"
[ "$lost" -eq "$DROPS" ] ||
	fail "exit_records_lost is $lost, but the kernel dropped $DROPS messages for stalltop's sockets"
[ "$missing" -le "$lost" ] ||
	fail "$missing lives have no row (pid lives rows: $(awk '$3 < $2' "$TMP/per_pid" | head -5 | tr '\n' ',')), but exit_records_lost is $lost"
exit 0
