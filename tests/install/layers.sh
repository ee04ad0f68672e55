#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The layers hold (HACKING, Rules of the house): each folder of src/
# includes only from the layers below it, and no file of src/model does
# I/O. A folder's allowed includes:
#
#   lib     lib
#   kernel  lib kernel
#   live    lib kernel store model live
#   store   lib kernel store
#   model   lib kernel store model
#   record  lib kernel store model record
#   view    lib store model record view
#   src/*   anything (main)
#
# An include without a folder names the including file's folder when the
# header is there, else src/ (main); "config.h" and system headers are
# not checked. I/O in src/model is a call of open, openat, fopen, fdopen,
# read, pread, readlink(at), opendir, fdopendir, readdir, socket, ioctl,
# any mnl_ function, or a function whose name says it reads, opens,
# queries or scans (x_read, x_open_dir, x_query, ...).
#
# tests/install/layers.allow lists the known violations, each with its
# reason; any other violation fails, and so does a listed one that no
# longer occurs (the list only shrinks). The failure names file, line
# and what it includes or calls.

. "$top_srcdir/tests/lib/functions.sh"
need_cmd awk grep sed sort find

cd "$top_srcdir" || hard_error "cannot enter $top_srcdir"
allow=tests/install/layers.allow
[ -r "$allow" ] || hard_error "cannot read $allow"

# allowed LAYER: the layers LAYER may include from (as the table above)
allowed() {
	case "$1" in
	lib) echo lib ;;
	kernel) echo lib kernel ;;
	live) echo lib kernel store model live ;;
	store) echo lib kernel store ;;
	model) echo lib kernel store model ;;
	record) echo lib kernel store model record ;;
	view) echo lib store model record view ;;
	esac
}

# may FROM TO: whether layer FROM may include from layer TO
may() {
	[ "$1" = main ] && return 0
	for l in $(allowed "$1"); do
		[ "$l" = "$2" ] && return 0
	done
	return 1
}

# every violation as "KEY<TAB>file:line: detail", KEY as the allow-list has it
: >"$TMP/found"
files=$(find src -name '*.[ch]' | sort)
[ -n "$files" ] || hard_error "no sources under src/"
nfiles=0 nincl=0
for f in $files; do
	nfiles=$((nfiles + 1))
	dir=${f%/*}
	case "$dir" in
	src) from=main ;;
	src/*/*) hard_error "$f: sources are one folder deep under src/" ;;
	src/*) from=${dir#src/} ;;
	esac
	# "LINE HEADER" of each #include "..."
	awk '/^[ \t]*#[ \t]*include[ \t]*"/ {
		h = $0; sub(/^[^"]*"/, "", h); sub(/".*/, "", h); print FNR, h
	}' "$f" >"$TMP/incl" || hard_error "cannot read $f"
	while read -r line h; do
		nincl=$((nincl + 1))
		case "$h" in
		*/*) to=${h%%/*} ;;
		*)
			if [ -e "$dir/$h" ]; then
				to=$from
			elif [ -e "src/$h" ]; then
				to=main
			else
				continue # config.h, generated
			fi ;;
		esac
		may "$from" "$to" && continue
		why="$from may include only $(allowed "$from")"
		[ -n "$(allowed "$from")" ] ||
			why="src/$from is no layer the rules at the top of this test know"
		printf '%s includes %s\t%s:%s: %s (%s)\n' "$f" "$h" "$f" "$line" \
			"#include \"$h\"" "$why" >>"$TMP/found"
	done <"$TMP/incl"
done
[ "$nincl" -gt 100 ] || fail "found only $nincl includes in $nfiles files: the search is broken"

io='(^|[^A-Za-z0-9_>.])(open|openat|fopen|fdopen|read|pread|readlinkat|readlink|opendir|fdopendir|readdir|socket|ioctl|mnl_[a-z0-9_]+|[a-z][a-z0-9_]*_(read|open|query|scan)(_[a-z0-9_]+)?)[[:space:]]*\('
for f in $(find src/model -name '*.c' | sort); do
	# calls are indented (definitions are not); comments and string
	# literals emptied
	sed -e 's|/\*.*\*/||g' -e 's|//.*||' -e 's/^[[:space:]]*\*.*//' \
		-e 's|^[[:space:]]*/\*.*||' -e 's/"\([^"\\]\|\\.\)*"/""/g' \
		-e 's/^[^[:space:]].*//' "$f" |
		grep -nE "$io" | while IFS=: read -r line text; do
		call=$(printf '%s\n' "$text" | grep -oE "$io" | head -1 |
			sed -E 's/^[^A-Za-z_]*//; s/[[:space:]]*\($//')
		printf '%s does I/O\t%s:%s: %s() (src/model does no I/O)\n' \
			"$f" "$f" "$line" "$call" >>"$TMP/found"
	done
done

# the allow-list: "KEY: reason" lines, # comments and blank lines aside
sed -e '/^[[:space:]]*#/d' -e '/^[[:space:]]*$/d' "$allow" >"$TMP/allowed"
bad=$(grep -v -E '^src/[^ ]+ (includes [^ :]+|does I/O): [^[:space:]]' "$TMP/allowed")
[ -z "$bad" ] || fail "lines of $allow not of the form 'FILE includes HEADER: reason' or 'FILE does I/O: reason': $bad"
sed 's/: .*//' "$TMP/allowed" | sort >"$TMP/allowed.keys"
dup=$(uniq -d "$TMP/allowed.keys")
[ -z "$dup" ] || fail "listed twice in $allow: $dup"

cut -f1 "$TMP/found" | sort -u >"$TMP/found.keys"
status=0
new=$(comm -23 "$TMP/found.keys" "$TMP/allowed.keys")
if [ -n "$new" ]; then
	echo "$new" | while IFS= read -r key; do
		grep -F "$key	" "$TMP/found" | cut -f2- | sed 's/^/layer violation: /'
	done >&2
	status=1
fi
gone=$(comm -13 "$TMP/found.keys" "$TMP/allowed.keys")
if [ -n "$gone" ]; then
	echo "$gone" | sed "s|^|no longer occurs, remove it from $allow: |" >&2
	status=1
fi
[ "$status" = 0 ] ||
	fail "the layers do not hold (above); see the rules at the top of tests/install/layers.sh"
note "$nfiles files, $nincl includes; $(wc -l <"$TMP/allowed.keys") known violations listed in $allow"
exit 0
