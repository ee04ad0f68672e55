#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The bash completion (completion/stalltop) keeps up with the program:
# it offers every long option, sort key and --format value that
# `stalltop --help` lists, and none the program does not know; file
# options complete file names, --cgroup the cgroups (as root, it makes
# two to complete). A new option or sort key fails this test
# until the completion has it: the failure names what to add.
#
# What --help lists is taken as it is printed (untranslated); which of its
# words are sort keys and formats the program itself says: `-s WORD -V`
# and `--format WORD -V` exit 0 only for a valid WORD (the options are
# read in order, and -V exits before anything else happens).

. "$top_srcdir/tests/lib/functions.sh"
need_cmd bash sed sort comm

COMPLETION="$top_srcdir/completion/stalltop"

# comp WORD...: the candidates for the last WORD, sorted
comp() {
	bash "$top_srcdir/tests/lib/complete.bash" "$COMPLETION" "$@" >"$TMP/comp.out" 2>"$TMP/comp.err" ||
		hard_error "cannot run the completion: $(cat "$TMP/comp.err")"
	[ ! -s "$TMP/comp.err" ] ||
		fail "completing '$*' printed errors: $(cat "$TMP/comp.err")"
	sort -u "$TMP/comp.out"
}

# compare WHAT PROGRAM_LIST COMPLETION_LIST: fail naming what one list has
# and the other has not
compare() {
	_missing=$(comm -23 "$2" "$3" | tr '\n' ' ')
	_extra=$(comm -13 "$2" "$3" | tr '\n' ' ')
	[ -z "$_missing" ] ||
		fail "the program has $1 the completion does not offer: ${_missing}(add them to completion/stalltop)"
	[ -z "$_extra" ] ||
		fail "the completion offers $1 the program does not have: $_extra"
}

LC_ALL=C LANGUAGE= "$STALLTOP" --help >"$TMP/help" ||
	fail "stalltop --help failed"

# --- long options ---
grep -oE -- '(^|[^a-z0-9-])--[a-z][a-z0-9-]*' "$TMP/help" |
	sed 's/^[^-]*//' | sort -u >"$TMP/help.opts"
[ "$(wc -l <"$TMP/help.opts")" -ge 20 ] ||
	hard_error "found only $(wc -l <"$TMP/help.opts") options in --help: $(tr '\n' ' ' <"$TMP/help.opts")"
comp -- >"$TMP/comp.opts"
compare options "$TMP/help.opts" "$TMP/comp.opts"
comp --so >"$TMP/so"
[ "$(cat "$TMP/so")" = --sort ] || fail "completing --so gives '$(cat "$TMP/so")', not --sort"

# --- sort keys and formats: the words of --help the program accepts ---
tr -cs 'a-z0-9_' '\n' <"$TMP/help" | grep -E '^[a-z]' | sort -u >"$TMP/words"
: >"$TMP/help.keys"
: >"$TMP/help.formats"
while read -r w; do
	if "$STALLTOP" -s "$w" -V >/dev/null 2>&1; then
		echo "$w" >>"$TMP/help.keys"
	fi
	if "$STALLTOP" --format "$w" -V >/dev/null 2>&1; then
		echo "$w" >>"$TMP/help.formats"
	fi
done <"$TMP/words"
grep -qx total "$TMP/help.keys" && grep -qx io "$TMP/help.keys" ||
	hard_error "the sort keys found in --help lack total or io: $(tr '\n' ' ' <"$TMP/help.keys")"
grep -qx json "$TMP/help.formats" ||
	hard_error "the formats found in --help lack json: $(tr '\n' ' ' <"$TMP/help.formats")"

comp --sort '' >"$TMP/comp.keys"
compare "sort keys (--sort)" "$TMP/help.keys" "$TMP/comp.keys"
comp -s '' >"$TMP/comp.s"
cmp -s "$TMP/comp.keys" "$TMP/comp.s" || fail "-s completes otherwise than --sort"
comp --sort = '' >"$TMP/comp.eq"
cmp -s "$TMP/comp.keys" "$TMP/comp.eq" || fail "--sort= completes otherwise than --sort"
# and each offered key is one the program takes
while read -r k; do
	"$STALLTOP" -s "$k" -V >/dev/null 2>&1 ||
		fail "the completion offers the sort key '$k', which stalltop rejects"
done <"$TMP/comp.keys"

comp --format '' >"$TMP/comp.formats"
compare "formats (--format)" "$TMP/help.formats" "$TMP/comp.formats"
comp --format j >"$TMP/j"
[ "$(cat "$TMP/j")" = json ] || fail "completing --format j gives '$(cat "$TMP/j")', not json"

# --- options naming a file or directory complete file names ---
mkdir "$TMP/files" "$TMP/files/night" && : >"$TMP/files/a.ndjson.gz" ||
	hard_error "cannot make the files to complete"
for o in --record --replay --textfile; do
	grep -qx -- "$o" "$TMP/help.opts" || continue
	(cd "$TMP/files" && comp "$o" '') >"$TMP/comp.files"
	grep -qx a.ndjson.gz "$TMP/comp.files" && grep -qx night "$TMP/comp.files" ||
		fail "$o '' does not complete file and directory names: $(tr '\n' ' ' <"$TMP/comp.files")"
done

# --- --cgroup completes the paths below the cgroup v2 root ---
cgroot=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
if [ -z "$cgroot" ]; then
	note "no cgroup v2 hierarchy: --cgroup's completion not checked"
elif [ "$(id -u)" -ne 0 ]; then
	skip_part "making cgroups to complete needs root"
else
	cg="/stalltop-completion.$$"
	cg_make "$cgroot$cg" "$cgroot$cg/child"
	comp --cgroup "${cg%?}" >"$TMP/comp.cg"
	grep -qxF "$cg/" "$TMP/comp.cg" ||
		fail "--cgroup ${cg%?} does not complete $cg/: $(tr '\n' ' ' <"$TMP/comp.cg")"
	comp --cgroup "$cg/" >"$TMP/comp.cg"
	[ "$(cat "$TMP/comp.cg")" = "$cg/child/" ] ||
		fail "--cgroup $cg/ completes '$(cat "$TMP/comp.cg")', not '$cg/child/'"
	comp --cgroup "${cg#/}/" >"$TMP/comp.cg"
	[ "$(cat "$TMP/comp.cg")" = "$cg/child/" ] ||
		fail "--cgroup ${cg#/}/ completes '$(cat "$TMP/comp.cg")', not '$cg/child/'"
fi

note "options: $(wc -l <"$TMP/help.opts"), sort keys: $(tr '\n' ' ' <"$TMP/help.keys")formats: $(tr '\n' ' ' <"$TMP/help.formats")"
