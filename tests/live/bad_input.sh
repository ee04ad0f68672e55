#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Bad input ends with status 2, nothing on stdout and exactly one line on
# stderr that names the offending option or value; --help lists every
# option getopt accepts (and nothing it does not), so does the man page;
# --version prints "stalltop VERSION". No privilege needed: nothing here
# gets as far as taskstats.
. "$top_srcdir/tests/lib/functions.sh"
need_cmd getent
export LC_ALL=C   # the English messages

# bad WORD ARGS...: stalltop ARGS must fail as described, its one line
# containing WORD (the value or option at fault, as given).
bad() {
	_word=$1
	shift
	timeout 10 "$STALLTOP" "$@" >"$TMP/out" 2>"$TMP/err"
	_st=$?
	[ "$_st" -eq 2 ] || fail "stalltop $*: status $_st, expected 2 ($(cat "$TMP/err"))"
	[ -s "$TMP/out" ] && fail "stalltop $*: wrote to stdout: $(head -c 200 "$TMP/out")"
	[ "$(lines "$TMP/err")" -eq 1 ] ||
		fail "stalltop $*: expected one line on stderr, got: $(cat "$TMP/err")"
	grep -q '^stalltop: ' "$TMP/err" || fail "stalltop $*: message without the program name: $(cat "$TMP/err")"
	grep -qF -- "$_word" "$TMP/err" || fail "stalltop $*: message does not name '$_word': $(cat "$TMP/err")"
	note "ok: $* -> $(cat "$TMP/err")"
}

# options
bad "'--bogus'"     --bogus
bad "'-Z'"          -Z
bad "'-d'"          -b -d
bad "'--delay'"     -b --delay
bad "'--limit'"     -b --limit
bad "--json"        --json=yes
bad "'extra'"       -b extra
# the delay
bad "delay '0'"     -b -d 0
bad "delay '-1'"    -b -d -1
bad "delay '0.5x'"  -b -d 0.5x
bad "delay ''"      -b -d ''
bad "delay '1e-3'"  -b -d 1e-3
bad "delay 'nan'"   -b -d nan
bad "delay '0.0'"   -b --delay=0.0
# counts
bad "'abc'"         -b -n abc
bad "'0'"           -b -n 0
bad "'-5'"          -b -n -5
bad "'99999999999999999999'" -b -n 99999999999999999999
bad "limit '0'"     -b --limit 0
bad "limit 'x'"     -b --limit x
bad "'-1'"          -b --rescan -1
# names
bad "sort key 'bogus'" -b -s bogus
bad "sort key ''"   -b -s ''
bad "format 'xml'"  -b --format xml
bad "format 'JSON'" -b --format JSON
user=stalltop-no-such-user
getent passwd "$user" >/dev/null && hard_error "user $user exists here"
bad "'$user'"       -b -u "$user"
bad "'-3'"          -b -u -3
# pids: malformed, and one that cannot exist (pids are below pid_max)
bad "'abc'"         -b -p abc
bad "'0'"           -b -p 0
bad "'12x'"         -b -p 1,12x
bad "','"           -b -p ,
nopid=$(cat /proc/sys/kernel/pid_max)
bad "$nopid"        -b -p "$nopid"
bad "$nopid"        -b -p 1 -p "$nopid"

# --help: status 0, on stdout, and it names every option of the table in
# src/options.c and every short option of the getopt string, and no option
# that is not there.
"$STALLTOP" --help >"$TMP/help" 2>"$TMP/err" || fail "--help: status $?"
[ -s "$TMP/err" ] && fail "--help wrote to stderr: $(cat "$TMP/err")"
opts=$top_srcdir/src/options.c
sed -n 's/^[[:space:]]*{ "\([a-z-]*\)", [a-z_]*, NULL, .*/\1/p' "$opts" >"$TMP/long"
[ "$(lines "$TMP/long")" -ge 15 ] ||
	hard_error "cannot read the option table of $opts (found $(lines "$TMP/long"))"
short=$(sed -n 's/.*getopt_long(argc, argv, "\([^"]*\)".*/\1/p' "$opts" | tr -d ':')
[ -n "$short" ] || hard_error "cannot read the getopt string of $opts"
sed 's/\\-/-/g' "$top_srcdir/man/stalltop.1" >"$TMP/man"
while read -r o; do
	grep -q -- "--$o\\b" "$TMP/help" || fail "--help does not mention --$o"
	grep -q -- "--$o\\b" "$TMP/man" || fail "the man page does not mention --$o"
done <"$TMP/long"
for c in $(echo "$short" | sed 's/./& /g'); do
	grep -q -- "^ *-$c, --" "$TMP/help" || fail "--help does not mention -$c"
done
grep -o -- '--[a-z][a-z-]*' "$TMP/help" | sed 's/^--//' | sort -u >"$TMP/helped"
sort -u "$TMP/long" | comm -13 - "$TMP/helped" >"$TMP/stale"
[ -s "$TMP/stale" ] && fail "--help lists options getopt does not accept: $(cat "$TMP/stale")"
note "ok: --help names all $(lines "$TMP/long") long options and -$short"

# --version: one line, "stalltop VERSION", the configured version
version=$(sed -n 's/^#define PACKAGE_VERSION "\(.*\)"$/\1/p' "$top_builddir/config.h")
"$STALLTOP" --version >"$TMP/out" 2>"$TMP/err" || fail "--version: status $?"
[ "$(cat "$TMP/out")" = "stalltop $version" ] ||
	fail "--version printed '$(cat "$TMP/out")', expected 'stalltop $version'"
[ -s "$TMP/err" ] && fail "--version wrote to stderr"
"$STALLTOP" -V >"$TMP/out2" && cmp -s "$TMP/out" "$TMP/out2" || fail "-V differs from --version"
note "ok: --version: $(cat "$TMP/out")"
exit 0
