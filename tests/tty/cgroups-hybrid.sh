#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The cgroup view of a hybrid host, live and replayed. A service as
# systemd makes one there (tests/lib/accuracy.sh, memcg_service): the
# same path in the v1 memory hierarchy, limited to 64 MiB, and in the
# controller-less v2 one, the workload of why_mem.sh in it (the cgroup's
# own reclaim: "mem limit"); below it in the v2 tree a container scope as
# docker's systemd driver names one (docker-ID.scope) with a sleeping
# process.
# Live, with a plain --record: g shows the service by its name in the
# tree (NAME) and the scope as "docker" and its short id; / finds the scope by that
# name, which its path does not hold; \ keeps the cgroups whose name has
# a text, with their ancestors; w's pane of the service says "mem limit"
# with the v1 limit and the v2 pressure. (At 160 columns the view has
# no room for WHY beside every category: the pane tells.)
# The recording replays: g shows the service by name in the first sample
# (recorded before g was pressed) and the last, Enter shows its process,
# whose pane (w) says "mem limit", Esc goes back, w's pane shows the
# cgroup's "mem limit" and v1 limit.
. "$top_srcdir/tests/tty/tty-lib.sh"
. "$top_srcdir/tests/lib/accuracy.sh"
live_init
need_cmd sha256sum
set_io_dir
memcg_service 64
ID=$(printf '%s' "$SERVICE" | sha256sum | cut -c1-64)
SHORT=$(echo "$ID" | cut -c1-12)
SCOPE=docker-$ID.scope
cg_make "$V2$SVC_PATH/$SCOPE"

bg_start_in_all mem "$SVC_DIRS" "$WL/wl_mem" -r -f "$IO_DIR/data" -m 72
mem=$BG_PID
bg_start_in box "$V2$SVC_PATH/$SCOPE" "$HELPER" name stcgbox
wait_for has_line "$TMP/mem.out" ready
placed() {
	grep -qx "$mem" "$MEMCG/cgroup.procs" &&
		grep -qx "$mem" "$V2$SVC_PATH/cgroup.procs" &&
		[ "$(wc -l <"$V2$SVC_PATH/$SCOPE/cgroup.procs")" -eq 1 ]
}
wait_for -t 10 placed

# The names of the tree, one per line, without indentation or fold mark,
# with the whole line: "NAME|line".
names() {
	tty_screen | awk '
		/ NAME( \(|$)/ { x = index($0, " NAME") + 1; seen = 1; next }
		seen && x > 1 && length($0) >= x {
			cell = substr($0, x); sub(/^ */, "", cell); sub(/^[-+] /, "", cell)
			sub(/ +$/, "", cell)
			if (cell != "") print cell "|" $0
		}'
}
# has_name NAME: a line named NAME
has_name() {
	names | cut -d'|' -f1 | grep -qxF -- "$1"
}

tty_start -d 0.5 --record "$TMP/rec.stk"
tty_keys g
tty_wait "$TTY_CGHEAD" 5 || tty_fail "g did not show the cgroups with their names"
tty_until 10 has_name "$SERVICE" ||
	tty_fail "no line named $SERVICE: $(names | cut -d'|' -f1 | tr '\n' ' ')"
has_name "docker $SHORT" || tty_fail "the scope is not named \"docker $SHORT\""

# / by name: the path has no "docker <id>" in it
tty_keys /
tty_keys -l "docker $SHORT"
tty_keys Enter
tty_wait "at $SVC_PATH/docker-$SHORT" 5 || tty_fail "/ did not find the scope by its name"

# \ keeps the matches and their ancestors
tty_keys '\'
tty_wait '^Filter cgroups \(name or path\):' 5 || tty_fail "no cgroup filter prompt"
tty_keys -l "$SHORT"
tty_keys Enter
tty_wait "filter \"$SHORT\"" 5 || tty_fail "the cgroup filter did not take"
only_ours() {
	[ "$(names | cut -d'|' -f1 | tr '\n' '|')" = "/|$SERVICE|docker $SHORT|" ]
}
tty_until 5 only_ours ||
	tty_fail "with the filter: $(names | cut -d'|' -f1 | tr '\n' '|'), wanted /, the service, the scope"
tty_keys '\'
tty_keys C-u
tty_keys Enter
tty_until 5 has_name "$SERVICE" || tty_fail "the filter did not go"

# the service's pane: the cause, its v1 limit, its v2 pressure
tty_keys /
tty_keys -l "$SERVICE"
tty_keys Enter
tty_wait "at $SVC_PATH\$" 5 || tty_fail "/ did not find the service"
tty_keys w
tty_wait "Why: cgroup $SVC_PATH " 5 || tty_fail "w shows no pane of the service"
tty_wait '(RECLAIM|THRASH)[A-Z]* [0-9.]+ %: mem limit' 20 ||
	tty_fail "the pane has no mem limit"
tty_wait 'memory.limit_in_bytes 64 MiB' 5 || tty_fail "the pane does not show the v1 limit"
tty_wait 'cgroup memory pressure: some [0-9]' 5 ||
	tty_fail "the pane does not show the v2 memory pressure"
tty_keys w

recorded() { [ "$(stk_samples "$TMP/rec.stk")" -ge 6 ]; }
wait_for -t 30 recorded
tty_quit_and_check
# the file's first sample is only the base of the second: the replay
# shows one sample fewer
n=$(($(stk_samples "$TMP/rec.stk") - 1))
note "recorded $n samples (and their base) with a plain --record"

# --- the replay of that recording ---
tty_restart
tty_start --replay "$TMP/rec.stk"
# paused, then back to the first sample (it plays a sample a second)
tty_keys Space
tty_wait '\[paused\]' 5 || tty_fail "Space did not pause the replay"
for i in $(seq 1 "$n"); do
	tty_keys T
done
tty_keys g
tty_wait "$TTY_CGHEAD" 5 || tty_fail "the replay has no cgroup view"
# the first sample was recorded before g was pressed: --record alone
# recorded its cgroups
tty_wait "REPLAY 1/$n " 5 || tty_fail "T did not step back to the first sample"
tty_until 5 has_name "$SERVICE" ||
	tty_fail "the first sample has no cgroup named $SERVICE"
# the last sample: the evidence has an interval
for i in $(seq 2 "$n"); do
	tty_keys t
done
tty_wait "REPLAY $n/$n " 10 || tty_fail "t did not step to the last sample"
tty_until 5 has_name "$SERVICE" || tty_fail "replayed: no line named $SERVICE"

tty_keys /
tty_keys -l "$SERVICE"
tty_keys Enter
tty_wait "at $SVC_PATH\$" 5 || tty_fail "/ did not find the service"
tty_keys Enter
tty_wait "cgroup $SVC_PATH" 5 || tty_fail "Enter did not zoom into the service"
mem_row() { tty_rows | grep -Eq "^ *$mem .* wl_mem\$"; }
tty_until 5 mem_row || tty_fail "the service's process $mem is not shown: $(tty_rows | head -n 3)"
# its pane: WHY shows the largest stall's cause, which a loaded machine
# can make cpu; the pane has every stalled category's
tty_keys /
tty_keys -l wl_mem
tty_keys Enter
tty_keys w
tty_wait "Why: $mem wl_mem" 5 || tty_fail "w shows no pane of the process"
tty_wait '(RECLAIM|THRASH)[A-Z]* [0-9.]+ %: mem limit' 5 ||
	tty_fail "the process's pane has no mem limit"
tty_keys w
tty_keys Escape
tty_wait "at $SVC_PATH\$" 5 || tty_fail "Esc did not go back to the cgroups"

tty_keys w
tty_wait "Why: cgroup $SVC_PATH " 5 || tty_fail "w shows no pane of the service"
tty_wait '(RECLAIM|THRASH)[A-Z]* [0-9.]+ %: mem limit' 5 || tty_fail "the pane has no mem limit"
tty_wait 'memory.limit_in_bytes 64 MiB' 5 || tty_fail "the pane does not show the v1 limit"
tty_quit_and_check
