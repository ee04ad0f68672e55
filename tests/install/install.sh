#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# make install into a scratch DESTDIR, then what was installed works from
# where it was put: the program runs, man renders its page, the program
# finds its German messages in the installed localedir, bash-completion
# finds the completion and completes sort keys and formats, make
# install-setcap grants cap_net_admin; the recording service's unit runs
# the installed program; make install with another prefix
# follows it; make uninstall leaves no file behind. Runs from the build
# tree (also in distcheck's read-only VPATH build) with the make that runs
# the suite. As root the program takes a sample, and the translation and
# the capability are checked too.

. "$top_srcdir/tests/lib/functions.sh"
need_cmd bash man getcap setcap gettext sed cmp

: "${MAKE:=make}"
ROOT="$TMP/root"
LOG="$TMP/make.log"

# submake ARG...: make in the build tree, on its own (not the suite's
# -j, TESTS=... or other command-line variables); its output in $LOG
submake() {
	env -u MAKEFLAGS -u MFLAGS -u MAKEOVERRIDES -u MAKELEVEL \
		$MAKE -C "$top_builddir" "$@" >"$LOG" 2>&1
}

# dirs [VAR=VALUE...]: print the installation directories as the build
# tree's Makefile computes them (with the given overrides), one
# "name=value" a line
dirs() {
	printf 'print-dirs:\n\t@echo bindir=$(bindir); echo man1dir=$(man1dir); echo localedir=$(localedir); echo bashcompletiondir=$(bashcompletiondir); echo datadir=$(datadir); echo unitdir=$(systemdsystemunitdir); echo VERSION=$(VERSION)\n' |
		env -u MAKEFLAGS -u MFLAGS -u MAKEOVERRIDES -u MAKELEVEL \
		$MAKE -s -C "$top_builddir" -f Makefile -f - print-dirs "$@"
}
dir() { sed -n "s/^$1=//p" "$TMP/dirs"; }

# no_files DIR WHEN: fail when a file (or link) is left below DIR
no_files() {
	_left=$(find "$1" \( -type f -o -type l \) -print)
	[ -z "$_left" ] || fail "$2 left files behind: $_left"
}

dirs >"$TMP/dirs" || hard_error "cannot read the installation directories of the Makefile"
bindir=$(dir bindir) man1dir=$(dir man1dir) localedir=$(dir localedir)
bcdir=$(dir bashcompletiondir) datadir=$(dir datadir) version=$(dir VERSION)
unitdir=$(dir unitdir)
[ -n "$bindir" ] && [ -n "$man1dir" ] && [ -n "$localedir" ] && [ -n "$version" ] &&
	[ -n "$unitdir" ] ||
	hard_error "incomplete installation directories: $(cat "$TMP/dirs")"

submake install DESTDIR="$ROOT" || fail "make install DESTDIR=$ROOT failed: $(cat "$LOG")"
BIN="$ROOT$bindir/stalltop"
PAGE="$ROOT$man1dir/stalltop.1"
MO="$ROOT$localedir/de/LC_MESSAGES/stalltop.mo"
COMPLETION="$ROOT$bcdir/stalltop"
UNIT="$ROOT$unitdir/stalltop.service"
SERVE_UNIT="$ROOT$unitdir/stalltop-serve.service"
# configure --without-bashcompletiondir installs no completion
if [ "$bcdir" = no ]; then
	note "configured without a bash completion"
	COMPLETION=
fi
for f in "$BIN" "$PAGE" "$MO" "$UNIT" "$SERVE_UNIT" ${COMPLETION:+"$COMPLETION"}; do
	[ -f "$f" ] || fail "make install did not install ${f#"$ROOT"}; it installed: $(cd "$ROOT" && find . -type f)"
done
[ -x "$BIN" ] || fail "the installed program is not executable"
# the recording service runs the installed program
for u in "$UNIT" "$SERVE_UNIT"; do
	grep -q "^ExecStart=$bindir/stalltop " "$u" ||
		fail "the installed ${u##*/} does not run $bindir/stalltop: $(grep ExecStart "$u")"
done

# the alert rules and the dashboard, as they are in contrib/
for f in prometheus/stalltop-rules.yml grafana/stalltop.json; do
	cmp -s "$ROOT$datadir/stalltop/${f#*/}" "$top_srcdir/contrib/$f" ||
		fail "make install did not put contrib/$f into $datadir/stalltop"
done

# --- the program ---
"$BIN" --version >"$TMP/version" 2>&1 || fail "$BIN --version failed: $(cat "$TMP/version")"
[ "$(cat "$TMP/version")" = "stalltop $version" ] ||
	fail "$BIN --version says '$(cat "$TMP/version")', not 'stalltop $version'"
if [ "$(id -u)" -eq 0 ]; then
	timeout 30 "$BIN" -b -n 1 >"$TMP/sample" 2>"$TMP/sample.err" ||
		fail "$BIN -b -n 1 failed: $(cat "$TMP/sample.err")"
	grep -q '^stalltop - ' "$TMP/sample" && grep -q '^PSI ' "$TMP/sample" &&
		grep -q 'COMMAND' "$TMP/sample" ||
		fail "$BIN -b -n 1 printed no sample: $(head -n 5 "$TMP/sample")"
else
	skip_part "taking a sample needs root"
fi

# --- the manual page ---
cmp -s "$PAGE" "$top_srcdir/man/stalltop.1" || fail "the installed page differs from man/stalltop.1"
MANWIDTH=80 man -l "$PAGE" >"$TMP/man.txt" 2>"$TMP/man.err" ||
	fail "man -l ${PAGE#"$ROOT"} failed: $(cat "$TMP/man.err")"
grep -q 'stalltop - show which tasks are stalled' "$TMP/man.txt" &&
	grep -q '^SYNOPSIS' "$TMP/man.txt" && grep -q '^SEE ALSO' "$TMP/man.txt" ||
	fail "man -l does not render the page: $(head -n 5 "$TMP/man.txt")"

# --- the translation ---
# The program binds its domain to LOCALEDIR, the configured localedir.
grep -qaF "$localedir" "$BIN" ||
	fail "the program does not look for its messages in $localedir"
# The installed catalogue translates the program's messages ...
HELP_EN=' -h, --help               show this help and exit'
LANGUAGE=de LC_ALL=C.UTF-8 TEXTDOMAINDIR="$ROOT$localedir" \
	gettext -d stalltop -e "$HELP_EN\n" >"$TMP/help.de"
HELP_DE=$(head -n 1 "$TMP/help.de")
case $HELP_DE in
" -h, --help "*) [ "$HELP_DE" != "$HELP_EN" ] ||
	fail "the installed catalogue does not translate '$HELP_EN'" ;;
*) fail "the installed catalogue gives '$HELP_DE' for '$HELP_EN'" ;;
esac
"$BIN" --help | grep -qxF -- "$HELP_EN" ||
	hard_error "stalltop --help has no line '$HELP_EN'"
# ... and the program finds it where it is installed: the installed tree
# is mounted at its real place, in a mount namespace of this test only,
# on the nearest folder of localedir that exists (not /, and not one
# holding the scratch directory)
if [ "$(id -u)" -ne 0 ]; then
	skip_part "mounting the installed messages in their place needs root"
else
	need_cmd unshare
	at=$localedir
	while [ ! -d "$at" ]; do
		at=$(dirname "$at")
	done
	case $ROOT/ in
	"$at"/* | "$at"//*) at= ;;
	esac
	if [ -z "$at" ] || [ "$at" = / ]; then
		skip_part "no folder of $localedir to mount the installed messages on"
	else
		LANGUAGE=de LC_ALL=C.UTF-8 unshare -m sh -c \
			'mount --bind "$1" "$2" && exec "$3" --help' sh \
			"$ROOT$at" "$at" "$BIN" >"$TMP/help.out" 2>"$TMP/help.err" ||
			fail "stalltop --help with the installed messages failed: $(cat "$TMP/help.err")"
		grep -qxF -- "$HELP_DE" "$TMP/help.out" ||
			fail "stalltop does not find its German messages in $localedir: its --help has no line '$HELP_DE'"
	fi
fi

# --- bash completion ---
if [ -n "$COMPLETION" ]; then
	# sourced from where it was installed ...
	bash "$top_srcdir/tests/lib/complete.bash" "$COMPLETION" --sort '' >"$TMP/keys" 2>"$TMP/comp.err" ||
		fail "the installed completion does not load: $(cat "$TMP/comp.err")"
	for k in total cpu io swap reclaim thrashing compact wpcopy irq cpu_pct pid comm; do
		grep -qx "$k" "$TMP/keys" || fail "--sort '' does not complete $k: $(tr '\n' ' ' <"$TMP/keys")"
	done
	bash "$top_srcdir/tests/lib/complete.bash" "$COMPLETION" --format '' >"$TMP/formats" 2>"$TMP/comp.err" ||
		fail "the installed completion does not load: $(cat "$TMP/comp.err")"
	for f in text csv json; do
		grep -qx "$f" "$TMP/formats" || fail "--format '' does not complete $f: $(tr '\n' ' ' <"$TMP/formats")"
	done
	# ... and found by bash-completion itself, on demand, when installed
	# below a data folder it searches (the default)
	case $bcdir in
	*/bash-completion/completions)
		bash "$top_srcdir/tests/lib/complete.bash" --load "$ROOT${bcdir%/bash-completion/completions}" \
			-s wpc >"$TMP/loaded" 2>"$TMP/comp.err" ||
			fail "bash-completion does not find the installed completion: $(cat "$TMP/comp.err")"
		[ "$(cat "$TMP/loaded")" = wpcopy ] ||
			fail "the completion bash-completion loaded gives '$(cat "$TMP/loaded")' for -s wpc"
		;;
	*) note "completion installed in $bcdir, outside a bash-completion data folder: not loaded on demand" ;;
	esac
fi

# --- install-setcap ---
# refused, with a reason, where nothing is installed
submake install-setcap DESTDIR="$TMP/empty" &&
	fail "make install-setcap succeeded without an installed program"
grep -q 'make install first' "$LOG" ||
	fail "make install-setcap without an installed program does not say why: $(cat "$LOG")"
if [ "$(id -u)" -ne 0 ]; then
	skip_part "setcap needs root"
elif ! { : >"$TMP/xattr" && setcap cap_net_admin+ep "$TMP/xattr" 2>/dev/null; }; then
	skip_part "the file system of $TMP takes no file capabilities"
else
	submake install-setcap DESTDIR="$ROOT" || fail "make install-setcap failed: $(cat "$LOG")"
	getcap "$BIN" >"$TMP/getcap"
	grep -q 'cap_net_admin[=+]ep' "$TMP/getcap" ||
		fail "after make install-setcap the program has '$(cat "$TMP/getcap")', not cap_net_admin+ep"
	grep -q 'every task' "$LOG" && grep -q 'only inside stalltop' "$LOG" ||
		fail "make install-setcap does not say what the capability allows: $(cat "$LOG")"
	"$BIN" --version >/dev/null || fail "the program with cap_net_admin does not run"
fi

# --- uninstall ---
submake uninstall DESTDIR="$ROOT" || fail "make uninstall DESTDIR=$ROOT failed: $(cat "$LOG")"
no_files "$ROOT" "make uninstall DESTDIR=..."

# --- another prefix: every file goes below it (staged in DESTDIR: a
# completion directory configured outside the prefix stays outside) ---
PREFIX=/opt/stalltop-test
STAGE="$TMP/stage"
dirs prefix="$PREFIX" >"$TMP/dirs" || hard_error "cannot read the directories for prefix=$PREFIX"
submake install prefix="$PREFIX" DESTDIR="$STAGE" ||
	fail "make install prefix=$PREFIX failed: $(cat "$LOG")"
for f in "$(dir bindir)/stalltop" "$(dir man1dir)/stalltop.1" \
	"$(dir localedir)/de/LC_MESSAGES/stalltop.mo" \
	"$(dir unitdir)/stalltop.service" \
	"$(dir unitdir)/stalltop-serve.service"; do
	case $f in
	"$PREFIX"/*) ;;
	*) fail "with prefix=$PREFIX, $f is not below it" ;;
	esac
	[ -f "$STAGE$f" ] || fail "make install prefix=$PREFIX did not install $f"
done
outside=$(cd "$STAGE" && find . \( -type f -o -type l \) ! -path ".$PREFIX/*" -print)
case $bcdir in
no | "$datadir"/*) ;;
*) outside=$(printf '%s\n' "$outside" | grep -vxF "./${bcdir#/}/stalltop") ;;
esac
[ -z "$outside" ] || fail "make install prefix=$PREFIX put files outside it: $outside"
submake uninstall prefix="$PREFIX" DESTDIR="$STAGE" ||
	fail "make uninstall prefix=$PREFIX failed: $(cat "$LOG")"
no_files "$STAGE" "make uninstall prefix=..."
