#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Group rules of the settings file against the tasks' own command lines,
# which any user chooses: stalltop -b --format openmetrics -d 0.2 with
#   group=g:cmdline:([a-z]+)+-worker
#   group=evil:cmdline:^(a*)*\1$
#   group=idle:cmdline:^sleep 30[0-9]$
# while a process with a command line of 60,000 bytes ('a'... then '!')
# and one with 3,000 such bytes run (before, one sample with these took
# over 12 s, and the second rule on the 3,000 bytes ran for minutes,
# gigabytes growing, deaf to SIGTERM). Checked:
# - the samples keep coming: 20 expositions within 15 s (4 s at -d 0.2
#   and 0.1 s of matching at most per sample, OM_RULE_SAMPLE_MS);
# - the rule that reached its limit is said once on stderr, naming it,
#   and the hostile processes are in their comm's group, not in "evil";
#   the plain rule still holds (two sleeps are in "idle");
# - memory stays bounded: stalltop's peak resident size (VmHWM) at most
#   100 MiB (measured here: about 10 MiB; before: 6.6 GB and growing);
# - then 200 more such processes come at once, so that a sample has
#   rules to match for all of them (their matching takes the sample's
#   0.1 s), and SIGTERM, sent as soon as stalltop is seen running,
#   ends it with status 0 within 0.5 s (kill to gone, polled every
#   20 ms: measured here 20-60 ms, the poll's own step included).
. "$top_srcdir/tests/lib/functions.sh"
live_init
need_cmd python3

# hostile N NAME: a sleep whose argv[0] is N times 'a', then "!"
hostile() {
	bg_start "$2" python3 -c '
import os, sys
os.execv("/bin/sleep", ["a" * int(sys.argv[1]) + "!", "300"])' "$1"
}
hostile 60000 h60k
h60k=$BG_PID
hostile 3000 h3k
wait_for has_line "/proc/$h60k/cmdline" 'aaa'
bg_start idle1 sleep 301
bg_start idle2 sleep 302

mkdir -p "$TMP/xdg/stalltop"
cat >"$TMP/xdg/stalltop/stalltoprc" <<'EOF'
group=g:cmdline:([a-z]+)+-worker
group=evil:cmdline:^(a*)*\1$
group=idle:cmdline:^sleep 30[0-9]$
EOF

bg_start st env XDG_CONFIG_HOME="$TMP/xdg" "$STALLTOP" -b \
	--format openmetrics -d 0.2
st=$BG_PID
expositions() { grep -c '^# EOF$' "$TMP/st.out" 2>/dev/null || true; }
has_expositions() { [ "$(expositions)" -ge "$1" ]; }
t0=$(now_ms)
wait_for -t 15 has_expositions 20
note "20 samples at -d 0.2 in $(($(now_ms) - t0)) ms"

# the note, once, naming the rule
nnotes=$(grep -cF "group rule 'evil:cmdline:^(a*)*" "$TMP/st.err" || true)
[ "$nnotes" -eq 1 ] || fail "the rule's note $nnotes times: $(cat "$TMP/st.err")"
note "stderr: $(head -c 400 "$TMP/st.err")"
# the last complete exposition's groups
last="$TMP/last.prom"
n=$(expositions)
awk -v n="$n" '/^# EOF$/ { k++; next } k == n - 1' "$TMP/st.out" >"$last"
tasks_of() { sed -n "s/^stalltop_group_tasks{group=\"$1\"} //p" "$last"; }
# (a task that ended unnamed, "", may have been in evil: none is now)
[ "$(tasks_of evil)" -eq 0 ] 2>/dev/null || [ -z "$(tasks_of evil)" ] ||
	fail "tasks in the group evil: $(tasks_of evil)"
[ -z "$(tasks_of g)" ] || fail "a group g: $(grep 'group="g"' "$last")"
[ "$(tasks_of idle)" = 2 ] || fail "group idle: $(tasks_of idle), expected 2"
[ "$(tasks_of sleep)" -ge 2 ] 2>/dev/null ||
	fail "the hostile sleeps are not in the group sleep: $(grep 'group_tasks' "$last")"

hwm=$(awk '/^VmHWM:/ { print $2 }' "/proc/$st/status")
note "peak resident size: $hwm KiB"
[ "$hwm" -le $((100 * 1024)) ] || fail "peak resident size $hwm KiB, above 100 MiB"

# 200 new hostile tasks at once: a sample with their rules to match
# (their ids kept: the cleanup ends them)
python3 - "$TMP/burst.pids" <<'PY'
import os, sys
pids = []
for i in range(200):
    pid = os.fork()
    if pid == 0:
        fd = os.open("/dev/null", os.O_RDWR)
        for f in (0, 1, 2):
            os.dup2(fd, f)
        os.execv("/bin/sleep", ["a" * 3000 + "!", "60"])
    pids.append(pid)
open(sys.argv[1], "w").write(" ".join(map(str, pids)) + "\n")
PY
at_cleanup "kill -s KILL $(cat "$TMP/burst.pids") 2>/dev/null; true"
ran() { [ "$(awk '{ print $3 }' "/proc/$st/stat")" = R ]; }
before=$(expositions)
has_more() { [ "$(expositions)" -gt "$before" ]; }
# the sample that meets them: stalltop at work (bounded: 5 s)
wait_for -t 5 ran
t0=$(now_ms)
kill -s TERM "$st"
wait_for -t 5 not_running "$st"
t1=$(now_ms)
wait "$st"
rc=$?
note "SIGTERM to exit: $((t1 - t0)) ms (status $rc)"
[ "$rc" -eq 0 ] || fail "status $rc on SIGTERM"
[ $((t1 - t0)) -le 500 ] || fail "SIGTERM took $((t1 - t0)) ms, above 500"
