#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Escape injection: a process names itself (prctl(PR_SET_NAME))
#   "i" ESC "]0;pwned" BEL LF 0xff
# and was exec'd with the arguments
#   "-x"   ESC "]0;pwned" BEL   "line1" LF "line2"   "bad" 0xff 0xfe
# (tests/live/wl_inject.c): an OSC 0 sequence that would set the terminal's
# title to "pwned", a newline that would forge an output line, invalid
# UTF-8. Wherever stalltop shows them:
#  - text output (-b, and -b -c for the command line): no raw ESC, BEL,
#    LF-inside-a-row, 0xff or 0xfe byte; the escaped form of src/lib/escape.h
#    (\e, \x07, \n, \xff) on the process's own row;
#  - CSV: one line per row plus the header (no line broken by the LF),
#    Python's csv module reads it back with every record as wide as the
#    header, and the name field is the escaped text form;
#  - JSON: jq parses every line, Python decodes the bytes as strict UTF-8
#    and json.loads them (which also rejects raw control characters in
#    strings), and the decoded comm and cmdline are exactly the kernel's
#    bytes (/proc/PID/comm, /proc/PID/cmdline with NULs as spaces), each
#    invalid byte as U+FFFD; the same for the thread row (-H);
#  - the screen (tmux): the pane title is not "pwned" and the escaped name
#    and command line are visible. The control: the same tmux server, in
#    another window, does take the title from the raw sequence, so the
#    check can see an injection.
. "$top_srcdir/tests/tty/tty-lib.sh"
live_init
need_cmd python3

bg_start inject "$WL/wl_inject"
pid=$BG_PID
wait_for has_line "$TMP/inject.out" ready
cp "/proc/$pid/comm" "$TMP/comm" && cp "/proc/$pid/cmdline" "$TMP/cmdline" ||
	hard_error "cannot read the workload's name"
grep -q pwned "$TMP/comm" || hard_error "the workload did not rename itself: $(od -c "$TMP/comm")"

# the escaped forms (escape_text: \e, \n, \xHH; a backslash is \\)
esc_comm='i\e]0;pwned\x07\n\xff'
esc_cmd="$WL/wl_inject "'-x \e]0;pwned\x07 line1\nline2 bad\xff\xfe'
# (note() echoes, and echo may expand backslashes: show rows with printf)
show() { printf '%s: %s\n' "$TEST_NAME" "$*"; }

# raw FILE: fail when FILE holds a byte a name must not bring in raw:
# ESC, BEL, 0xff, 0xfe (and any other C0 control but LF and TAB)
raw() {
	python3 - "$1" <<'EOF' || fail "$1 holds raw bytes from the name: $(cat "$1.msg")"
import re, sys
data = open(sys.argv[1], "rb").read()
bad = sorted(set(m.group() for m in re.finditer(rb"[\x00-\x08\x0b-\x1f\x7f\xfe\xff]", data)))
if bad:
    open(sys.argv[1] + ".msg", "w").write(repr(bad))
    sys.exit(1)
EOF
}

# --- text ---
# row FILE TEXT: the line of $pid's row holds TEXT (fixed string)
row() {
	awk -v pid="$pid" '$1 == pid' "$1" >"$TMP/row"
	[ "$(lines "$TMP/row")" -ge 1 ] || fail "$1: no row for $pid: $(cat "$1")"
	grep -qF -- "$2" "$TMP/row" ||
		fail "$1: the row of $pid does not show '$2': $(cat "$TMP/row")"
}
timeout 30 "$STALLTOP" -b -p "$pid" -n 2 -d 0.3 >"$TMP/text" 2>"$TMP/text.err" ||
	fail "stalltop -b exited $?: $(cat "$TMP/text.err")"
raw "$TMP/text"
row "$TMP/text" "$esc_comm"
[ "$(awk -v pid="$pid" '$1 == pid' "$TMP/text" | wc -l)" -eq 2 ] ||
	fail "text: expected 2 rows of $pid (one per sample): $(cat "$TMP/text")"
timeout 30 "$STALLTOP" -b -c -p "$pid" -n 2 -d 0.3 >"$TMP/textc" 2>"$TMP/textc.err" ||
	fail "stalltop -b -c exited $?: $(cat "$TMP/textc.err")"
raw "$TMP/textc"
row "$TMP/textc" "$esc_cmd"
show "text ok: $(awk -v pid="$pid" '$1 == pid' "$TMP/textc" | head -n 1)"

# --- CSV ---
# csv FILE FIELD EXPECTED: header + 3 rows, parsed back, FIELD is EXPECTED
csv_check() {
	raw "$1"
	[ "$(lines "$1")" -eq 4 ] ||
		fail "$1: $(lines "$1") lines for 3 rows and a header (a broken line?): $(cat "$1")"
	python3 - "$1" "$pid" "$2" "$3" <<'EOF' || fail "$1: $(cat "$1.py")"
import csv, sys
path, pid, field, want = sys.argv[1:]
msg = open(path + ".py", "w")
with open(path, newline="", encoding="utf-8", errors="strict") as f:
    recs = list(csv.reader(f, strict=True))
head, rows = recs[0], recs[1:]
if len(rows) != 3:
    msg.write("%d records, expected 3: %r" % (len(rows), rows)); sys.exit(1)
for r in rows:
    if len(r) != len(head):
        msg.write("a record of %d fields, the header has %d: %r" % (len(r), len(head), r)); sys.exit(1)
    d = dict(zip(head, r))
    if d["pid"] != pid or d[field] != want:
        msg.write("pid %s %s %r, expected %s %r" % (d["pid"], field, d[field], pid, want)); sys.exit(1)
EOF
}
timeout 30 "$STALLTOP" -b --format csv -p "$pid" -n 3 -d 0.3 >"$TMP/csv" 2>"$TMP/csv.err" ||
	fail "stalltop --format csv exited $?: $(cat "$TMP/csv.err")"
# the name column, "command" (the process name; with -c the command line)
csv_check "$TMP/csv" command "$esc_comm"
timeout 30 "$STALLTOP" -b --format csv -c -p "$pid" -n 3 -d 0.3 >"$TMP/csvc" 2>"$TMP/csvc.err" ||
	fail "stalltop --format csv -c exited $?: $(cat "$TMP/csvc.err")"
csv_check "$TMP/csvc" command "$esc_cmd"
show "csv ok"

# --- JSON ---
# json FILE: every line parses (jq, then Python strictly) and the rows of
# $pid carry the real name and command line
json_check() {
	raw "$1"
	jq -e . "$1" >/dev/null || fail "$1: jq cannot parse it"
	python3 - "$1" "$pid" "$TMP/comm" "$TMP/cmdline" <<'EOF' || fail "$1: $(cat "$1.py")"
import json, sys
path, pid, comm_f, cmd_f = sys.argv[1:]
pid = int(pid)
msg = open(path + ".py", "w")
comm = open(comm_f, "rb").read().rstrip(b"\n").decode("utf-8", "replace")
cmd = open(cmd_f, "rb").read().rstrip(b"\0").replace(b"\0", b" ").decode("utf-8", "replace")
data = open(path, "rb").read()
try:
    text = data.decode("utf-8", "strict")
except UnicodeDecodeError as e:
    msg.write("not UTF-8: %s" % e); sys.exit(1)
n = 0
for i, line in enumerate(text.split("\n")[:-1]):
    try:
        s = json.loads(line)  # strict=True: no raw controls in strings
    except ValueError as e:
        msg.write("line %d: %s" % (i + 1, e)); sys.exit(1)
    for t in s["tasks"]:
        if t["tgid"] != pid:
            continue
        n += 1
        if t["comm"] != comm:
            msg.write("comm %r, the kernel says %r" % (t["comm"], comm)); sys.exit(1)
        if t["cmdline"] != cmd:
            msg.write("cmdline %r, the kernel says %r" % (t["cmdline"], cmd)); sys.exit(1)
if n < 2:
    msg.write("%d rows of %d" % (n, pid)); sys.exit(1)
EOF
}
timeout 30 "$STALLTOP" -b --json -p "$pid" -n 2 -d 0.3 >"$TMP/json" 2>"$TMP/json.err" ||
	fail "stalltop --json exited $?: $(cat "$TMP/json.err")"
json_check "$TMP/json"
timeout 30 "$STALLTOP" -b --json -H -p "$pid" -n 2 -d 0.3 >"$TMP/jsonh" 2>"$TMP/jsonh.err" ||
	fail "stalltop --json -H exited $?: $(cat "$TMP/jsonh.err")"
json_check "$TMP/jsonh"
show "json ok: $(jq -c '.tasks[0] | [.comm, .cmdline]' "$TMP/json" | head -n 1)"

# --- the screen ---
# the control: a raw OSC 0 does set the title in this tmux
T new-session -d -x 80 -y 10 -s control \
	"printf 'x\\033]0;pwned\\007y\\n'; exec sleep 600" ||
	hard_error "tmux cannot start a session"
control_title() { [ "$(T display -p -t control '#{pane_title}')" = pwned ]; }
tty_until 10 control_title ||
	hard_error "tmux ignores OSC 0 here (title '$(T display -p -t control '#{pane_title}')'): the check cannot see an injection"
T kill-session -t control

tty_start -p "$pid" -d 0.5
title0=$(T display -p '#{pane_title}')
# the escaped name on the row of $pid (the screen may cut the column,
# but not before the escapes)
shown() { tty_screen | grep -F -- "$1" | grep -q "^ *$pid "; }
tty_until 10 shown 'i\e]0;pwned\x07\n' || tty_fail "the escaped name is not on the screen"
tty_keys c
# the whole command line does not fit 160 columns: widen the window
T resize-window -x 300 || hard_error "tmux cannot resize the window"
tty_until 10 shown "$esc_cmd" ||
	tty_fail "the escaped command line is not on the screen (key c)"
# two samples more: the name has been drawn again since it was seen
tty_wait_next_sample 2
T capture-pane -p -e >"$TMP/screen.e" || hard_error "tmux capture-pane -e fails"
grep -qF 'pwned\x07' "$TMP/screen.e" || tty_fail "capture-pane -e lacks the escaped name"
title=$(T display -p '#{pane_title}')
case $title in
*pwned*) tty_fail "the pane title became '$title': the name reached the terminal raw" ;;
esac
[ "$title" = "$title0" ] || tty_fail "the pane title changed from '$title0' to '$title'"
show "screen ok: title '$title'; row: $(tty_screen | grep "^ *$pid " | head -n 1)"
tty_quit_and_check
exit 0
