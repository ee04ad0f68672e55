#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Accuracy of the compact figures against the kernel's own counters. A
# transparent huge page fault in a MADV_HUGEPAGE region compacts memory
# itself (compact delay) when no free 2 MiB block is left, so the
# workload (wl_compact, see there) first takes them: it sets the free
# 2 MiB blocks aside as surplus hugetlb pages (reserved, never touched:
# quick, and given back when the process ends, however it ends; for that
# the test raises vm.nr_overcommit_hugepages and the cleanup puts it
# back), fills what is left but a few hundred MiB with huge pages, and
# then, round after round, splits and halves its oldest huge pages and
# faults in new ones: each fault finds no free 2 MiB block and compacts.
# For the few seconds it runs the machine has only some 300 MiB free; the
# workload is the OOM killer's first choice and gives up (the test fails)
# when MemFree falls below 192 MiB.
# stalltop -b --json -d 0.5 samples it by pid; after each sample
# tests/lib/taskstats_ref.py reads its taskstats itself (see
# tests/lib/accuracy.sh for how the windows line up and for the
# tolerance, 1 point or 3 % of the figure). One compaction lasts
# microseconds to a millisecond, so only the lag between the two
# readings of each end (milliseconds at most) separates them.
# The reference must see >= 10 % of compact delay (measured 23..27 %
# here), or the comparison proves little: stalltop samples until it
# does (8 samples at least, 24 at most).
# What earlier tests left must not decide it: free memory in pieces
# makes the workload set aside too little (it then fails: "MemFree
# still ..."), so the page cache is dropped and memory compacted first.
# Skips only where the kernel cannot do it: no transparent huge pages, a
# THP defrag setting under which faults never compact, no compaction, no
# 2 MiB hugetlb pages to set memory aside with.
. "$top_srcdir/tests/lib/functions.sh"
. "$top_srcdir/tests/lib/accuracy.sh"
acc_init

thp=/sys/kernel/mm/transparent_hugepage
selected() { sed 's/.*\[\(.*\)\].*/\1/' "$1"; }
[ -r "$thp/enabled" ] || skip "this kernel has no transparent huge pages (no $thp)"
[ "$(selected "$thp/enabled")" != never ] ||
	skip "transparent huge pages are off ($thp/enabled: [never])"
case $(selected "$thp/defrag") in
always | madvise | defer+madvise) ;;
*) skip "$thp/defrag is [$(selected "$thp/defrag")]: a huge page fault never compacts memory itself" ;;
esac
[ -e /proc/sys/vm/compact_memory ] ||
	skip "this kernel has no memory compaction (no /proc/sys/vm/compact_memory)"
[ "$(cat "$thp/hpage_pmd_size")" = 2097152 ] ||
	skip "huge pages here are $(cat "$thp/hpage_pmd_size") bytes: the workload needs 2 MiB ones"
if ! grep -q '^Hugepagesize: *2048 kB' /proc/meminfo ||
	[ ! -w /proc/sys/vm/nr_overcommit_hugepages ]; then
	skip "no 2 MiB hugetlb pages to set free memory aside with"
fi

settle_memory
oc=/proc/sys/vm/nr_overcommit_hugepages
old_oc=$(cat "$oc")
at_cleanup "echo $old_oc >$oc"
total_kb=$(awk '/^MemTotal:/ { print $2 }' /proc/meminfo)
echo $((old_oc + total_kb / 2048)) >"$oc" || hard_error "cannot raise $oc"

bg_start wl "$WL/wl_compact" -R 64 -f 384
wl=$BG_PID
ready_or_gone() { has_line "$TMP/wl.out" ready || not_running "$wl"; }
wait_for ready_or_gone
running "$wl" || fail "wl_compact ended before it was ready: $(cat "$TMP/wl.err")"
note "wl_compact: $(head -1 "$TMP/wl.out") (MiB)"

ACC_UNTIL="compact:10" acc_run st process "$wl" -d 0.5 -n 24
running "$wl" || fail "wl_compact ended during the samples: $(cat "$TMP/wl.err")"
note "wl_compact: $(tail -1 "$TMP/wl.out")"
acc_compare st
acc_report st
acc_require st compact 10
exit 0
